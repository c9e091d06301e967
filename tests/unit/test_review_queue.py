"""The weekly bad-case queue (core.services.review): each source rule, tenant isolation and
masking, classification, turning a case into a golden case, the summary and its exports, and
``feedback`` on one's own thread only."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from core.errors import BadInputError, NotFoundError, PermissionDenied
from core.security.audit import record_question
from core.security.principals import Principal, Role, UserStore
from core.services import review as R
from core.services.review_access import HIDDEN_TEXT
from core.services.review_golden import to_golden
from core.services.review_report import export_excel, export_markdown, week_summary
from core.storage.db import get_db

ADMIN = Principal("admin", Role.admin)
REVIEWER = Principal("rev_a", Role.reviewer, tenants=("demo",))
REVIEWER_B = Principal("rev_b", Role.reviewer, tenants=("other",))
MANAGER = Principal("manager_a", Role.manager, tenants=("demo",))
STAFF = Principal("staff_a", Role.staff, tenants=("demo",))


def later() -> datetime:
    """"Now" for the abandoned rule: an hour after the events just recorded (taken when the test
    runs, not when the module was imported — a long suite run would otherwise leave it too close)."""
    return datetime.now(timezone.utc) + timedelta(hours=1)


def _docs(principal=MANAGER, *, thread="t1", question="补贴标准是多少？", answer="补贴 15%[1]。", refused=False,
          checks=None, notices=None, citations=None, tenant="demo") -> int:
    trace = {"scenario": "window", "mode": "rules", "rounds": 1, "checks": checks or {"citation_check": "passed"},
             "notices": notices or [], "clarify": False,
             "citations": citations if citations is not None else
             [{"n": 1, "chunk_id": "d1-0001", "doc_id": "d1", "file_name": "a.pdf", "doc_number": "", "page": 1}],
             "trace": [{"node": "retrieve", "round": 1, "ms": 1, "chunks": ["d1-0001"]}]}
    return record_question(principal, "docs", thread=thread, question=question, answer=answer, refused=refused,
                           tenant=tenant, latency_ms=12.0, trace=trace)


def _kg(principal=MANAGER, *, thread="k1", question="青浦-区图书馆3月出勤多少人？", answer="共 2 人", outcome="answered",
        edited=False, fallback="", intent="考勤", tenant="demo") -> int:
    trace = {"mode": "rules", "slots": {"intent": intent}, "plan": [], "plan_source": "user" if edited else "rules",
             "edited": edited, "waiting": "plan" if outcome == "waiting" else None,
             "queries": [{"step": 1, "tool": "attendance", "cypher": "MATCH (n) RETURN n", "executed_params": {"x": 1},
                          "rows": 2, "error": None}],
             "provenance": [{"template": "考勤与人员财务", "file": "att.xlsx", "row": 2}], "masked_fields": [],
             "fallback": fallback, "trace": []}
    return record_question(principal, "kg", thread=thread, question=question, answer=answer, refused=False,
                           tenant=tenant, latency_ms=5.0, trace=trace, outcome=outcome)


def _sources(queue) -> dict[str, list[str]]:
    return {c["question"]: c["sources"] for c in queue["cases"]}


def test_each_source_lands_in_the_weeks_queue():
    _docs(question="被拒答的问题？", answer="暂未查到", refused=True, thread="t-ref")
    _docs(question="核验失败的问题？", checks={"citation_check": "dropped_claims"}, thread="t-chk")
    _docs(question="模型故障的问题？", notices=["大模型超时，已切换为离线规则模式作答（generate）"], thread="t-fb")
    _kg(question="改了计划的问题？", edited=True, thread="k-edit")
    _kg(question="模型失败转规则的图谱问题？", fallback="大模型返回无法解析", thread="k-fb")
    _kg(question="放弃确认的问题？", outcome="waiting", answer="", thread="k-ab")
    _kg(question="继续确认的问题？", outcome="waiting", answer="", thread="k-go")
    _kg(question="确认", thread="k-go")  # the reply that finished the turn
    down = _docs(question="点踩的问题？", thread="t-down")
    R.record_feedback(MANAGER, "docs", "t-down", "点踩的问题？", "补贴 15%[1]。", -1, "标准说错了")
    R.record_feedback(MANAGER, "docs", "t-ref", "被拒答的问题？", "暂未查到", 1)  # 👍 is not a case
    q = R.week_queue(ADMIN, now=later())
    s = _sources(q)
    assert s["被拒答的问题？"][0] == "refusal"
    assert s["核验失败的问题？"][0] == "check_failed"
    assert s["模型故障的问题？"][0] == "fallback" and s["模型失败转规则的图谱问题？"][0] == "fallback"
    assert s["改了计划的问题？"][0] == "edited"
    assert s["放弃确认的问题？"] == ["abandoned"]
    assert "abandoned" not in sum((v for k, v in s.items() if k == "继续确认的问题？"), [])
    assert s["点踩的问题？"][0] == "thumbs_down"
    case = next(c for c in q["cases"] if c["question"] == "点踩的问题？")
    assert case["feedback"]["reason"] == "标准说错了" and case["user"] == "manager_a" and case["tenant"] == "demo"
    full = R.get_case(ADMIN, case["id"])
    assert full["event"]["id"] == down and full["citations"][0]["file_name"] == "a.pdf"
    assert full["detail"]["trace"][0]["node"] == "retrieve"
    # the KG reply "确认" is shown with the question that started its turn
    assert "继续确认的问题？" in s and "确认" not in s
    # collecting again adds nothing and keeps a classification
    R.classify(ADMIN, case["id"], category="检索失败")
    assert R.sync_week(R.week_of(), now=later()) == 0
    assert R.get_case(ADMIN, case["id"])["category"] == "retrieval"


def test_abandoned_only_after_a_while():
    _kg(question="刚停在确认的问题？", outcome="waiting", answer="", thread="k-now")
    assert "刚停在确认的问题？" not in _sources(R.week_queue(ADMIN))


def test_sample_is_reproducible_and_capped():
    for i in range(60):
        _docs(question=f"普通问题{i}？", thread=f"s{i}")
    first = R.collect_week(R.week_of())
    picked = sorted(c["event_id"] for c in first if "sample" in c["sources"])
    assert len(picked) == 50
    again = sorted(c["event_id"] for c in R.collect_week(R.week_of()) if "sample" in c["sources"])
    assert again == picked
    q = R.week_queue(REVIEWER, source="sample")
    assert len(q["cases"]) == 50
    n = R.bulk_update(REVIEWER, [c["id"] for c in q["cases"]], category="无问题", status="已解决")
    assert n == 50 and R.week_queue(REVIEWER)["counts"]["by_status"] == {"resolved": 50}


def test_tenants_roles_and_masking():
    _docs(question="其他租户的问题？", principal=Principal("outsider", Role.manager, tenants=("other",)), tenant="other",
          refused=True, answer="暂未查到", thread="o1")
    _docs(question="本租户的问题？", refused=True, answer="暂未查到", thread="d1")
    _kg(question="张三的工资是多少？", intent="工资", answer="税后工资 ***", edited=True, thread="k-pay")
    mine = _sources(R.week_queue(REVIEWER))
    assert "本租户的问题？" in mine and "其他租户的问题？" not in mine
    assert set(_sources(R.week_queue(ADMIN))) >= {"本租户的问题？", "其他租户的问题？"}
    assert "本租户的问题？" not in _sources(R.week_queue(REVIEWER_B))
    other = next(c for c in R.week_queue(ADMIN)["cases"] if c["question"] == "其他租户的问题？")
    with pytest.raises(NotFoundError):
        R.get_case(REVIEWER, other["id"])
    pay = next(c for c in R.week_queue(REVIEWER)["cases"] if c["question"] == "张三的工资是多少？")
    assert "已隐藏" in R.get_case(REVIEWER, pay["id"])["answer"]
    assert "已隐藏" not in R.get_case(MANAGER, pay["id"])["answer"]
    for who in (STAFF, Principal("guest_a", Role.guest, tenants=("demo",))):
        with pytest.raises(PermissionDenied):
            R.week_queue(who)


def test_citation_of_a_document_the_reviewer_may_not_see_is_hidden():
    get_db().execute("INSERT INTO documents (doc_id, file_name, tenant, status, review_state, meta) VALUES"
                     " ('d9', 'secret.pdf', 'demo', 'in_effect', 'approved', '{}')")
    get_db().execute("INSERT INTO documents (doc_id, file_name, tenant, domain, status, review_state, meta) VALUES"
                     " ('d8', 'hr.pdf', 'demo', 'hr', 'in_effect', 'approved', '{}')")
    _docs(question="两份文件？", refused=False, checks={"citation_check": "failed"}, thread="t-two",
          answer="甲规定 A[1]。乙规定 B[2]。",
          citations=[{"n": 1, "chunk_id": "d9-0001", "doc_id": "d9", "file_name": "secret.pdf", "page": 1},
                     {"n": 2, "chunk_id": "d8-0001", "doc_id": "d8", "file_name": "hr.pdf", "page": 1}])
    finance_only = Principal("rev_fin", Role.reviewer, tenants=("demo",), domains=("finance",))
    case = next(c for c in R.week_queue(finance_only)["cases"] if c["question"] == "两份文件？")
    full = R.get_case(finance_only, case["id"])
    assert [c["file_name"] for c in full["citations"]] == [HIDDEN_TEXT, HIDDEN_TEXT]
    assert "规定" not in full["answer"]
    assert [c["file_name"] for c in R.get_case(REVIEWER, case["id"])["citations"]] == ["secret.pdf", "hr.pdf"]


def test_classify_validates_and_to_golden_writes_the_workspace_set(workspace):
    UserStore().add("rev_a", "reviewer", "review-pass-1", tenants=["demo"])
    _docs(question="前一轮的问题？", thread="t-g", answer="第一轮回答[1]。")
    _docs(question="那第二条呢？", thread="t-g", refused=True, answer="暂未查到")
    case = next(c for c in R.week_queue(REVIEWER)["cases"] if c["question"] == "那第二条呢？")
    with pytest.raises(BadInputError) as e:
        R.classify(REVIEWER, case["id"], category="坏分类")
    assert "检索失败" in e.value.user_message
    with pytest.raises(BadInputError):
        R.classify(REVIEWER, case["id"], assignee="nobody")
    out = R.classify(REVIEWER, case["id"], category="retrieval", expected="15%\n最高 2000 元", evidence="a.pdf",
                     assignee="rev_a")
    assert (out["category"], out["status"], out["assignee"]) == ("retrieval", "in_progress", "rev_a")
    with pytest.raises(BadInputError):
        to_golden(REVIEWER, case["id"], "bad name!")
    res = to_golden(REVIEWER, case["id"], "weekly")
    rec = res["golden"]
    assert rec["kind"] == "docs" and rec["question"] == "那第二条呢？" and rec["user"] == "manager_a"
    assert rec["expect_answer_contains"] == ["15%", "最高 2000 元"] and rec["expect_files"] == ["a.pdf"]
    assert rec["history"] == ["前一轮的问题？"] and rec["expect_refusal"] is False
    assert rec["tenant"] == "demo"  # the case holds the tenant's data: only its reviewers see it
    path = workspace / "eval" / "sets" / "weekly.jsonl"
    assert path.is_file() and json.loads(path.read_text(encoding="utf-8").splitlines()[0])["id"] == rec["id"]
    to_golden(REVIEWER, case["id"], "weekly", expected="15%")  # again: replaced, not duplicated
    assert len(path.read_text(encoding="utf-8").splitlines()) == 1
    assert R.get_case(REVIEWER, case["id"])["golden_set"] == "weekly"
    from core.evaluation.golden import load_golden

    assert load_golden(path)[0].history == ["前一轮的问题？"]


def test_to_golden_needs_an_expected_answer():
    _docs(question="答非所问？", thread="t-x")
    R.record_feedback(MANAGER, "docs", "t-x", "答非所问？", "补贴 15%[1]。", -1)
    case = R.week_queue(ADMIN)["cases"][0]
    with pytest.raises(BadInputError) as e:
        to_golden(ADMIN, case["id"], "weekly")
    assert "期望答案" in e.value.user_message


def test_summary_trend_and_exports():
    _docs(question="问一？", thread="a1")
    _docs(question="问二？", thread="a2", refused=True, answer="暂未查到")
    _kg(question="图谱问？", thread="k9")
    R.record_feedback(MANAGER, "docs", "a1", "问一？", "x", 1)
    R.record_feedback(MANAGER, "docs", "a2", "问二？", "=HYPERLINK(\"x\")", -1, "=cmd|' /C calc'!A0")
    s = week_summary(REVIEWER)
    assert s["questions"] == 3 and s["refused"] == 1 and s["thumbs_up"] == 1 and s["thumbs_down"] == 1
    assert s["up_ratio"] == 0.5 and len(s["trend"]) == 12 and s["trend"][-1]["week"] == s["week"]
    assert s["top_documents"][0]["name"] == "a.pdf" and s["top_intents"][0]["name"] == "考勤"
    md = export_markdown(REVIEWER)
    assert "每周复盘" in md and "近 12 周趋势" in md
    from openpyxl import load_workbook
    import io

    wb = load_workbook(io.BytesIO(export_excel(REVIEWER)))
    cells = [c.value for row in wb["复盘用例"].iter_rows() for c in row if isinstance(c.value, str)]
    assert not any(v.startswith(("=", "+", "@")) for v in cells)
    assert any(v.startswith("'=") or "'=" in v for v in cells) or any("👎" in v for v in cells)


def test_weeks_are_iso_weeks_in_shanghai():
    # Sunday 2026-03-08 17:00 UTC is Monday 01:00 in Shanghai: week 11
    assert R.week_of(datetime(2026, 3, 8, 17, 0, tzinfo=timezone.utc)) == "2026-W11"
    assert R.week_bounds("2026-W11") == ("2026-03-08T16:00:00+00:00", "2026-03-15T16:00:00+00:00")
    with pytest.raises(BadInputError):
        R.parse_week("2026-13")
    assert R.weeks_back("2026-W02", 3) == ["2025-W52", "2026-W01", "2026-W02"]


def test_feedback_command_rates_only_ones_own_thread():
    store = UserStore()
    store.add("manager_a", "manager", "manager-pass-1", tenants=["demo"])
    store.add("manager_b", "manager", "manager-pass-1", tenants=["demo"])
    _kg(question="出勤多少人？", outcome="waiting", answer="", thread="own")
    _kg(question="确认", answer="共 2 人", thread="own")
    res = R.feedback_on_thread(MANAGER, "kg", "own", -1, "人数不对")
    row = get_db().one("SELECT * FROM feedback WHERE id = ?", (res["feedback_id"],))
    assert row["question"] == "出勤多少人？" and row["answer"] == "共 2 人" and row["rating"] == -1
    with pytest.raises(NotFoundError):
        R.feedback_on_thread(Principal("manager_b", Role.manager, tenants=("demo",)), "kg", "own", -1)
    with pytest.raises(NotFoundError):
        R.feedback_on_thread(MANAGER, "docs", "own", 1)
    q = R.week_queue(ADMIN)
    case = next(c for c in q["cases"] if c["source"] == "thumbs_down")
    assert case["question"] == "出勤多少人？" and case["feedback"]["reason"] == "人数不对"
