"""Two-period comparisons (环比 / 同比 / "3月比2月…") and the follow-ups of computed kinds
("那3月呢", "超过30小时的呢")."""

from __future__ import annotations

import re
from datetime import date

from core.agents.kg.cues import GROUP_RE, _BARE_THRESHOLD, _default_numeric, _numeric_field, _th_op
from core.agents.kg import kgrules
from core.text.numerals import apply_magnitude

GROWTH_RE = re.compile(r"环比|同比|增长|增加|减少|下降|上升|变化|变动|多了|少了|多多少|少多少|涨|降|差多少|差额|相差|"
                       r"(?:多|高|少|低)还是(?:少|低|多|高)|有没有(?:增加|减少|增长|下降)")

_M = r"(\d{1,2}|十一|十二|十|[一二两三四五六七八九])"

_REL_BASE_RE = re.compile(r"(?:比|较|相比|对比|和|与|跟)?\s*(?:上个?月|前一个?月|上一个?月|去年同期|上年同期|同期)(?:相比|比较|对比)?")

_PAIR_RE = re.compile(r"(?:(\d{4})\s*年\s*)?" + _M + r"\s*月(?:份)?([^\d月，。？?]{0,8}?)(比|相比|对比|较|与|和|跟|到|至)\s*"
                      r"(?:(\d{4})\s*年\s*)?" + _M + r"\s*月")



def _ym_of(year: str | None, month: str, today: date) -> str:
    from core.agents.kg.timeparse import _n, _year_for_month, ym

    mm = _n(month)
    return ym(int(year) if year else _year_for_month(mm, today), mm)



def _growth(q: str, intent: str, agg: dict | None, tr, today: date):
    """Two-period comparisons: "4月开票环比增长多少" (vs the month before), "同比" (vs the same month a
    year before), "3月比2月出勤人数增加了多少". Returns (growth slot or None, time range, agg)."""
    from core.agents.kg.timeparse import TimeRange, add_months

    qy = q.replace("今年", f"{today.year}年").replace("去年", f"{today.year - 1}年")
    if intent not in ("考勤", "工资", "排班", "收费") or not (
            GROWTH_RE.search(q) or (re.search(r"相比|对比|比较|较", q) and _PAIR_RE.search(qy))):
        return None, tr, agg
    base = current = None
    periods = None
    kind = "环比" if "环比" in q else "同比" if "同比" in q else "对比"
    rel = _REL_BASE_RE.search(q)
    if rel:  # "4月比上个月…", "比去年同期…": the base is relative to the asked month, not to today
        kind = "同比" if "同期" in rel.group(0) or "去年" in rel.group(0) else "环比"
        from core.agents.kg.timeparse import parse_time as _pt

        tr = _pt(q[:rel.start()] + "，" + q[rel.end():], today) or tr
    pm = None if rel else _PAIR_RE.search(qy)
    if pm and 1 <= int(_ym_of(pm.group(1), pm.group(2), today)[5:]) <= 12:
        a = _ym_of(pm.group(1), pm.group(2), today)
        b = _ym_of(pm.group(5) or pm.group(1), pm.group(6), today)
        if pm.group(4) in ("比", "相比", "对比", "较"):
            current, base = a, b  # "3月比2月": 3月 against 2月
        else:
            base, current = sorted((a, b))  # "2月和3月相比", "2月到3月"
        if kind == "对比":
            kind = "环比" if add_months(base, 1) == current else "同比" if add_months(base, 12) == current else "对比"
    elif tr is not None and kind in ("环比", "同比") and tr.start == tr.end:
        current = tr.end
        base = add_months(current, -1 if kind == "环比" else -12)
    elif tr is not None and kind in ("环比", "同比") and len(tr.months) > 1:
        # "一季度开票比去年同期…": the period's total against the same-length period before / a year before
        if (agg or {}).get("op") not in (None, "sum"):
            return None, tr, agg  # monthly head counts or averages do not add up over a period
        cur_m = tr.months
        base_m = [add_months(m, -len(cur_m) if kind == "环比" else -12) for m in cur_m]
        periods = {"base_months": base_m, "current_months": cur_m}
        base, current = base_m[0], cur_m[0]
    if not base or not current or base == current:
        return None, tr, agg
    lo, hi = sorted((base, current))
    if periods:
        lo, hi = periods["base_months"][0], periods["current_months"][-1]
    tr = TimeRange(lo, hi, tr.text if tr else f"{lo}至{hi}", bool(tr and tr.relative))
    op = (agg or {}).get("op")
    if op not in ("sum", "count", "avg"):
        field = _numeric_field(q) or _default_numeric(intent)
        agg = {"op": "sum", "field": field, "explicit": True}
    agg = {k: v for k, v in agg.items() if k not in ("group_by", "top", "order", "then", "outer", "having")}
    by = next((k for rx, k in GROUP_RE if rx.search(q) and k != "年月"), None)
    sel = change_select(q)
    if sel:  # "4月开票比3月多的项目有哪些": per project, only those that went up
        by = sel[0]
    return {"base": base, "current": current, "kind": kind, **(periods or {}), **({"by": by} if by else {}),
            **({"select": sel[1]} if sel else {})}, tr, agg


def change_select(q: str) -> tuple[str, str] | None:
    """(group field, sign of the change) when the question asks which groups rose / fell
    between the two periods (``change_select`` rows of kg_patterns.json)."""
    spec = kgrules.rules_file("kg_patterns")["change_select"]
    for rx, row in zip(kgrules.patterns("change_select"), spec["rows"]):
        m = rx.search(q)
        if m:
            return spec["groups"][m.group(1)], row["sign"]
    return None



def _followup_kinds(q: str, merged: dict, previous: dict, tr, new_conditions: bool) -> None:
    """Follow-ups of the computed kinds: "那3月呢" after "4月开票环比增长多少" moves both compared
    months; "超过30小时的呢" after "加班总时长超过50小时的人" changes the threshold on the total."""
    from core.agents.kg.timeparse import TimeRange, add_months

    growth = previous.get("growth")
    if growth and tr is not None:
        kind = growth.get("kind")
        if kind in ("环比", "同比") and tr.start == tr.end:
            cur = tr.end
            base = add_months(cur, -1 if kind == "环比" else -12)
            lo, hi = sorted((base, cur))
            merged["growth"] = {**growth, "base": base, "current": cur}
            merged["time"] = TimeRange(lo, hi, tr.text, tr.relative).to_dict()
        else:
            merged["growth"] = None
    for key, slot in (("agg", "值"), ("ratio", "比率")):
        prev = merged.get(key) or {}
        if not prev.get("having"):
            continue
        m = _BARE_THRESHOLD.search(q)
        if not m:
            continue
        if m.group(1):
            op = _th_op(m.group(1), None)
            val = apply_magnitude(m.group(2), m.group(3))
        else:
            op, val = (">=" if m.group(6) == "以上" else "<="), apply_magnitude(m.group(4), m.group(5))
        if not op:
            continue
        v = int(val) if val.is_integer() else val
        merged[key] = {**prev, "having": f"{slot} {op} {v}"}
        if new_conditions:  # the bare threshold was also read as a record condition: it is the group's
            merged["conditions"] = list(previous.get("conditions") or [])
