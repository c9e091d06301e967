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


@lru_cache(maxsize=1)
def _data_words() -> frozenset[str]:
    """The vocabulary plus every column and record kind of the templates and every word that
    asks for a column (岗位名称, 人员, 牌子 …): the nouns the data can hold."""
    from core.graph.schema import LABELS, TEMPLATES

    column_words = kgrules.rules_file("kg_column_words")
    return _vocabulary() | {c.name for t in TEMPLATES for c in t.columns} | set(LABELS) \
        | set(column_words["words"]) | set(column_words["words"].values())


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


def _bare_count(head: str) -> str | None:
    """The counted noun of an answer whose statement is only a count of its records (共 1 条记录)."""
    lines = [ln.strip() for ln in head.strip().splitlines() if ln.strip() and not ln.strip().startswith("查询范围")]
    m = re.fullmatch(_rules()["asked_noun"]["listing"], lines[0]) if len(lines) == 1 else None
    return m.group(1) if m else None


def _noun_readings(rule: dict, words: str) -> tuple[str, list[str]]:
    """(the asked noun, its readings) of the words after a question word: the first characters
    up to a function word, read with and without a leading measure word (几栋楼 → 楼 / 栋楼,
    哪个项目 → 项目), each two-character window of the first three (几个女员工 → 女员, 员工)."""
    measure = re.match(rule["measure"], words).group(0)
    parts = [re.split(rule["noun_stop"], words[start:])[0][:3] for start in dict.fromkeys((len(measure), 0))]
    readings = [p[i:i + 2] for p in parts if p for i in range(max(1, len(p) - 1))]
    return measure + parts[0][:2], readings


def _head_noun(rule: dict, words: str) -> tuple[str, str] | None:
    """(the asked noun, its head) when the words after a question word, past a measure word, are a
    four-character compound ending at a function word or the clause's end (离职补偿 → 补偿, 服务内容
    → 内容): the head is what is asked, a known first half (离职, 服务) does not make it known (a
    known first three characters do: 供应商签, 管理处管 end in a verb)."""
    rest = words[len(re.match(rule["measure"], words).group(0)):]
    noun = re.split(rule["noun_stop"] + r"|[^一-龥]", rest)[0]
    if len(noun) != 4 or re.search(rule["compound_stop"], noun) or noun[2:] in rule["verb_heads"]:
        return None
    return noun, noun[2:]


def _known(reading: str, answer: str) -> bool:
    return reading in answer or any(reading in w for w in _data_words())


def _unknown_noun(question: str, head: str, answer: str, compounds: bool = False) -> str | None:
    """The asked words when the noun the question asks a number or a name of is not what the answer
    is about: an answer that only lists records, whose noun (几栋楼, 多少户业主, 在哪家单位工作) is
    neither in the answer nor a noun the data holds; or (``compounds``) any answer, when the head of
    an asked four-character compound (多少离职补偿, 哪些服务内容) is neither."""
    rule = _rules()["asked_noun"]
    if not compounds and _bare_count(head) is None:
        return None
    for m in re.finditer(rule["ask"], question):
        asked, readings = _noun_readings(rule, m.group(2))
        if asked in rule["generic_measures"] or re.search(rule["quantity_shown"], answer) and len(asked) == 1:
            continue  # 几个 / 多少根 of records that show a 数量
        if any(r.startswith(w) for r in readings for w in rule["not_nouns"]):
            continue
        if not compounds and not any(_known(r, answer) for r in readings):
            return m.group(1) + asked
        compound = _head_noun(rule, question[m.end(1):]) if compounds else None
        if compound and not _known(compound[1], answer) and not _known(compound[0][:3], answer) \
                and not any(compound[1].startswith(w) for w in rule["not_nouns"]):  # 哪家供应商签: 供应商 is known
            return m.group(1) + compound[0]
    return None


