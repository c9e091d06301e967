"""A tiny LangGraph graph used by the checkpoint contract tests: it records each turn, pauses at
a review node (``interrupt``) and finishes after the reviewer's answer. Also runnable as a
script so a second OS process can drive the same thread::

    python -m tests.support.checkpoint_graph start THREAD QUESTION
    python -m tests.support.checkpoint_graph resume THREAD ANSWER

Both print the graph's state as one JSON line. The checkpointer is the product's
(``core.storage.checkpoint.get_checkpointer``), so ``ZHICE_HOME`` / ``ZHICE_DATABASE_URL``
decide the backend.
"""

from __future__ import annotations

import json
import operator
import os
import sys
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, interrupt


class TurnState(TypedDict, total=False):
    question: str
    log: Annotated[list[str], operator.add]
    approved: str


def plan(state: TurnState) -> dict:
    return {"log": [f"plan:{state['question']}:pid{os.getpid()}"]}


def review(state: TurnState) -> dict:
    answer = interrupt({"confirm": state["question"]})
    return {"approved": answer, "log": [f"review:{answer}"]}


def answer(state: TurnState) -> dict:
    return {"log": [f"answer:{state['question']}:{state['approved']}:pid{os.getpid()}"]}


def build(checkpointer):
    g = StateGraph(TurnState)
    g.add_node("plan", plan)
    g.add_node("review", review)
    g.add_node("answer", answer)
    g.add_edge(START, "plan")
    g.add_edge("plan", "review")
    g.add_edge("review", "answer")
    g.add_edge("answer", END)
    return g.compile(checkpointer=checkpointer)


def thread(thread_id: str) -> dict:
    return {"configurable": {"thread_id": thread_id}}


def main(argv: list[str]) -> int:
    from core.storage.checkpoint import get_checkpointer

    action, thread_id, value = argv
    graph = build(get_checkpointer())
    if action == "start":
        graph.invoke({"question": value, "log": []}, thread(thread_id))
    elif action == "resume":
        graph.invoke(Command(resume=value), thread(thread_id))
    else:
        print(f"unknown action {action}", file=sys.stderr)
        return 2
    snap = graph.get_state(thread(thread_id))
    print(json.dumps({"values": snap.values, "next": list(snap.next), "pid": os.getpid()}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
