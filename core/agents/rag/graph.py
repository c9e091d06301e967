"""Wiring of the policy-RAG graph (seed 002's reflection loop):

guard → rewrite → retrieve → grade → (reflect → rewrite)* → generate → check → reconcile → finalize
                                   ↘ fallback → finalize      ↺ generate (once)
rewrite → clarify (too vague) → END; guard → finalize (blocked).
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from core.agents.rag.scoring import STRONG_THRESHOLD
from core.agents.rag.nodes import (
    check, clarify, fallback, finalize, generate, grade, guard, reconcile, reflect, retrieve, rewrite,
)
from core.agents.rag.state import MAX_ROUNDS, RagState


def route_after_guard(state: dict) -> str:
    return "finalize" if state.get("blocked") else "rewrite"


def route_after_rewrite(state: dict) -> str:
    return "clarify" if state.get("clarify") else "retrieve"


def route_after_grade(state: dict) -> str:
    graded = state.get("graded_docs") or []
    pool = state.get("relevant_pool") or []
    best = max((d["grade"]["score"] for d in graded), default=0.0)
    uncovered = state.get("uncovered_terms") or []
    if uncovered:
        more = int(state.get("attempt") or 0) < int(state.get("max_attempts") or MAX_ROUNDS)
        if more:
            return "reflect"
        if not (pool and set(uncovered) <= set(state.get("guessed_terms") or [])):
            return "fallback"  # (a gap that is no real word, 价算 in 不含税价算, refuses nothing)
    if state.get("unanswered_parts") and int(state.get("attempt") or 0) < int(state.get("max_attempts") or MAX_ROUNDS):
        return "reflect"  # a part of a compound question is still open: one more round for it
    if graded and (best >= STRONG_THRESHOLD or len(graded) >= 2):
        return "generate"
    if int(state.get("attempt") or 0) < int(state.get("max_attempts") or MAX_ROUNDS):
        return "reflect"
    return "generate" if pool else "fallback"


def route_after_check(state: dict) -> str:
    return {"ok": "reconcile", "regenerate": "generate"}.get(state.get("check_route") or "", "fallback")


def build_graph(checkpointer=None):
    g = StateGraph(RagState)
    for name, fn in (("guard", guard), ("rewrite", rewrite), ("clarify", clarify), ("retrieve", retrieve),
                     ("grade", grade), ("reflect", reflect), ("generate", generate), ("check", check), ("reconcile", reconcile),
                     ("fallback", fallback), ("finalize", finalize)):
        g.add_node(name, fn)
    g.add_edge(START, "guard")
    g.add_conditional_edges("guard", route_after_guard, {"rewrite": "rewrite", "finalize": "finalize"})
    g.add_conditional_edges("rewrite", route_after_rewrite, {"clarify": "clarify", "retrieve": "retrieve"})
    g.add_edge("clarify", END)
    g.add_edge("retrieve", "grade")
    g.add_conditional_edges("grade", route_after_grade,
                            {"generate": "generate", "reflect": "reflect", "fallback": "fallback"})
    g.add_edge("reflect", "rewrite")
    g.add_edge("generate", "check")
    g.add_conditional_edges("check", route_after_check,
                            {"reconcile": "reconcile", "generate": "generate", "fallback": "fallback"})
    g.add_edge("reconcile", "finalize")
    g.add_edge("fallback", "finalize")
    g.add_edge("finalize", END)
    return g.compile(checkpointer=checkpointer)


def mermaid() -> str:
    return build_graph().get_graph().draw_mermaid()