@lru_cache(maxsize=1)
def _numeric_words_longest_first() -> tuple[tuple[str, str], ...]:
    return tuple((w, f) for w, f, _u in sorted(NUMERIC_FIELDS, key=lambda t: -len(t[0])))


def _unstated_figures(question: str, answer: str) -> str | None:
    """"4月早班、中班、夜班各排了多少": the numeric fields a question asks at once (各, 分别) that the
    answer never names: its statement when it states a figure, else its records too."""
    if not re.search(_rules()["several_figures"]["ask"], question):
        return None
    named, rest = [], question
    for word, field in _numeric_words_longest_first():
        if word in rest:
            rest = rest.replace(word, " ")
            named += [field] if field not in named else []
    missing = [f for f in named if f not in answer]
    return "、".join(missing) if len(named) >= 2 and missing else None


def _without_scope(answer: str | None) -> str:
    """The answer without its 查询范围 line, which restates the question's own conditions
    (查询范围：2026年1月；开票比收款多 says nothing was subtracted)."""
    return re.sub(r"^\s*查询范围[^\n]*\n?", "", answer or "")


def _unanswered_choice(question: str, answer: str) -> str | None:
    """"X还是Y" when the question offers two values and the answer names neither."""
    rule = _rules()["choice"]
    m = re.search(rule["ask"], question)
    if not m or any(re.search(rule["not_options"], o) for o in m.groups()):
        return None
    return None if any(o in answer for o in m.groups()) else f"{m.group(1)}还是{m.group(2)}"


def missing_slot(question: str, answer: str) -> tuple[str, str] | None:
    """``(kind, asked words)`` when the answer does not state what ``question`` asks, else ``None``."""
    q, head = question or "", headline(answer)
    noun = _unknown_noun(q, head, answer or "")
    if noun:
        return "asked_noun", noun
    choice = _unanswered_choice(q, _without_scope(answer))
    if choice:
        return "asked_choice", choice
    left = _unstated_figures(q, head if re.search(_rules()["several_figures"]["figure"], head) else answer or "")
    if left:
        return "several_figures", left
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
        if row.get("answered_by") and re.search(row["answered_by"], _without_scope(answer)):
            continue  # the records themselves carry the asked column (片区名称 of an area row)
        said = _without_scope(head) if row.get("not_scope") else head
        if row.get("headline") and not re.search(row["headline"], said):
            return row["kind"], clause(q, m)
    noun = _unknown_noun(q, head, answer or "", compounds=True)
    return ("asked_noun", noun) if noun else None


def named_part(question: str, names: list[str]) -> str | None:
    """A part of a named project the records do not split by (徐汇-科创大厦B座, 人民医院东院区): the
    name with the part, else ``None``."""
    for name in names or []:
        at = (question or "").find(name)
        m = re.match(_rules()["named_part"]["pattern"], question[at + len(name):]) if name and at >= 0 else None
        if m:
            return name + m.group(0)
    return None


def unknown_value(question: str, values: dict, names: list[str]) -> str | None:
    """A value of a field whose values share a suffix (绿化养护检查 for 检查类型: 月度品质检查, 消防安全检查…)
    that is no value of it and shares no two characters with one (消防检查, 品质检查 are short forms):
    the records of that kind do not hold it. Words holding a named person or project, or a function
    word, are not such a value (李晓峰做的检查)."""
    rule = _rules()["unknown_value"]
    for row in rule["rows"]:
        known = [str(v) for v in values.get(row["field"]) or []]
        for m in re.finditer(r"([一-龥]{2,4}?)" + row["suffix"], question or ""):
            prefix = m.group(1)
            if not known or re.search(rule["not_in_prefix"], prefix) or any(n and (n in m.group(0) or prefix in n)
                                                                               for n in names):
                continue
            if m.group(0) not in known and not any(prefix[i:i + 2] in v for v in known for i in range(len(prefix) - 1)):
                return f"{row['field']}“{m.group(0)}”"
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
