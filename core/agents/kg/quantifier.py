"""“每个月…都…”: a condition that must hold on every row of the asked group, not on some row
("1到4月每个月收款都等于开票的项目" — the projects none of whose months breaks it). The cue and
the group field are data (``kg_patterns.every_row``); the condition becomes
``every(分组字段, 条件)``, which :func:`core.agents.kg.tools.apply_conditions` applies per group."""

from __future__ import annotations

from core.agents.kg import kgrules
from core.agents.kg.expr import every_group


def every_group_field(question: str) -> str | None:
    """The group field whose every row a condition of ``question`` must hold on, else None."""
    rows = kgrules.rules_file("kg_patterns")["every_row"]["rows"]
    return next((row["group"] for rx, row in zip(kgrules.patterns("every_row"), rows) if rx.search(question)), None)


def apply(slots: dict) -> dict:
    """``slots`` with their row conditions held on every row of the asked group."""
    if slots.get("followup") or slots.get("kind") != "graph":
        return slots
    group = every_group_field(slots.get("question") or "")
    conds = slots.get("conditions") or []
    if not group or not any(not c.get("derived") and c.get("expr") for c in conds):
        return slots
    new = [{**c, "expr": f"every({group}, {c['expr']})"}
           if not c.get("derived") and c.get("expr") and not every_group(c["expr"]) else c for c in conds]
    out = {**slots, "conditions": new}
    agg = slots.get("agg") or {}
    if agg.get("group_by") == "年月" and agg.get("op") in ("sum", "avg", "max", "min"):
        out["agg"], out["granularity"] = None, "明细"  # "每个月" quantifies the condition, it groups nothing
    return out
