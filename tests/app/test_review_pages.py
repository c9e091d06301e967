"""The 每周复盘 and 评测报告 pages for each role (Streamlit AppTest): reviewers, managers and
administrators work with them, staff and guests get core's refusal; empty pages say what to
do next; classify → golden → run → report against the pinned baseline."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.security.audit import record_question
from core.security.principals import Principal, Role, UserStore
from core.services import eval as E
from core.services import review as R

REPO = Path(__file__).resolve().parents[2]
REVIEW = str(REPO / "pages" / "5_每周复盘.py")
REPORT = str(REPO / "pages" / "6_评测报告.py")
ADMIN = Principal("admin", Role.admin)
MANAGER = Principal("manager_a", Role.manager, tenants=("demo",))
REVIEWER = Principal("rev_a", Role.reviewer, tenants=("demo",))
REFUSED_ROLES = [Principal("staff_a", Role.staff, tenants=("demo",)), Principal("guest_a", Role.guest, tenants=("demo",))]


def _run(page: str, principal) -> AppTest:
    at = AppTest.from_file(page, default_timeout=60)
    at.session_state["principal"] = principal
    return at.run()


def _refused_docs_question(question="北京落户条件？", thread="t1", tenant="demo"):
    trace = {"scenario": "window", "mode": "rules", "rounds": 1, "checks": {}, "notices": [], "clarify": False,
             "citations": [], "trace": [{"node": "retrieve", "round": 1, "ms": 1, "chunks": []}]}
    return record_question(MANAGER, "docs", thread=thread, question=question, answer="暂未查到相关政策", refused=True,
                           tenant=tenant, latency_ms=3.0, trace=trace)


@pytest.mark.parametrize("principal", [ADMIN, MANAGER, REVIEWER], ids=["admin", "manager", "reviewer"])
def test_review_page_empty_week_says_what_to_do(principal):
    at = _run(REVIEW, principal)
    assert not at.exception and at.title[0].value == "每周复盘"
    assert any("还没有需要复盘" in i.value for i in at.info)


@pytest.mark.parametrize("principal", REFUSED_ROLES, ids=["staff", "guest"])
def test_review_and_report_pages_refuse_staff_and_guests(principal):
    for page in (REVIEW, REPORT):
        at = _run(page, principal)
        assert not at.exception and [e.value for e in at.error] == ["只有评测员、部门经理和管理员可以使用每周复盘和评测报告"]
        assert not at.dataframe


@pytest.mark.parametrize("principal", [ADMIN, MANAGER, REVIEWER], ids=["admin", "manager", "reviewer"])
def test_review_page_classifies_and_turns_a_case_into_a_golden_case(principal, workspace):
    UserStore().add("rev_a", "reviewer", "review-pass-1", tenants=["demo"])
    _refused_docs_question()
    _refused_docs_question("别的租户的问题？", thread="o1", tenant="other")
    at = _run(REVIEW, principal)
    assert not at.exception
    questions = list(at.dataframe[0].value["问题"])
    assert "北京落户条件？" in questions and (("别的租户的问题？" in questions) == principal.is_admin)
    if principal.is_admin:
        at.selectbox(key="rv_case").set_value(next(c["id"] for c in R.week_queue(ADMIN)["cases"]
                                                   if c["question"] == "北京落户条件？")).run()
    assert any("暂未查到" in w.value for w in at.warning)  # the refused answer
    assert any("完整推理过程" in e.label for e in at.expander)
    form = next(s for s in at.selectbox if s.label == "问题分类")
    form.set_value("retrieval")
    next(t for t in at.text_area if t.label.startswith("期望答案")).input("需要本地户籍")
    next(b for b in at.button if b.label == "保存").click().run()
    assert not at.exception
    case = next(c for c in R.week_queue(ADMIN)["cases"] if c["question"] == "北京落户条件？")
    assert case["category"] == "retrieval" and case["expected"] == "需要本地户籍" and case["status"] == "in_progress"
    next(c for c in at.checkbox if c.label == "这个问题应当拒答").uncheck()
    next(b for b in at.button if b.label == "转为评测用例").click().run()
    assert not at.exception and any("已加入评测集" in s.value for s in at.success)
    assert (workspace / "eval" / "sets" / "weekly.jsonl").is_file()


def test_review_page_bulk_and_summary_exports():
    for i in range(3):
        _refused_docs_question(f"问题{i}？", thread=f"b{i}")
    at = _run(REVIEW, REVIEWER)
    next(s for s in at.selectbox if s.label == "设为状态").set_value("wontfix")
    next(b for b in at.button if b.label == "批量应用").click().run()
    assert not at.exception
    assert {c["status"] for c in R.week_queue(REVIEWER)["cases"]} == {"wontfix"}
    assert [m.value for m in at.metric][:2] == ["3", "100.0%"]
    next(b for b in at.button if b.label == "导出 Excel").click().run()
    next(b for b in at.button if b.label == "导出 Markdown").click().run()
    assert not at.exception


@pytest.mark.parametrize("principal", [ADMIN, MANAGER, REVIEWER], ids=["admin", "manager", "reviewer"])
def test_report_page_without_runs_says_what_to_do(principal):
    at = _run(REPORT, principal)
    assert not at.exception and at.title[0].value == "评测报告"
    assert any("还没有运行记录" in i.value for i in at.info)
    assert any(b.label == "运行评测" for b in at.button)


@pytest.mark.parametrize("principal", [ADMIN, MANAGER, REVIEWER], ids=["admin", "manager", "reviewer"])
def test_report_page_runs_a_set_and_draws_it_against_the_baseline(principal, workspace, monkeypatch):
    from core.evaluation.golden import write_records

    write_records("weekly", [{"id": "a", "kind": "kg", "question": "甲？", "expect_answer_contains": ["1"]},
                             {"id": "b", "kind": "kg", "question": "乙？", "expect_answer_contains": ["2"]}])
    good = E.run_eval(set_name="weekly", pin=True, principal=principal, ask=lambda c: {"answer": "1 2"})
    answers = {"a": "1", "b": "没有"}
    monkeypatch.setattr(E, "make_ask", lambda runner=None, k=None: (lambda c: {"answer": answers[c.id]}))
    at = AppTest.from_file(REPORT, default_timeout=60)
    at.session_state["principal"] = principal
    at.run()
    at.selectbox(key="ev_set").set_value("weekly").run()
    next(b for b in at.button if b.label == "运行评测").click().run()
    assert not at.exception
    run_id = E.list_runs(principal, "weekly")[0]["id"]
    assert run_id != good["run_id"]
    E.wait_run(run_id)
    at.run()  # the progress fragment sees the run ended
    at.run()
    assert not at.exception
    at.selectbox(key="ev_run").set_value(run_id).run()
    assert any("退步" in e.value for e in at.error)
    assert at.get("plotly_chart")
    table = at.dataframe
    assert any("b" in list(t.value.get("编号", [])) for t in table if "编号" in t.value)
    flips = next(t.value for t in at.dataframe if f"第 {good['run_id']} 次" in t.value.columns)
    assert list(flips["编号"]) == ["b"] and list(flips[f"第 {run_id} 次"]) == ["未通过"]


def test_report_page_hides_another_tenants_runs(workspace):
    from core.evaluation.golden import write_records

    write_records("weekly", [{"id": "a", "kind": "kg", "question": "甲？", "expect_answer_contains": ["1"]}])
    run_id = E.run_eval(set_name="weekly", pin=True, principal=REVIEWER, ask=lambda c: {"answer": "2"})["run_id"]
    outsider = Principal("outsider", Role.manager, tenants=("other",))
    for principal, sees in ((outsider, False), (REVIEWER, True), (ADMIN, True)):
        at = _run(REPORT, principal)
        at.selectbox(key="ev_set").set_value("weekly").run()
        assert not at.exception
        no_runs = any("还没有运行记录" in i.value for i in at.info)
        assert no_runs == (not sees) and (at.selectbox(key="ev_run").value == run_id if sees else True)
        if not sees:  # exactly what an empty set shows; the set itself can still be managed
            assert not at.get("plotly_chart") and any(b.label == "运行评测" for b in at.button)
            assert any(b.label == "导入" for b in at.button)


def test_report_page_offers_the_llm_judge_only_with_a_model(workspace, monkeypatch):
    from core import config
    from core.evaluation.golden import write_records
    from tests.support.chat_server import ChatServer

    write_records("weekly", [{"id": "a", "kind": "kg", "question": "甲？", "expect_answer_contains": ["1"]},
                             {"id": "b", "kind": "kg", "question": "乙？", "expect_answer_contains": ["2"]}])
    monkeypatch.setattr(E, "make_ask", lambda runner=None, k=None: (lambda c: {"answer": "3"}))
    at = _run(REPORT, REVIEWER)
    assert not at.exception and not any("大模型" in c.label for c in at.checkbox)  # rules mode: no judge offered
    with ChatServer() as server:
        server.enqueue({"content": '{"score": 3, "reason": "基本正确"}'}, {"content": "这个答案还行"})
        for var, value in (("ZHICE_LLM_BASE_URL", server.base_url), ("ZHICE_LLM_API_KEY", "test-key"),
                           ("ZHICE_LLM_MAX_RETRIES", "0")):
            monkeypatch.setenv(var, value)
        config.set_settings(None)
        at = _run(REPORT, REVIEWER)
        at.selectbox(key="ev_set").set_value("weekly").run()
        next(c for c in at.checkbox if c.label.startswith("另请大模型")).check().run()
        next(b for b in at.button if b.label == "运行评测").click().run()
        assert not at.exception
        run_id = E.list_runs(REVIEWER, "weekly")[0]["id"]
        E.wait_run(run_id)
    at.run()
    at.run()
    assert not at.exception
    table = next(t.value for t in at.dataframe if "编号" in t.value.columns)
    assert list(table["大模型评分"]) == ["75%", "未评分"]  # the malformed verdict leaves case b unscored
    assert any("大模型评分：75.0%（未评分 1 例）" in c.value for c in at.caption)
    assert any(r["label"] == "大模型评分（图谱问答）" for r in E.compare(REVIEWER, run_id)["rows"])
