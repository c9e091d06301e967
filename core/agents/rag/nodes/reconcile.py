"""Reconcile: when other relevant documents fill the asked slot with a different value than the
checked answer's, state the prevailing value with its citation and a short "另有规定" note with
the other value, its citation and why it does not prevail (rules in data/rules/precedence.json).
Runs in both modes, on the answer that passed the citation check."""

from __future__ import annotations

import time

from core.agents.rag.conflicts import conflict_trace, detect_conflicts, reconcile_answer
from core.agents.rag.runtime import add_trace, get_runtime
from core.agents.rag.textutil import place_words


def _relations() -> list[tuple]:
    try:
        from core.retrieval.metastore import MetaStore

        return [(r["from_doc"], r["kind"], r["to_doc"]) for r in MetaStore().relations() if r.get("to_doc")]
    except Exception:  # noqa: BLE001 - an index without the metadata store has no explicit relations
        return []


def _readable(rt, state: dict, docs: list[dict]) -> list[dict]:
    """Only chunks of documents the asker may retrieve now (retrieval already filtered them;
    checked again so that no note can ever come from another tenant's document)."""
    from core.retrieval.filters import doc_allowed

    ok: dict[str, bool] = {}
    out = []
    for d in docs:
        if d["doc_id"] not in ok:
            meta = rt.index.get_meta(d["doc_id"]) if rt.index is not None else None
            ok[d["doc_id"]] = meta is not None and doc_allowed(meta, rt.principal, state.get("scenario"))
        if ok[d["doc_id"]]:
            out.append(d)
    return out


def reconcile(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    question = state.get("resolved_question") or state.get("question") or ""
    answer = state.get("generation") or ""
    used = state.get("used_documents") or []
    if not answer.strip() or len([p for p in state.get("parts") or [] if p]) >= 2:
        return {"conflicts": [], "trace": add_trace(state, "reconcile", t0, conflicts=[])}
    pool = _readable(rt, state, state.get("relevant_pool") or [])
    ctx = {"tenant": (rt.principal.tenants or ("",))[0], "places": list(place_words(question)),
           "relations": _relations()}
    found = detect_conflicts(question, answer, _readable(rt, state, used), pool, ctx)
    if not found:
        return {"conflicts": [], "trace": add_trace(state, "reconcile", t0, conflicts=[])}
    text, used, roles = reconcile_answer(answer, used, pool, found)
    shown = conflict_trace(found, roles)
    checks = {**(state.get("checks") or {}), "conflicts": len(found)}
    return {"generation": text, "used_documents": used, "conflicts": shown, "checks": checks,
            "trace": add_trace(state, "reconcile", t0, conflicts=shown)}
