"""③ capability: question points the graph does not store directly → derived rules
(concept, source fields, expression). Registered rules (年龄 ← 出生日期, 司龄 ← 入职日期,
剩余服务期 ← 结束日期) are the fast path; with an LLM, unregistered quantitative concepts are
proposed dynamically and then checked by cap_check."""

from __future__ import annotations

import re

from core.agents.kg import context as ctx
from core.agents.kg.catalog import DERIVED
from core.agents.kg.llm_support import CapabilityOut, ask
from core.agents.kg.state import trace
from core.graph.schema import schema_prompt_text

_QUANT = re.compile(r"\d+\s*(?:个月|月|年|岁|天|小时|元|万|%|分)|超过|以上|以下|低于|高于|不足|满")


def capability(state: dict, *, config) -> dict:
    slots = state.get("slots") or {}
    derived, seen = [], set()
    for c in slots.get("conditions") or []:
        name = c.get("derived")
        if name and name in DERIVED and name not in seen:
            r = DERIVED[name]
            seen.add(name)
            derived.append({"name": r.name, "label": r.label, "source": r.source, "expr": r.expr, "unit": r.unit,
                            "registered": True, "param": c["expr"]})
    for concept in slots.get("concepts") or []:
        name = concept.get("property")
        if concept.get("derived") and name in DERIVED and name not in seen:
            r = DERIVED[name]
            seen.add(name)
            derived.append({"name": r.name, "label": r.label, "source": r.source, "expr": r.expr, "unit": r.unit,
                            "registered": True, "param": ""})
    feedback = (state.get("cap_report") or {}).get("feedback", "")
    client = ctx.llm(config)
    q = slots.get("question", "")
    if client is not None and not slots.get("conditions") and _QUANT.search(q) and not slots.get("time"):
        out = ask(client, f"问题：{q}\n{schema_prompt_text(include_sensitive=False)}\n"
                          f"{('上次审查意见：' + feedback) if feedback else ''}\n"
                          "该问题含有图谱未直接存储的量化概念。请给出派生概念名、所在节点、来源字段、"
                          "用 today()/years_between/months_between/to_number/replace 与四则运算写的表达式，"
                          "以及筛选条件（形如 概念 < 50）。", CapabilityOut)
        if out is not None:
            derived.append({"name": out.name, "label": out.label, "source": (out.source_fields or [""])[0],
                            "sources": out.source_fields, "expr": out.expr, "unit": "", "registered": False,
                            "param": out.condition})
    return {"derived": derived, "cap_rounds": int(state.get("cap_rounds") or 0) + 1,
            "trace": trace(state, "capability", derived=[(d["name"], d["source"], d["expr"]) for d in derived])}
