"""Answer the question asked: the field a question asks for, and the 片区 it names, must be
known to the graph, or the question is answered with what is missing instead of a whole
record or table ("周建国的学历是什么" → 数据中没有“学历”这一字段; "北京片区有哪些项目" →
未找到该片区).

What is known comes from the graph schema (every property name), the concept tables and the
entity index (names and grounded values); the cue words and the patterns that find the
asked noun are data (``data/rules/kg_vocabulary.json``, ``kg_patterns.json``)."""

from __future__ import annotations

import re
from functools import lru_cache

from core.agents.kg import kgrules
from core.agents.kg.entity_index import loose, name_key
from core.graph.schema import DISPLAY, NODE_BY_LABEL, PROVENANCE, SENSITIVE_FIELDS, SYNTHETIC_KEY

_HIDDEN = frozenset((DISPLAY, SYNTHETIC_KEY, *PROVENANCE))
MAX_FIELDS_SHOWN = 12


@lru_cache(maxsize=1)
def known_terms() -> frozenset[str]:
    """Every wording that names stored (or derivable) data: schema property names, the concept
    and intent keywords, the numeric-field wordings and the vocabulary's known terms."""
    from core.agents.kg.catalog import DERIVED
    from core.agents.kg.concepts import CONCEPTS, INTENTS, NUMERIC_FIELDS

    terms = set(kgrules.words("known_terms")) | set(CONCEPTS) | set(DERIVED)
    terms |= {w for w, _p, _u in NUMERIC_FIELDS}
    terms |= {w for _d, ws in INTENTS.values() for w in ws}
    for node in NODE_BY_LABEL.values():
        terms |= {p for p in node.property_names if p not in _HIDDEN and not p.endswith("日")}
        terms.add(node.label)
    return frozenset(t for t in terms if t)


def _strip(noun: str) -> str:
    """``noun`` without the generic words in front of it (所有…, 各…)."""
    lead = sorted(kgrules.words("non_content"), key=len, reverse=True)
    changed = True
    while changed:
        changed = False
        for w in lead:
            if noun.startswith(w) and len(noun) > len(w):
                noun, changed = noun[len(w):], True
    return noun


def asked_nouns(question: str) -> list[str]:
    """The nouns a question asks for by the asked-field forms ("X的学历是什么", "有多少个停车位")."""
    out: list[str] = []
    for rx in kgrules.patterns("asked_field"):
        for m in rx.finditer(question or ""):
            noun = _strip(m.group(1))
            if noun and noun not in out:
                out.append(noun)
    return out


def _mention_texts(noun: str, index) -> list[str]:
    if index is None:
        return []
    return [m["text"] for m in index.find_mentions(noun) if m.get("text") and m["text"] in noun]


def _uncovered(noun: str, index) -> list[str]:
    """The runs (2+ characters) of an asked noun that no known term, non-content word, entity
    name or stored value covers: "绿化面积" → ["绿化"] (面积 alone does not make 绿化面积 known)."""
    covered = [False] * len(noun)
    words = [*known_terms(), *kgrules.words("non_content"), *kgrules.words("noun_fillers"),
             *kgrules.words("noun_modifiers"), *_mention_texts(noun, index)]
    for t in words:
        start = noun.find(t)
        while t and start >= 0:
            covered[start:start + len(t)] = [True] * len(t)
            start = noun.find(t, start + 1)
    least = 1 if len(noun) == 1 else 2  # "有几栋楼": a one-character noun is asked as a whole
    runs = [r for r in re.split(r"\s+", "".join(" " if c else ch for ch, c in zip(noun, covered))) if len(r) >= least]
    runs = [p for r in runs for p in _without_fillers(r) if len(p) >= least]
    if index is None:
        return runs
    values = _stored_values(noun, index)
    return [r for r in runs if not index.find_mentions(r) and not index.ground_values(r, [])
            and not any(r in v for v in values)]


def _without_fillers(run: str) -> list[str]:
    """The parts of an uncovered run left after the filler forms a field name never holds: a
    demonstrative with its measure word (那期), a period (一年, 每月), a verb with 过 (请过)."""
    for rx in kgrules.patterns("noun_filler_forms"):
        run = rx.sub(" ", run)
    return run.split()


