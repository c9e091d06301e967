"""Two periods named on both sides of "比" ("一季度比去年四季度", "4月比1-3月平均高多少") and the
percentage-point gap between two periods' ratios ("3月出勤率比2月高还是低")."""

from __future__ import annotations

import re
from datetime import date

from core.agents.kg.formatting import fmt_value, ym_cn

_CMP_WORD = re.compile(r"比")
_MORE_RE = re.compile(r"(?:多|高|少|低|增加|减少|增长|下降|差)")
_AVG_SIDE = re.compile(r"(?:的)?(?:月)?平均|月均")


def two_periods(q: str, today: date) -> dict | None:
    """{"base_months", "current_months", "base_avg"} for "一季度比去年四季度多多少" / "4月比1-3月平均
    高多少"; None unless both sides of "比" name a period and the periods differ."""
    from core.agents.kg.timeparse import parse_time

    m = _CMP_WORD.search(q)
    if not m or not _MORE_RE.search(q[m.end():]):
        return None
    left, right = q[:m.start()], q[m.end():]
    cut = _MORE_RE.search(right)
    right_time = right[:cut.start()] if cut else right
    a, b = parse_time(left, today), parse_time(right_time, today)
    if a is None or b is None or a.months == b.months:
        return None
    return {"current_months": list(a.months), "base_months": list(b.months),
            "base_avg": bool(_AVG_SIDE.search(right_time)) and len(b.months) > 1,
            "labels": (a.text, b.text)}


def pp_sentence(rows: list[dict], base: str, current: str, name: str) -> str:
    """"2026年3月出勤率比2026年2月高 0.38 个百分点" from per-month ratio rows."""
    by = {str(r.get("年月")): r.get("比率") for r in rows}
    b, c = by.get(base), by.get(current)
    if b is None or c is None:
        miss = [m for m, v in ((current, c), (base, b)) if v is None]
        return f"数据中未找到{'、'.join(ym_cn(m) for m in miss)}的{name}，无法比较。"
    d = round(float(c) - float(b), 2)
    if d == 0:
        return f"{ym_cn(current)}{name}与{ym_cn(base)}持平（均为 {fmt_value(c)}%）。"
    word = "高" if d > 0 else "低"
    return (f"{ym_cn(current)}{name}比{ym_cn(base)}{word} {fmt_value(abs(d))} 个百分点"
            f"（{fmt_value(c)}% − {fmt_value(b)}% = {fmt_value(d)} 个百分点）。")
