"""The condition gate: never a confident answer to a different question. A condition the
question states that the understood slots did not take up — a figure or a range (300万到500万之间,
有3次), a comparison between fields (正好等于), a negated event (没有发现问题) — makes the answer a
request to rephrase that names the part not understood, never the unfiltered records. Likewise
an answer that does not give what was asked: a person (谁 / 哪个负责人) with no name in it, an
amount (多少钱 / 加起来) with no figure in 元.

The cue words and patterns are data (``data/rules/kg_condition_gate.json``)."""

from __future__ import annotations

import json
import re
from functools import lru_cache

from core.agents.kg import kgrules

_NUM = re.compile(r"\d+(?:\.\d+)?")
_IGNORED_SLOTS = ("coverage", "question", "field_alias", "missing", "feedback")


@lru_cache(maxsize=16)
def _rx(key: str) -> re.Pattern:
    return re.compile(kgrules.rules_file("kg_condition_gate")[key]["pattern"])


def _rules() -> dict:
    return kgrules.rules_file("kg_condition_gate")


def _value(text: str | None) -> float | None:
    """A figure written in digits or in Chinese digits (三 → 3, 十二 → 12)."""
    if not text:
        return None
    if _NUM.fullmatch(text):
        return float(text)
    digits, total, cur = _rules()["chinese_digits"], 0, 0
    for ch in text:
        if ch in digits:
            cur = digits[ch]
        elif ch == "十":
            total, cur = total + (cur or 1) * 10, 0
        elif ch == "百":
            total, cur = total + (cur or 1) * 100, 0
        else:
            return None
    return float(total + cur)


def _blank_skipped(question: str, slots: dict) -> str:
    """``question`` with the spans some other rule reads blanked out: the time the time
    normaliser understood, times, codes (SB-0105-001), ordinals (前3)."""
    q = question
    t = (slots.get("time") or {}).get("text")
    if t and t in q:
        q = q.replace(t, " " * len(t))
    for p in _rules()["skip"]["patterns"]:
        q = re.sub(p, lambda m: " " * len(m.group(0)), q)
    return q


def _slot_numbers(slots: dict, steps: list[dict] | None = None) -> set[float]:
    """Every figure the understood slots and the plan's steps carry (conditions, thresholds, top N,
    a having bound the planner read, months …)."""
    kept = {k: v for k, v in slots.items() if k not in _IGNORED_SLOTS and not k.endswith("question") and v}
    params = [(s.get("params"), s.get("executed_params")) for s in steps or []]
    text = json.dumps([kept, params], ensure_ascii=False, default=str)
    return {float(n) for n in _NUM.findall(text)}


def _consumed(value: float, scale: float, percent: bool, known: set[float]) -> bool:
    want = {value, value * scale}
    if percent:
        want |= {value / 100, round(value / 100, 6)}
    return any(abs(w - k) < 1e-6 * max(1.0, abs(w)) for w in want for k in known)


def unconsumed_figures(question: str, slots: dict, steps: list[dict] | None = None) -> list[str]:
    """The figures (with their comparison words) of ``question`` no understood slot carries."""
    q = _blank_skipped(question or "", slots)
    known = _slot_numbers(slots, steps)
    scale = _rules()["scale"]
    out: list[str] = []
    for m in _rx("number").finditer(q):
        pairs = [(m.group(1), m.group(2) or m.group(5), m.group(3) or m.group(6)),
                 (m.group(4), m.group(5) or m.group(2), m.group(6) or m.group(3))]
        for num, mult, unit in pairs:
            value = _value(num)
            if value is None:
                continue
            pct = (unit or "") in ("%", "％")
            if not _consumed(value, float(scale.get(mult or "", 1)), pct, known):
                phrase = m.group(0).strip()
                if phrase not in out:
                    out.append(phrase)
                break
    return out


