"""⑥ run: execute the plan on the read-only path; record per step the executed and dropped
parameters, Cypher, bound parameters, row count and rows; strip sensitive fields for roles
without the right before anything reaches the answer."""

from __future__ import annotations

from core.agents.kg import context as ctx
from core.agents.kg.executor import run_plan
from core.agents.kg.state import trace
from core.security.masking import strip_sensitive


def run(state: dict, *, config) -> dict:
    records = run_plan(state.get("plan") or [], ctx.get_store(config), ctx.today(config))
    principal = ctx.principal(config)
    masked: set[str] = set()
    for r in records:
        r["rows"], m = strip_sensitive(r["rows"], principal)
        masked |= set(m)
    return {"steps": records, "rows": records[-1]["rows"] if records else [], "masked_fields": sorted(masked),
            "trace": trace(state, "run", steps=[{"tool": r["tool"], "rows": r["row_count"], "ms": r.get("ms"),
                                                 "dropped": list(r["dropped_params"]), "error": r["error"]}
                                                for r in records])}
