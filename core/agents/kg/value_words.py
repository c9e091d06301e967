"""How a question writes a field's value, for
:meth:`core.agents.kg.entity_index.EntityIndex.ground_values`: in words rather than as a stored
value (女员工 → 性别 女, 已结束 → 服务状态 已结束, 党员 → 政治面貌 中共党员, 落标 → 中标结果 未中标 …),
and the ways a vocabulary field's stored value is written (in full, without its separator, by its
base: 保安 → 保安_领班, 保安_普保)."""

from __future__ import annotations

import re
from functools import lru_cache

from core.agents.kg import kgrules
from core.agents.kg.entity_names import loose, name_key


@lru_cache(maxsize=1)
def _worded() -> tuple[tuple[tuple[str, tuple[tuple[re.Pattern, str], ...]], ...], re.Pattern]:
    """The ``worded_values`` entry of ``kg_vocabulary.json``: per field its (pattern, value) rows,
    the first that matches wins; and the 在服项目 words."""
    spec = kgrules.rules_file("kg_vocabulary")["worded_values"]
    fields = tuple((f["field"], tuple((re.compile(r["pattern"]), r["value"]) for r in f["rows"]))
                   for f in spec["fields"])
    return fields, re.compile(spec["in_service"])


def worded_spans(question: str) -> list[str]:
    """The parts of ``question`` that write some field's value in words (中标, 未中标, 女员工)."""
    return [m.group(0) for _field, rows in _worded()[0] for rx, _v in rows for m in rx.finditer(question or "")
            if m.group(0)]


def worded_values(question: str, genders: list[str], known=()) -> dict[str, list[str]]:
    """``{field: [value]}`` for the words of ``question``; a gender only when the data holds it
    (``genders``). ``known``: the fields grounded otherwise — a 服务状态 among them stands against
    the 在服项目 fallback (not against the state words proper)."""
    fields, in_service = _worded()
    out: dict[str, list[str]] = {}
    for field, rows in fields:
        values = _named_values(question, rows, genders if field == "性别" else None)
        if values:
            out[field] = values
    if "服务状态" not in out and "服务状态" not in known and in_service.search(question):
        out["服务状态"] = ["服务中"]
    return out


def _named_values(question: str, rows, allowed: list[str] | None) -> list[str]:
    """The values of one field's rows the question names, in row order: "包干制和酬金制" both; a
    row matching inside an earlier row's words adds nothing (未中标 holds 中标)."""
    values: list[str] = []
    spans: list[tuple[int, int]] = []
    for rx, v in rows:
        if allowed is not None and v not in allowed:
            continue
        for m in rx.finditer(question):
            if not any(a <= m.start() < b for a, b in spans):
                spans.append(m.span())
                values += [v] if v not in values else []
    return values


# ---- how a vocabulary field's value is written in a question (EntityIndex._vocabulary_values)

# the fields whose stored values a question may name, the longer, more specific vocabularies first
# (kg_vocabulary.json "vocabulary_fields")
VOCABULARY_FIELDS: tuple[str, ...] = tuple(kgrules.rules_file("kg_vocabulary")["vocabulary_fields"]["fields"])


def record_kind_prefix(f: str, vals: list[str], q: str) -> tuple[list[str], list[str]]:
    """耗材 → 耗材采购, 固定资产 (记录类型 only; nothing masked)."""
    if f != "记录类型":
        return [], []
    return sorted({v for v in vals if len(v) >= 4 and name_key(v[:2]) in q}), []


def exact_values(f: str, vals: list[str], q: str) -> tuple[list[str], list[str]]:
    """The values written out; the longest win (项目经理 over 经理)."""
    exact = [v for v in vals if name_key(v) and name_key(v) in q]
    if not exact:
        return [], []
    longest = max(len(v) for v in exact)
    hits = sorted({v for v in exact if len(v) == longest or not any(v in e and v != e for e in exact)})
    return hits, [name_key(v) for v in hits]


def _joined_values(f: str, vals: list[str], q: str) -> tuple[list[str], list[str]]:
    """保安领班 is 保安_领班 written without its separator, not every 保安."""
    joined = [v for v in vals if loose(v) != name_key(v) and len(loose(v)) >= 3 and loose(v) in q]
    return sorted(joined), [loose(v) for v in joined]


def _base_values(f: str, vals: list[str], q: str) -> tuple[list[str], list[str]]:
    """A value by its base (保安 → 保安_领班, 保安_普保); a post by its stem (保洁 → 保洁员, also next
    to another post: "保安和保洁"); a district without its 区 (青浦 → 青浦区)."""
    hits = sorted({v for v in vals if len(_base(v)) >= 2 and name_key(_base(v)) in q})
    if f == "岗位名称":
        hits = sorted(set(hits) | {v for v in vals if len(v) == 3 and v.endswith("员") and name_key(v[:2]) in q})
    if f == "市区" and not hits:
        hits = sorted({v for v in vals if len(v) >= 3 and v[-1] in "区市县" and name_key(v[:-1]) in q})
    return hits, [name_key(_base(v)) for v in hits]


# the ways tried in turn for one field, the first that finds a value wins; each
# (field, its values, masked question) → (values found, the written forms to mask)
VALUE_WAYS = (record_kind_prefix, exact_values, _joined_values, _base_values)


def _base(value: str) -> str:
    """保安_领班 → 保安, 保安员（三级） → 保安员: a value without its qualifier."""
    return re.split(r"[_（(]", value)[0]
