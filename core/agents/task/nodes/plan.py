"""Planner: the request parsed once (shape, dimensions, places, topic); the plan from the
rules, or from the LLM when one is configured — validated against the tool schemas, and
replaced by the rules plan (with a notice) when it does not validate or the model fails."""

from __future__ import annotations

import time

from core.agents.task import rules
from core.agents.task.planner import llm_plan, normalized, validate_plan
from core.agents.task.runtime import add_trace, counters, get_runtime
from core.errors import BudgetExceeded, LLMError


def plan(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    parsed = rules.parse_request(state.get("request") or "")
    rules_plan = rules.plan_offline(parsed)
    out: dict = {"parsed": parsed.to_dict(), "plan": rules_plan, "planned_by": "rules", "mode": "rules", "cursor": 0}
    notices = list(state.get("notices") or [])
    if rt.llm is not None and not rt.rules_only:
        try:
            proposed = llm_plan(rt.llm, state.get("request") or "", parsed.to_dict(),
                                max_steps=int(state.get("max_steps") or 10), budget=rt.budget)
            steps = [s.model_dump() for s in proposed.steps]
            problems = validate_plan(steps)
            if problems:
                notices.append("大模型生成的计划未通过工具参数校验（" + "；".join(problems[:3]) + "），已改用规则计划")
            else:
                out.update(plan=normalized(steps, "llm"), planned_by="llm", mode="llm")
        except BudgetExceeded as exc:
            out["stopped_by"] = exc.kind  # the fuse tripped while planning: nothing runs
        except (LLMError, ValueError) as exc:
            why = getattr(exc, "user_message", None) or type(exc).__name__
            notices.append(f"{why}，已切换为离线规则模式规划")
    out["notices"] = notices
    out.update(counters(rt))
    out["trace"] = add_trace(state, "plan", t0, by=out["planned_by"], kind=parsed.kind,
                             steps=[s["tool"] for s in out["plan"]])
    return out
