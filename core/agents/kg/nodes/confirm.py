"""④ confirm: the grounded slots in plain Chinese; interrupt for 确认 / 修改 / 取消. A 修改 reply
goes back to understand as feedback ("改成4月", "换成青浦-体育馆"); 取消 ends the turn unrun."""

from __future__ import annotations

from langgraph.types import interrupt

from core.agents.kg.state import trace

CONFIRM_WORDS = ("确认", "确定", "是", "是的", "对", "对的", "好", "好的", "ok", "OK", "没问题", "可以", "继续", "执行")


def is_confirm(reply) -> bool:
    if reply is True:
        return True
    if isinstance(reply, dict):
        return reply.get("action") in ("confirm", "确认")
    return str(reply or "").strip().rstrip("。！!") in CONFIRM_WORDS


CANCEL_WORDS = ("取消", "不查了", "算了")
CANCELLED = "已取消本次查询，没有执行任何步骤。可以直接提出新的问题。"


def is_cancel(reply) -> bool:
    if isinstance(reply, dict):
        return reply.get("action") in ("cancel", "取消")
    return str(reply or "").strip().rstrip("。！!") in CANCEL_WORDS


def cancelled(state: dict, node: str) -> dict:
    """The update that ends the turn without running anything (取消 on a confirmation card)."""
    return {"cancelled": True, "slots_confirmed": False, "plan_confirmed": False, "plan": [], "need_confirm": None,
            "answer": CANCELLED, "trace": trace(state, node, reply="取消")}


def feedback_text(reply) -> str:
    if isinstance(reply, dict):
        return str(reply.get("text") or reply.get("feedback") or "")
    text = str(reply or "").strip()
    for p in ("修改：", "修改:", "修改", "不对，", "不对,", "不是，"):
        if text.startswith(p):
            return text[len(p):].strip()
    return text


def slot_text(slots: dict, grounded: dict, derived: list[dict]) -> str:
    from core.agents.kg.describe import condition_text, rules
    from core.agents.kg.understanding import intent_description

    lines = [f"查询内容：{slots.get('intent')}（{intent_description(slots.get('intent', ''))}）"]
    if grounded.get("projects"):
        parts = []
        for p in grounded["projects"]:
            s = f"{p['name']}"
            if p["method"] != "exact":
                s += f"（按您写的“{p['text']}”匹配，把握 {p['score']:.0%}）"
            if len(p.get("candidates") or []) > 1 and p["score"] < 1.0:
                s += "；其他候选：" + "、".join(c["name"] for c in p["candidates"][1:4])
            parts.append(s)
        lines.append("项目：" + "；".join(parts))
    if grounded.get("areas"):
        lines.append("片区：" + "、".join(a["name"] for a in grounded["areas"]))
    if grounded.get("people"):
        lines.append("人员：" + "、".join(p["name"] for p in grounded["people"]))
    t = grounded.get("time")
    growth = slots.get("growth")
    if t and growth:
        cur, base = growth.get("current_months") or [growth["current"]], growth.get("base_months") or [growth["base"]]
        lines.append(f"时间：本期 {cur[0]}{'至' + cur[-1] if len(cur) > 1 else ''}，"
                     f"基期 {base[0]}{'至' + base[-1] if len(base) > 1 else ''}（{growth.get('kind') or '对比'}，"
                     f"原文“{t['text']}”）")
    elif t:
        lines.append(f"时间：{t['label']}（原文“{t['text']}”）")
    else:
        lines.append("时间：不限")
    if grounded.get("time_note"):
        lines.append("提示：" + grounded["time_note"])
    for k, v in (grounded.get("filters") or {}).items():
        lines.append(f"{k}：{'、'.join(v)}")
    for c in slots.get("conditions") or []:
        lines.append(f"条件：{condition_text(c['expr'])}（您说的“{c.get('text', '')}”）")
    for d in derived or []:
        lines.append(f"推算：{d['name']}（由{d['source']}计算）")
    agg = slots.get("agg")
    if agg:
        if agg["op"] == "count":
            count_of = rules()["count_of"]
            lines.append("统计：" + count_of.get(agg.get("field") or "", f"{agg.get('field')}数"))
        else:
            names = {"sum": "合计", "avg": "平均值", "max": "最大值", "min": "最小值"}
            lines.append(f"统计：{agg.get('field') or '数值'}的{names.get(agg['op'], agg['op'])}")
        by = {"工号": "人员", "项目编号": "项目", "片区编号": "片区", "年月": "月", "岗位名称": "岗位"}
        if agg.get("then") == "avg" and agg.get("group_by"):
            inner = "+".join(by.get(k, k) for k in str(agg["group_by"]).split("+"))
            lines.append(f"平均：先按{inner}分组统计，再求各组平均"
                         + (f"，按{by.get(agg['outer'], agg['outer'])}分别计算" if agg.get("outer") else ""))
        elif agg.get("group_by"):
            lines.append(f"分组：按{by.get(agg['group_by'], agg['group_by'])}")
        if agg.get("having"):
            lines.append(f"分组条件：{condition_text(str(agg['having'])).replace('值', '结果', 1)}"
                         f"（您说的“{agg.get('having_text') or ''}”）")
        if growth:
            lines.append("对比：本期 − 基期 及变化率")
    elif slots.get("ratio"):
        r = slots["ratio"]
        lines.append(f"比率：{r.get('name')}" + (f"，只看{condition_text(r['having'])}" if r.get("having") else ""))
    else:
        lines.append("结果：逐条列出明细")
    for u in grounded.get("ungrounded") or []:
        near = f"，最接近的是：{'、'.join(u['nearest'])}" if u.get("nearest") else ""
        lines.append(f"未识别：“{u['text']}”在图谱中没有找到{near}")
    return "我理解您要查询：\n" + "\n".join("· " + x for x in lines) + "\n请回复“确认”，或“修改：…”（如“改成4月”），或“取消”。"


def confirm(state: dict, *, config) -> dict:
    slots, grounded = state.get("slots") or {}, state.get("grounded") or {}
    reply = interrupt({"kind": "slots", "text": slot_text(slots, grounded, state.get("derived") or []),
                       "options": ["确认", "修改", "取消"], "slots": slots})
    if is_confirm(reply):
        return {"slots_confirmed": True, "need_confirm": None, "trace": trace(state, "confirm", reply="确认")}
    if is_cancel(reply):
        return cancelled(state, "confirm")
    fb = feedback_text(reply)
    return {"slots_confirmed": False, "feedback": fb, "need_confirm": None,
            "trace": trace(state, "confirm", reply=fb)}
