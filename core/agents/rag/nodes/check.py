"""Citation check before anything is shown: each [n] must exist and its sentence must be
supported by chunk n (normalised char-bigram containment, numbers and 文号/titles present).
On failure: regenerate once (LLM), then drop the failing claims, or refuse if none is left."""

from __future__ import annotations

import time

from core.agents.rag.claims import check_citations, drop_failed_claims
from core.agents.rag.runtime import add_trace, get_runtime, usable_llm


def check(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    used = state.get("used_documents") or []
    draft = state.get("draft") or ""
    report = check_citations(draft, used)
    regen = int(state.get("regenerations") or 0)
    checks = {**(state.get("checks") or {}), "citations_exist": report["citations_exist"],
              "claims_supported": report["claims_supported"], "uncited_claims": report["uncited_claims"],
              "regenerated": regen > 0}
    failed = [c for c in report["claims"] if not c["ok"]]
    info = {"ok": report["ok"], "claims": report["claims_total"], "failed": [f"{c['text'][:40]}：{c['why']}" for c in failed]}
    if report["ok"]:
        checks["citation_check"] = "passed"
        return {"generation": draft, "checks": checks, "check_route": "ok",
                "trace": add_trace(state, "check", t0, **info)}
    if regen == 0 and usable_llm(state, rt) is not None:
        feedback = "；".join(f"“{c['text'][:30]}”{c['why']}" for c in failed[:5]) or "没有可核验的引用"
        checks["citation_check"] = "regenerating"
        return {"regenerations": 1, "check_feedback": feedback, "checks": checks, "check_route": "regenerate",
                "trace": add_trace(state, "check", t0, action="regenerate", **info)}
    kept = drop_failed_claims(draft, report)
    again = check_citations(kept, used) if kept else {"ok": False}
    if kept and again["ok"]:
        checks["citation_check"] = "dropped_claims"
        checks["dropped_claims"] = len(failed)
        notices = list(state.get("notices") or [])
        notices.append(f"有 {len(failed)} 句回答未通过引用核验，已删除")
        return {"generation": kept, "checks": checks, "check_route": "ok", "notices": notices,
                "trace": add_trace(state, "check", t0, action="drop", **info)}
    checks["citation_check"] = "failed"
    return {"generation": "", "checks": checks, "check_route": "refuse",
            "trace": add_trace(state, "check", t0, action="refuse", **info)}
