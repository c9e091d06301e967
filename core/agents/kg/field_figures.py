"""A numeric field bounded by a range or fixed to one figure, read from the ``field_figures`` rows
of ``data/rules/kg_condition_gate.json``: "合同金额在300万到500万之间" → ``合同金额 >= 3000000`` and
``合同金额 <= 5000000``; "客户投诉有3次" → ``客户投诉 == 3``. A percentage on a field stored as a
fraction is divided by 100 (毛利率为20% → 0.2)."""

from __future__ import annotations

import re
from functools import lru_cache

from core.agents.kg import kgrules
from core.text.numerals import apply_magnitude


@lru_cache(maxsize=1)
def _rows() -> tuple[tuple[str, str], ...]:
    spec = kgrules.rules_file("kg_condition_gate")["field_figures"]
    return tuple((r["kind"], r["pattern"].replace("{num}", spec["num"])) for r in spec["rows"])


@lru_cache(maxsize=1024)
def _word_patterns(word: str) -> tuple[tuple[str, re.Pattern], ...]:
    """(kind, the row's pattern after ``word``) per row, compiled once per field word (the words ×
    rows outnumber the ``re`` module's own cache, which then recompiled them for every question)."""
    return tuple((kind, re.compile(re.escape(word) + pat)) for kind, pat in _rows())


def _value(field: str, num: str, mult: str | None, text: str) -> float:
    from core.agents.kg import catalog

    v = float(apply_magnitude(num, mult))
    return v / 100 if ("%" in text or "％" in text) and field in catalog.percent_fields() else v


def _cond(field: str, op: str, value: float, text: str) -> dict:
    v = int(value) if float(value).is_integer() else value
    return {"field": field, "op": op, "value": value, "text": text, "derived": None, "expr": f"{field} {op} {v}"}


def _year_unit_dropped(question: str, word: str) -> str:
    """"合同年限是1年": for a field counted in years the 年 after its figure is the unit, not a date."""
    return re.sub(re.escape(word) + r"([^\d，。？?]{0,4}?\d+(?:\.\d+)?)\s*年", word + r"\1", question)


def figure_conditions(question: str, numeric_fields, taken: set[str]) -> list[dict]:
    """Range and exact-figure conditions on the numeric fields named in ``question``;
    ``numeric_fields`` = (word, field, unit) rows, longest words first; fields in ``taken`` are
    left alone."""
    out: list[dict] = []
    used: list[tuple[int, int]] = []
    for word, field, unit in sorted(numeric_fields, key=lambda w: -len(w[0])):
        if field in taken or any(c["field"] == field for c in out):
            continue
        asked = _year_unit_dropped(question or "", word) if unit == "年" else question or ""
        for kind, rx in _word_patterns(word):
            m = next((x for x in rx.finditer(asked)
                      if not any(a <= x.start() < b for a, b in used)), None)
            if m is None:
                continue
            used.append((m.start(), m.end()))
            text = m.group(0) + ("年" if asked != (question or "") else "")
            if kind == "range":
                lo, hi = sorted((_value(field, m.group(1), m.group(2), text), _value(field, m.group(3), m.group(4), text)))
                out += [_cond(field, ">=", lo, text), _cond(field, "<=", hi, text)]
            else:
                out.append(_cond(field, "==", _value(field, m.group(1), m.group(2), text), text))
            break
    return out
