"""⑤ plan: query steps (tool, parameters, return fields, dependencies) from the intent →
template tables; with an LLM, a proposed plan is accepted only when it passes the same
signature checks, otherwise the rules plan is used. Derived parameters are annotated with
their source (年龄 < 50 ← 出生日期)."""

from __future__ import annotations

from core.agents.kg import context as ctx
from core.agents.kg.llm_support import PlanOut, ask
from core.agents.kg.catalog import tool_fields
from core.agents.kg.planner import build_plan, validate_plan
from core.agents.kg.state import trace
from core.agents.kg.tools import TOOLS, alias_params


def plan(state: dict, *, config) -> dict:
    slots, grounded = state.get("slots") or {}, state.get("grounded") or {}
    steps = build_plan(slots, grounded, state.get("derived") or [], state.get("scope") or {})
    source = "rules"
    client = ctx.llm(config)
    if client is not None and not slots.get("intent"):
        tools = "\n".join(f"- {t.name}({', '.join(t.params)}): {t.description}" for t in TOOLS.values())
        out = ask(client, f"问题：{slots.get('question')}\n接地结果：{grounded}\n可用工具：\n{tools}\n"
                          "请给出查询步骤（tool, params, depends）。", PlanOut)
        if out is not None:
            proposal = [{"id": i, "tool": s.tool, "params": s.params, "depends": s.depends,
                         "fields": tool_fields(s.tool), "note": "LLM 规划"} for i, s in enumerate(out.steps, 1)]
            ok = not validate_plan(proposal) and all(
                not alias_params(TOOLS[s["tool"]], s["params"])[1] for s in proposal)
            if ok and proposal:
                steps, source = proposal, "llm"
    for d in state.get("derived") or []:
        for s in steps:
            if d["name"] in (s["params"].get("derived") or []):
                s["note"] = (s.get("note") + "；" if s.get("note") else "") + f"{d['name']}由{d['source']}换算"
    # a system retry (run_check / reflect feedback) or a scope choice runs without asking again
    auto_retry = bool(state.get("run_rounds")) or bool(state.get("reflect_rounds")) or bool(state.get("scope"))
    auto_retry = auto_retry or not steps  # nothing to confirm (e.g. time outside the data's coverage)
    return {"plan": steps, "plan_source": source, "plan_confirmed": bool(state.get("plan_confirmed")) or auto_retry,
            "trace": trace(state, "plan", source=source, steps=[(s["tool"], s["params"]) for s in steps])}
