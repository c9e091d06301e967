"""The dashboard in a real browser: headless Chromium (Debian's package) driven by Playwright
against `streamlit run app.py` on loopback. CI installs Chromium; without it these are skipped."""

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

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed (CI installs it)")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    home = tmp_path_factory.mktemp("e2e") / "workspace"
    env = {**os.environ, "ZHICE_HOME": str(home)}
    env.pop("ZHICE_LLM_API_KEY", None)
    subprocess.run([sys.executable, "-m", "core.cli", "users", "add", "e2e_admin", "--role", "admin",
                    "--password-stdin"], input="e2e-pass-2026\n", text=True, env=env, cwd=REPO, check=True)
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
    yield url
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


def test_login_then_status_page(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(server, wait_until="networkidle")
    page.get_by_label("用户名").fill("e2e_admin")
    page.get_by_label("密码").fill("e2e-pass-2026")
    page.get_by_role("button", name="登录").click()
    page.get_by_text("离线规则模式").first.wait_for(timeout=60_000)
    page.get_by_role("link", name="设置与状态").click()
    page.get_by_role("heading", name="设置与状态").wait_for(timeout=60_000)
    page.get_by_text("应用数据库").first.wait_for(state="attached", timeout=60_000)  # grid cells are canvas-drawn
    shots = Path(os.environ.get("ZHICE_E2E_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "status.png"), full_page=True)
    assert (shots / "status.png").stat().st_size > 10_000
    html = page.content()
    assert "SQLite" in html and "离线规则模式" in html


def test_wrong_password_shows_error(server, browser):
    page = browser.new_page()
    page.goto(server, wait_until="networkidle")
    page.get_by_label("用户名").fill("e2e_admin")
    page.get_by_label("密码").fill("not-the-password")
    page.get_by_role("button", name="登录").click()
    page.get_by_text("用户名或密码错误").wait_for(timeout=30_000)
