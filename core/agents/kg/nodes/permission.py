"""Role × intent check (core.security.permissions): a denied intent ends with a refusal."""

from __future__ import annotations

from core.agents.kg import context as ctx
from core.agents.kg.coverage import missing_message
from core.agents.kg.state import trace
from core.security.permissions import allowed_intent, denial_message


def _checked_intents(slots: dict) -> list[str]:
    """The intents whose permission applies: a set of records minus another kind's ("项目无",
    "人员无") is checked as both kinds of data it reads."""
    intent = slots.get("intent") or ""
    base = {"项目无": "项目", "人员无": "人员"}.get(intent)
    return [base, slots.get("without") or base] if base else [intent]


def permission(state: dict, *, config) -> dict:
    principal = ctx.principal(config)
    checked = _checked_intents(state.get("slots") or {})
    intent = next((i for i in checked if i and not allowed_intent(principal, i)), checked[-1])
    if intent and not allowed_intent(principal, intent):
        msg = denial_message(principal, intent)
        if state.get("compound_prefix"):  # the second part of a compound question: keep the first answer
            return {"denied": msg, "answer": state["compound_prefix"] + "\n\n" + msg, "need_confirm": None,
                    "rows": [], "provenance": list(state.get("compound_prov") or []), "compound_next": False,
                    "trace": trace(state, "permission", allowed=False, intent=intent)}
        return {"denied": msg, "answer": msg, "need_confirm": None, "rows": [], "provenance": [],
                "trace": trace(state, "permission", allowed=False, intent=intent)}
    missing = (state.get("features") or {}).get("unknown") or (state.get("slots") or {}).get("missing")
    if missing:  # a field or a 片区 the data does not hold: say what is missing instead of answering
        msg = missing_message(missing, intent)
        return {"denied": msg, "answer": msg, "need_confirm": None, "rows": [], "provenance": [],
                "trace": trace(state, "permission", allowed=True, intent=intent, missing=missing)}
    return {"denied": "", "trace": trace(state, "permission", allowed=True, intent=intent)}
