"""⑥ run: authorise the plan for the asker (every plan, however it arrived: rules, LLM, an
edited plan, a resumed thread), then execute it on the read-only path; record per step the
executed and dropped parameters, Cypher, bound parameters, row count and rows; strip sensitive
fields for roles without the right before anything reaches the answer (the second line)."""

from __future__ import annotations

from core.agents.kg import context as ctx
from core.agents.kg.executor import run_plan
from core.agents.kg.state import trace
from core.errors import PermissionDenied
from core.security.masking import strip_sensitive


def run(state: dict, *, config) -> dict:
    principal = ctx.principal(config)
    try:
        records = run_plan(state.get("plan") or [], ctx.get_store(config), ctx.today(config), principal)
    except PermissionDenied as exc:
        msg = exc.user_message
        answer = f"{state['compound_prefix']}\n\n{msg}" if state.get("compound_prefix") else msg
        return {"denied": msg, "answer": answer, "steps": [], "rows": [], "need_confirm": None,
                "provenance": list(state.get("compound_prov") or []), "compound_next": False,
                "trace": trace(state, "run", allowed=False, reason=msg)}
    masked: set[str] = set()
    for r in records:
        r["rows"], m = strip_sensitive(r["rows"], principal)
        masked |= set(m)
    return {"steps": records, "rows": records[-1]["rows"] if records else [], "masked_fields": sorted(masked),
            "trace": trace(state, "run", steps=[{"tool": r["tool"], "rows": r["row_count"], "ms": r.get("ms"),
                                                 "dropped": list(r["dropped_params"]), "error": r["error"]}
                                                for r in records])}
