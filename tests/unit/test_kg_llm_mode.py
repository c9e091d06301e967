"""LLM mode with the scripted fake: every prompt carries READ_ONLY_SAFETY, LLM output goes
through the same rule checks, and a failing model falls back to rules mode and says so."""

from datetime import date

import numpy as np
import pytest

from core.agents.kg.entity_index import EntityIndex
from core.errors import LLMError
from core.llm.client import READ_ONLY_SAFETY, set_llm_override
from core.llm.fake import FakeLLM
from core.security.principals import Principal, Role
from core.services.ask_kg import ask_kg
from tests.unit.test_kg_graph import store  # noqa: F401 - fixture

TODAY = date(2026, 11, 30)
ADMIN = Principal("admin", Role.admin)


@pytest.fixture
def fake():
    llm = FakeLLM()
    set_llm_override(llm)
    yield llm
    set_llm_override(None)


def test_prompts_carry_safety_and_answer_numbers_are_checked(store, fake):  # noqa: F811
    fake.enqueue({"kind": "graph", "intent": "考勤", "projects": ["青浦-区图书馆"], "time_text": "2026年3月"},
                 {"answer": "青浦-区图书馆共有 99 人出勤〔考勤与人员财务｜att.xlsx｜第2行〕"})  # 99 is made up
    r = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=ADMIN, today=TODAY, auto=True)
    assert fake.pending == 0 and len(fake.history) == 2
    for call in fake.history:
        assert READ_ONLY_SAFETY in call["messages"][0]["content"]
    assert "99" not in r["answer"] and "共 1 人" in r["answer"]  # the invented number was rejected


def test_polished_answer_with_only_known_numbers_is_used(store, fake):  # noqa: F811
    fake.enqueue({"kind": "graph", "intent": "考勤"},
                 {"answer": "2026年3月青浦-区图书馆（P1）出勤 1 人：甲（K1）〔考勤与人员财务｜att.xlsx｜第2行〕"})
    r = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=ADMIN, today=TODAY, auto=True)
    assert r["answer"].startswith("2026年3月青浦-区图书馆（P1）出勤 1 人")


def test_model_failure_falls_back_to_rules_and_says_so(store, fake):  # noqa: F811
    fake.enqueue(LLMError("down"), LLMError("down"))
    r = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=ADMIN, today=TODAY, auto=True)
    assert "共 1 人" in r["answer"] and "规则模式" in r["answer"]


def test_unknown_intent_from_llm_is_ignored(store, fake):  # noqa: F811
    fake.enqueue({"kind": "graph", "intent": "删除数据"}, {"answer": "x"})
    r = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=ADMIN, today=TODAY, auto=True)
    assert r["slots"]["intent"] == "考勤"


class _Emb:
    def __init__(self, fail=False):
        self.fail = fail

    def encode_passages(self, texts):
        if self.fail:
            raise RuntimeError("no model")
        return np.array([[1.0, 0.0] if "图书" in t else [0.0, 1.0] for t in texts], dtype=np.float32)

    def encode_queries(self, texts):
        return np.array([[0.9, 0.1]], dtype=np.float32)


def test_embedding_fallback_and_graceful_degradation():
    idx = EntityIndex.from_rows([{"项目编号": "P1", "项目名称": "青浦-区图书馆"}, {"项目编号": "P2", "项目名称": "徐汇-滨江公园"}],
                                [], [], {}, None, {})
    cands = idx.resolve("project", "藏书楼", embedder=lambda: _Emb())
    assert cands and cands[0].key == "P1" and cands[0].method == "embedding" and cands[0].score >= 0.5
    assert EntityIndex.from_rows([{"项目编号": "P1", "项目名称": "青浦-区图书馆"}], [], [], {}, None, {}).resolve(
        "project", "藏书楼", embedder=lambda: _Emb(fail=True)) == []


class _Flat(_Emb):
    def encode_passages(self, texts):
        return np.array([[0.7, 0.7] for _ in texts], dtype=np.float32)


def test_embedding_without_a_clear_leader_is_not_a_match():
    from core.agents.kg.grounding import ground_slots

    idx = EntityIndex.from_rows([{"项目编号": "P1", "项目名称": "青浦-区图书馆"}, {"项目编号": "P2", "项目名称": "徐汇-滨江公园"}],
                                [], [], {}, None, {})
    idx._embed_cache["projects"] = _Flat().encode_passages(["a", "b"])
    cands = idx.resolve("project", "火星基地", embedder=lambda: _Flat())
    assert cands and all(c.score < 0.5 for c in cands)
