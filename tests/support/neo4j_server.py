"""A real Neo4j 5 for tests.

``ZHICE_TEST_NEO4J_URI`` attaches to a running server (``.ci/services.sh`` starts one and
exports it). With ``ZHICE_TEST_NEO4J=1`` and no URI, the session fixture builds (if needed) and
starts ``tools/neo4j-launcher`` itself: an in-process Neo4j 5 with Bolt on a free loopback
port, stopped at the end of the session by closing its stdin. With ``ZHICE_TEST_NEO4J=1`` a
server that cannot be reached or started FAILS the tests; without the flag they are skipped.

Community edition has one database, so :func:`wipe` (used by ``neo4j_uri``) removes every
node and relationship between tests (``neo4j_empty_uri``: constraints and indexes too).
"""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "tools" / "neo4j-launcher"
_TRUE = {"1", "true", "yes", "on"}
START_TIMEOUT_S = 180


def neo4j_required() -> bool:
    return os.environ.get("ZHICE_TEST_NEO4J", "").strip().lower() in _TRUE


def _unavailable(reason: str):
    if neo4j_required():
        pytest.fail(f"ZHICE_TEST_NEO4J=1 but Neo4j is not usable: {reason}", pytrace=False)
    pytest.skip(f"Neo4j not configured ({reason}); set ZHICE_TEST_NEO4J=1 or ZHICE_TEST_NEO4J_URI")


def build_launcher() -> None:
    """``mvn -q -B package`` unless the build is present and newer than its sources."""
    stamp = LAUNCHER / "target" / ".built"
    sources = [LAUNCHER / "pom.xml", *(LAUNCHER / "src").rglob("*")]
    if stamp.is_file() and all(p.stat().st_mtime <= stamp.stat().st_mtime for p in sources):
        return
    proc = subprocess.run(["mvn", "-q", "-B", "package"], cwd=LAUNCHER, capture_output=True, text=True,
                          timeout=1200)
    if proc.returncode != 0:
        raise RuntimeError(f"neo4j launcher build failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    stamp.touch()


class LauncherProcess:
    """The launcher as a child process; ``stop()`` closes its stdin and waits."""

    def __init__(self, data_dir: Path | None = None):
        args = [str(LAUNCHER / "run.sh")]
        if data_dir is not None:
            args += ["--data", str(data_dir)]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.stderr_tail: list[str] = []
        threading.Thread(target=self._pump_stdout, daemon=True).start()
        threading.Thread(target=self._pump_stderr, daemon=True).start()
        self.uri = self._wait_for_uri()

    def _pump_stdout(self):
        for line in self.proc.stdout:
            self._lines.put(line.strip())
        self._lines.put(None)

    def _pump_stderr(self):
        for line in self.proc.stderr:
            self.stderr_tail = (self.stderr_tail + [line.rstrip()])[-40:]

    def _wait_for_uri(self) -> str:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                line = self._lines.get(timeout=1)
            except queue.Empty:
                continue
            if line is None:
                break
            if line.startswith("BOLT_URI="):
                return line.split("=", 1)[1]
        self.stop()
        raise RuntimeError("neo4j launcher gave no BOLT_URI; stderr:\n" + "\n".join(self.stderr_tail))

    def stop(self, timeout: float = 60) -> None:
        if self.proc.poll() is not None:
            return
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=timeout)
        except Exception:  # noqa: BLE001
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def _check(uri: str) -> str:
    import neo4j

    driver = neo4j.GraphDatabase.driver(uri, auth=_auth())
    try:
        driver.verify_connectivity()
        records, _, _ = driver.execute_query("CALL dbms.components() YIELD versions RETURN versions[0] AS v")
        version = records[0]["v"]
    finally:
        driver.close()
    if int(version.split(".")[0]) < 5:
        raise RuntimeError(f"Neo4j {version} is too old (5.11+ needed)")
    print(f"[neo4j] server {version} at {uri}")
    return uri


def _auth():
    password = os.environ.get("ZHICE_TEST_NEO4J_PASSWORD", "")
    return (os.environ.get("ZHICE_TEST_NEO4J_USER", "neo4j"), password) if password else None


@pytest.fixture(scope="session")
def neo4j_server(tmp_path_factory):
    """The Bolt URI of a live Neo4j 5 (session-scoped)."""
    uri = os.environ.get("ZHICE_TEST_NEO4J_URI", "").strip()
    if uri:
        try:
            _check(uri)
        except Exception as exc:  # noqa: BLE001
            _unavailable(f"cannot connect to {uri}: {exc}")
        yield uri
        return
    if not neo4j_required():
        _unavailable("ZHICE_TEST_NEO4J is not set")
    started = None
    try:
        t0 = time.monotonic()
        build_launcher()
        t1 = time.monotonic()
        started = LauncherProcess(tmp_path_factory.mktemp("neo4j"))
        print(f"[neo4j] launcher build check {t1 - t0:.1f} s, server start {time.monotonic() - t1:.1f} s")
        _check(started.uri)
    except Exception as exc:  # noqa: BLE001
        if started is not None:
            started.stop()
        _unavailable(f"the launcher could not start a server: {exc}")
    try:
        yield started.uri
    finally:
        started.stop()


def wipe(uri: str, *, schema: bool = False) -> None:
    """Remove all nodes and relationships; with ``schema=True`` also every constraint and
    index (community edition has one database, so tests share it)."""
    import neo4j

    driver = neo4j.GraphDatabase.driver(uri, auth=_auth())
    try:
        with driver.session() as session:  # CALL {} IN TRANSACTIONS needs an auto-commit query
            session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()
            if schema:
                for rec in session.run("SHOW CONSTRAINTS YIELD name").data():
                    session.run(f"DROP CONSTRAINT `{rec['name']}` IF EXISTS").consume()
                for rec in session.run("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP'").data():
                    session.run(f"DROP INDEX `{rec['name']}` IF EXISTS").consume()
    finally:
        driver.close()


@pytest.fixture
def neo4j_uri(neo4j_server) -> str:
    """The live server with no data (constraints and indexes from earlier tests are kept:
    creating them is idempotent, and re-creating them per test would dominate the run time)."""
    wipe(neo4j_server)
    return neo4j_server


@pytest.fixture
def neo4j_empty_uri(neo4j_server) -> str:
    """The live server with no data, constraints or indexes at all."""
    wipe(neo4j_server, schema=True)
    return neo4j_server
