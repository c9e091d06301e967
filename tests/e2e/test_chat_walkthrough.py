"""The two chat pages in a real browser on the demo workspace (issue #13 part B): a policy
question whose citation opens large in the main area (not the sidebar) with the highlight; a
KG question through the plain-language plan with at most two clicks after asking (the card's
actions in one row, the answer with its line breaks and the plan collapsed); both
transcripts still there after a refresh; a guest sees no debug panel. Screenshots go to ``ZHICE_E2E_SHOTS`` (default: a temp folder).

The demo workspace is shared by the browser modules (``demo_site``); answers take a while on
two cores, so timeouts are generous."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, GUEST, GUEST_PASSWORD, open_first_citation, open_page, sign_in, sign_in_as

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed (CI installs it)")]
ENGLISH = ("attendance", "aggregate", "group_by", "Press Enter", "prose", "injection=")


@pytest.fixture(scope="module")
def demo(demo_site):
    return demo_site[0]


@pytest.fixture
def shots(tmp_path) -> Path:
    d = Path(os.environ.get("ZHICE_E2E_SHOTS", tmp_path))
    d.mkdir(parents=True, exist_ok=True)
    return d


def _ask(page, text: str) -> None:
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(text)
    box.press("Enter")


def _settled_boxes(page, names: tuple[str, ...]) -> list[dict]:
    """The buttons' boxes once the layout stops moving (Streamlit lays a new row out in steps)."""
    boxes: list[dict] = []
    for _ in range(20):
        now = [page.get_by_role("button", name=n).bounding_box() for n in names]
        if now == boxes:
            break
        boxes = now
        time.sleep(0.5)
    return boxes


def _reload(page, title: str) -> None:
    """F5: the same tab loads the page again (session cookie, no session state)."""
    page.reload(wait_until="networkidle")
    page.get_by_role("heading", name=title).wait_for(timeout=60_000)


def test_policy_answer_opens_the_highlight_and_survives_a_refresh(demo, browser, shots):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_in(page, demo)
    open_page(page, "政策问答")  # administrators land on 首页
    page.get_by_text("可查询的政策文件").wait_for(timeout=60_000)
    page.screenshot(path=str(shots / "docs_empty_state.png"), full_page=True)
    _ask(page, "济南市家电以旧换新的补贴标准是多少？")
    page.get_by_role("button", name="查看原文").first.wait_for(timeout=240_000)
    page.screenshot(path=str(shots / "docs_answer.png"), full_page=True)
    box = open_first_citation(page)
    assert box and box["width"] >= 500                      # large, not a 240 px sidebar thumbnail
    assert page.get_by_test_id("stSidebar").locator("img").count() == 0
    page.screenshot(path=str(shots / "docs_highlight.png"))
    body = page.inner_text("body")
    assert not any(w in body for w in ENGLISH)
    page.keyboard.press("Escape")
    _reload(page, "政策问答")
    page.get_by_role("button", name="查看原文").first.wait_for(timeout=120_000)  # the answer's citations are back
    assert "济南市家电以旧换新的补贴标准是多少？" in page.get_by_test_id("stChatMessage").first.inner_text()
    assert page.get_by_text("可查询的政策文件").count() == 0             # a transcript, not the empty state
    page.screenshot(path=str(shots / "docs_after_refresh.png"), full_page=True)


def test_kg_question_through_the_plain_plan_in_two_clicks_and_survives_a_refresh(demo, browser, shots):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_in(page, demo)
    open_page(page, "图谱问答")
    page.get_by_text("已载入的业务图谱").wait_for(timeout=60_000)
    page.screenshot(path=str(shots / "kg_empty_state.png"), full_page=True)
    _ask(page, "青浦-区图书馆2026年3月有多少人出勤？")
    page.get_by_role("button", name="对，继续").click(timeout=120_000)            # click 1
    page.get_by_text("将按以下步骤查询").wait_for(timeout=120_000)
    page.screenshot(path=str(shots / "kg_plan.png"), full_page=True)
    plan = page.get_by_text("① 取").first.inner_text()
    assert "青浦-区图书馆" in plan and not any(w in plan for w in ENGLISH)
    row = _settled_boxes(page, ("确认并查询", "修改", "取消"))
    assert len({round(b["y"]) for b in row}) == 1 and row[0]["x"] < row[1]["x"] < row[2]["x"]  # one tidy row
    page.get_by_role("button", name="修改").click()
    page.get_by_label("换一种说法修改").wait_for(timeout=30_000)               # the free-text change, in a popover
    page.screenshot(path=str(shots / "kg_plan_edit.png"))
    page.keyboard.press("Escape")
    page.get_by_role("button", name="确认并查询").click()                             # click 2
    page.get_by_text("共 5 人").first.wait_for(timeout=120_000)
    page.get_by_text("已按确认的 2 步查询").wait_for(timeout=30_000)            # the plan collapsed, not repeated
    answer = page.get_by_test_id("stChatMessage").last.inner_text()
    assert "共 5 人。\n依据：" in answer and "① 取" not in answer               # line breaks kept
    page.screenshot(path=str(shots / "kg_answer.png"), full_page=True)
    _reload(page, "图谱问答")
    page.get_by_text("共 5 人").first.wait_for(timeout=120_000)
    assert page.get_by_text("青浦-区图书馆2026年3月有多少人出勤？").count() >= 1
    assert page.get_by_text("已按确认的 2 步查询").count() == 1
    page.screenshot(path=str(shots / "kg_after_refresh.png"), full_page=True)


def test_guest_sees_no_debug_panel(demo, browser, shots):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_in_as(page, demo, GUEST, GUEST_PASSWORD)
    open_page(page, "图谱问答")
    page.get_by_text("已载入的业务图谱").wait_for(timeout=60_000)  # the page has finished rendering
    _ask(page, "青浦-区图书馆2026年3月有多少人出勤？")
    page.get_by_role("button", name="对，继续").click(timeout=120_000)
    page.get_by_role("button", name="确认并查询").click(timeout=120_000)
    page.get_by_text("共 5 人").first.wait_for(timeout=120_000)
    page.screenshot(path=str(shots / "kg_guest.png"), full_page=True)
    assert page.get_by_text("调试信息").count() == 0 and "Cypher" not in page.inner_text("body")
