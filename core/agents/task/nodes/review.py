"""Review: the plan shown before it runs. Starts with ``interrupt()`` (nothing happens
before it): "确认" runs the plan, ``{"plan": [...]}`` runs an edited plan once it validates
against the tool schemas (otherwise the review is asked again, saying why), "取消" stops.
``auto`` runs (CLI) pass straight through."""

from __future__ import annotations

import time

from langgraph.types import interrupt

from core.agents.task.planner import normalized, validate_plan
from core.agents.task.runtime import add_trace

CONFIRM_WORDS = ("确认", "执行", "ok", "yes", "y", "好", "可以")
CANCEL_WORDS = ("取消", "cancel", "no", "不执行")


def review(state: dict, *, config) -> dict:
    if state.get("auto") or state.get("stopped_by"):
        return {}
    reply = interrupt({"kind": "plan", "plan": state.get("plan") or [], "error": state.get("plan_error") or "",
                       "text": "请确认任务计划，或修改后执行", "options": ["确认", "修改", "取消"]})
    t0 = time.perf_counter()
    if isinstance(reply, dict) and isinstance(reply.get("plan"), list):
        problems = validate_plan(reply["plan"])
        if problems:
            return {"plan_error": "；".join(problems), "trace": add_trace(state, "review", t0, edited=True, ok=False)}
        return {"plan": normalized(reply["plan"], "user"), "planned_by": "user", "plan_error": "",
                "trace": add_trace(state, "review", t0, edited=True, ok=True)}
    text = str(reply or "").strip().lower()
    if text in CANCEL_WORDS:
        return {"cancelled": True, "plan_error": "", "trace": add_trace(state, "review", t0, cancelled=True)}
    if text in CONFIRM_WORDS or reply is True:
        return {"plan_error": "", "trace": add_trace(state, "review", t0, confirmed=True)}
    return {"plan_error": "请回复“确认”“取消”，或提交修改后的计划", "trace": add_trace(state, "review", t0, reply=text[:20])}
