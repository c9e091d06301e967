"""How the KG answers write numbers and months: ``1,200.5`` / ``3`` / ``0.25`` and
``2026年3月`` (a list of months as ``2026年1月至2026年3月``). Shared by the answer composer
(:mod:`answering`) and the rules for named periods (:mod:`two_periods`)."""

from __future__ import annotations

import re


def fmt_value(v) -> str:
    """A cell value as the answer prints it: floats ≥ 1000 with thousands separators and at
    most two decimals, whole floats without a decimal point, everything else ``str``."""
    if isinstance(v, float):
        return f"{v:,.2f}".rstrip("0").rstrip(".") if abs(v) >= 1000 else (str(int(v)) if v.is_integer() else f"{v:g}")
    return str(v)


def ym_cn(v) -> str:
    """``2026-03`` → ``2026年3月``; a list or tuple of months → its first and last joined by 至."""
    if isinstance(v, (list, tuple)):
        v = [str(x) for x in v]
        return ym_cn(v[0]) if len(v) == 1 else f"{ym_cn(v[0])}至{ym_cn(v[-1])}" if v else ""
    v = str(v)
    return f"{int(v[:4])}年{int(v[5:7])}月" if re.match(r"\d{4}-\d{2}", v) else v


def fmt_field(field: str | None, v) -> str:
    """A field's value with its unit from the catalog (``开票金额`` → ``74,807.45元``); a field
    stored as a fraction and spoken of as a percentage prints as one, with one decimal (实际毛利率 0.097 →
    ``9.7%``, an average 0.10333 → ``10.3%``)."""
    from core.agents.kg import catalog

    if field in catalog.percent_fields() and isinstance(v, (int, float)) and not isinstance(v, bool):
        return f"{fmt_value(round(float(v) * 100, 1))}%"
    if field in catalog.percent_fields() and isinstance(v, str):
        try:
            return f"{fmt_value(round(float(v) * 100, 1))}%"
        except ValueError:
            return v
    return f"{fmt_value(v)}{catalog.unit(field)}"


def field_label(field: str | None) -> str:
    """How an answer names a figure: a field's own name, or for a difference / sum of two fields
    the words for it ("项目编制 - 在岗人数" → "项目编制与在岗人数之差")."""
    parts = re.fullmatch(r"\s*(\S+)\s*([-+])\s*(\S+)\s*", str(field or ""))
    if not parts:
        return str(field or "")
    a, op, b = parts.groups()
    return f"{a}与{b}之{'差' if op == '-' else '和'}"
