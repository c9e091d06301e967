"""Browser-test fixtures: `streamlit run app.py` on loopback over a fresh workspace (with an
administrator ``e2e_admin``), and headless Chromium (Debian's package) driven by Playwright."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ADMIN, ADMIN_PASSWORD = "e2e_admin", "e2e-pass-2026"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory, model_cache):
    """``(url, workspace)`` of a dashboard served for this module."""
    home = tmp_path_factory.mktemp("e2e") / "workspace"
    env = {**os.environ, "ZHICE_HOME": str(home), "ZHICE_MODEL_CACHE": str(model_cache)}
    env.pop("ZHICE_LLM_API_KEY", None)
    subprocess.run([sys.executable, "-m", "core.cli", "users", "add", ADMIN, "--role", "admin", "--password-stdin"],
                   input=ADMIN_PASSWORD + "\n", text=True, env=env, cwd=REPO, check=True)
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
                             "--server.address", "127.0.0.1", "--server.headless", "true"],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=2)
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"streamlit exited: {proc.stdout.read()}")
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("streamlit did not become healthy in 90 s")
    yield url, home
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


def sign_in(page, url: str) -> None:
    page.goto(url, wait_until="networkidle")
    page.get_by_label("用户名").fill(ADMIN)
    page.get_by_label("密码").fill(ADMIN_PASSWORD)
    page.get_by_role("button", name="登录").click()
