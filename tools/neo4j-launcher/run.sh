#!/usr/bin/env bash
# Run the test-support Neo4j launcher built by `mvn -q -B package` in this folder.
# Arguments pass through to the launcher:
#   --data DIR   store directory (default: a fresh temp directory)
#   --no-stdin   wait for SIGTERM/SIGINT only (default: also stop when stdin closes)
# Prints BOLT_URI=bolt://127.0.0.1:PORT on stdout once Bolt accepts connections.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -d "$here/target/lib" || ! -d "$here/target/classes" ]]; then
    echo "neo4j-launcher: not built; run 'mvn -q -B package' in $here first" >&2
    exit 3
fi
exec java ${NEO4J_LAUNCHER_JAVA_OPTS:--Xms256m -Xmx1g -XX:+UseSerialGC} \
    -cp "$here/target/classes:$here/target/lib/*" zhice.neo4jlauncher.Launcher "$@"
