"""Which rows of a query tool lie in the asked months, and whether the months could be applied.

A tool's Cypher may take the months (考勤, 排班, 财务); else its rows are filtered here: service
periods by overlap, records by their own date (检查日期, 日期), by the date the question's wording
names (``date_field``: 结束日期 for 到期, 中标日期 for 中标), or — for records dated by a year only
(投标记录的年份) — by year, which answers part of a year with nothing (``year_only``: the answer then
says so, :mod:`core.agents.kg.unapplied`)."""

from __future__ import annotations

from typing import Any

from core.agents.kg.catalog import Tool
from core.agents.kg.timeparse import whole_years

MONTH_FILTERED = {"service_periods"}  # months applied in Python on period edges


def in_months(value: Any, months: list[str]) -> bool:
    return bool(value) and str(value)[:7] in months


def period_hits(r: dict, months: list[str]) -> bool:
    start, end = str(r.get("开始") or "0000-00"), (str(r["结束"]) if r.get("结束") else "9999-99")
    return any(start <= m <= end for m in months)


def months_native(tool: Tool, months: list[str]) -> bool:
    """Whether the tool's query or its own date applies these months (a year-dated tool: whole years)."""
    from core.graph import queries as Q

    if tool.name in MONTH_FILTERED or tool.date_field or (tool.query and "months" in Q.get(tool.query).defaults):
        return True
    return bool(tool.year_field) and whole_years(months)


def in_asked_months(tool: Tool, rows: list[dict], params: dict, by_query: bool) -> tuple[list[dict], bool, dict | None]:
    """(rows in the asked months, whether the months were applied, ``{"years", "found"}`` when the
    records are dated by a year only and part of one was asked). ``by_query``: the Cypher took them."""
    months = params.get("months") or []
    if not months:
        return rows, False, None
    applied = months_native(tool, months)
    if not by_query:
        if tool.name in MONTH_FILTERED:
            rows = [r for r in rows if period_hits(r, months)]
        elif tool.date_field and not params.get("date_field"):
            rows = [r for r in rows if in_months(r.get(tool.date_field), months)]
    if params.get("date_field"):  # "2026年到期的项目", "3月中标的", "3月进场的设备"
        return [r for r in rows if in_months(r.get(params["date_field"]), months)], True, None
    if tool.year_field:  # dated by a year only (投标记录的年份)
        years = {m[:4] for m in months}
        rows = [r for r in rows if str(r.get(tool.year_field) or "")[:4] in years]
        if not applied:  # "3月投了几个标": those months cannot be told apart
            return rows, False, {"years": sorted(years), "found": len(rows)}
    return rows, applied, None
