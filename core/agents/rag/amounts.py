"""Amounts a question states (买一辆15万元的车) and the amount tiers a sentence states
("发票金额为10万元（含）至30万元（不含）的"): does a tier cover the stated amount?"""

from __future__ import annotations

import re

from core.agents.rag.textutil import norm
from core.text.numerals import apply_magnitude

AMOUNT = re.compile(r"(\d+(?:\.\d+)?)\s*(万元|万|元)")
_RANGE = re.compile(r"(\d+(?:\.\d+)?)\s*(万元|万|元)?\s*[（(]?(?:含|不含)?[)）]?\s*(?:万元|万|元)?\s*(?:至|到|-|—|－|~|～)\s*"
                    r"(\d+(?:\.\d+)?)\s*(?:[（(](含|不含)[)）])?\s*(万元|万|元)\s*(?:[（(](含|不含)[)）])?")
_OPEN_RANGE = re.compile(r"(\d+(?:\.\d+)?)\s*[（(]?(?:含|不含)?[)）]?\s*(万元|万|元)\s*[（(]?(?:含|不含)?[)）]?\s*(以上|以下)")


def _yuan(value: str, unit: str | None) -> float:
    return apply_magnitude(value, unit)


def question_amounts(question: str) -> list[float]:
    """Amounts in yuan the question states (买一辆15万元的车 → 150000), not the one it asks."""
    return [_yuan(v, u) for v, u in AMOUNT.findall(norm(question or ""))]


def amount_fits(amounts: list[float], sentence: str) -> bool | None:
    """Does a tier sentence ("发票金额为10万元（含）至30万元（不含）的") cover the amount the
    question states? None when the sentence states no tier."""
    spans = tier_spans(sentence)
    if not spans:
        return None
    return any(lo <= a <= hi for a in amounts for lo, hi in spans)


def without_tiers(sentence: str) -> str:
    """The sentence with its stated tiers blanked: their amounts are conditions, not values."""
    return _OPEN_RANGE.sub(" ", _RANGE.sub(" ", norm(sentence)))


def tier_spans(sentence: str) -> list[tuple[float, float]]:
    """The amount tiers (in yuan) a sentence states: "10万元（含）至30万元（不含）" → (100000, 299999.99)."""
    t = norm(sentence)
    spans = []
    for m in _RANGE.finditer(t):
        unit = m.group(5)
        hi = _yuan(m.group(3), unit)
        if "不含" in ((m.group(4) or "") + (m.group(6) or "")):
            hi -= 0.01  # the upper bound excluded: 15万 falls in the next tier
        spans.append((_yuan(m.group(1), m.group(2) or unit), hi))
    for m in _OPEN_RANGE.finditer(t):
        v = _yuan(m.group(1), m.group(2))
        spans.append((v, float("inf")) if m.group(3) == "以上" else (0.0, v))
    return spans
