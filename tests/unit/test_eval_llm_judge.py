"""The optional LLM judge, against a local Chat Completions server: ``eval --judge`` stores a
graded ``judge_score`` per case and the separate ``llm_judge`` metric; malformed or
out-of-range verdicts leave a case unscored (未评分) without failing anything; the rules-mode
metrics are the same with or without it; without an LLM the flag is refused."""

from __future__ import annotations

import json

import pytest

from core import config
from core.cli import main
from core.errors import BadInputError
from core.evaluation.golden import write_records
from core.security.principals import Principal, Role
from core.services import eval as E
from tests.support.chat_server import ChatServer

REVIEWER = Principal("reviewer_a", Role.reviewer, tenants=("demo",))
CASES = [{"id": "d1", "kind": "docs", "question": "济南家电以旧换新补贴标准是多少？", "expect_answer_contains": ["15%", "2000"],
          "expect_files": ["济南细则.pdf"]},
         {"id": "d2", "kind": "docs", "question": "北京落户条件？", "expect_refusal": True},
         {"id": "d3", "kind": "docs", "question": "空调最多补几件？", "expect_answer_contains": ["3件"]},
         {"id": "d4", "kind": "docs", "question": "补贴资格多久内使用？", "expect_answer_contains": ["2个自然日"]}]
ANSWERS = {"d1": {"answer": "补贴标准为售价的15%，最高2000元。", "citations": [{"n": 1, "file_name": "济南细则.pdf"}]},
           "d2": {"answer": "暂未查到相关政策", "refused": True},
           "d3": {"answer": "每位消费者最多补贴1件。"},
           "d4": {"answer": "领取后2个自然日内使用。"}}


def _ask(case):
    return dict(ANSWERS[case.id])


@pytest.fixture
def server(monkeypatch):
    with ChatServer() as s:
        for var, value in (("ZHICE_LLM_BASE_URL", s.base_url), ("ZHICE_LLM_API_KEY", "test-key"),
                           ("ZHICE_LLM_MODEL", "judge-model"), ("ZHICE_LLM_MAX_RETRIES", "0")):
            monkeypatch.setenv(var, value)
        config.set_settings(None)
        yield s
    config.set_settings(None)


def test_judge_scores_each_case_and_bad_verdicts_stay_unscored(workspace, server):
    write_records("judged", CASES)
    plain = E.run_eval(set_name="judged", principal=REVIEWER, ask=_ask)
    assert server.requests == [] and "llm_judge" not in plain["metrics"]["docs"]  # off by default
    server.enqueue({"content": '{"score": 4, "reason": "要点齐全"}'},
                   {"content": '```json\n{"score": 4, "reason": "正确拒答"}\n```'},
                   {"content": "我认为这个回答不太对"},          # not JSON
                   {"content": '{"score": 9, "reason": "满分"}'})  # outside the 0–4 grades
    judged = E.run_eval(set_name="judged", principal=REVIEWER, ask=_ask, judge=True)
    assert [c["judge_score"] for c in judged["per_case"]] == [1.0, 1.0, None, None]
    m = judged["metrics"]["docs"]
    assert m["llm_judge"] == 1.0 and m["llm_judge_unscored"] == 2
    assert judged["config"]["llm_judge"] is True and not plain["config"]["llm_judge"]
    # the rules-mode metrics do not depend on the judge
    rules = {k: v for k, v in m.items() if not k.startswith(("llm_judge", "latency"))}
    assert rules == {k: v for k, v in plain["metrics"]["docs"].items() if not k.startswith("latency")}
    assert [c["ok"] for c in judged["per_case"]] == [c["ok"] for c in plain["per_case"]]
    # what the judge was shown: the question, the expectation and the answer
    prompt = server.requests[0]["body"]["messages"][1]["content"]
    assert all(s in prompt for s in ("济南家电以旧换新补贴标准是多少？", "15%；2000", "补贴标准为售价的15%，最高2000元"))
    assert "正确的做法是拒答" in server.requests[1]["body"]["messages"][1]["content"]
    # the judge metric is a headline metric of its own, clearly labelled
    rows = {r["metric"]: r for r in E.compare(REVIEWER, judged["run_id"], plain["run_id"])["rows"]}
    assert rows["docs.llm_judge"]["label"] == "大模型评分（政策问答）" and rows["docs.llm_judge"]["baseline"] is None


def test_a_judge_that_cannot_be_reached_leaves_every_case_unscored(workspace, server):
    write_records("judged", CASES[:2])
    server.enqueue({"status": 503}, {"status": 400})
    res = E.run_eval(set_name="judged", principal=REVIEWER, ask=_ask, judge=True)
    assert [c["judge_score"] for c in res["per_case"]] == [None, None] and [c["ok"] for c in res["per_case"]] == [True, True]
    assert res["metrics"]["docs"]["llm_judge"] is None and res["metrics"]["docs"]["llm_judge_unscored"] == 2


def test_cli_judge_flag(workspace, server, capsys, monkeypatch):
    write_records("judged", CASES[:1])
    monkeypatch.setattr(E, "make_ask", lambda runner=None, k=None: _ask)
    server.enqueue({"content": '{"score": 2, "reason": "部分正确"}'})
    assert main(["eval", "--set", "judged", "--judge", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["per_case"][0]["judge_score"] == 0.5 and out["metrics"]["docs"]["llm_judge"] == 0.5
    server.enqueue({"content": '{"score": 2, "reason": "部分正确"}'})
    assert main(["eval", "--set", "judged", "--judge"]) == 0
    assert "政策问答 大模型评分：50.0%（未评分 0 例）" in capsys.readouterr().out


def test_judge_needs_a_model(workspace, capsys):
    write_records("judged", CASES[:1])
    with pytest.raises(BadInputError):
        E.run_eval(set_name="judged", principal=REVIEWER, ask=_ask, judge=True)
    assert E.list_runs(REVIEWER, "judged") == []  # refused before anything ran
    assert main(["eval", "--set", "judged", "--judge", "--json"]) != 0
    assert "未配置大模型" in capsys.readouterr().err
