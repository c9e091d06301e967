"""Retrieve: hybrid search for every sub-query (permission filter inside the index), a
follow-up searches its previous documents first; merged by chunk, noise documents named by
the reflection step left out."""

from __future__ import annotations

import time

from core.agents.rag.runtime import add_trace, get_runtime
from core.agents.rag.state import hit_to_doc

MAX_DOCS = 16
PER_QUERY_KEEP = 4


def retrieve(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    queries = state.get("sub_queries") or [state.get("resolved_question") or state.get("question")]
    focus = state.get("focus_doc_ids") or []
    excluded = set(state.get("excluded_doc_ids") or [])
    scenario = state.get("scenario")
    merged: dict[str, dict] = {}
    notices = list(state.get("notices") or [])
    degraded = False
    searches = []
    per_query: list[list[str]] = []
    plan = [(q, focus or None, 16) for q in queries]
    if focus:
        plan.append((queries[0], None, 5))
    for q, doc_ids, k in plan:
        try:
            res = rt.index.search(q, rt.principal, k=k, scenario=scenario, doc_ids=doc_ids)
        except Exception as exc:  # noqa: BLE001 - a failed search is reported, not fatal
            msg = getattr(exc, "user_message", None) or f"检索出错（{type(exc).__name__}）"
            if msg not in notices:
                notices.append(msg)
            continue
        degraded = degraded or bool(getattr(res, "degraded", False))
        for n in getattr(res, "notices", []) or []:
            if n not in notices:
                notices.append(n)
        searches.append({"query": q, "hits": len(res.hits), "scoped": bool(doc_ids),
                         "latency_ms": round(float(getattr(res, "latency_ms", 0.0) or 0.0), 1)})
        ids: list[str] = []
        per_query.append(ids)
        for h in res.hits:
            d = hit_to_doc(h, q)
            if d["doc_id"] not in excluded:
                ids.append(d["chunk_id"])
            if d["doc_id"] in excluded:
                continue
            fused = float((d["evidence"] or {}).get("fused") or d["score"] or 0.0)
            d["fused"] = fused
            if doc_ids:
                d["focus"] = True
            old = merged.get(d["chunk_id"])
            if old is None or fused > old["fused"]:
                merged[d["chunk_id"]] = d
    ranked = sorted(merged.values(), key=lambda d: (not d.get("focus"), -d["fused"]))
    if len(per_query) > 1:
        # every sub-question keeps its own best chunks, whatever the others' scores
        keep = list(dict.fromkeys(cid for ids in per_query for cid in ids[:PER_QUERY_KEEP] if cid in merged))
        rest = [d for d in ranked if d["chunk_id"] not in set(keep)]
        limit = max(MAX_DOCS, len(keep))
        docs = sorted([merged[c] for c in keep] + rest[:max(0, limit - len(keep))],
                      key=lambda d: (not d.get("focus"), -d["fused"]))
    else:
        docs = ranked[:MAX_DOCS]
    return {"documents": docs, "notices": notices,
            "trace": add_trace(state, "retrieve", t0, searches=searches, hits=len(docs), degraded=degraded,
                               chunks=[d["chunk_id"] for d in docs])}
