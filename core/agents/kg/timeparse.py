"""Time normaliser for business questions: 2026年3月, 3月, 上个月, 一季度, 1-3月, 近三个月 …

Everything is resolved against an injected ``today`` (tests pass a fixed date). The result is a
closed range of year-months ``YYYY-MM``. :func:`coverage_note` says in plain Chinese when a range
falls partly or wholly outside the months the graph holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date

from core.text.numerals import cn_to_int

_NUM = r"(\d{1,2}|十一|十二|十|[一二两三四五六七八九])"


def _n(tok: str) -> int:
    """A month / quarter / count token of the patterns below (3, 十二, 两) as a number."""
    n = cn_to_int(tok)
    if n is None:
        raise ValueError(f"not a number: {tok!r}")
    return n


def ym(y: int, m: int) -> str:
    return f"{y:04d}-{m:02d}"


def add_months(value: str, k: int) -> str:
    y, m = int(value[:4]), int(value[5:7])
    idx = y * 12 + (m - 1) + k
    return ym(idx // 12, idx % 12 + 1)


def month_span(start: str, end: str) -> list[str]:
    out, cur = [], start
    while cur <= end and len(out) < 240:
        out.append(cur)
        cur = add_months(cur, 1)
    return out


def whole_years(months: list[str]) -> bool:
    """Every month of each year the months touch ("今年", "2025年"), not part of one ("3月", "一季度")."""
    years = {m[:4] for m in months}
    return set(months) >= {f"{y}-{i:02d}" for y in years for i in range(1, 13)}


@dataclass(frozen=True)
class TimeRange:
    start: str  # YYYY-MM
    end: str    # YYYY-MM
    text: str   # what the user wrote
    relative: bool = False
    only: tuple[str, ...] = ()  # the months named when they are not one run ("1月和3月")

    @property
    def months(self) -> list[str]:
        return list(self.only) or month_span(self.start, self.end)

    def label(self) -> str:
        def cn(v: str) -> str:
            return f"{int(v[:4])}年{int(v[5:7])}月"
        if self.only:
            return "、".join(cn(m) for m in self.only)
        return cn(self.start) if self.start == self.end else f"{cn(self.start)}至{cn(self.end)}"

    def to_dict(self) -> dict:
        return {"start": self.start, "end": self.end, "text": self.text, "months": self.months,
                "label": self.label(), "relative": self.relative, "only": list(self.only)}

    @classmethod
    def from_dict(cls, d: dict | None) -> "TimeRange | None":
        if not d:
            return None
        return cls(d["start"], d["end"], d.get("text", ""), bool(d.get("relative")), tuple(d.get("only") or ()))


def _year_for_month(m: int, today: date) -> int:
    """A bare month means the latest such month not after today."""
    return today.year if m <= today.month else today.year - 1


_PATTERNS: list[tuple[re.Pattern, str]] = [
    (re.compile(r"(\d{4})\s*年\s*" + _NUM + r"\s*月?\s*(?:份)?\s*(?:-|~|－|—|到|至)\s*" + _NUM + r"\s*月"), "y_mm"),
    (re.compile(r"(\d{4})\s*[-/.]\s*(\d{1,2})\s*(?:-|~|到|至)\s*(\d{4})\s*[-/.]\s*(\d{1,2})"), "ym_ym"),
    (re.compile(r"(\d{4})\s*年\s*" + _NUM + r"\s*月"), "y_m"),
    (re.compile(r"(?<![\d-])(\d{4})\s*[-/.]\s*(\d{1,2})(?![\d])"), "y_m"),
    (re.compile(r"(?:(\d{4})\s*年\s*)?(?:第\s*)?([一二三四1-4])\s*季度|[Qq]([1-4])"), "quarter"),
    (re.compile(r"(?:近|最近|过去|前)\s*" + _NUM + r"\s*个?月"), "recent"),
    (re.compile(r"上个?季度"), "prev_q"),
    (re.compile(r"(?:本|这个?|当前)季度"), "this_q"),
    (re.compile(r"下个?季度"), "next_q"),
    (re.compile(r"下个?月"), "next"),
    (re.compile(r"明年"), "next_year"),
    (re.compile(r"上上个?月"), "prev2"),
    (re.compile(r"上个?月"), "prev"),
    (re.compile(r"(?:本|这个?|当)月"), "this"),
    (re.compile(r"上半年"), "h1"),
    (re.compile(r"下半年"), "h2"),
    (re.compile(r"(?<![\d年])" + _NUM + r"\s*月?\s*(?:份)?\s*(?:-|~|－|—|到|至)\s*" + _NUM + r"\s*月"), "mm"),
    (re.compile(r"(?<![\d年第个])" + _NUM + r"\s*月(?:份)?(?!\s*内)"), "m"),
    (re.compile(r"(\d{4})\s*年(?!\s*(?:[\d一二三四五六七八九十两]+\s*月|第?\s*[一二三四1-4]\s*季度|[上下]半年))"), "year"),
    (re.compile(r"今年"), "this_year"),
    (re.compile(r"去年"), "last_year"),
]


# a year word right before a finer expression ("今年一季度", "去年12月", "明年3月"): that year
_FINER_AHEAD = r"(?=\s*(?:第?\s*[一二三四1-4]\s*季度|[Qq][1-4]|[上下]半年|\d{1,2}\s*月|[一二三四五六七八九十]{1,2}\s*月))"


def parse_time(text: str, today: date) -> TimeRange | None:
    """The first time expression in ``text`` as a :class:`TimeRange`, or ``None``; periods listed
    with 和 / 、 / 与 ("1月和3月", "一季度和二季度") are one range of all their months."""
    text = _spelled_out(text or "", today)
    first = _expression_at(text, today)
    if first is None:
        return None
    tr, begin, end = first
    while (joint := _AND.match(text, end)) and (nxt := _expression_at(text, today, joint.end())):
        tr, end = _joined(tr, nxt[0]), nxt[2]
    return replace(tr, text=text[begin:end].strip())


_AND = re.compile(r"\s*(?:和|与|、|及|跟|以及|还有|或)\s*")


def _expression_at(text: str, today: date, at: int | None = None) -> tuple[TimeRange, int, int] | None:
    """(range, start, end offset) of the first expression of ``text`` (from ``at``: only one starting there)."""
    found = _first_expression(text[at:] if at is not None else text)
    if found is None or (at is not None and found[0].start() != 0):
        return None
    m, kind = found
    try:
        tr = _RANGES[kind](m, text if at is None else text[at:], today)
    except (KeyError, ValueError):
        return None
    return (tr, m.start() + (at or 0), m.end() + (at or 0)) if tr else None


def of_months(months: list[str], text: str = "", relative: bool = False) -> TimeRange:
    """Sorted year-months as one range; ``only`` holds them when they are not one run."""
    months = sorted(set(months))
    run = months == month_span(months[0], months[-1])
    return TimeRange(months[0], months[-1], text, relative, () if run else tuple(months))


def _joined(a: TimeRange, b: TimeRange) -> TimeRange:
    """``a`` and ``b`` as one range; a bare month after a dated one is in its year ("2025年1月和3月")."""
    if b.relative and not a.relative:
        b = TimeRange(add_months(b.start, 12 * (int(a.end[:4]) - int(b.end[:4]))),
                      add_months(b.end, 12 * (int(a.end[:4]) - int(b.end[:4]))), b.text, False)
    return of_months([*a.months, *b.months], a.text, a.relative and b.relative)


def _spelled_out(text: str, today: date) -> str:
    """``text`` with the shorthands the patterns do not read written out: 今年 / 明年 / 去年 before a
    finer expression as the year, Q1 as 一季度, 26年 as 2026年, "3月比2月" as a range."""
    for word, offset in (("今年", 0), ("明年", 1), ("去年", -1)):
        text = re.sub(word + _FINER_AHEAD, f"{today.year + offset}年", text)
    text = re.sub(r"(\d{4})\s*年?\s*[Qq]([1-4])", r"\1年\2季度", text)
    text = re.sub(r"(?<![\d])(\d{2})\s*年(?=\s*(?:\d{1,2}|[一二三四五六七八九十]{1,2})\s*月|\s*第?\s*[一二三四1-4]\s*季度)",
                  r"20\1年", text)  # "26年3月"
    # "3月比4月": the closed range between them (months listed with 和 are joined by parse_time)
    text = re.sub(r"(?<![\d年])(\d{1,2})\s*月(?:份)?\s*(?:比|相比|对比)\s*(\d{1,2})\s*月", r"\1-\2月", text)
    # "3月开票比2月增长了多少": the two months of a comparison
    return re.sub(r"(?<![\d年])(\d{1,2})\s*月(?:份)?([^\d月，。？?]{1,6}?)(?:比|相比|对比|较)\s*(\d{1,2})\s*月",
                  r"\1-\3月\2", text)


def _first_expression(text: str) -> tuple[re.Match, str] | None:
    """(match, kind) of the earliest pattern in ``text``; an expression with its year (2026年3月,
    2026年一季度) is taken as soon as it is found."""
    best = None
    for pat, kind in _PATTERNS:
        m = pat.search(text)
        if m and (best is None or m.start() < best[0].start()):
            best = (m, kind)
        if m and kind in ("y_mm", "ym_ym", "y_m") or (m and kind == "quarter" and m.group(1)):
            best = (m, kind)
            break
    return best


# ---- one builder per pattern kind: (match, text, today) → TimeRange | None ----------------

def _year_month_span(m: re.Match, text: str, today: date) -> TimeRange | None:
    """2026年1-3月."""
    y = int(m.group(1))
    a, b = sorted((_n(m.group(2)), _n(m.group(3))))
    return _mk(ym(y, a), ym(y, b), m.group(0))


def _between_year_months(m: re.Match, text: str, today: date) -> TimeRange | None:
    """2026-01 到 2026-03."""
    return _mk(ym(int(m.group(1)), int(m.group(2))), ym(int(m.group(3)), int(m.group(4))), m.group(0))


def _year_month(m: re.Match, text: str, today: date) -> TimeRange | None:
    """2026年3月, 2026-03."""
    mm = _n(m.group(2))
    return _mk(ym(int(m.group(1)), mm), ym(int(m.group(1)), mm), m.group(0))


def _quarter(m: re.Match, text: str, today: date) -> TimeRange | None:
    """2026年一季度; a bare 一季度 / Q1 is the latest one begun by today."""
    q = _n(m.group(2) or m.group(3))
    explicit = m.group(1)
    ty = today.year
    y = int(explicit) if explicit else (ty if (q - 1) * 3 + 1 <= today.month else ty - 1)
    return _mk(ym(y, (q - 1) * 3 + 1), ym(y, q * 3), m.group(0), relative=not explicit)


def _recent_months(m: re.Match, text: str, today: date) -> TimeRange | None:
    """近三个月: the last k months up to this one."""
    k = _n(m.group(1))
    end = ym(today.year, today.month)
    return _mk(add_months(end, -(k - 1)), end, m.group(0), relative=True)


def _next_quarter(m: re.Match, text: str, today: date) -> TimeRange | None:
    start = add_months(ym(today.year, (today.month - 1) // 3 * 3 + 1), 3)
    return _mk(start, add_months(start, 2), m.group(0), relative=True)


def _quarter_from_now(offset: int):
    """本季度 (0) / 上季度 (-1)."""
    def build(m: re.Match, text: str, today: date) -> TimeRange | None:
        q0 = (today.month - 1) // 3 + offset
        y = today.year + (q0 // 4 if q0 >= 0 else -1)
        q0 = q0 % 4
        return _mk(ym(y, q0 * 3 + 1), ym(y, q0 * 3 + 3), m.group(0), relative=True)
    return build


def _month_from_now(offset: int):
    """本月 (0) / 下个月 (1) / 上个月 (-1) / 上上个月 (-2)."""
    def build(m: re.Match, text: str, today: date) -> TimeRange | None:
        v = add_months(ym(today.year, today.month), offset)
        return _mk(v, v, m.group(0), relative=True)
    return build


def _year_from_now(offset: int):
    """今年 (0) / 明年 (1) / 去年 (-1)."""
    def build(m: re.Match, text: str, today: date) -> TimeRange | None:
        y = today.year + offset
        return _mk(ym(y, 1), ym(y, 12), m.group(0), relative=True)
    return build


def _half_year(first: bool):
    """上半年 / 下半年, of the year written just before it (2026年上半年) or else this year."""
    def build(m: re.Match, text: str, today: date) -> TimeRange | None:
        y_match = re.search(r"(\d{4})\s*年\s*$", text[:m.start()])
        y = int(y_match.group(1)) if y_match else today.year
        a, b = (1, 6) if first else (7, 12)
        return _mk(ym(y, a), ym(y, b), (y_match.group(0) if y_match else "") + m.group(0), relative=not y_match)
    return build


def _months_range(m: re.Match, text: str, today: date) -> TimeRange | None:
    """1-3月: in the year of the latest such last month not after today."""
    a, b = sorted((_n(m.group(1)), _n(m.group(2))))
    y = _year_for_month(b, today)
    return _mk(ym(y, a), ym(y, b), m.group(0), relative=True)


def _month(m: re.Match, text: str, today: date) -> TimeRange | None:
    """3月: the latest March not after today."""
    mm = _n(m.group(1))
    if not 1 <= mm <= 12:
        return None
    y = _year_for_month(mm, today)
    return _mk(ym(y, mm), ym(y, mm), m.group(0), relative=True)


def _year(m: re.Match, text: str, today: date) -> TimeRange | None:
    """2026年: the whole year."""
    y = int(m.group(1))
    return _mk(ym(y, 1), ym(y, 12), m.group(0))


_RANGES = {
    "y_mm": _year_month_span, "ym_ym": _between_year_months, "y_m": _year_month, "quarter": _quarter,
    "recent": _recent_months, "next_q": _next_quarter,
    "this_q": _quarter_from_now(0), "prev_q": _quarter_from_now(-1),
    "this": _month_from_now(0), "next": _month_from_now(1), "prev": _month_from_now(-1), "prev2": _month_from_now(-2),
    "this_year": _year_from_now(0), "next_year": _year_from_now(1), "last_year": _year_from_now(-1),
    "h1": _half_year(True), "h2": _half_year(False),
    "mm": _months_range, "m": _month, "year": _year,
}


def _mk(start: str, end: str, raw: str, relative: bool = False) -> TimeRange | None:
    if not (1 <= int(start[5:7]) <= 12 and 1 <= int(end[5:7]) <= 12):
        return None
    if start > end:
        start, end = end, start
    return TimeRange(start, end, raw.strip(), relative)


def clip_to_coverage(tr: TimeRange, coverage: tuple[str, str] | None) -> list[str]:
    """Months of ``tr`` that the graph holds."""
    if not coverage:
        return tr.months
    lo, hi = coverage
    return [m for m in tr.months if lo <= m <= hi]


def coverage_label(coverage: tuple[str, str] | None) -> str:
    if not coverage:
        return "（图谱中暂无带年月的数据）"
    lo, hi = coverage
    return f"{int(lo[:4])}年{int(lo[5:7])}月至{int(hi[:4])}年{int(hi[5:7])}月"


def coverage_note(tr: TimeRange | None, coverage: tuple[str, str] | None) -> str | None:
    """A sentence when ``tr`` is (partly) outside the data's coverage, else ``None``."""
    if tr is None or not coverage:
        return None
    inside = clip_to_coverage(tr, coverage)
    if not inside:
        return (f"您问的时间“{tr.text}”即 {tr.label()}，超出了图谱数据的时间覆盖范围"
                f"（{coverage_label(coverage)}），数据中未找到该时间段的记录。")
    if len(inside) < len(tr.months):
        return (f"{tr.label()} 只有部分月份在数据覆盖范围内（{coverage_label(coverage)}），"
                f"以下仅基于 {of_months(inside).label()} 的数据。")
    return None
