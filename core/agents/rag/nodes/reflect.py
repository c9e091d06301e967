"""Reflect: after a weak round, say what the next rewrite should add (missing key terms and
their synonyms) and exclude (documents that only produced irrelevant chunks)."""

from __future__ import annotations

import re
import time
from collections import defaultdict

from core.agents.rag.ruledata import weight
from core.agents.rag.textutil import expand_terms
from core.agents.rag.runtime import add_trace, doc_title


def reflect(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    docs = state.get("documents") or []
    missing = list(state.get("missing_terms") or [])
    add = expand_terms(missing)
    by_doc: dict[str, list[dict]] = defaultdict(list)
    for d in docs:
        by_doc[d["doc_id"]].append(d)
    pool_docs = {d["doc_id"] for d in state.get("relevant_pool") or []}
    exclude_ids = [doc_id for doc_id, ds in by_doc.items()
                   if doc_id not in pool_docs and len(ds) >= 2
                   and all(x.get("grade", {}).get("score", 0) < weight("reflect_exclude_document_below") for x in ds)]
    exclude_ids = exclude_ids[:3]
    excluded = list(dict.fromkeys((state.get("excluded_doc_ids") or []) + exclude_ids))
    prior = state.get("reflection_feedback") or ""
    llm_exclude = re.findall(r"排除[:：]([^\n]*)", prior)
    parts = []
    if missing or add:
        parts.append("补充：" + "、".join(dict.fromkeys(missing + add)))
    names = [doc_title(by_doc[i][0]) for i in exclude_ids]
    if names or llm_exclude:
        parts.append("排除：" + "、".join(names + llm_exclude))
    if not parts:
        parts.append("补充：换用公文表述，放宽检索范围")
    feedback = "；".join(parts)
    return {"reflection_feedback": feedback, "excluded_doc_ids": excluded,
            "trace": add_trace(state, "reflect", t0, feedback=feedback, excluded=exclude_ids)}
