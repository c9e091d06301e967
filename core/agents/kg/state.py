"""State of the business-graph Q&A agent (one LangGraph thread = one conversation).

Everything in the state is plain JSON-able data so the checkpointer (SQLite / Postgres) can
persist it; per-turn keys are reset by the service when a new question starts.
"""

from __future__ import annotations

from typing import Any, TypedDict

MAX_HISTORY_ROWS = 500   # rows kept per turn for context reuse
SCOPE_LIMIT = 30         # more result rows than this → the scope interrupt
MAX_ROUNDS = 3           # capability / replan / reflect retries


class KGState(TypedDict, total=False):
    # conversation
    question: str
    history: list[dict]          # [{question, slots, answer, rows, step_rows}] most recent last
    feedback: str                # a user's 修改 text, carried back into understand
    # understanding
    kind: str                    # "chat" | "graph"
    slots: dict
    features: dict               # QuestionFeatures.to_dict(): the question parsed once (features.py)
    denied: str                  # refusal text when the role may not ask this intent
    reusable: bool
    # grounding / capability
    grounded: dict
    derived: list[dict]
    cap_report: dict
    cap_rounds: int
    slots_confirmed: bool
    # planning / running
    plan: list[dict]
    plan_confirmed: bool
    plan_source: str             # rules | llm | user
    plan_feedback: str
    cancelled: bool              # 取消 on a confirmation: the turn ends, nothing runs
    steps: list[dict]            # per executed step: tool, params, executed/dropped, cypher, rows …
    rows: list[dict]
    run_report: dict
    run_rounds: int
    reflect_rounds: int
    reflect_report: dict
    scope_offered: bool
    scope: dict
    # output
    answer: str
    provenance: list[dict]
    masked_fields: list[str]
    need_confirm: dict | None
    trace: list[dict]
    llm_fallback: str
    # compound questions ("…是谁，他负责几个项目"): the part still to ask, what is answered so far
    compound_rest: str
    compound_next: bool
    compound_prefix: str
    compound_prov: list[dict]


TURN_RESET: dict[str, Any] = {
    "feedback": "", "kind": "", "slots": {}, "features": {}, "denied": "", "reusable": False, "grounded": {},
    "derived": [],
    "cap_report": {}, "cap_rounds": 0, "slots_confirmed": False, "plan": [], "plan_confirmed": False, "cancelled": False,
    "plan_source": "",
    "plan_feedback": "", "steps": [], "rows": [], "run_report": {}, "run_rounds": 0, "reflect_rounds": 0,
    "reflect_report": {}, "scope_offered": False, "scope": {}, "answer": "", "provenance": [],
    "masked_fields": [], "need_confirm": None, "trace": [], "llm_fallback": "",
    "compound_rest": "", "compound_next": False, "compound_prefix": "", "compound_prov": [],
}


def trace(state: dict, node: str, **info) -> list[dict]:
    """The state's trace with one more entry (nodes return it as their ``trace`` update)."""
    return [*(state.get("trace") or []), {"node": node, **info}]
