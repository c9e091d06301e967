"""The reviewers' loop in a real browser: a 👎 on 政策问答 → the case in 每周复盘 → a golden case
→ a run of that set on 评测报告 that includes it. Headless Chromium (Debian's package) driven
by Playwright against `streamlit run app.py`; skipped without Chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, open_page, sign_in

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed (CI installs it)")]


def test_thumbs_down_to_queue_to_golden_to_run(server, browser, tmp_path):
    url, home = server
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_in(page, url)
    page.get_by_role("heading", name="首页").wait_for(timeout=60_000)  # administrators land on 首页
    page.locator("[data-testid='stSidebarNav'] a", has_text="政策问答").click()
    page.get_by_role("heading", name="政策问答").wait_for(timeout=60_000)

    # 1. a question nobody can answer from an empty library, then 👎 with a reason
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill("北京市人才引进落户需要满足什么条件？")
    box.press("Enter")
    page.get_by_text("暂未查到").first.wait_for(timeout=180_000)
    page.get_by_role("button", name="评价这个回答").click()
    page.get_by_text("没帮助").click()
    page.get_by_label("原因（可选）").fill("应该说明去哪里查")
    page.get_by_role("button", name="提交").click()
    page.get_by_text("感谢反馈").wait_for(timeout=60_000)

    # 2. the case is in this week's queue; it becomes a golden case
    open_page(page, "每周复盘")
    page.get_by_text("应该说明去哪里查").first.wait_for(timeout=60_000)
    page.get_by_role("button", name="转为评测用例").click()
    page.get_by_text("已加入评测集").first.wait_for(timeout=60_000)
    assert (home / "eval" / "sets" / "weekly.jsonl").is_file()

    # 3. the next run of that set includes it
    open_page(page, "评测报告")
    page.get_by_role("button", name="运行评测").click()
    page.get_by_text("逐例结果").wait_for(timeout=180_000)
    page.get_by_text("这次运行的用例全部通过").wait_for(timeout=60_000)
    shots = Path(os.environ.get("ZHICE_E2E_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "review-report.png"), full_page=True)
    assert (shots / "review-report.png").stat().st_size > 10_000
