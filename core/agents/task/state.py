"""State of the policy task graph (plan → review → route ⇄ execute → check → summarize).

Everything here is JSON-able and checkpointed per thread, so a run waiting at the plan review
can be resumed and every run can be audited step by step. The runtime (principal, index, LLM,
budget and its clock) is never part of it.
"""

from __future__ import annotations

from typing import TypedDict

DEFAULT_MAX_STEPS = 10
DEFAULT_DEADLINE_S = 60.0
FUSES = ("steps", "tokens", "time")
FUSE_LABELS = {"steps": "步数", "tokens": "Token", "time": "时间"}


class TaskState(TypedDict, total=False):
    # ---- input ----
    request: str                  # the request as asked (PII masked)
    auto: bool                    # run without waiting at the plan review (CLI, --auto)
    max_steps: int
    max_tokens: int
    deadline_s: float
    # ---- plan ----
    parsed: dict                  # core.agents.task.rules.TaskRequest as a dict
    plan: list[dict]              # [{"tool", "args", "note"}]; "$k.top" / "$k.all" name step k's documents
    planned_by: str               # rules | llm | user
    plan_error: str               # why an edited plan was refused (asked again)
    cancelled: bool
    # ---- execution ----
    cursor: int                   # index of the next step to run
    results: list[dict]           # per executed step: {"step","tool","args","ok","error","ms","output"}
    documents: dict               # doc_id -> card of every document collected so far
    checks: list[dict]            # the Checker's verdict per step
    route: str                    # execute | summarize (the Router's decision)
    stopped_by: str | None        # steps | tokens | time | None
    # ---- counters (the fuse gauges) ----
    steps_done: int
    tokens: int
    elapsed_s: float
    # ---- output ----
    report: str
    sections: list[dict]
    citations: list[dict]
    missing: list[str]
    mode: str                     # rules | llm
    notices: list[str]
    trace: list[dict]


def task_input(request: str, *, auto: bool, max_steps: int, max_tokens: int, deadline_s: float) -> dict:
    return {"request": request, "auto": auto, "max_steps": max_steps, "max_tokens": max_tokens,
            "deadline_s": deadline_s, "parsed": {}, "plan": [], "planned_by": "rules", "plan_error": "",
            "cancelled": False, "cursor": 0, "results": [], "documents": {}, "checks": [], "route": "",
            "stopped_by": None, "steps_done": 0, "tokens": 0, "elapsed_s": 0.0, "report": "", "sections": [],
            "citations": [], "missing": [], "mode": "rules", "notices": [], "trace": []}
