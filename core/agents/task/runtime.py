"""Helpers of the task nodes around the shared :class:`core.agents.runtime.AgentRuntime`:
the tool context of this call, the fuse counters and trace entries."""

from __future__ import annotations

import time
from typing import Any

from core.agents.runtime import AgentRuntime, get_runtime
from core.agents.task.tools import ToolContext


def tool_context(rt: AgentRuntime) -> ToolContext:
    """One ToolContext per runtime (the allowed-document list is computed once per call)."""
    ctx = getattr(rt, "_task_ctx", None)
    if ctx is None:
        principal = rt.principal
        scenario = "research" if any(s.value == "research" for s in principal.allowed_scenarios) else None
        ctx = ToolContext(rt, scenario)
        rt._task_ctx = ctx  # type: ignore[attr-defined]
        warm = getattr(rt.index, "warm", None)
        if callable(warm):
            try:
                warm()  # a first-time embedding-model load is not the search tool's 5 s
            except Exception:  # noqa: BLE001 - the search degrades to keywords and says so
                pass
    return ctx


def counters(rt: AgentRuntime) -> dict:
    b = rt.budget
    if b is None:
        return {}
    return {"steps_done": int(b.steps), "tokens": int(b.tokens), "elapsed_s": round(float(b.elapsed_s), 3)}


def add_trace(state: dict, node: str, started: float, **info: Any) -> list[dict]:
    entry = {"node": node, "ms": round((time.perf_counter() - started) * 1000, 1)}
    entry.update(info)
    return [*(state.get("trace") or []), entry]


__all__ = ["add_trace", "counters", "get_runtime", "tool_context"]
