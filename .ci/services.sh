# shellcheck shell=bash
# Test services for CI: a real PostgreSQL (Debian's package, loopback only) and a real Neo4j 5
# (tools/neo4j-launcher, in-process server from Maven Central artifacts).
#
# Usage (from .ci/run, before pytest):   source .ci/services.sh   [ci_services_start]
# Sourcing starts both services (ci_services_start / ci_services_stop are idempotent aliases),
# exports
#   ZHICE_TEST_POSTGRES=1  ZHICE_TEST_DATABASE_URL=postgresql://...
#   ZHICE_TEST_NEO4J=1     ZHICE_TEST_NEO4J_URI=bolt://127.0.0.1:PORT
# and stops what it started when the sourcing shell exits (chained onto any EXIT trap).
# Idempotent: packages already installed, a cluster already running and an up-to-date
# launcher build are reused. Maven uses its default local repository (~/.m2), so artifacts
# download once per machine. A service that cannot start is an error, never a skip.
#
# Also usable as a command:  bash .ci/services.sh {postgres|neo4j-build|start|stop}

_zs_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_zs_launcher="$_zs_repo/tools/neo4j-launcher"
_zs_state="${ZHICE_SERVICES_STATE:-${TMPDIR:-/tmp}/zhice-ci-services}"
ZHICE_PG_USER="${ZHICE_PG_USER:-zhice}"
ZHICE_PG_PASSWORD="${ZHICE_PG_PASSWORD:-zhice-test}"
ZHICE_PG_DB="${ZHICE_PG_DB:-zhice_test}"

