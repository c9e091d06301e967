"""Two real API processes (uvicorn on loopback ports) on one PostgreSQL: a thread started on
one is listed and resumed on the other, the way several API workers behind a load balancer
serve the same users. Skipped without ``ZHICE_TEST_DATABASE_URL`` (CI sets it: .ci/run sources
.ci/services.sh)."""

from __future__ import annotations

import os
import socket
import subprocess
import time

import pytest

from core import config
from tests.contracts.backends import PYTHON, REPO, child_env
from tests.support.postgres import postgres_server_url, postgres_url  # noqa: F401 - fixtures

pytestmark = pytest.mark.postgres
KG_Q = "青浦-区图书馆2026年3月的考勤"
PASSWORD = "api-test-pass-9x"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(httpx, base: str, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"API process exited with {proc.returncode}: {proc.stderr.read()[-2000:]}")
        try:
            if httpx.get(base + "/v1/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"API process at {base} did not become healthy in {timeout:.0f} s")


@pytest.fixture
def two_servers(postgres_url, workspace, monkeypatch):  # noqa: F811 - fixture from tests.support.postgres
    import httpx

    from core.services.users import add_user, issue_api_token
    from core.storage.checkpoint import reset_checkpointers
    from core.storage.db import reset_db_cache

    monkeypatch.setenv("ZHICE_DATABASE_URL", postgres_url)
    monkeypatch.setenv("ZHICE_API_RATE_PER_MIN", "0")
    config.set_settings(None)
    reset_db_cache()
    reset_checkpointers()
    tokens = {}
    for name in ("manager_a", "staff_a"):
        add_user(name, "manager", PASSWORD, tenants=["demo"])
        tokens[name] = issue_api_token(name)["token"]
    env = child_env()
    env["ZHICE_HOME"] = str(workspace.parent / "api-processes")  # nothing but PostgreSQL is shared
    procs, bases = [], []
    try:
        for i in range(2):
            port = _free_port()
            run_env = {**env, "ZHICE_HOME": env["ZHICE_HOME"] + str(i)}
            procs.append(subprocess.Popen([PYTHON, "-m", "tests.support.api_server", str(port)], cwd=str(REPO),
                                          env=run_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
            bases.append(f"http://127.0.0.1:{port}")
        for proc, base in zip(procs, bases):
            _wait_healthy(httpx, base, proc)
        yield bases, tokens
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        reset_checkpointers()
        reset_db_cache()


def test_a_thread_started_on_one_process_is_resumed_on_the_other(two_servers):
    import httpx

    (a, b), tokens = two_servers
    h = {"Authorization": f"Bearer {tokens['manager_a']}"}
    r = httpx.post(a + "/v1/ask/kg", json={"question": KG_Q}, headers=h, timeout=60)
    assert r.status_code == 200, r.text
    first = r.json()
    tid = first["thread"]
    assert first["need_confirm"]["kind"] == "slots"

    hist = httpx.get(f"{b}/v1/threads/{tid}/history", params={"kind": "kg"}, headers=h, timeout=60).json()
    assert hist["need_confirm"]["kind"] == "slots"
    r = httpx.post(f"{b}/v1/threads/{tid}/resume", json={"kind": "kg", "reply": "确认"}, headers=h, timeout=60).json()
    assert r["need_confirm"]["kind"] == "plan" and r["thread"] == tid

    # back on the first process, streaming: the plan is confirmed and the answer arrives
    events = []
    with httpx.stream("POST", f"{a}/v1/threads/{tid}/resume/stream", json={"reply": "确认"}, headers=h,
                      timeout=60) as s:
        assert s.status_code == 200
        for line in s.iter_lines():
            if line.startswith("event: "):
                events.append(line[7:])
    assert "node" in events and events[-1] == "done"
    hist = httpx.get(f"{b}/v1/threads/{tid}/history", params={"kind": "kg"}, headers=h, timeout=60).json()
    assert len(hist["turns"]) == 1 and "甲（K1）" in hist["turns"][0]["answer"] and hist["need_confirm"] is None

    # the thread is still private on either process
    other = {"Authorization": f"Bearer {tokens['staff_a']}"}
    for base in (a, b):
        assert httpx.get(f"{base}/v1/threads/{tid}/history", params={"kind": "kg"}, headers=other,
                         timeout=60).status_code == 404
    # a token revoked through one database is refused by both processes at once
    from core.services.users import revoke_api_tokens

    revoke_api_tokens("manager_a")
    for base in (a, b):
        assert httpx.get(f"{base}/v1/threads/{tid}/history", params={"kind": "kg"}, headers=h,
                         timeout=60).status_code == 401
