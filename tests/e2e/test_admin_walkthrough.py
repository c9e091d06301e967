"""Issue 13 part A in a real browser (headless Chromium + Playwright against `streamlit run`):
a sign-in survives a refresh and a bookmarked page, 退出登录 really logs out, a broken upload is
validated without a traceback, the empty workspace loads the demo from its button, and each
role walks its pages without English UI strings. A screenshot of every step is saved under
``ZHICE_E2E_SHOTS`` (default: a temporary folder)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import (ADMIN, ADMIN_PASSWORD, CHROMIUM, REPO, add_user, name_box, open_page, settle,
                                sign_in_as, workspace_env)

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed (CI installs it)")]

BROKEN = REPO / "data" / "samples" / "broken"
PASSWORD = "walk-pass-2026"
ROLES = {"manager": "walk_manager", "staff": "walk_staff", "guest": "walk_guest", "reviewer": "walk_reviewer"}
#: Streamlit's own English and debug text that must not reach users
ENGLISH = ("Upload", "per file", "Choose options", "Choose an option", "Press Enter", "Traceback", "Ask Google",
           "Browse files", "Drag and drop", "prose", "Exception", "Error:")


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("ZHICE_E2E_SHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def people(server, model_cache):
    """The walk's users, created through core (the CLI) in the served workspace."""
    env = workspace_env(server[1], model_cache)
    for role, name in ROLES.items():
        add_user(env, name, role, PASSWORD, "demo")
    return ROLES


def snap(page, shots: Path, name: str) -> None:
    page.wait_for_timeout(500)
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


def english_in(page) -> list[str]:
    body = page.inner_text("body")
    return [w for w in ENGLISH if w in body]


def test_login_survives_refresh_and_logout_is_real(server, browser, shots):
    url = server[0]
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    sign_in_as(page, url, ADMIN, ADMIN_PASSWORD)
    page.get_by_role("heading", name="首页").wait_for(timeout=60_000)
    settle(page)
    assert any(c["name"] == "zhice_session" for c in ctx.cookies()), "session cookie written"
    assert "zhice_session" not in page.url and "token" not in page.url
    snap(page, shots, "01_signed_in")
    page.reload(wait_until="networkidle")
    page.get_by_role("button", name="退出登录").wait_for(timeout=60_000)
    assert page.get_by_label("用户名").count() == 0
    snap(page, shots, "02_after_refresh")
    page.goto(url + "/设置与状态", wait_until="networkidle")  # a bookmarked page
    page.get_by_role("heading", name="设置与状态").wait_for(timeout=60_000)
    snap(page, shots, "03_bookmarked_page")
    page.get_by_role("button", name="退出登录").click()
    name_box(page).wait_for(timeout=60_000)
    settle(page)
    page.reload(wait_until="networkidle")
    name_box(page).wait_for(timeout=60_000)
    assert page.get_by_role("button", name="退出登录").count() == 0
    snap(page, shots, "04_logged_out_after_refresh")
    ctx.close()


def test_broken_upload_is_validated_without_traceback(server, browser, shots):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    sign_in_as(page, server[0], ADMIN, ADMIN_PASSWORD)
    open_page(page, "数据导入与建图")
    files = sorted(str(p) for p in BROKEN.glob("*.xlsx"))
    page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(files)
    page.get_by_text("归入模板").first.wait_for(state="attached", timeout=60_000)
    settle(page)
    snap(page, shots, "05_import_routed")
    page.get_by_role("button", name="仅校验").click()
    page.get_by_text("各文件导入情况").wait_for(timeout=120_000)
    settle(page)
    snap(page, shots, "06_import_validated")
    html = page.content()
    assert "Traceback" not in html and "TypeError" not in html and "Ask Google" not in html
    assert "对应的行已跳过" in page.inner_text("body")
    assert not english_in(page), english_in(page)
    ctx.close()


def test_demo_loads_from_the_empty_state(server, browser, shots):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    sign_in_as(page, server[0], ADMIN, ADMIN_PASSWORD)
    page.get_by_role("heading", name="首页").wait_for(timeout=60_000)
    button = page.get_by_role("button", name="载入示例数据")
    button.wait_for(timeout=60_000)
    snap(page, shots, "07_empty_workspace")
    button.click()
    page.get_by_text("示例数据已载入").first.wait_for(timeout=600_000)
    settle(page)
    page.get_by_text("本周提问").first.wait_for(timeout=60_000)
    snap(page, shots, "08_home_with_demo")
    assert not english_in(page), english_in(page)
    ctx.close()


@pytest.mark.parametrize("role", ["admin", *ROLES])
def test_each_role_walks_its_pages(server, browser, shots, people, role):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    name, password = (ADMIN, ADMIN_PASSWORD) if role == "admin" else (people[role], PASSWORD)
    sign_in_as(page, server[0], name, password)
    settle(page)
    nav = page.locator("[data-testid='stSidebarNav'] a")
    links = [a.inner_text().strip().split("\n")[-1].strip() for a in nav.all()]  # icon name, then the title
    assert links, "navigation shown"
    if role in ("staff", "guest"):
        assert "设置与状态" not in links and "审计日志" not in links and "文档库" not in links
    for i, title in enumerate(links):
        nav.nth(i).click()
        page.wait_for_url(lambda u: True, timeout=10_000)
        page.locator("h1").first.wait_for(timeout=60_000)
        settle(page)
        snap(page, shots, f"10_{role}_{title}")
        found = english_in(page)
        assert not found, (role, title, found)
    ctx.close()
