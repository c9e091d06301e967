"""Finalize: output filters (PII masking, sensitive words) on the answer, the citation
list (only numbers the answer uses, each with its supporting quote and location), and the
turn recorded in the thread's history for follow-ups."""

from __future__ import annotations

import re
import time

from core.agents.rag.claims import best_quote, split_claims
from core.agents.rag.runtime import add_trace, doc_title
from core.security.injection import screen_answer

HISTORY_TURNS = 6


def build_citations(answer: str, used: list[dict], roles: dict[str, str] | None = None) -> list[dict]:
    """One card per cited number; ``roles`` marks the documents of a detected conflict
    (chunk id → 采用 / 另有规定 / 并列)."""
    claims = split_claims(answer)
    numbers = sorted({n for c in claims for n in c["cites"] if 1 <= n <= len(used)})
    out = []
    for n in numbers:
        d = used[n - 1]
        quotes = [best_quote(c["plain"], d) for c in claims if n in c["cites"]]
        quote = "".join(dict.fromkeys(q for q in quotes if q))
        spans = d.get("spans") or []
        first = next((s for s in spans if s.get("bbox")), spans[0] if spans else None)
        out.append({"n": n, "chunk_id": d["chunk_id"], "doc_id": d["doc_id"], "file_name": d.get("file_name"),
                    "doc_number": d.get("doc_number") or "", "page": (first or {}).get("page") or d.get("page"),
                    "bbox": (first or {}).get("bbox"), "quote": quote, "title": doc_title(d),
                    "authority": d.get("authority") or "", "date": d.get("date") or "", "status": d.get("status") or "",
                    "expiry_date": d.get("expiry_date") or "", "heading": d.get("heading") or "", "page_end": d.get("page_end"), "spans": spans,
                    "source_type": d.get("source_type") or "", "para": (first or {}).get("para"),
                    "role": (roles or {}).get(d["chunk_id"], "")})
    return out


def renumber(answer: str, used: list[dict]) -> tuple[str, list[dict]]:
    """Relabel the (already verified) [n] markers 1..k in order of first appearance, so the
    reader sees [1], [2] … ; ``used`` is reordered to match."""
    order: list[int] = []
    for m in re.finditer(r"\[(\d{1,3})\]", answer):
        n = int(m.group(1))
        if 1 <= n <= len(used) and n not in order:
            order.append(n)
    if not order or order == list(range(1, len(order) + 1)):
        return answer, used
    mapping = {old: new for new, old in enumerate(order, 1)}
    text = re.sub(r"\[(\d{1,3})\]", lambda m: f"[{mapping.get(int(m.group(1)), int(m.group(1)))}]", answer)
    return text, [used[old - 1] for old in order]


def finalize(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    refused = bool(state.get("refused"))
    used = [] if refused else (state.get("used_documents") or [])
    answer = state.get("generation") or ""
    sources = " ".join((d.get("text") or "") for d in used)
    screened = screen_answer(answer, sources=sources)
    checks = {**(state.get("checks") or {}), "pii_output": not screened["pii_masked"],
              "sensitive_output": not screened["sensitive"]}
    notices = list(state.get("notices") or [])
    answer = screened["answer"]
    if screened["pii_masked"]:
        notices.append("回答中的个人信息已脱敏：" + "、".join(screened["pii_masked"]))
    if screened["sensitive"]:
        answer = "回答内容触发敏感词审核，已拦截并转人工审核。"
        refused = True
        used = []
        notices.append("敏感词：" + "、".join(screened["sensitive"]))
    if not refused:
        answer, used = renumber(answer, used)
        open_parts = [p for p in state.get("unanswered_parts") or [] if p]
        if open_parts and answer.strip():
            # a compound question answered in part: say which part the documents do not answer
            answer += "\n\n" + "\n".join(f"另：关于“{p.strip('？?。')}”，暂未查到相关规定，为避免误导，不作推测。"
                                          for p in open_parts)
            checks["partial_refusal"] = True
    roles = {k: v for c in state.get("conflicts") or [] for k, v in (c.get("roles") or {}).items()}
    citations = [] if refused else build_citations(answer, used, roles)
    counts: dict[str, int] = {}
    for cl in split_claims(answer):
        for n in cl["cites"]:
            if 1 <= n <= len(used):
                counts[used[n - 1]["doc_id"]] = counts.get(used[n - 1]["doc_id"], 0) + 1
    order = sorted(dict.fromkeys(c["doc_id"] for c in citations), key=lambda d: -counts.get(d, 0))
    cited_docs = order
    title_of = {c["doc_id"]: c["title"] for c in citations}
    titles = [title_of[d] for d in order]
    history = list(state.get("history") or [])
    if not state.get("blocked"):
        history.append({"question": state.get("question"), "resolved": state.get("resolved_question") or "",
                        "answer": re.sub(r"\s+", " ", answer)[:300], "doc_ids": cited_docs, "titles": titles,
                        "refused": refused})
    return {"generation": answer, "refused": refused, "citations": citations, "checks": checks, "used_documents": used,
            "notices": notices, "history": history[-HISTORY_TURNS:],
            "trace": add_trace(state, "finalize", t0, citations=len(citations), refused=refused)}
