"""The typed LLM client: against a local Chat Completions server (the real SDK path) and the
scripted fake."""

import time

import pytest
from pydantic import BaseModel

from core.config import load_settings
from core.errors import BudgetExceeded, LLMBadResponse, LLMError, LLMTimeout
from core.llm.budget import Budget
from core.llm.client import OpenAIClient, current_llm, get_llm, set_llm_override
from core.llm.fake import FakeLLM
from tests.support.chat_server import ChatServer


class Verdict(BaseModel):
    relevant: bool
    reason: str


def client_for(server: ChatServer, **kw) -> tuple[OpenAIClient, list]:
    sleeps: list[float] = []
    settings = load_settings({"llm_base_url": server.base_url, "llm_api_key": "test-key", "llm_model": "test-model",
                              "llm_timeout_s": kw.pop("timeout", 5), "llm_max_retries": kw.pop("retries", 3)})
    return OpenAIClient(settings, sleep=sleeps.append), sleeps


@pytest.fixture
def server():
    with ChatServer() as s:
        yield s


def test_offline_mode_without_key():
    assert get_llm() is None and current_llm() is None


def test_generate_returns_validated_model_and_counts_tokens(server):
    server.enqueue({"content": '```json\n{"relevant": true, "reason": "含补贴标准"}\n```'})
    client, _ = client_for(server)
    budget = Budget(max_steps=5, max_tokens=100, deadline_s=30)
    v = client.generate([{"role": "user", "content": "评估"}], Verdict, budget=budget)
    assert v == Verdict(relevant=True, reason="含补贴标准")
    assert budget.tokens == 16 and client.usage["calls"] == 1
    sent = server.requests[0]["body"]
    assert sent["response_format"] == {"type": "json_object"} and "JSON Schema" in sent["messages"][-1]["content"]
    assert server.requests[0]["auth"] == "Bearer test-key"


def test_429_then_success_backs_off(server):
    server.enqueue({"status": 429}, {"status": 503}, {"content": "好的"})
    client, sleeps = client_for(server)
    assert client.complete([{"role": "user", "content": "hi"}]) == "好的"
    assert len(sleeps) == 2 and 0.25 <= sleeps[0] <= 0.5 and 0.5 <= sleeps[1] <= 1.0  # exponential + jitter


def test_malformed_json_is_retried_then_typed_error(server):
    server.enqueue({"content": "我觉得相关"}, {"content": '{"relevant": "maybe"}'})
    client, sleeps = client_for(server, retries=1)
    with pytest.raises(LLMBadResponse):
        client.generate([{"role": "user", "content": "x"}], Verdict)
    assert len(server.requests) == 2 and len(sleeps) == 1


def test_garbage_body_is_an_llm_error(server):
    server.enqueue({"raw": "<html>oops</html>"}, {"raw": "<html>oops</html>"})
    client, _ = client_for(server, retries=1)
    with pytest.raises(LLMError):
        client.complete([{"role": "user", "content": "x"}])


def test_timeout_is_typed(server):
    server.enqueue({"sleep": 1.5, "content": "late"}, {"sleep": 1.5, "content": "late"})
    client, sleeps = client_for(server, timeout=0.3, retries=1)
    t0 = time.monotonic()
    with pytest.raises(LLMTimeout):
        client.complete([{"role": "user", "content": "x"}])
    assert time.monotonic() - t0 < 1.4 and len(sleeps) == 1


def test_client_errors_are_not_retried(server):
    server.enqueue({"status": 400})
    client, sleeps = client_for(server)
    with pytest.raises(LLMError):
        client.complete([{"role": "user", "content": "x"}])
    assert sleeps == [] and len(server.requests) == 1


def test_streaming(server):
    server.enqueue({"stream": ["根据", "第二条", "[1]"]})
    client, _ = client_for(server)
    budget = Budget(max_steps=5, max_tokens=100, deadline_s=30)
    assert "".join(client.stream([{"role": "user", "content": "x"}], budget=budget)) == "根据第二条[1]"
    assert budget.tokens == 10


def test_ping_reports_reachability(server):
    client, _ = client_for(server)
    assert client.ping()[0]
    dead = OpenAIClient(load_settings({"llm_base_url": "http://127.0.0.1:9/v1", "llm_api_key": "k"}))
    assert not dead.ping()[0]


def test_budget_limits():
    now = [0.0]
    b = Budget(max_steps=2, max_tokens=50, deadline_s=10, clock=lambda: now[0])
    b.step()
    b.step()
    with pytest.raises(BudgetExceeded) as e:
        b.step()
    assert e.value.kind == "steps" and "步数" in e.value.user_message
    b = Budget(max_steps=9, max_tokens=50, deadline_s=10, clock=lambda: now[0])
    with pytest.raises(BudgetExceeded) as e:
        b.add_tokens(51)
    assert e.value.kind == "tokens"
    b = Budget(max_steps=9, max_tokens=50, deadline_s=10, clock=lambda: now[0])
    now[0] = 11
    with pytest.raises(BudgetExceeded) as e:
        b.check()
    assert e.value.kind == "time"


def test_reply_over_the_token_budget_trips_the_fuse_not_a_model_error(server):
    server.enqueue({"content": "答复"}, {"content": "不应再请求"})
    client, sleeps = client_for(server)
    budget = Budget(max_steps=5, max_tokens=10, deadline_s=30)
    with pytest.raises(BudgetExceeded) as e:
        client.complete([{"role": "user", "content": "问"}], budget=budget)
    assert e.value.kind == "tokens" and budget.tokens == 16
    assert len(server.requests) == 1 and sleeps == []  # not retried


def test_fake_llm_scripts_and_records():
    fake = FakeLLM().enqueue({"relevant": False, "reason": "无关"}, "文本", LLMError("down"))
    set_llm_override(fake)
    try:
        llm = current_llm()
        assert llm.generate([{"role": "user", "content": "q"}], Verdict).relevant is False
        assert llm.complete([{"role": "user", "content": "q2"}]) == "文本"
        with pytest.raises(LLMError):
            llm.complete([{"role": "user", "content": "q3"}])
        assert [h["messages"][0]["content"] for h in fake.history] == ["q", "q2", "q3"]
    finally:
        set_llm_override(None)