def _has_relation(slots: dict) -> bool:
    """Do the slots hold some condition, value filter, two-field figure or period comparison?"""
    agg = slots.get("agg") or {}
    return bool(slots.get("conditions") or slots.get("filters") or slots.get("growth") or (slots.get("ratio") or {}).get("compare")
                or agg.get("having") or re.search(r"[-+*/]", str(agg.get("field") or "")))


def _has_negative(slots: dict) -> bool:
    """Does some condition or value filter of the slots say "not" (未中标, 问题描述为空, not in, == 0)?
    A negation cue (没发现问题) is taken up only by such a condition, never by another one (检查人：李晓峰)."""
    held = [*(slots.get("conditions") or []), slots.get("filters") or {}, (slots.get("agg") or {}).get("having")]
    text = json.dumps(held, ensure_ascii=False, default=str)
    return bool(re.search(_rules()["negation"]["consumed_by"], text))


def unconsumed_words(question: str, slots: dict) -> list[str]:
    """Comparison and negation cues of ``question`` (正好等于, 没有发现) with no condition taking them."""
    out = []
    for key, taken in (("comparison", _has_relation(slots)), ("negation", _has_negative(slots))):
        m = None if taken else _rx(key).search(question or "")
        if m:
            out.append(_around(question, m))
    return out


def _around(question: str, m: re.Match) -> str:
    """The cue with the words next to it, up to the nearest punctuation (收款金额正好等于开票金额)."""
    lo = max([question.rfind(p, 0, m.start()) for p in "，,。？?！!、的"] + [-1]) + 1
    his = [question.find(p, m.end()) for p in "，,。？?！!的"]
    hi = min([h for h in his if h >= 0] or [len(question)])
    return question[lo:hi].strip() or m.group(0)


def unconsumed(question: str, slots: dict, steps: list[dict] | None = None) -> list[str]:
    """The parts of a condition the slots (and the plan) did not understand, in the asker's words."""
    if slots.get("followup") or slots.get("kind") == "chat":
        return []
    figures = unconsumed_figures(question, slots, steps)
    words = [w for w in unconsumed_words(question, slots) if not any(f in w or w in f for f in figures)]
    return figures + words


def condition_refusal(parts: list[str]) -> str:
    return ("没能理解条件" + "、".join(f"“{p}”" for p in parts)
            + "，不能确定按它筛选后的结果，因此不给出忽略这个条件的答案。请换个说法，例如写明字段和数值（如“合同金额大于300万”）。")


def _headline(text: str) -> str:
    return re.split(r"依据[:：]?|\n\s*1[.、]", text or "", maxsplit=1)[0]


def missing_asked(question: str, answer: str, person_names: list[str], project_names: list[str] = ()) -> str | None:
    """What the answer lacks of what was asked: a person's name or 工号 for 谁 / 哪个负责人, a project
    for 哪个项目, an amount in 元 for 多少钱 (a total — 加起来 / 合计 — in the answer's headline, not
    only in the records listed) (``None`` when it gives it)."""
    q = question or ""
    if _rx("no_data").search(answer or ""):
        return None  # already says what the data lacks
    if _rx("asked_person").search(q) and not _rx("person_exempt").search(q):
        if not any(n and n in (answer or "") and n not in q for n in person_names):
            return "人员"
    if project_names and _rx("asked_project").search(q) and not any(n and n in (answer or "") for n in project_names):
        return "项目"
    if _rx("asked_total").search(q) and not re.search(r"\d\s*元", _headline(answer)):
        return "金额"
    if _rx("asked_money").search(q) and not re.search(r"\d\s*元", answer or ""):
        return "金额"
    return None


def asked_refusal(kind: str, found: str) -> str:
    first = _headline(found).strip().splitlines()[:1]
    text = f"没能理解所问的{kind}：查到的记录中没有直接回答它的{kind}，因此不给出记录列表代替答案。请换个说法。"
    if first and first[0].startswith("查询范围"):
        text += f"\n已理解的{first[0]}"
    return text
