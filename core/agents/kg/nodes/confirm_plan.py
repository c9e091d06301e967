"""⑤a confirm_plan: the plan as a table; interrupt for 确认 / 修改. "去掉第2步" edits the plan
(asked again), an edited table ({"plan": [...]}) is validated and run, any other text goes
back to understand as feedback."""

from __future__ import annotations

from langgraph.types import interrupt

from core.agents.kg.nodes.confirm import feedback_text, is_confirm
from core.agents.kg.planner import apply_plan_edit, validate_plan
from core.agents.kg.state import trace
from core.agents.kg.tools import TOOLS


def plan_text(plan: list[dict]) -> str:
    lines = ["查询计划："]
    for i, s in enumerate(plan, 1):
        params = {k: v for k, v in (s.get("params") or {}).items() if v not in ([], "", None)}
        desc = TOOLS[s["tool"]].description if s.get("tool") in TOOLS else s.get("tool")
        dep = f"，依赖第 {'、'.join(map(str, s['depends']))} 步" if s.get("depends") else ""
        note = f"（{s['note']}）" if s.get("note") else ""
        lines.append(f"{i}. {s.get('tool')}：{desc}{note}；参数 {params}{dep}")
    lines.append("请回复“确认”执行，或修改（如“去掉第2步”）。")
    return "\n".join(lines)


def confirm_plan(state: dict, *, config) -> dict:
    plan = state.get("plan") or []
    reply = interrupt({"kind": "plan", "text": plan_text(plan), "options": ["确认", "修改"], "plan": plan})
    if is_confirm(reply):
        return {"plan_confirmed": True, "need_confirm": None, "trace": trace(state, "confirm_plan", reply="确认")}
    if isinstance(reply, dict) and isinstance(reply.get("plan"), list):
        edited = []
        for i, s in enumerate(reply["plan"], 1):
            edited.append({"id": int(s.get("id") or i), "tool": s.get("tool"), "params": dict(s.get("params") or {}),
                           "depends": list(s.get("depends") or []), "fields": list(s.get("fields") or []),
                           "note": s.get("note") or "用户修改"})
        problems = validate_plan(edited)
        if problems:
            return {"plan_confirmed": False, "plan_feedback": "；".join(problems),
                    "trace": trace(state, "confirm_plan", reply="edit", problems=problems)}
        return {"plan": edited, "plan_source": "user", "plan_confirmed": True, "trace": trace(state, "confirm_plan", reply="edit")}
    text = feedback_text(reply)
    new_plan, handled = apply_plan_edit(plan, text)
    if handled:
        return {"plan": new_plan, "plan_confirmed": False, "plan_feedback": "",
                "trace": trace(state, "confirm_plan", reply=text, steps=len(new_plan))}
    return {"plan_confirmed": False, "feedback": text, "trace": trace(state, "confirm_plan", reply=text)}
