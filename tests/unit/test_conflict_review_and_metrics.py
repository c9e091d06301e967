"""冲突证据 outside the answer: an answer with a detected conflict lands in the week's review queue
(source ``conflict``, with both sides and the deciding rule in its detail), and the evaluation
report counts conflicts detected, decided as expected, and notes where the documents agree."""

from __future__ import annotations

from core.evaluation.golden import GoldenCase
from core.evaluation.metrics import aggregate, score_case
from core.security.audit import record_question
from core.security.principals import Principal, Role
from core.services import review as R

MANAGER = Principal("manager_a", Role.manager, tenants=("demo",))
REVIEWER = Principal("rev_a", Role.reviewer, tenants=("demo",))
CONFLICT = {"slot": "日期", "prevails": "other_side", "rule": "relation", "rule_label": "文件关系",
            "reason": "《济南市2025年下半年第二轮汽车消费补贴活动公告》是同一活动的后续轮次，以最新一轮为准",
            "answer_side": {"doc_id": "r1", "title": "济南市2025年下半年第一轮汽车消费补贴活动公告", "values": ["8月5日"]},
            "other_side": {"doc_id": "r2", "title": "济南市2025年下半年第二轮汽车消费补贴活动公告", "values": ["9月5日"]}}


def _ask(question: str, conflicts: list[dict]) -> int:
    trace = {"scenario": "window", "mode": "rules", "rounds": 1, "checks": {"citation_check": "passed"},
             "notices": [], "clarify": False, "conflicts": conflicts,
             "citations": [{"n": 1, "chunk_id": "r2-0000", "doc_id": "r2", "file_name": "第二轮公告.docx", "page": 1,
                            "role": "采用"}],
             "trace": [{"node": "reconcile", "round": 1, "ms": 1, "conflicts": conflicts}]}
    return record_question(MANAGER, "docs", thread=question, question=question, answer="…另有规定：…", refused=False,
                           tenant="demo", latency_ms=10.0, trace=trace)


def test_an_answer_with_a_conflict_is_a_case_of_the_weeks_queue():
    noted = _ask("下半年汽车补贴申报时间？", [CONFLICT])
    plain = _ask("下半年汽车补贴资金额度？", [])
    cases = {c["event_id"]: c for c in R.collect_week(R.week_of())}
    assert "conflict" in cases[noted]["sources"] and R.SOURCE_LABELS["conflict"] == "冲突证据"
    assert "conflict" not in (cases.get(plain) or {"sources": []})["sources"]
    R.sync_week(R.week_of())
    queue = R.week_queue(REVIEWER, source="conflict")
    [case] = [c for c in queue["cases"] if c["question"] == "下半年汽车补贴申报时间？"]
    detail = R.get_case(REVIEWER, case["id"])["detail"]
    assert detail["conflicts"][0]["rule"] == "relation" and "后续轮次" in detail["conflicts"][0]["reason"]


def test_report_counts_conflicts_decided_as_expected_and_false_notes():
    noted = {"answer": "9月5日…另有规定：…8月5日", "refused": False, "conflicts": [CONFLICT],
             "citations": [{"file_name": "r2.docx", "quote": "9月5日"}]}
    quiet = {"answer": "2000元", "refused": False, "conflicts": [], "citations": [{"file_name": "jn.pdf", "quote": "2000元"}]}
    expect_conflict = GoldenCase(id="c", kind="docs", question="q", expect_files=["r2.docx"],
                                 expect_answer_contains=["9月5日", "另有规定"], category="冲突证据")
    expect_agree = GoldenCase(id="a", kind="docs", question="q", expect_files=["jn.pdf"],
                              expect_answer_contains=["2000元"], category="证据一致")
    rows = [{"id": c.id, "kind": "docs", "category": c.category, **score_case(c, r)}
            for c, r in ((expect_conflict, noted), (expect_agree, quiet), (expect_agree, noted))]
    assert [r["ok"] for r in rows] == [True, True, False]  # a note where the documents agree fails the case
    assert rows[2]["checks"]["conflict_noted"] is False
    docs = aggregate(rows)["docs"]
    assert docs["conflicts_detected"] == 2 and docs["conflicts_decided_as_expected"] == 1.0
    assert docs["conflict_notes_where_agreeing"] == 1
