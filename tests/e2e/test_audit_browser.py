"""The audit trail in a real browser (issue #11): a question asked on 政策问答 a moment earlier
appears on 审计日志, and its trace opens there."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import ADMIN, ADMIN_PASSWORD, CHROMIUM, open_page, settle, sign_in_as

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium not installed (CI installs it)")]

QUESTION = "济南市家电以旧换新补贴标准是多少"


def test_a_question_asked_in_the_browser_opens_on_the_audit_page(server, browser, tmp_path):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    sign_in_as(page, server[0], ADMIN, ADMIN_PASSWORD)
    open_page(page, "政策问答")
    box = page.locator("[data-testid='stChatInputTextArea']")
    box.fill(QUESTION)
    box.press("Enter")
    page.get_by_text("推理过程").first.wait_for(timeout=180_000)  # the answer has been given
    settle(page)

    open_page(page, "审计日志")
    settle(page)
    page.get_by_label("查看详情").click()
    page.screenshot(path=str(tmp_path / "audit-options.png"), full_page=True)
    page.get_by_role("option").filter(has_text=QUESTION[:10]).first.click()
    settle(page)
    page.get_by_text(f"问题：{QUESTION}").wait_for(timeout=60_000)
    # the event's kind heads the trace (polled: the header can arrive after the question line)
    page.wait_for_function("document.body.innerText.includes('question.docs')", timeout=60_000)
    settle(page)
    page.screenshot(path=str(tmp_path / "audit-trace.png"), full_page=True)
    assert "推理过程" in page.inner_text("body")  # the trace of that question
    ctx.close()
