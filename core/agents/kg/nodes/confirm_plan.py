"""⑤a confirm_plan: the plan as a table; interrupt for 确认 / 修改 / 取消. "去掉第2步" edits the
plan (asked again), an edited table ({"plan": [...]}) is validated and run, 取消 ends the turn
without running anything, any other text goes back to understand as feedback."""

from __future__ import annotations

from langgraph.types import interrupt

from core.agents.kg.nodes.confirm import cancelled, feedback_text, is_cancel, is_confirm
from core.agents.kg.planner import apply_plan_edit, validate_plan
from core.agents.kg.state import trace


def plan_text(plan: list[dict], index=None) -> str:
    """The plan as plain numbered steps (core/agents/kg/describe.py)."""
    from core.agents.kg.describe import describe_plan

    lines = ["查询计划：", *describe_plan(plan, index)]
    lines.append("请回复“确认”执行，或修改（如“去掉第2步”），或“取消”。")
    return "\n".join(lines)


def _index(config):
    """The entity index for project / person names (None when no store: codes are shown)."""
    try:
        from core.agents.kg import context as ctx

        return ctx.get_index(config)
    except Exception:  # noqa: BLE001 - naming is a nicety, never a reason to fail
        return None


def confirm_plan(state: dict, *, config) -> dict:
    plan = state.get("plan") or []
    reply = interrupt({"kind": "plan", "text": plan_text(plan, _index(config)), "options": ["确认", "修改", "取消"],
                       "plan": plan})
    if is_confirm(reply):
        return {"plan_confirmed": True, "need_confirm": None, "trace": trace(state, "confirm_plan", reply="确认")}
    if is_cancel(reply):
        return cancelled(state, "confirm_plan")
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
