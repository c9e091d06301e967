"""Conflicting evidence on the real documents: the two rounds of Jinan's 2025 下半年 car-subsidy
campaign give different dates for the same slot (the later round prevails, or the earlier one
has expired), the Shandong plan and the Jinan rules agree on the subsidy figures (no note), and
another tenant's copy of a round with other dates never reaches a note, a citation or the
trace. The same department spelled two ways (市商务局 / 各市商务主管部门, 市发展改革委 / 各市发展改革委)
and the same condition in both rounds (不限户籍) are no conflict either. Rules mode and LLM mode (a
local Chat Completions server) both reconcile in code."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from core import config

ROUND1 = "济南市2025年下半年汽车消费补贴活动第一轮公告.docx"
ROUND2 = "济南市2025年下半年汽车消费补贴活动第二轮公告.docx"
JINAN = "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知(1).pdf"
PROVINCE = "省商务厅等4部门关于印发《山东省2025年家电以旧换新实施方案》的通知.pdf"
# the county's and the city's annual reports: each office compiles its own (no conflict between levels)
REPORTS = ("洪泽区2023年政府信息公开工作年度报告.pdf", "淮安市人民政府2024年政府信息公开工作年度报告.pdf")
OUTSIDE_DATES = "2025年8月6日10时至2025年9月30日24时"  # only in the other tenant's copy
ASK_DEADLINE = "济南下半年汽车消费补贴的补贴资料申报时间是什么时候？"


def _other_tenant_copy(src: Path, dest: Path) -> Path:
    """Round 2 as another tenant holds it, with a later deadline written in."""
    from docx import Document

    doc = Document(str(src))
    for p in doc.paragraphs:
        for run in p.runs:
            run.text = run.text.replace("9月5日", "9月30日")
    assert any(OUTSIDE_DATES in p.text for p in doc.paragraphs)
    doc.save(str(dest))
    return dest


@pytest.fixture(scope="module")
def conflict_home(tmp_path_factory, shared_data, model_cache) -> Path:
    home = tmp_path_factory.mktemp("conflicts")
    saved = {k: os.environ.get(k) for k in ("ZHICE_HOME", "ZHICE_MODEL_CACHE", "ZHICE_TODAY")}
    os.environ.update(ZHICE_HOME=str(home), ZHICE_TODAY="2025-04-15", ZHICE_MODEL_CACHE=str(model_cache))
    config.set_settings(None)
    try:
        from core.security.principals import UserStore, resolve_user
        from core.services.ingest import ingest_paths

        admin = resolve_user(None)
        policies = shared_data / "policies"
        mine = ingest_paths([policies / n for n in (ROUND1, ROUND2, JINAN, PROVINCE, *REPORTS)], admin, "demo",
                            approve=True)
        assert len(mine["documents"]) == 6, mine["errors"]
        outside = _other_tenant_copy(policies / ROUND2, home / "第二轮公告（外单位）.docx")
        theirs = ingest_paths([outside], admin, "other", approve=True)
        assert len(theirs["documents"]) == 1, theirs["errors"]
        UserStore().add("analyst_demo", "staff", "analyst-pass-1", tenants=["demo"], scenario="research")
    finally:
        for k, v in saved.items():
            os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)
        config.set_settings(None)
    return home


@pytest.fixture(autouse=True)
def _use_home(conflict_home, workspace, monkeypatch):
    monkeypatch.setenv("ZHICE_HOME", str(conflict_home))
    monkeypatch.setenv("ZHICE_TODAY", "2025-04-15")
    config.set_settings(None)
    yield
    config.set_settings(None)


@pytest.fixture
def analyst():
    from core.security.principals import UserStore

    return UserStore().get("analyst_demo")


def _roles(res: dict) -> dict[str, str]:
    return {c["file_name"]: c.get("role") for c in res["citations"]}


def _cited_line(res: dict, file_name: str) -> str:
    n = next(c["n"] for c in res["citations"] if c["file_name"] == file_name)
    return next(line for line in res["answer"].splitlines() if f"[{n}]" in line)


def test_later_round_prevails_and_the_earlier_round_is_noted_with_its_reason(analyst):
    from core.services.ask_docs import ask_docs

    res = ask_docs(ASK_DEADLINE, analyst)
    assert not res["refused"]
    assert _roles(res) == {ROUND2: "采用", ROUND1: "另有规定"}
    # the prevailing value, with the second round's citation, outside the note
    assert "2025年9月5日24时" in _cited_line(res, ROUND2) and not _cited_line(res, ROUND2).startswith("另有规定")
    note = _cited_line(res, ROUND1)
    assert note.startswith("另有规定：") and "2025年8月5日24时" in note and "后续轮次" in note
    # the reviewer's trace names both documents, the prevailing one and the deciding rule
    step = next(t for t in res["trace"] if t["node"] == "reconcile")
    [conflict] = step["conflicts"]
    sides = {conflict["answer_side"]["title"], conflict["other_side"]["title"]}
    assert any("第一轮" in t for t in sides) and any("第二轮" in t for t in sides)
    assert conflict["rule"] == "relation" and "第二轮" in conflict[conflict["prevails"]]["title"]
    assert res["checks"]["conflicts"] == 1


def test_an_expired_round_loses_on_validity_and_says_since_when(analyst, monkeypatch):
    from core.services.ask_docs import ask_docs

    monkeypatch.setenv("ZHICE_TODAY", "2025-08-20")  # the first round ended on 2025-08-05
    config.set_settings(None)  # today is a setting: re-read it
    res = ask_docs("济南下半年汽车消费补贴的购车时间是什么时候？", analyst, scenario="research")
    [conflict] = res["conflicts"]
    assert conflict["rule"] == "validity"
    assert "已于2025-08-05到期" in _cited_line(res, ROUND1)
    assert "2025年8月1日0时至2025年8月31日24时" in _cited_line(res, ROUND2)
    assert _roles(res)[ROUND2] == "采用"


@pytest.mark.parametrize("question, value", [
    ("家电以旧换新每件补贴最多多少钱？", "2000元"),           # the province's plan and Jinan's rules agree
    ("家电产品卖出后多少天内要完成送货安装？", "15日"),
    ("济南下半年汽车消费补贴资金额度共计多少？", "1200万元"),  # both rounds agree
])
def test_no_note_when_the_documents_agree(analyst, question, value):
    from core.services.ask_docs import ask_docs

    res = ask_docs(question, analyst)
    assert value in res["answer"] and len({c["file_name"] for c in res["citations"]}) >= 1
    assert res["conflicts"] == [] and "另有规定" not in res["answer"]
    assert all(not c.get("role") for c in res["citations"])


def test_another_tenants_document_never_reaches_the_note(analyst):
    from core.security.principals import resolve_user
    from core.services.ask_docs import ask_docs

    res = ask_docs(ASK_DEADLINE, analyst)
    shown = json.dumps({k: res[k] for k in ("answer", "citations", "trace", "conflicts")}, ensure_ascii=False)
    assert "9月30日" not in shown and "外单位" not in shown
    assert {c["file_name"] for c in res["citations"]} <= {ROUND1, ROUND2}
    # the copy is really there: an administrator over every tenant retrieves it
    everyone = ask_docs(ASK_DEADLINE, resolve_user(None))
    assert "9月30日" in json.dumps(everyone["citations"] + everyone["conflicts"], ensure_ascii=False)


def test_city_rules_prevail_over_the_province_plan_for_a_question_about_the_city():
    from core.agents.rag.state import hit_to_doc
    from core.documents.precedence import decide
    from core.retrieval.index import get_index

    idx = get_index()
    metas = {m.file_name: m for m in idx.list_docs()}
    city, province = ({"meta": metas[n], "chunk": idx.chunks_of(metas[n].doc_id)[0]} for n in (JINAN, PROVINCE))
    city, province = hit_to_doc(city), hit_to_doc(province)
    verdict = decide(province, city, {"tenant": "demo", "places": ["济南"]})
    assert verdict["winner"] == "b" and verdict["rule"] == "place"
    assert verdict["reason"].startswith("市级文件对济南更具体")
    # about the province as a whole the city's rules are not the more specific ones
    assert decide(province, city, {"tenant": "demo", "places": ["山东"]})["winner"] == "a"


def test_llm_answer_citing_the_earlier_round_is_reconciled_in_code(analyst):
    from core.config import load_settings
    from core.llm.client import OpenAIClient
    from core.services.ask_docs import ask_docs
    from tests.support.chat_server import ChatServer

    def draft(body: dict) -> str:
        """The model answers from the first round only, citing it correctly."""
        listing = body["messages"][-1]["content"]
        n = next(m.group(1) for m in re.finditer(r"\[(\d+)\]《([^》]*)》", listing) if "第一轮" in m.group(2)
                 and "补贴资料申报及修改时间" in listing[m.end():].split("\n[")[0])
        return f"补贴资料申报及修改时间：2025年7月10日10时至2025年8月5日24时。[{n}]"

    class Drafted(dict):
        """A reply whose text is written from the request being answered (the last one received)."""

        def get(self, key, default=None):
            return draft(server.requests[-1]["body"]) if key == "content" else super().get(key, default)

    with ChatServer() as server:
        server.enqueue({"content": json.dumps({"queries": [ASK_DEADLINE], "kept_entities": ["济南", "下半年"]},
                                              ensure_ascii=False)},
                       {"content": json.dumps({"verdicts": [{"n": i, "relevant": True} for i in range(1, 17)]})},
                       Drafted())
        llm = OpenAIClient(load_settings({"llm_base_url": server.base_url, "llm_api_key": "test-key",
                                          "llm_model": "test-model", "llm_max_retries": 0}))
        res = ask_docs(ASK_DEADLINE, analyst, llm=llm)
    assert res["mode"] == "llm" and not any("离线规则模式" in n for n in res["notices"]), res["notices"]
    assert _roles(res) == {ROUND2: "采用", ROUND1: "另有规定"}
    assert _cited_line(res, ROUND2).startswith("以《") and "2025年9月5日24时" in _cited_line(res, ROUND2)
    assert _cited_line(res, ROUND1).startswith("另有规定：") and "后续轮次" in res["answer"]


def test_golden_cases_of_conflicting_and_agreeing_evidence_pass(analyst):
    """The golden set's 冲突证据 / 证据一致 cases, scored as the evaluation report scores them
    (a note where the documents agree fails a case, as does a missing one)."""
    from core.evaluation.golden import BUILTIN_DIR, load_golden
    from core.evaluation.metrics import AGREE_CATEGORY, CONFLICT_CATEGORY, score_case
    from core.services.ask_docs import ask_docs

    cases = [c for c in load_golden(BUILTIN_DIR / "docs_golden.jsonl") if c.category in (CONFLICT_CATEGORY, AGREE_CATEGORY)]
    assert {c.category for c in cases} == {CONFLICT_CATEGORY, AGREE_CATEGORY} and len(cases) >= 6
    failed = {c.id: score_case(c, ask_docs(c.question, analyst))["checks"] for c in cases}
    assert not {k: v for k, v in failed.items() if not all(v.values())}
