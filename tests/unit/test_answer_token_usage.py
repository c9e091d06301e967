"""Token usage per answer, through the real SDK path against a local Chat Completions server
that returns a ``usage`` block: policy Q&A, business-graph Q&A and the task agent report the
sum of what the server replied (0 in rules mode), and the evaluation metric ``tokens`` sums
those real figures over a run."""

from __future__ import annotations

import json
from datetime import date

import pytest

from core import config
from core.config import load_settings
from core.evaluation.golden import GoldenCase
from core.evaluation.metrics import aggregate
from core.evaluation.runner import run_cases
from core.llm.client import OpenAIClient, set_llm_override
from core.llm.usage import TokenUsage, metering, record_usage
from core.security.principals import Principal, Role
from core.services.ask_docs import ask_docs
from core.services.ask_kg import ask_kg
from tests.support.chat_server import ChatServer
from tests.unit.test_kg_graph import store  # noqa: F401 - fixture (a fake business graph)
from tests.unit.test_rag_graph import index  # noqa: F401 - fixture (real notices, lexical search)

ADMIN = Principal("admin", Role.admin)
Q_CAR = "济南市下半年第一轮汽车消费补贴活动的补贴额度共计多少？"


@pytest.fixture
def server():
    with ChatServer() as s:
        yield s


@pytest.fixture
def client(server):
    settings = load_settings({"llm_base_url": server.base_url, "llm_api_key": "test-key", "llm_model": "test-model",
                              "llm_timeout_s": 5, "llm_max_retries": 0})
    set_llm_override(None)
    yield OpenAIClient(settings, sleep=lambda s: None)
    set_llm_override(None)


def _docs_replies(server: ChatServer) -> None:
    grade = {"verdicts": [{"n": i, "relevant": True, "reason": "涉及汽车消费补贴"} for i in range(1, 9)]}
    server.enqueue(
        {"content": json.dumps({"queries": ["济南市下半年第一轮汽车消费补贴活动 补贴额度"], "kept_entities": ["济南市"]},
                               ensure_ascii=False), "usage": {"prompt_tokens": 312, "completion_tokens": 24}},
        {"content": json.dumps(grade, ensure_ascii=False), "usage": {"prompt_tokens": 1480, "completion_tokens": 96}},
        {"content": "本次活动资金补贴额度共计1200万元。[1]", "usage": {"prompt_tokens": 2210, "completion_tokens": 31}},
    )


def test_policy_answer_carries_the_tokens_the_server_reported(index, server, client):  # noqa: F811
    _docs_replies(server)
    res = ask_docs(Q_CAR, ADMIN, index=index, llm=client)
    assert res["tokens"] == server.tokens_sent >= 312 + 24 + 1480 + 96 + 2210 + 31
    assert ask_docs(Q_CAR, ADMIN, index=index, llm=None)["tokens"] == 0  # rules mode makes no call


def test_graph_answer_carries_its_tokens_and_rules_mode_none(store, server, client):  # noqa: F811
    q = "青浦-区图书馆2026年3月有多少人出勤？"
    rules = ask_kg(q, principal=ADMIN, auto=True, today=date(2026, 11, 30))
    assert rules["tokens"] == 0 and "共 1 人" in rules["answer"]
    # the model's replies are not usable JSON: the answer falls back to rules, the tokens were spent all the same
    server.enqueue(*[{"content": "我觉得是三月", "usage": {"prompt_tokens": 400, "completion_tokens": 9}}] * 6)
    set_llm_override(client)
    res = ask_kg(q, principal=ADMIN, auto=True, today=date(2026, 11, 30))
    assert "共 1 人" in res["answer"]
    assert res["tokens"] == server.tokens_sent >= 409


def test_task_result_carries_its_tokens(server, client, monkeypatch, tmp_path):
    from core.services.task import run_task

    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))  # keyword search only: fast
    config.set_settings(None)
    assert run_task("汇总家电以旧换新政策的有效期", ADMIN, llm=None)["tokens"] == 0
    plan = {"steps": [{"tool": "search_policy", "args": {"query": "家电以旧换新 有效期"}, "note": "检索"}]}
    server.enqueue({"content": json.dumps(plan, ensure_ascii=False), "usage": {"prompt_tokens": 900, "completion_tokens": 40}})
    res = run_task("汇总家电以旧换新政策的有效期", ADMIN, llm=client)
    assert res["planned_by"] == "llm" and res["tokens"] == server.tokens_sent == 940


def test_the_tokens_metric_sums_real_usage_over_a_run(index, server, client):  # noqa: F811
    cases = [GoldenCase(id=f"t{i}", kind="docs", question=Q_CAR, expect_answer_contains=["1200万元"]) for i in range(2)]
    for _ in cases:
        _docs_replies(server)
    per_case = run_cases(cases, ask=lambda c: ask_docs(c.question, ADMIN, index=index, llm=client))
    assert all(c["judgement"]["tokens"] > 0 for c in per_case)
    assert aggregate(per_case)["docs"]["tokens"] == server.tokens_sent


def test_meters_nest_and_count_nothing_when_closed():
    outer, inner = TokenUsage(), TokenUsage()
    record_usage(5, 5)  # no meter open: nobody counts it
    with metering(outer):
        record_usage(10, 2)
        with metering(inner):
            record_usage(3, 1)
    record_usage(7, 7)
    assert (outer.total, outer.calls, inner.total, inner.prompt_tokens) == (16, 2, 4, 3)