_zs_log() { printf '[services %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# ---- PostgreSQL ------------------------------------------------------------------------
zhice_pg_install() {
    if ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && command -v pg_lsclusters >/dev/null; then
        return 0
    fi
    _zs_log "installing Debian package postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq postgresql >/dev/null || return 1
}

zhice_pg_start() {
    local t0=$SECONDS ver cluster port status
    zhice_pg_install || { _zs_log "ERROR: postgresql could not be installed"; return 1; }
    ver="$(ls /usr/lib/postgresql | sort -V | tail -1)"
    if [[ -z "$(pg_lsclusters -h | awk -v v="$ver" '$1==v')" ]]; then
        _zs_log "creating cluster $ver/main"
        pg_createcluster "$ver" main >/dev/null || return 1
    fi
    read -r ver cluster port status _ < <(pg_lsclusters -h | awk -v v="$ver" '$1==v' | head -1)
    mkdir -p "$_zs_state"
    if [[ "$status" != online* ]]; then
        # loopback only (the Debian default is 'localhost'; pin it without editing the config)
        pg_ctlcluster "$ver" "$cluster" start -- -o "-c listen_addresses=127.0.0.1" || { _zs_log "ERROR: postgresql $ver/$cluster did not start"; return 1; }
        echo "$ver $cluster" > "$_zs_state/pg_started_by_us"
    fi
    local psql=(runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 -p "$port" -d postgres)
    "${psql[@]}" -c "DO \$\$BEGIN
        IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ZHICE_PG_USER') THEN
            CREATE ROLE $ZHICE_PG_USER LOGIN PASSWORD '$ZHICE_PG_PASSWORD';
        ELSE
            ALTER ROLE $ZHICE_PG_USER LOGIN PASSWORD '$ZHICE_PG_PASSWORD';
        END IF; END\$\$;" || return 1
    if [[ "$("${psql[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = '$ZHICE_PG_DB'")" != 1 ]]; then
        "${psql[@]}" -c "CREATE DATABASE $ZHICE_PG_DB OWNER $ZHICE_PG_USER" || return 1
    fi
    export ZHICE_TEST_DATABASE_URL="postgresql://$ZHICE_PG_USER:$ZHICE_PG_PASSWORD@127.0.0.1:$port/$ZHICE_PG_DB"
    export ZHICE_TEST_POSTGRES=1
    _zs_log "postgresql $ver ready on 127.0.0.1:$port (db $ZHICE_PG_DB) in $((SECONDS - t0)) s"
}

zhice_pg_stop() {
    if [[ -f "$_zs_state/pg_started_by_us" ]]; then
        local ver cluster
        read -r ver cluster < "$_zs_state/pg_started_by_us"
        pg_ctlcluster "$ver" "$cluster" stop >/dev/null 2>&1 || true
        rm -f "$_zs_state/pg_started_by_us"
        _zs_log "postgresql $ver/$cluster stopped"
    fi
}

# ---- Neo4j -----------------------------------------------------------------------------
zhice_neo4j_build() {
    local t0=$SECONDS stamp="$_zs_launcher/target/.built"
    if [[ -f "$stamp" && -z "$(find "$_zs_launcher/pom.xml" "$_zs_launcher/src" -newer "$stamp" -print -quit)" ]]; then
        return 0
    fi
    command -v mvn >/dev/null || { _zs_log "ERROR: mvn not found (needs Maven 3 and Java 17)"; return 1; }
    _zs_log "building tools/neo4j-launcher (mvn -q -B package)"
    (cd "$_zs_launcher" && mvn -q -B package) || { _zs_log "ERROR: neo4j launcher build failed"; return 1; }
    touch "$stamp"
    _zs_log "neo4j launcher built in $((SECONDS - t0)) s"
}

zhice_neo4j_start() {
    local t0=$SECONDS out pid uri=""
    if [[ -n "${ZHICE_TEST_NEO4J_URI:-}" && -f "$_zs_state/neo4j.pid" ]] && kill -0 "$(cat "$_zs_state/neo4j.pid")" 2>/dev/null; then
        return 0  # already started by this shell
    fi
    zhice_neo4j_build || return 1
    mkdir -p "$_zs_state"
    out="$_zs_state/neo4j.out"
    : > "$out"
    "$_zs_launcher/run.sh" --no-stdin > "$out" 2> "$_zs_state/neo4j.err" < /dev/null &
    pid=$!
    echo "$pid" > "$_zs_state/neo4j.pid"
    for _ in $(seq 1 180); do
        uri="$(sed -n 's/^BOLT_URI=//p' "$out")"
        [[ -n "$uri" ]] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 1
    done
    if [[ -z "$uri" ]]; then
        _zs_log "ERROR: neo4j launcher did not report a Bolt URI; its log:"
        tail -n 40 "$_zs_state/neo4j.err" >&2
        zhice_neo4j_stop
        return 1
    fi
    export ZHICE_TEST_NEO4J_URI="$uri"
    export ZHICE_TEST_NEO4J=1
    _zs_log "neo4j ready at $uri (pid $pid) in $((SECONDS - t0)) s"
}

zhice_neo4j_stop() {
    local pid
    [[ -f "$_zs_state/neo4j.pid" ]] || return 0
    pid="$(cat "$_zs_state/neo4j.pid")"
    rm -f "$_zs_state/neo4j.pid"
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
        if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
        wait "$pid" 2>/dev/null || true
        _zs_log "neo4j stopped"
    fi
}

# ---- both ------------------------------------------------------------------------------
zhice_services_stop() {
    zhice_neo4j_stop
    zhice_pg_stop
}

zhice_services_start() {
    zhice_pg_start || return 1
    zhice_neo4j_start || return 1
}

# the names .ci/run calls (idempotent: sourcing already started the services)
ci_services_start() { zhice_services_start; }
ci_services_stop() { zhice_services_stop; }

if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then
    # sourced: start now, stop when the sourcing shell exits (keeping any existing EXIT trap)
    _zs_prev_trap="$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")"
    trap "zhice_services_stop; ${_zs_prev_trap:-:}" EXIT
    zhice_services_start || { _zs_log "ERROR: test services failed to start"; return 1 2>/dev/null || exit 1; }
else
    case "${1:-start}" in
        postgres) zhice_pg_start && echo "ZHICE_TEST_DATABASE_URL=$ZHICE_TEST_DATABASE_URL" ;;
        neo4j-build) zhice_neo4j_build ;;
        start) zhice_pg_start && echo "ZHICE_TEST_DATABASE_URL=$ZHICE_TEST_DATABASE_URL" ;;
        stop) zhice_services_stop ;;
        *) echo "usage: $0 {postgres|neo4j-build|start|stop}" >&2; exit 2 ;;
    esac
fi
