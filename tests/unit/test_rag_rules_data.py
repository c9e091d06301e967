"""Rules-mode knowledge of the policy engine is data (data/rules/rag_vocabulary.json,
rag_patterns.json, answer_weights.json): a new synonym or phrasing is a row in a file, with
no code change, and every file and weight is what the code reads."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from core.agents.rag import ruledata
from core.agents.rag.amounts import question_amounts
from core.agents.rag.gaps import question_gaps, uncovered_nouns
from core.agents.rag.textutil import canonical_question, coverage

REPO = Path(__file__).resolve().parents[2]
RAG_FILES = ("rag_vocabulary", "rag_patterns", "answer_weights")

PENSION = {"chunk_id": "c1", "doc_id": "d1", "title": "济南市城乡居民基本养老保险实施办法", "heading": "第五条",
           "text": "参保人员年满60周岁的，按月领取基本养老保险待遇。", "grade": {"score": 0.6}}


@pytest.fixture
def rules_copy(tmp_path, monkeypatch):
    """A copy of data/rules the engine reads instead of the real one; edit it with ``edit``."""
    for p in (REPO / "data" / "rules").glob("*.json"):
        shutil.copy(p, tmp_path / p.name)
    monkeypatch.setattr(ruledata, "RULES_DIR", tmp_path)
    ruledata.reload()

    def edit(name: str, change) -> None:
        path = tmp_path / f"{name}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        ruledata.reload()

    yield edit
    monkeypatch.undo()
    ruledata.reload()


def test_a_synonym_added_to_the_data_file_closes_a_gap(rules_copy):
    q = "退休金怎么领？"
    # the documents say 养老保险待遇, the citizen says 退休金: the engine finds the subject missing
    assert uncovered_nouns(q, [PENSION]) == ["退休金"]
    assert "退休金" in question_gaps(q, [PENSION])
    assert coverage(["退休金"], PENSION["text"])[0] == 0.0

    rules_copy("rag_vocabulary", lambda v: v["synonyms"]["map"].update({"退休金": ["养老保险待遇", "养老金"]}))

    assert uncovered_nouns(q, [PENSION]) == []
    assert "退休金" not in question_gaps(q, [PENSION])
    cov, hit, _ = coverage(["退休金"], PENSION["text"])
    assert hit == ["退休金"] and cov == pytest.approx(ruledata.weight("synonym_hit_share"))


def test_a_colloquial_phrasing_added_to_the_data_file_is_understood(rules_copy):
    q = "买2500大洋的空调能补多少？"
    assert question_amounts(canonical_question(q)) == []

    rules_copy("rag_patterns", lambda p: p["colloquial"]["rows"].insert(
        0, {"pattern": r"(\d+(?:\.\d+)?)\s*大洋", "replace": r"\1元"}))

    assert "2500元" in canonical_question(q)
    assert question_amounts(canonical_question(q)) == [2500.0]


def test_a_changed_weight_changes_the_grade(rules_copy):
    from core.agents.rag.scoring import score_chunk

    q = "济南市养老保险待遇按月领取吗？"
    before = score_chunk(q, PENSION)["score"]
    rules_copy("answer_weights", lambda w: w["chunk_grade"].update({"key_term_coverage": 0.0}))
    assert score_chunk(q, PENSION)["score"] < before


def test_rule_files_are_versioned_and_every_weight_is_read_by_the_code():
    src = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "core" / "agents" / "rag").rglob("*.py"))
    for name in RAG_FILES:
        data = json.loads((REPO / "data" / "rules" / f"{name}.json").read_text(encoding="utf-8"))
        assert isinstance(data.get("version"), int) and data.get("说明"), name
    unused = [w for w in ruledata.weights() if not re.search(r"[\"']" + re.escape(w) + r"[\"']", src)]
    assert unused == [], f"weights no code reads: {unused}"
    vocab = json.loads((REPO / "data" / "rules" / "rag_vocabulary.json").read_text(encoding="utf-8"))
    unread = [k for k in vocab if k not in ("version", "说明") and not re.search(r"[\"']" + re.escape(k) + r"[\"']", src)]
    assert unread == [], f"vocabulary entries no code reads: {unread}"
    patterns = ruledata.rules_file("rag_patterns")["patterns"]
    unread = [k for k in patterns if not re.search(r"[\"']" + re.escape(k) + r"[\"']", src)]
    assert unread == [], f"patterns no code reads: {unread}"
    for key in patterns:  # every pattern compiles
        ruledata.pattern(key)


# ---- the worked examples of docs/extending-rules.md -----------------------------------------
JULY_NOTICE = {"title": "济南市2025年下半年第一轮汽车消费补贴活动公告", "expiry_date": "2025-08-05"}
JANUARY_NOTICE = {"title": "2025年政府汽车消费补贴活动公告", "expiry_date": "2025-04-30"}


def test_extending_rules_example_a_period_word_is_a_data_row(rules_copy):
    from core.agents.rag.periods import asked_months, period_mismatch

    q = "暑期的汽车消费补贴怎么领？"
    assert asked_months(q) == set()  # before: 暑期 names no period, any notice may answer
    assert period_mismatch(q, JANUARY_NOTICE) == ""

    rules_copy("rag_vocabulary", lambda v: v["period_months"]["map"].update({"暑期": [7, 8]}))

    assert asked_months(q) == {7, 8}
    assert period_mismatch(q, JANUARY_NOTICE) == "文件时段为1—4月"  # valid until April: not the one asked
    assert period_mismatch(q, JULY_NOTICE) == ""


def test_extending_rules_example_an_answer_shape_is_a_data_row(rules_copy):
    from core.agents.rag.answer_extraction import answer_shape

    q = "在哪家银行的平台申报？"
    assert answer_shape(q).search("登录齐鲁银行权益平台进行申报") and not answer_shape(q).search("补贴发放至银行卡")

    rules_copy("rag_patterns", lambda p: p["answer_types"]["rows"].pop(0))  # without the row 银行 is no shape

    assert answer_shape(q) is None
