"""Conditions a question states on one field without a number to compare with, read from the
rows of ``data/rules/kg_patterns.json``:

* :func:`existence_conditions` — "有值班费的员工" → ``值班费 > 0``; "没有投诉的项目",
  "一次客户投诉都没有" → ``客户投诉 == 0`` (``field_existence``);
* :func:`date_thresholds` — "2020年及以后启用的设备" → ``date(启用日期) >= date('2020-01-01')``,
  the date column named by its verb (启用 ← 启用日期), never the year read as a time range
  (``date_threshold``)."""

from __future__ import annotations

import calendar
import re
from functools import lru_cache

from core.agents.kg import kgrules
from core.graph import schema as S


def _condition(field: str, op: str, value, text: str, expr: str) -> dict:
    return {"field": field, "op": op, "value": value, "text": text, "derived": None, "expr": expr}


def surname_conditions(question: str) -> list[dict]:
    """"姓周的那个项目经理": the people whose 姓名 begins with that character (``surname``)."""
    m = re.search(kgrules.rules_file("kg_patterns")["surname"]["pattern"], question or "")
    if not m:
        return []
    name = m.group(1)
    return [_condition("姓名", "startswith", 0, f"姓{name}", f"startswith(姓名, {name!r})")]


def existence_conditions(question: str, numeric_fields, taken: set[str]) -> list[dict]:
    """A numeric field's word right after 有 / 没有 (or followed by 都没有): the records whose
    field is above zero / zero. ``numeric_fields`` = (word, field, unit) rows; fields in ``taken``
    already carry a condition and are left alone."""
    rows = kgrules.rules_file("kg_patterns")["field_existence"]["rows"]
    rxs = kgrules.patterns("field_existence")
    out: list[dict] = []
    used: list[tuple[int, int]] = []
    for word, field, _unit in sorted(numeric_fields, key=lambda w: -len(w[0])):
        if field in taken or any(c["field"] == field for c in out):
            continue
        for m in re.finditer(re.escape(word), question):
            if any(a <= m.start() < b for a, b in used):
                continue  # inside a longer word already read (客户投诉 before 投诉)
            before, after = question[:m.start()], question[m.end():]
            hit = next((row for rx, row in zip(rxs, rows)
                        if rx.search(before if row["side"] == "before" else after)), None)
            if hit is None:
                continue
            used.append((m.start(), m.end()))
            op = hit["op"]
            said = ("有" if op == ">" else "没有") + word
            out.append(_condition(field, op, 0, said, f"{field} {op} 0"))
            break
    return out


@lru_cache(maxsize=1)
def _date_columns() -> tuple[tuple[str, str], ...]:
    """(verb, date column) of every dated template column: 启用 ← 启用日期, 出生 ← 出生日期."""
    cols = {c.name for t in S.TEMPLATES for c in t.columns if c.type == "date" and c.name.endswith("日期")}
    pairs = [(c[:-2], c) for c in cols if len(c) > 2]
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))


def date_thresholds(question: str) -> tuple[list[dict], tuple[int, int] | None]:
    """Conditions "YYYY年[M月]及以后/以前 <verb>" put on the verb's date column, and the span of
    the year phrase (the caller drops a time range read from it); ([], None) when none."""
    spec = kgrules.rules_file("kg_patterns")["date_threshold"]
    for m in re.finditer(spec["pattern"], question):
        near = question[max(0, m.start() - 8):m.start()] + "|" + question[m.end():m.end() + 6]
        hit = next(((verb, col) for verb, col in _date_columns() if verb in near), None)
        if hit is None:
            continue
        year, month, word = int(m.group(1)), int(m.group(2) or 0), m.group(3)
        op = spec["ops"][word]
        if op in (">=", "<"):  # from the first day of the period on / before it
            bound = f"{year:04d}-{month or 1:02d}-01"
        else:                   # after / up to the period's last day
            last = month or 12
            bound = f"{year:04d}-{last:02d}-{calendar.monthrange(year, last)[1]:02d}"
        col = hit[1]
        expr = f"date({col}) {op} date('{bound}')"
        return [_condition(col, op, bound, m.group(0) + hit[0], expr)], (m.start(), m.end())
    return _date_within(question, spec)


def _date_within(question: str, spec: dict) -> tuple[list[dict], tuple[int, int] | None]:
    """"2022年8月出厂的设备", "2013年启用的": a year (or month) written right before a date
    column's verb puts that column inside the period — two bounds, never the period read as the
    asked time range (``date_threshold.within_pattern``)."""
    skip = set(spec.get("within_skip_verbs") or ())
    verbs = "|".join(re.escape(v) for v, _c in _date_columns() if v not in skip)
    m = re.search(spec["within_pattern"].replace("{verbs}", verbs), question)
    if not m:
        return [], None
    col = dict(_date_columns())[m.group(3)]
    year, month = int(m.group(1)), int(m.group(2) or 0)
    first = f"{year:04d}-{month or 1:02d}-01"
    last_month = month or 12
    last = f"{year:04d}-{last_month:02d}-{calendar.monthrange(year, last_month)[1]:02d}"
    said = m.group(0).strip() + m.group(3)
    return [_condition(col, ">=", first, said, f"date({col}) >= date('{first}')"),
            _condition(col, "<=", last, said, f"date({col}) <= date('{last}')")], (m.start(), m.end())


def date_column_intent(conditions: list[dict]) -> str | None:
    """The intent whose records hold the date column of a date threshold (启用日期 → 设备)."""
    labels = kgrules.mapping("intent_labels")
    for c in conditions:
        for intent, label in labels.items():
            node = S.NODE_BY_LABEL.get(label)
            if node is not None and c["field"] in node.property_names:
                return intent
    return None