def _stored_values(noun: str, index) -> list[str]:
    """Whole stored values the asked noun holds (中央空调维保合同 ← 中央空调维保, 保安领班 ← 保安_领班):
    a run inside one of them is part of a value, not a field. A value the noun only shares a
    piece with (停车收入 / 停车场) does not count."""
    values = [str(v) for vs in (index.values or {}).values() for v in vs]
    values += [str(v) for vs in (index.ground_values(noun, []) or {}).values() for v in vs]
    key = name_key(noun)
    forms = {f for v in values if v for f in (name_key(v), loose(v))}
    return [f for f in forms if len(f) >= 2 and f in key]


def _is_known(noun: str, index, question: str = "") -> bool:
    core = _reported(noun, index)
    if _someone_elses(core):
        return False
    if any(len(noun) >= 2 and noun in t for t in known_terms()):
        return True
    for head in kgrules.words("whole_only_heads"):  # 合同编号: 合同 and 编号 are known, the whole is not
        if core.endswith(head) and len(core) > len(head):
            said = [c for w, c in kgrules.rules_file("kg_column_words")["words"].items() if w in question]
            return any(t.endswith(head) and len(t) > len(head) and t in core for t in known_terms()) \
                or any(c.endswith(head) for c in said)  # 以前的合同编号 = 续签前项目编号
    return not _uncovered(noun, index)


def _someone_elses(noun: str) -> bool:
    """"员工满意度" where the data holds only 客户满意度: the noun names whose value it is, and not
    the one a ``qualified_fields`` field is about."""
    for spec in kgrules.rules_file("kg_vocabulary")["qualified_fields"]["fields"].values():
        owner = _strip(noun[:-len(spec["head"])]) if noun.endswith(spec["head"]) else ""
        named = [t for t in known_terms() if len(t) >= 2 and owner.endswith(t)]  # 员工 — not 项目里哪个
        if named and not any(owner.endswith(o) for o in spec["of"]):
            return True
    return False


def _reported(noun: str, index) -> str:
    """The asked noun as the answer names it: without the entity names in it (孙海涛身高 → 身高)."""
    for t in _mention_texts(noun, index):
        noun = noun.replace(t, "")
    return _strip(noun) or noun


def unknown_fields(question: str, index) -> list[str]:
    """The asked nouns that name nothing the graph stores or derives."""
    out: list[str] = []
    for n in asked_nouns(question):
        if _cut_by_column_word(n, question):
            continue  # "柴油发电机都装在哪里": the noun is cut through 装在哪, the column asked
        if not _is_known(n, index, question) and _reported(n, index) not in out:
            out.append(_reported(n, index))
    return out


def _cut_by_column_word(noun: str, question: str) -> bool:
    """Does a word asking for a column (装在哪 → 安装位置) run across the end of ``noun`` in
    ``question``? Then the noun is a cut piece of the question, not a field name."""
    at = question.find(noun)
    if at < 0:
        return False
    end = at + len(noun)
    for w in kgrules.rules_file("kg_column_words")["words"]:
        j = question.find(w, max(0, at - len(w) + 1))
        while 0 <= j < end:
            if j + len(w) > end and j > at:
                return True
            j = question.find(w, j + 1)
    return False


def unknown_remaining(question: str) -> list[str]:
    """"还剩几天年假": a remaining balance (剩余年假) is known only when a field holds it whole —
    the 年假天数 taken per month does not say what is left."""
    out = []
    for rx in kgrules.patterns("asked_remaining"):
        for m in rx.finditer(question or ""):
            noun = "剩余" + _strip(m.group(1))
            if not any(noun in t for t in known_terms()) and noun not in out:
                out.append(noun)
    return out


