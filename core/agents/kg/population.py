"""Averages over everybody: "平均每个员工…" / "每个项目平均…" divide by every in-service person /
project, 0 for those without records, not only by those that have records."""

from __future__ import annotations

import re

_PER_ALL_RE = {"工号": re.compile(r"每(?:个|位|名|一个|一位)?(?:员工|职工|人)(?!均)"),
               "项目编号": re.compile(r"每(?:个|一个)项目")}
STOCK_INTENTS = frozenset({"证书", "人员", "设备", "服务期", "编制"})


def per_all(q: str, intent: str, agg: dict | None) -> bool:
    """"平均每个员工有几张证书": every in-service person counts, 0 for those without records."""
    if not agg or agg.get("then") != "avg" or agg.get("outer") or intent not in STOCK_INTENTS:
        return False
    rx = _PER_ALL_RE.get(str(agg.get("group_by") or ""))
    return bool(rx and rx.search(q))


def population(store, key: str, scope: dict | None = None) -> list[str]:
    """In-service people (no 离职日期) or projects in service — within the asked positions /
    projects (``scope``) — the groups of a per-all average."""
    from core.agents.kg.entity_index import get_entity_index

    idx = get_entity_index(store)
    scope = scope or {}
    pos, projs = set(scope.get("positions") or []), {str(x) for x in scope.get("projects") or []}
    if key == "工号":
        return [str(p["工号"]) for p in idx.people if not p.get("离职日期")
                and (not pos or p.get("岗位名称") in pos)
                and (not projs or str(p.get("当前服务项目编号")) in projs)]
    return [str(p["项目编号"]) for p in idx.projects if p.get("服务状态") == "服务中"
            and (not projs or str(p["项目编号"]) in projs)]


def widen_avg(res: dict, groups: list[str]) -> dict:
    """The nested-average row recomputed over every group of the population (missing ones = 0)."""
    have = {str(g.get(res.get("分组"))) for g in res.get("各组") or [] if g.get("值") is not None}
    total = res.get("合计") or 0
    n = len(set(groups) | have)
    if not n:
        return res
    return {**res, "值": round(total / n, 2), "组数": n, "有记录组数": len(have), "全员口径": True,
            "无记录组数": n - len(have)}
