import json

import pytest

from core.errors import BadInputError
from core.evaluation.golden import load_golden
from core.evaluation.metrics import aggregate
from core.evaluation.report import write_report
from core.evaluation.runner import run_cases


def write(tmp_path, *records, raw: str = ""):
    p = tmp_path / "g.jsonl"
    p.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + raw, encoding="utf-8")
    return p


def test_bad_golden_lines_are_all_reported(tmp_path):
    p = write(tmp_path, {"id": "a", "kind": "docs", "question": "q"}, {"id": "b", "kind": "sql", "question": "q"},
              raw="\n{not json")
    with pytest.raises(BadInputError) as e:
        load_golden(p)
    assert "第 2 行" in e.value.user_message and "docs、kg" in e.value.user_message and "第 3 行" in e.value.user_message


def test_scoring_and_report(tmp_path):
    p = write(tmp_path,
              {"id": "d1", "kind": "docs", "question": "补贴标准？", "expect_files": ["a.pdf"],
               "expect_answer_contains": ["15 %", "2000元"]},
              {"id": "d2", "kind": "docs", "question": "火星补贴？", "expect_refusal": True},
              {"id": "k1", "kind": "kg", "question": "几人出勤？", "expect_answer_contains": ["共 5 人"], "expect_rows": 5},
              {"id": "k2", "kind": "kg", "question": "坏问题"})
    answers = {
        "d1": {"answer": "补贴 15% ，最高 2000 元[1]", "citations": [{"file_name": "a.pdf"}]},
        "d2": {"answer": "暂未查到", "refused": False},  # should have refused
        "k1": {"answer": "共 5 人", "rows": [{}] * 5, "provenance": [{"template": "考勤与人员财务"}]},
    }

    def ask(case):
        if case.id == "k2":
            raise RuntimeError("boom")
        return answers[case.id]

    per_case = run_cases(load_golden(p), ask=ask)
    ok = {c["id"]: c["ok"] for c in per_case}
    assert ok == {"d1": True, "d2": False, "k1": True, "k2": False}
    m = aggregate(per_case)
    assert m["errors"] == 1 and m["docs"]["accuracy"] == 0.5 and m["kg"]["rows_exact"] == 1.0
    report = write_report(tmp_path / "r", str(p), m, per_case).read_text(encoding="utf-8")
    assert "未通过的用例" in report and "d2" in report and "RuntimeError" in report


def test_judgements_and_headline_metrics():
    from core.evaluation.golden import GoldenCase
    from core.evaluation.metrics import regressions, score_case

    case = GoldenCase(id="d", kind="docs", question="q", expect_files=["a.pdf"], expect_answer_contains=["15%", "2000元"])
    result = {"answer": "补贴比例为 15%[1]。最高 2000 元[1]。另有说明[2]。", "rounds": 2,
              "citations": [{"n": 1, "file_name": "a.pdf", "quote": "补贴比例为15%，最高2000元"},
                            {"n": 2, "file_name": "b.pdf", "quote": "无关内容"}],
              "retrieved_files": ["b.pdf", "a.pdf", "c.pdf"]}
    s = score_case(case, result)
    j = s["judgement"]
    assert s["ok"] and j["recall_at_k"] == 1.0 and j["rr"] == 0.5 and j["citation_recall"] == 1.0
    assert j["citation_precision"] == 0.5 and j["correctness"] == 1.0 and j["faithfulness"] == 0.6667
    assert j["reflection_save"] is True
    refuse = GoldenCase(id="r", kind="docs", question="q", expect_refusal=True)
    wrong = GoldenCase(id="w", kind="docs", question="q", expect_answer_contains=["x"])
    per = [{"id": c.id, "kind": "docs", **score_case(c, r), "latency_ms": ms} for c, r, ms in
           ((case, result, 10.0), (refuse, {"answer": "暂未查到", "refused": True}, 20.0),
            (wrong, {"answer": "暂未查到", "refused": True}, 30.0))]
    m = aggregate(per)["docs"]
    assert m["refusal_precision"] == 0.5 and m["refusal_recall"] == 1.0 and m["mrr"] == 0.5
    assert m["latency_p95_ms"] == 30.0 and m["reflection_saves"] == 1
    worse = {"docs": {**m, "accuracy": m["accuracy"] - 0.05}}
    assert regressions(worse, {"docs": m}, 0.02) == ["docs.accuracy"]
    assert regressions({"docs": {**m, "accuracy": m["accuracy"] - 0.01}}, {"docs": m}, 0.02) == []


def test_faithfulness_reads_answers_as_the_agent_writes_them():
    """The agent puts the marker after the full stop and lists clauses with semicolons under a
    lead-in line: every such sentence its passage supports counts, an unsupported one does not."""
    from core.evaluation.metrics import faithfulness

    answer = ("依据《2025年济南市“泉城购”零售、餐饮消费券发放活动公告》：\n"
              "- 轮次: 第三轮；批次: 批次2；发放时间: 9月8日10:00-9月14日23:59。[1]\n"
              "- 每位消费者每类产品可补贴1件，每件补贴不超过2000元。[2]\n"
              "- 补贴资金由省财政全额承担。[2]")
    citations = [{"n": 1, "quote": "第三轮 批次2 发放时间：9月8日10:00-9月14日23:59"},
                 {"n": 2, "quote": "每位消费者每类产品可补贴1件（空调类产品最多补贴3件），每件补贴不超过2000元。"}]
    assert faithfulness(answer, citations) == 0.6667  # the last sentence is not in passage [2]
    assert faithfulness("补贴比例为15%；最高2000元。[1][2]", [{"n": 1, "quote": "补贴比例为15%"},
                                                       {"n": 2, "quote": "最高2000元"}]) == 1.0


def test_a_case_leaves_no_checkpoints_behind_unless_it_names_its_thread():
    """An evaluation asks hundreds of one-off questions; their checkpoints (the whole agent state
    at every step) must not pile up in the workspace. A case that names its thread keeps it."""
    from core.evaluation.golden import GoldenCase
    from core.storage.checkpoint import get_checkpointer

    def checkpoints(thread_key: str) -> int:
        return len(list(get_checkpointer().list({"configurable": {"thread_id": thread_key}})))

    throwaway = GoldenCase(id="once", kind="docs", question="家电以旧换新补贴标准是多少？", expect_refusal=True)
    named = GoldenCase(id="kept", kind="docs", question="家电以旧换新补贴标准是多少？", expect_refusal=True,
                       thread="my-thread-1")
    rows = run_cases([throwaway, named])
    assert rows[0]["thread"].startswith("eval-once-") and rows[0]["answer"]
    assert checkpoints(f"docs:admin:{rows[0]['thread']}") == 0
    assert checkpoints("docs:admin:my-thread-1") > 0
