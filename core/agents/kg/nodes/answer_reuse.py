"""①′ answer_reuse: answer from the previous turn's rows (filters, conditions, aggregation,
"every month" intersections applied in Python), marked 基于前序对话推导."""

from __future__ import annotations

from core.agents.kg import context as ctx
from core.agents.kg import tools as T
from core.agents.kg.answering import compose
from core.agents.kg.state import trace
from core.security.masking import strip_sensitive


def answer_reuse(state: dict, *, config) -> dict:
    slots = state.get("slots") or {}
    prev = (state.get("history") or [])[-1]
    today = ctx.today(config)
    rows = [dict(r) for r in prev.get("rows") or []]
    for f, vals in (slots.get("filters") or {}).items():
        if vals and rows and f in rows[0]:
            rows = [r for r in rows if r.get(f) in vals]
    derived = [c["derived"] for c in slots.get("conditions") or [] if c.get("derived")]
    T.add_derived(rows, derived, today)
    rows, _applied, _skipped = T.apply_conditions(rows, [c["expr"] for c in slots.get("conditions") or []], today)
    tool = prev.get("tool") or "attendance"
    step = {"id": 1, "tool": tool, "rows": rows, "row_count": len(rows), "fields": prev.get("fields") or [],
            "executed_params": {}, "dropped_params": {}, "cypher": None, "params": {}, "note": "前序对话结果"}
    steps = [step]
    months = (slots.get("time") or {}).get("months") or []
    if slots.get("consecutive") and len(months) > 1 and rows and "年月" in rows[0]:
        per = [[r for r in rows if r.get("年月") == m] for m in months]
        inter = T.intersect(per, "工号")
        steps.append({"id": 2, "tool": "intersect", "rows": inter, "row_count": len(inter), "fields": step["fields"],
                      "executed_params": {"of": [1], "key": "工号"}, "dropped_params": {}, "note": "每月交集"})
    agg = slots.get("agg")
    if agg:
        src = steps[-1]
        field, distinct = agg.get("field"), bool(agg.get("distinct"))
        if agg["op"] == "count" and not field:
            from core.agents.kg.planner import _count_key

            field = _count_key(slots.get("intent") or "")
            distinct = bool(field)
        res = T.aggregate(src["rows"], agg["op"], field, distinct, agg.get("group_by"), agg.get("top"),
                          str(agg.get("order") or "desc"), agg.get("then"), None, agg.get("having"))
        steps.append({"id": src["id"] + 1, "tool": "aggregate", "rows": res, "row_count": 1, "fields": [],
                      "executed_params": {"of": src["id"], "group_by": agg.get("group_by"), "top": agg.get("top"),
                                          "op": agg["op"], "field": field, "having": agg.get("having"),
                                          "order": agg.get("order")},
                      "dropped_params": {}, "note": "聚合"})
    principal = ctx.principal(config)
    masked = []
    for s in steps:
        s["rows"], m = strip_sensitive(s["rows"], principal)
        masked += m
    grounded = state.get("grounded") or prev.get("grounded") or {}
    text, prov = compose(slots, grounded, steps, masked=sorted(set(masked)))
    text = "（基于前序对话推导，未重新查询）\n" + text
    final = steps[-1]["rows"] if steps[-1]["tool"] != "aggregate" else steps[-2]["rows"]
    gb = (agg or {}).get("group_by")
    if (agg or {}).get("having") and steps[-1]["rows"] and gb and final and gb in final[0]:
        keep = {r.get(gb) for r in steps[-1]["rows"]}  # the records of the groups that qualified
        final = [r for r in final if r.get(gb) in keep]
    turn = {**prev, "question": slots.get("question"), "slots": slots, "answer": text}
    history = [*(state.get("history") or []), turn][-4:]
    return {"answer": text, "provenance": prov, "rows": final, "steps": steps, "need_confirm": None,
            "history": history, "plan": [],
            "masked_fields": sorted(set(masked)), "trace": trace(state, "answer_reuse", rows=len(final))}
