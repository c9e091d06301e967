"""ask-docs on the real policy documents (shared/data/policies, the scanned PDF left out to
avoid OCR cost): the golden set in data/eval/docs_golden.jsonl answered in rules mode with
the right citations, refusals, a follow-up resolved from the thread, LLM failure → rules
mode, the CLI contract (single and batch) and the PDF citation preview with highlight.

The documents are ingested ONCE per session into a session workspace; each test points
ZHICE_HOME at it (after the autouse per-test workspace fixture ran)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.agents.rag.textutil import norm
from tests.integration.conftest import SCANNED  # policy_home and in_policy_home are there too

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "data" / "eval" / "docs_golden.jsonl"


pytestmark = pytest.mark.usefixtures("in_policy_home")


@pytest.fixture
def admin():
    from core.security.principals import resolve_user

    return resolve_user(None)


def _golden() -> list[dict]:
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line.strip()]


def judge(case: dict, res: dict) -> tuple[bool, str]:
    if case.get("expect_refusal"):
        return res["refused"], "expected a refusal"
    if res["refused"]:
        return False, "refused"
    answer = norm(res["answer"])
    missing = [f for f in case["expect_answer_contains"] if norm(f) not in answer]
    if missing:
        return False, f"answer lacks {missing}"
    files = {c["file_name"] for c in res["citations"]}
    if case["expect_files"] and not files & set(case["expect_files"]):
        return False, f"cited {sorted(files)}"
    return True, ""


# Measured on the whole file (335 cases: 25 builder cases + the rest written from reading the
# documents, including blind rounds scored before any tuning; the few that only the scanned PDF
# answers are skipped here): 328/335 through `eval` on the demo workspace, rules mode. The threshold leaves three cases of
# margin (a dense-search timeout on a loaded machine degrades to BM25 + titles), so a real
# regression still fails.
GOLDEN_MIN_SHARE = 0.96
REFUSAL_MIN_SHARE = 0.8


def test_golden_set_rules_mode(admin):
    from core.services.ask_docs import ask_docs

    # cases only the scanned PDF answers need it ingested (OCR); the session fixture leaves it out
    cases = [c for c in _golden() if not (c["expect_files"] and set(c["expect_files"]) <= {SCANNED})]
    assert len(cases) >= 130
    results, failures, claim_counts = [], [], []
    for case in cases:
        thread = f"golden-{case['id']}"
        for earlier in case.get("history") or []:  # a follow-up: its earlier turns first, same thread
            ask_docs(earlier, admin, thread_id=thread)
        res = ask_docs(case["question"], admin, thread_id=thread)
        ok, why = judge(case, res)
        results.append(ok)
        if not ok:
            failures.append(f"{case['id']} {case['question']}: {why}\n{res['answer'][:300]}")
        if not res["refused"]:
            assert res["checks"].get("citation_check") in ("passed", "dropped_claims")
            assert res["citations"] and all(c["quote"] for c in res["citations"])
            claim_counts.append(sum(1 for line in res["answer"].splitlines() if line.startswith("- ")))
    share = sum(results) / len(results)
    print(f"\nrules-mode golden share correct: {sum(results)}/{len(results)} = {share:.0%}")
    for f in failures:
        print("FAIL", f)
    assert share >= GOLDEN_MIN_SHARE, "\n".join(failures)
    refusals = [r for r, c in zip(results, cases) if c["expect_refusal"]]
    assert sum(refusals) / len(refusals) >= REFUSAL_MIN_SHARE, "\n".join(failures)
    # the builder's unanswerable cases (北京落户, 上海置换, 税率 …) are refused, every one
    assert all(r for r, c in zip(results, cases) if c["expect_refusal"] and int(c["id"][2:]) <= 25), \
        "\n".join(failures)
    # answers stay short: a few cited sentences on average, never a whole document
    mean_claims = sum(claim_counts) / len(claim_counts)
    print(f"mean cited sentences per answer: {mean_claims:.2f}, max {max(claim_counts)}")
    assert mean_claims <= 3.5 and max(claim_counts) <= 10


def test_followup_article_resolved_from_thread(admin):
    from core.services.ask_docs import ask_docs

    first = ask_docs("济南市家电以旧换新补贴标准是多少？", admin, thread_id="follow-1")
    assert not first["refused"]
    second = ask_docs("那第四条呢？", admin, thread_id="follow-1")
    assert not second["refused"], second["answer"]
    assert "泉城购" in second["answer"] and "2个自然日" in norm(second["answer"])
    assert all("济南市2025年家电以旧换新" in c["file_name"] for c in second["citations"])


def test_llm_failure_answers_in_rules_mode_with_notice(admin):
    from core.errors import LLMError
    from core.llm.fake import FakeLLM
    from core.services.ask_docs import ask_docs

    fake = FakeLLM().enqueue(LLMError("大模型服务繁忙（HTTP 503）"))
    res = ask_docs("新车首保消费券商业保险金额8000元以上可以领取多少？", admin, llm=fake)
    assert not res["refused"] and "3000元" in res["answer"]
    assert any("离线规则模式" in n for n in res["notices"]) and res["mode"] == "rules"


def test_cli_contract_single_and_batch(tmp_path, capsys):
    from core.cli import main

    assert main(["ask-docs", "泉城购政府消费券领取后多长时间内有效？", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"answer", "refused", "citations", "rounds", "trace", "latency_ms"} <= set(out)
    assert out["citations"] and {"n", "chunk_id", "doc_id", "file_name", "doc_number", "page", "bbox", "quote"} <= set(out["citations"][0])
    assert all("node" in t for t in out["trace"])

    batch = tmp_path / "q.jsonl"
    batch.write_text("\n".join([
        json.dumps({"id": "a", "question": "济南市2025年新车首保消费券活动时间是什么时候？", "thread": "b1"}, ensure_ascii=False),
        "{not json",
        json.dumps({"id": "c", "question": "需要提交哪些资料？", "thread": "b1"}, ensure_ascii=False),
        json.dumps({"id": "d", "question": "x" * 10_000}, ensure_ascii=False),
    ]), encoding="utf-8")
    assert main(["ask-docs", "--batch", str(batch), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.strip()]
    assert [x["id"] for x in lines] == ["a", "2", "c", "d"]
    assert "error" in lines[1] and "过长" in lines[3]["error"]
    assert "2025年5月1日" in lines[0]["answer"]
    assert "身份证" in lines[2]["answer"] and not lines[2]["refused"]

    assert main(["ask-docs", "", "--json"]) == 2


def test_pdf_citation_preview_highlights_the_quote(admin):
    from core.services.ask_docs import ask_docs, citation_preview

    res = ask_docs("济南市家电以旧换新的补贴标准是多少？", admin)
    pdf = [c for c in res["citations"] if c["file_name"].endswith(".pdf")]
    assert pdf, res
    preview = citation_preview(pdf[0], admin)
    assert preview["kind"] == "pdf" and preview["pages"]
    page = preview["pages"][0]
    assert page["png"][:8] == b"\x89PNG\r\n\x1a\n"
    assert page["boxes"] >= 1 and page["located_by"] in ("quote", "chunk")


def test_docx_citation_preview_marks_paragraph(admin):
    from core.services.ask_docs import ask_docs, citation_preview

    res = ask_docs("泉城购餐饮消费券有哪些面额？", admin)
    docx_c = [c for c in res["citations"] if c["file_name"].endswith(".docx")]
    assert docx_c
    preview = citation_preview(docx_c[0], admin)
    assert preview["kind"] == "text"
    marked = [p["text"] for p in preview["paragraphs"] if p["highlight"]]
    assert marked and any(re.search(r"满\d+元减", t) for t in marked)


def test_other_tenant_sees_nothing_and_cannot_open_citations(admin):
    from core.errors import PermissionDenied
    from core.security.principals import UserStore
    from core.services.ask_docs import ask_docs, citation_preview

    store = UserStore()
    if not store.exists("outsider"):
        store.add("outsider", "staff", "outsider-pass-1", tenants=["other"])
    outsider = store.get("outsider")
    res = ask_docs("泉城购政府消费券领取后多长时间内有效？", outsider)
    assert res["refused"] and res["citations"] == []
    mine = ask_docs("泉城购政府消费券领取后多长时间内有效？", admin)
    with pytest.raises(PermissionDenied):
        citation_preview(mine["citations"][0], outsider)
    # threads are private: the outsider's thread of the same id has no history of the admin's turn
    follow = ask_docs("需要哪些材料？", outsider, thread_id=mine["thread_id"])
    assert follow["clarify"] is not None
