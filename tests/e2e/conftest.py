"""Browser-test fixtures: `streamlit run app.py` on loopback over a fresh workspace (with an
administrator ``e2e_admin``) or over one shared demo workspace, and headless Chromium (Debian's
package) driven by Playwright."""

from __future__ import annotations

import contextlib
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
GUEST, GUEST_PASSWORD = "e2e_guest", "guest-pass-2026"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def workspace_env(home: Path, model_cache: Path) -> dict:
    env = {**os.environ, "ZHICE_HOME": str(home), "ZHICE_MODEL_CACHE": str(model_cache)}
    env.pop("ZHICE_LLM_API_KEY", None)
    return env


def add_user(env: dict, name: str, role: str, password: str, *tenant: str) -> None:
    """A workspace user created through core (the CLI), as an administrator would."""
    extra = ["--tenant", tenant[0]] if tenant else []
    subprocess.run([sys.executable, "-m", "core.cli", "users", "add", name, "--role", role, *extra,
                    "--password-stdin"], input=password + "\n", text=True, env=env, cwd=REPO, check=True)


@contextlib.contextmanager
def serve(home: Path, model_cache: Path):
    """``streamlit run app.py`` on a free loopback port over ``home``; yields its URL."""
    env = workspace_env(home, model_cache)
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
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory, model_cache):
    """``(url, workspace)`` of a dashboard served for this module over an empty workspace with
    one administrator, ``e2e_admin``."""
    home = tmp_path_factory.mktemp("e2e") / "workspace"
    add_user(workspace_env(home, model_cache), ADMIN, "admin", ADMIN_PASSWORD)
    with serve(home, model_cache) as url:
        yield url, home


@pytest.fixture(scope="session")
def demo_site(tmp_path_factory, model_cache):
    """``(url, workspace)`` of one dashboard over a workspace with the demo loaded (``python -m
    core.cli demo``, ~60 s with OCR), shared by every browser module that needs demo data;
    ``e2e_admin`` and the guest ``e2e_guest`` (tenant demo) can sign in."""
    home = tmp_path_factory.mktemp("e2e-demo") / "workspace"
    env = workspace_env(home, model_cache)
    add_user(env, ADMIN, "admin", ADMIN_PASSWORD)
    done = subprocess.run([sys.executable, "-m", "core.cli", "demo"], env=env, cwd=REPO, timeout=900,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    add_user(env, GUEST, "guest", GUEST_PASSWORD, "demo")
    with serve(home, model_cache) as url:
        yield url, home


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


def settle(page) -> None:
    """Wait until Streamlit has finished the current run."""
    page.wait_for_timeout(300)
    page.locator("[data-testid='stStatusWidget']").wait_for(state="detached", timeout=120_000)


def name_box(page):
    """The visible 用户名 box: while Streamlit swaps pages, a stale hidden copy of the form can
    still be in the DOM next to the new one."""
    return page.locator("input[aria-label='用户名']:visible").first


def sign_in_as(page, url: str, name: str, password: str) -> None:
    """Sign in and wait until the landing page has finished its run: a click on a page link
    while that run is still going can be lost to it."""
    page.goto(url, wait_until="networkidle")
    name_box(page).fill(name)
    page.get_by_label("密码", exact=True).fill(password)
    page.get_by_role("button", name="登录").click()
    page.get_by_role("button", name="退出登录").wait_for(timeout=60_000)
    settle(page)


def sign_in(page, url: str) -> None:
    sign_in_as(page, url, ADMIN, ADMIN_PASSWORD)


def open_page(page, title: str, timeout: int = 120_000) -> None:
    """Click the sidebar link ``title`` and wait for that page's heading. A click that lands
    while Streamlit is still finishing a run can be dropped (seen on a busy CI machine: the
    heading never came); then the link is clicked once more before the test fails, and the
    failure says what the screen showed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    link, heading = page.get_by_role("link", name=title), page.get_by_role("heading", name=title)
    link.click()
    try:
        heading.wait_for(timeout=30_000)
        return
    except PlaywrightTimeout:
        settle(page)
        link.click()
    try:
        heading.wait_for(timeout=timeout)
    except PlaywrightTimeout:
        pytest.fail(f"the page {title} did not open after two clicks; the screen showed:\n"
                    f"{page.locator('body').inner_text()[:1500]}")


def open_first_citation(page) -> dict:
    """Click the first 查看原文 and wait for the dialog's highlighted page image; returns the
    image's bounding box (the highlight must open large, in the main area)."""
    page.get_by_role("button", name="查看原文").first.click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_text("引用位置").first.wait_for(timeout=120_000)
    image = dialog.locator("img").first
    image.wait_for(timeout=60_000)
    return image.bounding_box()
