"""Every data word of the question is used, or the answer says which was not.

A question names fields (中班, 汇总业态, 设备原值), stored values (保安, 已整改) and wordings of them
(到手工资 → 税后工资). When the composed answer — its understood slots, the plan's parameters and the
text shown — carries neither the word nor what it stands for, the engine answered a different,
smaller question ("中班和夜班加起来" answered with 夜班 alone; "按汇总业态分" with one total). That
answer is refused, naming the word.

The words come from the graph schema, the numeric-field and column wordings, the concept table and
the index's stored values; the words never checked are data
(``data/rules/kg_vocabulary.json`` → ``unused_terms``)."""

from __future__ import annotations

import json
import re
from functools import lru_cache

from core.agents.kg import kgrules
from core.agents.kg.value_words import worded_spans
from core.graph.schema import NODE_BY_LABEL, PROVENANCE, SYNTHETIC_KEY, DISPLAY

_MIN_LEN = 2
_IGNORED_SLOTS = ("coverage", "feedback")  # and every *question key


@lru_cache(maxsize=1)
def _field_words() -> dict[str, tuple[str, ...]]:
    """word → what it stands for (the word itself, the fields it names)."""
    from core.agents.kg.concepts import CONCEPTS, NUMERIC_FIELDS

    hidden = {DISPLAY, SYNTHETIC_KEY, *PROVENANCE}
    out: dict[str, set[str]] = {}

    def add(word: str, *targets: str) -> None:
        if word and len(word) >= _MIN_LEN:
            out.setdefault(word, set()).update(t for t in targets if t)

    for node in NODE_BY_LABEL.values():
        for p in node.property_names:
            if p not in hidden:
                add(p, p)
    for w, prop, _unit in NUMERIC_FIELDS:
        add(w, prop)
    for w, spec in CONCEPTS.items():
        if spec.get("property"):
            add(w, spec["property"])
    for w, col in kgrules.rules_file("kg_column_words")["words"].items():
        add(w, col)
    for w, shift in kgrules.mapping("shift_names").items():
        add(w, shift)
    skip = set(kgrules.words("unused_terms"))
    return {w: tuple(ts) for w, ts in out.items() if w not in skip}


def _value_words(index) -> dict[str, tuple[str, ...]]:
    skip = set(kgrules.words("unused_terms"))
    out: dict[str, tuple[str, ...]] = {}
    for field, values in (index.values or {}).items():
        for v in values:
            v = str(v)
            if len(v) >= _MIN_LEN and v not in skip:
                out[v] = (*out.get(v, ()), field)
    return out


def _blank(question: str, index, slots: dict) -> str:
    """The question without the names of projects, people and areas, the time said and the values
    written in words (未中标): a value inside a name (医院 in 人民医院) is the name's."""
    q = question
    spans = [m.get("text") or "" for m in index.find_mentions(question)]
    spans.append(((slots.get("time") or {}).get("text")) or "")
    spans += worded_spans(question)
    for p in slots.get("projects") or []:
        spans.append(p.get("text") or "" if isinstance(p, dict) else str(p))
    for t in sorted(set(spans), key=len, reverse=True):
        if len(t) >= 2:
            q = q.replace(t, " " * len(t))
    return q


def _said(slots: dict, steps: list[dict], text: str) -> str:
    kept = {k: v for k, v in slots.items() if k not in _IGNORED_SLOTS and not k.endswith("question")}
    params = [(s.get("tool"), s.get("params"), s.get("executed_params")) for s in steps or []]
    return json.dumps([kept, params], ensure_ascii=False, default=str) + (text or "")


def unused(question: str, text: str, slots: dict, steps: list[dict], index) -> list[str]:
    """The data words of ``question`` that neither the understood slots, the plan nor the answer
    text carry (``index``: the asker's entity index, for names and stored values)."""
    q = _blank(question or "", index, slots)
    words = {**_value_words(index), **_field_words()}
    said = _said(slots, steps, text)
    found: list[str] = []
    for w in _segment(q, words):
        if w not in found and not any(_shown(t, said, index) for t in (w, *words[w])):
            found.append(w)
    return found


def _segment(q: str, words: dict) -> list[str]:
    """The words of ``words`` in ``q`` by forward maximum matching: at each place the longest word
    that starts there (未中标的 → 中标, never 标的)."""
    longest = max((len(w) for w in words), default=0)
    out, i = [], 0
    while i < len(q):
        for n in range(min(longest, len(q) - i), _MIN_LEN - 1, -1):
            if q[i:i + n] in words:
                out.append(q[i:i + n])
                i += n
                break
        else:
            i += 1
    return out


def _shown(target: str, said: str, index) -> bool:
    """Is ``target`` (a word or a field) in what the answer says: by name, by the label a code field
    is shown under (续签前项目编号 → 续签前项目 …（XMSQ0052）), or by a stored value of the field
    (岗位 → a 岗位名称 such as 保安_普保)?"""
    if target in said or (target.endswith("编号") and len(target) > 4 and target[:-2] in said):
        return True
    stored = index.values or {}
    values = [*stored.get(target, []), *stored.get(target + "名称", [])]
    return any(len(str(v)) >= _MIN_LEN and re.search(rf"(?<![\u4e00-\u9fff]){re.escape(str(v))}(?![\u4e00-\u9fff])", said)
               for v in values)  # a whole value (园区 inside 青浦-工业园区 is no 汇总业态)


def refusal(words: list[str]) -> str:
    return ("没能用上问题中的" + "、".join(f"“{w}”" for w in words)
            + "：查到的结果没有按它计算或筛选，给出的会是另一个问题的答案，因此无法回答。请换个说法，或把问题拆开来问。")
