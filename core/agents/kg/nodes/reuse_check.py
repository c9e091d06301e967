"""①′ reuse_check: can the previous turn's rows answer this follow-up without a new query?
Only when there is history, the intent is the same, no new entity/time/filter widens the
scope, and the earlier rows hold every field the conditions need."""

from __future__ import annotations

from core.agents.kg.expr import referenced_names
from core.agents.kg.state import trace


def _subset(new, old) -> bool:
    return set(new or []) <= set(old or [])


def reuse_check(state: dict, *, config) -> dict:
    history = state.get("history") or []
    slots = state.get("slots") or {}
    if not history or state.get("feedback") or not slots.get("followup"):
        return {"reusable": False, "trace": trace(state, "reuse_check", reusable=False)}
    prev = history[-1]
    ps = prev.get("slots") or {}
    rows = prev.get("rows") or []
    ok = bool(rows) and not prev.get("truncated") and ps.get("intent") == slots.get("intent")
    ok = ok and _subset(slots.get("projects"), ps.get("projects")) and _subset(slots.get("people"), ps.get("people"))
    ok = ok and (slots.get("time") or {}).get("months") == (ps.get("time") or {}).get("months")
    new_filters = slots.get("filters") or {}
    keys = set(rows[0]) if rows else set()
    for f, vals in new_filters.items():
        old = (ps.get("filters") or {}).get(f)
        # earlier rows were already cut to the old values: only a narrowing can be derived from them
        if vals != old and (f not in keys or (old and not set(vals) <= set(old))):
            ok = False
    for c in slots.get("conditions") or []:
        if not referenced_names(c["expr"]) <= keys and not c.get("derived"):
            ok = False
    changed = (slots.get("conditions") != ps.get("conditions") or new_filters != (ps.get("filters") or {})
               or slots.get("agg") != ps.get("agg") or slots.get("consecutive"))
    ok = ok and bool(changed)
    # ratios, period comparisons and per-area nesting are computed afresh (they need other rows)
    ok = ok and not slots.get("ratio") and not slots.get("growth") and not (slots.get("agg") or {}).get("outer") \
        and not (slots.get("agg") or {}).get("per_all")  # every in-service person / project: a fresh query
    return {"reusable": ok, "trace": trace(state, "reuse_check", reusable=ok)}
