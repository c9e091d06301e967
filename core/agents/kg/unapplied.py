"""Conditions a plan could not apply: a step's records hold no field for them (服务状态 on 片区
records), or no date for the asked months (3月的岗位编制). The answer then says which condition it
could not apply and gives no figure without it — never the unfiltered records as if they answered
the question."""

from __future__ import annotations

import ast

from core.agents.kg.describe import month_label
from core.agents.kg.phrasing import label_dates
from core.agents.kg.tools import TOOLS, VALUE_FILTER_RE


def _words(expr: str, slots: dict) -> str:
    """A skipped condition in the asker's words: the understood condition's own text, or
    "字段：值" for a value filter, else the expression's field names."""
    for c in slots.get("conditions") or []:
        if isinstance(c, dict) and c.get("expr") == expr and c.get("text"):
            return str(c["text"])
    m = VALUE_FILTER_RE.match(expr)
    if m:
        try:
            return f"{m.group(1)}：{'、'.join(str(v) for v in ast.literal_eval(m.group(2)))}"
        except (ValueError, SyntaxError):
            return m.group(1)
    return expr.split()[0] if expr.split() else expr


def unapplied(slots: dict, steps: list[dict]) -> list[str]:
    """The conditions (in words) some query step of the plan could not apply."""
    out: list[str] = []
    for s in steps:
        for expr in s.get("conditions_skipped") or []:
            w = _words(str(expr), slots)
            if w not in out:
                out.append(w)
    return out


def refusal(words: list[str]) -> str:
    return ("数据中未找到能同时满足这些条件的记录：所查的记录中没有" + "、".join(f"“{w}”" for w in words)
            + "对应的字段，这个条件无法应用，因此不给出忽略它的结果。")


def months_unapplied(slots: dict, steps: list[dict]) -> str:
    """The refusal when the question asks months no query step could apply, else "": records
    dated by a year only asked for part of one (3月投了几次标: what that year holds), or no step
    that applied them (3月的设备: the dates those records carry, so the asker can say which)."""
    months = (slots.get("time") or {}).get("months") or []
    queried = [s for s in steps if s.get("cypher") and s.get("tool") in TOOLS]
    when = month_label(months)
    for s in queried:
        if s.get("year_only"):
            t, span = TOOLS[s["tool"]], "、".join(f"{y}年" for y in s["year_only"]["years"])
            asked = month_label((s.get("executed_params") or {}).get("months") or months)
            return (f"{t.label}只记到{t.year_field}，没有具体日期，分不出{asked}的{t.label}，因此不按月给出结果。"
                    f"{span}共有 {s['year_only']['found']} 条{t.label}；要看全年的，可以问“{span}的{t.label}”。")
    # a derived attribute (年龄, 司龄) is computed as of the asked time: "吴建华今年多大" uses it
    if not months or not queried or any(s.get("months_applied") or (s.get("executed_params") or {}).get("derived")
                                        for s in queried):
        return ""
    kinds = list(dict.fromkeys(TOOLS[s["tool"]].shows or TOOLS[s["tool"]].label or s["tool"] for s in queried))
    dates = [p for k in kinds for p in label_dates(k)]
    head = f"数据中未找到按“{when}”区分的{'、'.join(kinds)}记录："
    if not dates:
        return head + f"{'、'.join(kinds)}记录没有日期，这个时间条件无法应用，因此不给出忽略它的结果；去掉时间再问，可查看全部记录。"
    return (head + f"{'、'.join(kinds)}记录的日期有{'、'.join(dates)}，问题没有说按哪一个，因此不给出忽略时间的结果。"
            f"请说明，例如“{when}{dates[0][:-2]}的{kinds[0]}”。")