def unknown_areas(question: str, index, mentions: list[dict]) -> list[str]:
    """Names before 片区 that are no 片区 of the index ("北京片区", "苏州片区")."""
    if index is None:
        return []
    generic = set(kgrules.rules_file("kg_vocabulary")["area_generic"]["chars"])
    known = {name_key(m["text"]) for m in mentions if m["kind"] == "area"}
    known |= {name_key(a.get(f)) for a in index.areas for f in ("片区名称", "片区编号") if a.get(f)}
    known |= {k[:-2] for k in known if k.endswith("片区")}
    out = []
    for rx in kgrules.patterns("unknown_area"):
        for m in rx.finditer(question or ""):
            before = m.group(1)
            if any(name_key(before[i:]) in known for i in range(len(before) - 1)):
                continue
            name = before[-2:]
            if generic & set(name) or name in out:
                continue
            out.append(name)
    return out


def unknown_values(question: str, index) -> list[str]:
    """Values a field is named by that no stored value ends with ("浦东管理处": no 组织名称 of
    the data): the condition cannot be applied, so it is said, never dropped."""
    if index is None:
        return []
    rows = kgrules.rules_file("kg_patterns")["unknown_value"]["rows"]
    out = _unknown_quoted(question, index)
    for rx, row in zip(kgrules.patterns("unknown_value"), rows):
        stored = [name_key(v) for v in (index.values or {}).get(row["field"], [])]
        for m in rx.finditer(question or ""):
            word = m.group(1)
            if not any(v.endswith(name_key(word)) for v in stored) and word not in out:
                out.append(word)
    return out


def _unknown_quoted(question: str, index) -> list[str]:
    """Quoted phrases that are no stored value and no project / person / area name."""
    rx = kgrules.rules_file("kg_vocabulary")["quoted_value"]["pattern"]
    out = []
    for m in re.finditer(rx, question or ""):
        phrase = m.group(1)
        if not index.quoted_values(m.group(0)) and not index.find_mentions(phrase) and phrase not in out:
            out.append(phrase)
    return out


def unknown_shift_counts(question: str) -> list[str]:
    """"几个晚班": a count per shift kind the 排班 records hold no figure for (only 夜班天数 is
    stored; 晚班 is not 夜班)."""
    names = kgrules.mapping("shift_names")
    props = set(NODE_BY_LABEL["排班月报"].property_names)
    out = []
    for rx in kgrules.patterns("shift_count"):
        for m in rx.finditer(question or ""):
            field = names.get(m.group(1), m.group(1)) + "天数"
            if field not in props and field not in out:
                out.append(field)
    return out


def fields_of(intent: str) -> list[str]:
    """The fields a manager may ask of the records behind ``intent`` (for the missing-field answer)."""
    label = kgrules.mapping("intent_labels").get(intent or "")
    node = NODE_BY_LABEL.get(label or "")
    if node is None:
        return []
    return [p for p in node.property_names
            if p not in _HIDDEN and p not in SENSITIVE_FIELDS and not p.endswith(("日", "工号", "项目编号")) and p != "备注"
            and p != node.pk][:MAX_FIELDS_SHOWN]


def missing_message(missing: dict, intent: str) -> str:
    """The answer when the question asks for data the graph does not hold."""
    parts = []
    if missing.get("areas"):
        parts.append("未找到该片区：" + "、".join(f"“{a}”" for a in missing["areas"]) + "。")
    if missing.get("values"):
        parts.append("数据中未找到" + "、".join(f"“{v}”" for v in missing["values"]) + "的记录。")
    if missing.get("fields"):
        text = "数据中没有" + "、".join(f"“{f}”" for f in missing["fields"]) + "这一字段，无法回答。"
        fields = fields_of(intent)
        if fields:
            text += "可查询的信息有：" + "、".join(fields) + "。"
        parts.append(text)
    return "".join(parts)


def check(question: str, index, mentions: list[dict]) -> dict:
    """``{"fields": [...], "areas": [...]}`` of what the question asks for and the data lacks
    (empty when everything asked is known)."""
    out = {}
    fields = unknown_fields(question, index) + unknown_shift_counts(question) + unknown_remaining(question)
    if fields:
        out["fields"] = fields
    areas = unknown_areas(question, index, mentions)
    if areas:
        out["areas"] = areas
    values = unknown_values(question, index)
    if values:
        out["values"] = values
    return out
