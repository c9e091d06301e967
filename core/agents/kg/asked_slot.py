"""The asked-slot gate: an answer must state a value of the kind the question asks, for the
thing it asks about. A count of another noun (共 1 台设备 for 维修过几次), a record list that
never mentions the asked thing (体检结果怎么样), a listing or a grand total where the holder of
a maximum was asked (数量最多的是什么) is a confident answer to a different question, so it is
refused saying what was not found.

The cue patterns are data (``data/rules/kg_asked_slot.json``)."""

from __future__ import annotations

import re
from functools import lru_cache

from core.agents.kg import kgrules
from core.agents.kg.concepts import CONCEPTS, INTENTS, NUMERIC_FIELDS


def _rules() -> dict:
    return kgrules.rules_file("kg_asked_slot")


@lru_cache(maxsize=1)
def _vocabulary() -> frozenset[str]:
    """Every word the engine understands as a kind of record or a field (合同, 服务期, 检查得分 …)."""
    return frozenset({w for _d, ws in INTENTS.values() for w in ws} | set(CONCEPTS)
                     | {w for w, _p, _u in NUMERIC_FIELDS})


def _unknown_thing(thing: str, answer: str) -> bool:
    """Is ``thing`` (体检结果, 劳动合同) neither in the answer nor part of a word the engine knows?"""
    core = re.sub(_rules()["thing_trim"], "", thing)
    return bool(core) and core not in answer and not any(core in w for w in _vocabulary())


def headline(text: str) -> str:
    """The answer's statement: its lines before the sources and before its record list."""
    return re.split(r"依据[:：]?|\n\s*1[.、]", text or "", maxsplit=1)[0]


def _other_count(question: str, head: str, answer: str) -> str | None:
    """The noun of a headline count when the question asks a number of events in another noun."""
    rule = _rules()["count"]
    if not re.search(rule["ask"], question) or re.search(rule["stated_events"], answer):
        return None
    m = re.search(rule["stated"], head)
    if m and not any(m.group(1).startswith(n) for n in rule["count_nouns"]):
        return m.group(0)
    return None


def missing_slot(question: str, answer: str) -> tuple[str, str] | None:
    """``(kind, asked words)`` when the answer does not state what ``question`` asks, else ``None``."""
    q, head = question or "", headline(answer)
    stated = _other_count(q, head, answer or "")
    if stated:
        ask = re.search(r"([一-龥]{0,3})(" + _rules()["count"]["ask"] + r")([一-龥]{0,6})", q)
        words = (ask.group(2) + ask.group(3)) if ask.group(3) else ask.group(1) + ask.group(2)
        return "count", f"{words}|{stated}"
    for row in _rules()["rows"]:
        m = re.search(row["ask"], q)
        if not m:
            continue
        if m.groups() and m.group(1) and _unknown_thing(m.group(1), answer or ""):
            return row["kind"], re.sub(_rules()["thing_trim"], "", m.group(1))
        if row.get("skip_when") and re.search(row["skip_when"], head):
            continue  # the answer already says what it did not find
        if row.get("answered_by") and re.search(row["answered_by"], answer or ""):
            continue  # the records themselves carry the asked column (片区名称 of an area row)
        if row.get("headline") and not re.search(row["headline"], head):
            return row["kind"], clause(q, m)
    return None


def clause(question: str, m: re.Match) -> str:
    """The asked words with the rest of their clause (最多 → 哪个项目经理名下的项目最多)."""
    lo = max([question.rfind(p, 0, m.start()) for p in "，,。？?！!；;"] + [-1]) + 1
    his = [question.find(p, m.end()) for p in "，,。？?！!；;"]
    hi = min([h for h in his if h >= 0] or [len(question)])
    return question[lo:hi].strip() or m.group(0)


def slot_refusal(kind: str, asked: str) -> str:
    """The refusal in the manager's words: what was asked and not found (``refusals`` of the rules)."""
    texts = _rules()["refusals"]
    what, _, stated = asked.partition("|")
    return texts.get(kind, texts["holder"]).format(asked=asked, what=what, stated=stated.strip())
