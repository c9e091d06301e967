"""Router: the hub of the loop and the home of the fuses. Before every step it reads the
counters (steps run, tokens spent, seconds elapsed) and sends the run to the executor, or to
the summarizer when the plan is done, cancelled, or a fuse has tripped (``stopped_by``)."""

from __future__ import annotations

import time

from core.agents.task.runtime import add_trace, counters, get_runtime


def tripped_fuse(state: dict, c: dict) -> str | None:
    if c.get("tokens", 0) > int(state.get("max_tokens") or 0):
        return "tokens"
    if c.get("elapsed_s", 0.0) >= float(state.get("deadline_s") or 0):
        return "time"
    if c.get("steps_done", 0) >= int(state.get("max_steps") or 0):
        return "steps"
    return None


def route(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    c = counters(rt)
    out: dict = dict(c)
    pending = int(state.get("cursor") or 0) < len(state.get("plan") or [])
    if state.get("plan_error") and not state.get("auto"):
        out["route"] = "review"
    elif state.get("stopped_by") or state.get("cancelled") or not pending:
        out["route"] = "summarize"
    else:
        fuse = tripped_fuse(state, c)
        if fuse:
            out.update(route="summarize", stopped_by=fuse)
        else:
            out["route"] = "execute"
    out["trace"] = add_trace(state, "route", t0, to=out["route"], stopped_by=out.get("stopped_by"), **c)
    return out


def next_node(state: dict) -> str:
    return state.get("route") or "summarize"
