"""Authorisation of a query plan at execution time, for every plan however it arrived
(rules, LLM, a user's edited plan, a resumed thread):

- each tool against the role × intent matrix (``core.security.permissions``), including the
  data a built-in computation reads from the graph on its own (片区 membership for a
  per-area grouping);
- each field a step *computes with* — conditions, aggregate / ratio / pick fields, group-by,
  join keys, derived attributes and their sources — against the fields the role may not see
  (``core.security.masking``).

A refused plan runs no query at all. Masking of result rows stays as the second line for
fields that are only displayed.
"""

from __future__ import annotations

import re

from core.agents.kg import expr as X
from core.agents.kg.catalog import DERIVED
from core.agents.kg.tools import TOOLS, alias_params
from core.errors import PermissionDenied
from core.security.masking import hidden_fields
from core.security.permissions import allowed_intent, denial_message
from core.security.principals import Principal

#: the KG intent whose data each query tool reads (permission category via INTENT_CATEGORY)
TOOL_INTENT: dict[str, str] = {
    "attendance": "考勤", "schedule": "排班", "finance": "收费", "equipment": "设备",
    "service_periods": "服务期", "project_children": "从属", "renewals": "续签", "certificates": "证书",
    "staff": "人员", "staffing": "编制", "inspections": "检查", "procurement": "采购", "maintenance": "采购",
    "projects": "项目", "bids": "投标", "project_parent": "从属上级", "areas": "片区", "suppliers": "采购",
}
#: parameters of built-ins that name a field of earlier rows
FIELD_PARAMS = ("field", "group_by", "outer", "num", "den", "key", "by")
#: parameters holding expressions over fields
EXPR_PARAMS = ("conditions", "having")
#: a grouping key that makes a built-in read 片区 membership from the graph itself
AREA_KEY = "片区编号"


def _names(value) -> set[str]:
    """Field names in a parameter value ("项目编号+年月", ["开票金额", "收款金额"], …)."""
    if isinstance(value, (list, tuple)):
        return set().union(*(_names(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return _names(list(value.values()))
    if value is None or isinstance(value, (bool, int, float)):
        return set()
    return {p.strip() for p in re.split(r"[+,，、\s]+", str(value)) if p.strip()}


def _expr_names(value) -> set[str]:
    out: set[str] = set()
    for e in value if isinstance(value, (list, tuple)) else [value]:
        if not e:
            continue
        try:
            out |= X.referenced_names(str(e))
        except Exception:  # noqa: BLE001 - an expression we cannot parse is read as its words
            out |= set(re.findall(r"[\w\u4e00-\u9fff]+", str(e)))
    return out


def fields_read(step: dict) -> set[str]:
    """Every field a step computes with (not the ones it only displays), derived attributes
    expanded to the fields they are computed from."""
    tool = TOOLS.get(step.get("tool") or "")
    params = alias_params(tool, step.get("params") or {})[0] if tool else dict(step.get("params") or {})
    read: set[str] = set()
    for k in FIELD_PARAMS:
        if k in params:
            read |= _names(params[k])
    for k in EXPR_PARAMS:
        if k in params:
            read |= _expr_names(params[k])
    read |= _names(params.get("derived"))
    for name in list(read):
        rule = DERIVED.get(name)
        if rule is not None:
            read.add(rule.source)
    return read


def intents_read(step: dict) -> list[str]:
    """The KG intents whose data a step reads from the graph."""
    tool = step.get("tool") or ""
    intents = [TOOL_INTENT[tool]] if tool in TOOL_INTENT else []
    params = step.get("params") or {}
    if AREA_KEY in _names([params.get("group_by"), params.get("outer")]):
        intents.append("片区")
    return intents


def plan_refusal(principal: Principal, plan: list[dict]) -> str:
    """Why ``principal`` may not run ``plan`` ("" when every step is allowed)."""
    hidden = set(hidden_fields(principal))
    for i, step in enumerate(plan, 1):
        tool = step.get("tool")
        if tool not in TOOLS:
            return f"第 {i} 步的工具不存在，已拒绝执行该计划"
        for intent in intents_read(step):
            if not allowed_intent(principal, intent):
                return denial_message(principal, intent)
        used = sorted(fields_read(step) & hidden)
        if used:
            return (f"按您的权限无权使用“{'、'.join(used)}”（敏感字段）进行筛选、统计、分组或排序，"
                    f"已拒绝执行该计划（第 {i} 步）。")
    return ""


def authorize_plan(principal: Principal, plan: list[dict]) -> None:
    """Raise :class:`PermissionDenied` before any query runs when a step is not allowed."""
    why = plan_refusal(principal, plan)
    if why:
        raise PermissionDenied(why)


__all__ = ["TOOL_INTENT", "fields_read", "intents_read", "plan_refusal", "authorize_plan"]
