"""The dashboard in a real browser: headless Chromium (Debian's package) driven by Playwright
against `streamlit run app.py` on loopback. CI installs Chromium; without it these are skipped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, open_page, sign_in

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed (CI installs it)")]


def test_login_then_status_page(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    sign_in(page, server[0])
    page.get_by_text("离线规则模式").first.wait_for(timeout=60_000)
    open_page(page, "设置与状态")
    page.get_by_text("应用数据库").first.wait_for(state="attached", timeout=60_000)  # grid cells are canvas-drawn
    shots = Path(os.environ.get("ZHICE_E2E_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "status.png"), full_page=True)
    assert (shots / "status.png").stat().st_size > 10_000
    html = page.content()
    assert "SQLite" in html and "离线规则模式" in html


def test_wrong_password_shows_error(server, browser):
    page = browser.new_page()
    page.goto(server[0], wait_until="networkidle")
    page.get_by_label("用户名").fill("e2e_admin")
    page.get_by_label("密码").fill("not-the-password")
    page.get_by_role("button", name="登录").click()
    page.get_by_text("用户名或密码错误").wait_for(timeout=30_000)
