"""Differences the documents never state, computed from two amounts their sentences do state:

- two stated amounts compared (保费3500元比2500元多领多少): each amount's tier sentence
  (3000元（含）至4000元之间，可领取1000元 / 2000元（含）至3000元之间，可领取800元) → 1000元−800元＝200元;
- two named figures of one item compared (加油卡的实际价值比额度多多少): the amounts the sentence
  writes right after each name (额度5000元的加油储值卡（价值5500元）) → 5500元−5000元＝500元,
  from the sentence whose tier covers the amount the question states (买45万的车).

The line is the subtraction :func:`core.agents.rag.arith.verify_difference` redoes."""

from __future__ import annotations

import re

from core.agents.rag.amounts import AMOUNT, amount_fits, question_amounts, tier_spans, without_tiers
from core.agents.rag.arith import DIFF_LEAD, _fmt, _rx
from core.agents.rag.textutil import display, norm, split_sentences
from core.text.numerals import apply_magnitude

_NAMED = r"{name}[^\d，。；、]{{0,2}}?(\d+(?:\.\d+)?)\s*(万元|元)"


def _line(a: float, b: float, cites: list[int], n: int) -> dict:
    return {"text": f"{DIFF_LEAD}{_fmt(a)}元−{_fmt(b)}元＝{_fmt(a - b)}元。", "cites": sorted(set(cites)),
            "source": "", "n": n, "pos": -1}


def _sentences(used: list[dict]) -> list[dict]:
    return [{"text": display(s), "cites": [n], "source": s, "n": n, "pos": pos}
            for n, d in enumerate(used, 1) for pos, s in enumerate(split_sentences(d.get("body") or d.get("text") or ""))]


def _tier_value(amount: float, sentences: list[dict]) -> tuple[float, dict] | None:
    """The one amount a tier sentence covering ``amount`` gives for it, with that sentence."""
    for c in sentences:
        s = norm(c["text"])
        if any(lo <= amount <= hi for lo, hi in tier_spans(s)):
            values = AMOUNT.findall(without_tiers(s))
            if len(values) == 1:
                return apply_magnitude(*values[0]), c
    return None


def tier_difference_claim(question: str, used: list[dict]) -> dict | None:
    """"保费3500元比2500元多领多少": the values of the two tiers the stated amounts fall in."""
    amounts = question_amounts(question)
    if len(amounts) != 2 or not _rx("difference_asked").search(norm(question)):
        return None
    sents = _sentences(used)
    got = [_tier_value(a, sents) for a in amounts]
    if None in got or got[0][0] == got[1][0]:
        return None
    (a, ca), (b, cb) = sorted(got, key=lambda x: -x[0])
    # the two tier sentences are shown with the line: the reader sees where 1000元 and 800元 come from
    return {**_line(a, b, [ca["n"], cb["n"]], min(ca["n"], cb["n"])), "also": [ca, cb]}


def _names(question: str) -> tuple[str, str] | None:
    m = re.search(r"([\u4e00-\u9fff]{2,6})比([\u4e00-\u9fff]{2,6}?)(?:多|少)", norm(question))
    return (m.group(1), m.group(2)) if m else None


def _named_amount(names: str, sentence: str) -> float | None:
    """The amount written right after the longest tail of ``names`` the sentence contains."""
    for k in range(len(names), 1, -1):
        m = re.search(_NAMED.format(name=re.escape(names[-k:])), sentence)
        if m:
            return apply_magnitude(m.group(1), m.group(2))
    return None


def named_difference_claim(question: str, claims: list[dict]) -> dict | None:
    """"加油卡的实际价值比额度多多少": the two named amounts of the one sentence that states both
    (of several tiers, the one whose frame covers the question's amount)."""
    names = _names(question)
    if names is None or not _rx("difference_asked").search(norm(question)):
        return None
    amounts = question_amounts(question)
    found = []
    for i, c in enumerate(claims):
        t = norm(c["text"])
        pair = (_named_amount(names[0], t), _named_amount(names[1], t))
        if None in pair or pair[0] == pair[1]:
            continue
        frame = t if tier_spans(t) or i == 0 else norm(claims[i - 1]["text"]) + t
        if amounts and amount_fits(amounts, frame) is False:
            continue
        found.append((pair, c))
    if len(found) != 1:
        return None
    (a, b), c = found[0]
    return _line(max(a, b), min(a, b), list(c["cites"]), c["n"])
