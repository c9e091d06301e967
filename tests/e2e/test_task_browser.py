"""任务 mode of 政策问答 in a real browser on the shared demo workspace: the comparison request is
planned and the plan shown (in plain words) before anything runs; once confirmed, the steps'
statuses and the fuse gauges, then the comparison table with its [n] citations, a citation
card that opens the PDF highlight, and the Markdown / Excel downloads. Nothing English, no tool
name, no JSON on the way. Screenshots go to ``ZHICE_E2E_SHOTS`` (default: a temp folder)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, open_first_citation, settle, sign_in

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed (CI installs it)")]

COMPARE = "对比济南市和山东省家电以旧换新补贴的补贴标准和申领流程"
PLAN = ("检索文件（检索语句：济南市家电以旧换新补贴；发文机关：济南市）",
        "检索文件（检索语句：山东省家电以旧换新补贴；发文机关：山东省）",
        "逐项对比（文件：第1步最相关的文件、第2步最相关的文件；维度：补贴标准、申领流程）")
#: what a manager must never read: tool and argument names, references, JSON, Streamlit's English
TECHNICAL = re.compile(r"search_policy|compare_documents|get_document_detail|track_changes|generate_summary|"
                       r"doc_ids?|dimensions|query|\$\d\.(?:top|all)|\{\"|Traceback|Press Enter|Exception")


@pytest.fixture
def shots(tmp_path) -> Path:
    d = Path(os.environ.get("ZHICE_E2E_SHOTS", tmp_path))
    d.mkdir(parents=True, exist_ok=True)
    return d


def _clean(page) -> None:
    body = page.inner_text("body")
    assert not TECHNICAL.search(body), TECHNICAL.search(body).group(0)


def test_compare_task_plan_confirm_report_highlight(demo_site, browser, shots):
    url = demo_site[0]
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    sign_in(page, url)
    page.get_by_role("heading", name="首页").wait_for(timeout=60_000)  # administrators land on 首页
    page.locator("[data-testid='stSidebarNav'] a", has_text="政策问答").click()
    page.get_by_role("heading", name="政策问答").wait_for(timeout=60_000)
    settle(page)
    page.get_by_test_id("stRadio").get_by_text("任务", exact=True).click()
    page.get_by_label("任务描述").fill(COMPARE)
    page.get_by_role("button", name="生成计划").click()

    # the plan, before anything runs
    page.get_by_text("任务计划（确认后执行").wait_for(timeout=120_000)
    settle(page)
    page.screenshot(path=str(shots / "task_plan.png"), full_page=True)
    assert page.get_by_text("任务报告").count() == 0
    for step in PLAN:
        page.get_by_text(step).first.wait_for(timeout=10_000)
    _clean(page)

    # confirmed: step statuses and the fuse gauges, then the report
    page.get_by_role("button", name="确认执行").click()
    page.get_by_text("任务报告：").first.wait_for(timeout=240_000)
    settle(page)
    for gauge in ("步数：3 / 10", "Token：", "时间："):
        page.get_by_text(gauge).first.wait_for(timeout=10_000)
    page.get_by_text("执行步骤（3 步）").click()
    for step in PLAN:
        page.get_by_text(step).first.wait_for(timeout=10_000)
    page.set_viewport_size({"width": 1400, "height": 3200})  # the app scrolls inside: a tall window shows it all
    settle(page)
    page.screenshot(path=str(shots / "task_report.png"))

    # the comparison table: documents × dimensions, every cell cited or 未规定
    table = page.locator("table").filter(has_text="补贴标准").first
    headers = [h.strip() for h in table.locator("th").all_inner_texts()]
    assert headers == ["文件", "补贴标准", "申领流程"]
    rows = table.locator("tbody tr")
    assert rows.count() == 2
    cells = [c.strip() for c in rows.locator("td").all_inner_texts()]
    assert any("济南市" in c for c in cells) and any("山东省" in c for c in cells)
    for cell in [c for i, c in enumerate(cells) if i % 3]:
        assert re.search(r"\[\d+\]", cell) or cell == "未规定", cell
    assert "15%" in " ".join(cells)

    # downloads, then a citation card opens its passage with the PDF highlight
    assert page.get_by_role("button", name="下载 Markdown").count() == 1
    assert page.get_by_role("button", name="下载 Excel").count() == 1
    _clean(page)
    page.set_viewport_size({"width": 1400, "height": 1000})
    box = open_first_citation(page)
    assert box and box["width"] >= 500
    page.screenshot(path=str(shots / "task_highlight.png"))
    _clean(page)

    # a refresh keeps the report: the 任务 mode rebuilds it from the checkpointer
    page.keyboard.press("Escape")
    page.reload()
    page.get_by_role("heading", name="政策问答").wait_for(timeout=60_000)
    settle(page)
    page.get_by_test_id("stRadio").get_by_text("任务", exact=True).click()
    page.get_by_text("任务报告：").first.wait_for(timeout=60_000)
    assert page.locator("table").filter(has_text="补贴标准").count() >= 1
    _clean(page)
