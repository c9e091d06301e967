"""Refusal below the evidence threshold: "暂未查到…" plus which department or documents may
help. No generation."""

from __future__ import annotations

import time

from core.agents.rag.gaps import related_documents, top_authorities
from core.agents.rag.runtime import add_trace, doc_title


def fallback(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    q = state.get("question") or ""
    resolved = state.get("resolved_question") or q
    # only documents (and their issuers) plausibly about the asked topic, or none at all
    near = related_documents(resolved, state.get("documents") or [])
    msg = f"暂未查到与“{q}”直接相关的政策规定，为避免误导，不作推测性回答。"
    shown = [t for t in state.get("uncovered_terms") or [] if t not in (state.get("guessed_terms") or [])]
    if shown:  # only real words (not 价算 / 天前, guesses of the word cutter)
        msg += f"\n已检索的文件中未涉及：{'、'.join(shown[:4])}。"
    if near:
        titles = "、".join(f"《{doc_title(d)}》" + (f"（{d['doc_number']}）" if d.get("doc_number") else "")
                          for d in near[:3])
        msg += f"\n可能相关的文件：{titles}，可查阅原文确认。"
    depts = top_authorities(near)
    if depts:
        msg += f"\n建议咨询：{'、'.join(depts)}，或拨打 12345 政务服务便民热线。"
    else:
        msg += "\n建议咨询相关主管部门，或拨打 12345 政务服务便民热线。"
    checks = {**(state.get("checks") or {}), "evidence_threshold": False}
    return {"generation": msg, "refused": True, "used_documents": [], "checks": checks,
            "trace": add_trace(state, "fallback", t0, near=[doc_title(d) for d in near[:3]])}
