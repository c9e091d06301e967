"""Refusal below the evidence threshold: "暂未查到…" plus which department or documents may
help. No generation."""

from __future__ import annotations

import time

from core.agents.rag.logic import top_authorities
from core.agents.rag.runtime import add_trace, doc_title, get_runtime
from core.agents.rag.textutil import coverage, key_terms


def fallback(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    q = state.get("question") or ""
    resolved = state.get("resolved_question") or q
    terms = list(key_terms(resolved))
    near = []
    for d in state.get("documents") or []:
        cov, hit, _ = coverage(terms, (d.get("title") or "") + (d.get("text") or ""))
        if cov >= 0.25 and doc_title(d) not in [doc_title(x) for x in near]:
            near.append(d)
    msg = f"暂未查到与“{q}”直接相关的政策规定，为避免误导，不作推测性回答。"
    if state.get("uncovered_terms"):
        msg += f"\n已检索的文件中未涉及：{'、'.join(state['uncovered_terms'][:4])}。"
    if near:
        titles = "、".join(f"《{doc_title(d)}》" + (f"（{d['doc_number']}）" if d.get("doc_number") else "")
                          for d in near[:3])
        msg += f"\n可能相关的文件：{titles}，可查阅原文确认。"
        depts = top_authorities(near)
    else:
        depts = []
        for m in rt.list_docs():
            auth = (m.get("authorities") if isinstance(m, dict) else getattr(m, "authorities", None)) or []
            for a in auth[:1]:
                if a not in depts:
                    depts.append(a)
        depts = depts[:3]
    if depts:
        msg += f"\n建议咨询：{'、'.join(depts)}，或拨打 12345 政务服务便民热线。"
    else:
        msg += "\n建议咨询相关主管部门，或拨打 12345 政务服务便民热线。"
    checks = {**(state.get("checks") or {}), "evidence_threshold": False}
    return {"generation": msg, "refused": True, "used_documents": [], "checks": checks,
            "trace": add_trace(state, "fallback", t0, near=[doc_title(d) for d in near[:3]])}
