"""Wiring of the business-graph Q&A agent (seed 003 §3.2):

understand → (chat | permission) → reuse_check → (answer_reuse | ground) → capability ⇄ cap_check
→ confirm ⟲ understand → plan → confirm_plan ⟲ plan/understand → run (END when the plan is not
authorised for the asker; END from either confirmation on 取消) → run_check ⟲ plan → reflect
⟲ plan → (scope → plan) → answer (⟲ understand for the second part of a compound question).
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from core.agents.kg import nodes as N
from core.agents.kg.state import SCOPE_LIMIT, KGState


def _after_understand(state: dict) -> str:
    return "chat" if state.get("kind") == "chat" else "permission"


def _after_permission(state: dict) -> str:
    return END if state.get("denied") else "reuse_check"


def _after_reuse(state: dict) -> str:
    return "answer_reuse" if state.get("reusable") else "ground"


def _after_cap_check(state: dict) -> str:
    return "capability" if (state.get("cap_report") or {}).get("retry") else "confirm"


def _after_confirm(state: dict) -> str:
    if state.get("cancelled"):
        return END
    return "plan" if state.get("slots_confirmed") else "understand"


def _after_plan(state: dict) -> str:
    return "run" if state.get("plan_confirmed") else "confirm_plan"


def _after_confirm_plan(state: dict) -> str:
    if state.get("cancelled"):
        return END
    if state.get("plan_confirmed"):
        return "run"
    if state.get("feedback"):
        return "understand"
    if state.get("plan_feedback"):
        return "plan"
    return "confirm_plan"


def _after_run(state: dict) -> str:
    return END if state.get("denied") else "run_check"


def _after_run_check(state: dict) -> str:
    return "plan" if (state.get("run_report") or {}).get("retry") else "reflect"


def _after_reflect(state: dict) -> str:
    report = state.get("reflect_report") or {}
    if not report.get("fit"):
        return "plan"
    rows = (state.get("steps") or [{}])[-1].get("rows") or []
    if len(rows) > SCOPE_LIMIT and not state.get("scope_offered"):
        return "scope"
    return "answer"


def _after_answer(state: dict) -> str:
    return "understand" if state.get("compound_next") else END  # a compound question's second part


def build_graph(checkpointer=None):
    g = StateGraph(KGState)
    for name in N.__all__:
        g.add_node(name, getattr(N, name))
    g.add_edge(START, "understand")
    g.add_conditional_edges("understand", _after_understand, ["chat", "permission"])
    g.add_edge("chat", END)
    g.add_conditional_edges("permission", _after_permission, [END, "reuse_check"])
    g.add_conditional_edges("reuse_check", _after_reuse, ["answer_reuse", "ground"])
    g.add_edge("answer_reuse", END)
    g.add_edge("ground", "capability")
    g.add_edge("capability", "cap_check")
    g.add_conditional_edges("cap_check", _after_cap_check, ["capability", "confirm"])
    g.add_conditional_edges("confirm", _after_confirm, ["plan", "understand", END])
    g.add_conditional_edges("plan", _after_plan, ["run", "confirm_plan"])
    g.add_conditional_edges("confirm_plan", _after_confirm_plan, ["run", "understand", "plan", "confirm_plan", END])
    g.add_conditional_edges("run", _after_run, [END, "run_check"])
    g.add_conditional_edges("run_check", _after_run_check, ["plan", "reflect"])
    g.add_conditional_edges("reflect", _after_reflect, ["plan", "scope", "answer"])
    g.add_edge("scope", "plan")
    g.add_conditional_edges("answer", _after_answer, ["understand", END])
    return g.compile(checkpointer=checkpointer)


def mermaid() -> str:
    return build_graph().get_graph().draw_mermaid()
