"""Wiring of the policy task graph (seed 000 Q13–Q15):

plan → review → route ⇄ (execute → check → route) → summarize
              ↖ route (an edited plan that did not validate is reviewed again)

The Router holds the fuses (steps / tokens / seconds): when one trips, the Summarizer writes
a partial report naming it.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from core.agents.task.nodes import check, execute, plan, review, route, summarize
from core.agents.task.nodes.route import next_node
from core.agents.task.state import TaskState


def build_graph(checkpointer=None):
    g = StateGraph(TaskState)
    for name, fn in (("plan", plan), ("review", review), ("route", route), ("execute", execute),
                     ("check", check), ("summarize", summarize)):
        g.add_node(name, fn)
    g.add_edge(START, "plan")
    g.add_edge("plan", "review")
    g.add_edge("review", "route")
    g.add_conditional_edges("route", next_node, {"execute": "execute", "summarize": "summarize", "review": "review"})
    g.add_edge("execute", "check")
    g.add_edge("check", "route")
    g.add_edge("summarize", END)
    return g.compile(checkpointer=checkpointer)


def mermaid() -> str:
    return build_graph().get_graph().draw_mermaid()
