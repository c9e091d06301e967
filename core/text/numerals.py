"""Chinese numerals, both ways.

* :func:`cn_to_int` reads a numeral written with units, the way counts, article numbers and
  amounts are written: 十二 → 12, 一百零五 → 105, 两千 → 2000, 二十万 → 200000, 3万 → 30000
  (Arabic digits may stand for the digits), 54 → 54.
* :func:`cn_digits_to_int` reads a numeral written digit by digit, the way years are written:
  二〇二五 → 2025 (〇, 零 and the look-alikes ○ and O all count as zero).
* :func:`int_to_cn` writes a number in Chinese for headings: 12 → 十二 (第十二条), 105 → 一百零五.
* :func:`apply_magnitude` scales an Arabic amount by the magnitude word after it: ("3", "万元") →
  30000.0.

Regular expressions that pick numerals out of text use :data:`CN_NUMERAL_CHARS` for the
characters of a 第X条 / 第X章 number.
"""

from __future__ import annotations

import unicodedata

#: digit characters → value (两 is the counting form of 二: 两千, 两个月)
CN_DIGIT_VALUES: dict[str, int] = {
    "零": 0, "〇": 0, "○": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
    "八": 8, "九": 9,
}
#: units inside one 万-section
CN_SMALL_UNITS: dict[str, int] = {"十": 10, "百": 100, "千": 1000}
#: section units
CN_BIG_UNITS: dict[str, int] = {"万": 10_000, "亿": 100_000_000}
#: the characters of a heading number (第五十四条, 第二〇二条, 第两千条): for regex character classes
CN_NUMERAL_CHARS = "零〇一二两三四五六七八九十百千"

_ZEROS = frozenset("零〇○")
#: zero in a digit-by-digit year: OCR and typists write 二○二五 and 二O二五 too
_YEAR_DIGIT_VALUES = {**{k: v for k, v in CN_DIGIT_VALUES.items() if k != "两"}, "O": 0}
_WRITE_DIGITS = "零一二三四五六七八九"
_WRITE_SMALL = ((1000, "千"), (100, "百"), (10, "十"), (1, ""))
_WRITE_SECTIONS = ("", "万", "亿", "万亿")


def _decimal(ch: str) -> int | None:
    """0-9 for an Arabic digit, half- or full-width; None otherwise."""
    return unicodedata.decimal(ch, None) if ch.isdecimal() else None


def cn_to_int(text: str, default: int | None = None) -> int | None:
    """The value of a numeral written with units; ``default`` when ``text`` is not one.

    十 → 10, 十二 → 12, 二十 → 20, 一百零五 → 105, 一百一十 → 110, 两千 → 2000, 一万零五百 → 10500,
    二十万 → 200000, 一亿三千万 → 130000000; Arabic digits stand for digits (54 → 54, 3万 → 30000,
    3万5千 → 35000). A unit without a digit before it counts one of it (十二, 一百十 → 110).
    Digits one after another are not a numeral with units (三四 → default; a year such as 二〇二五
    is read by :func:`cn_digits_to_int`), except after a zero (一百零五)."""
    s = (text or "").strip()
    if not s:
        return default
    if s.isdecimal():
        return int(s)
    total = 0         # the sections above 万 / 亿 already closed
    section = 0       # the current section below 万
    digit = None      # a digit waiting for its unit
    after_zero = False
    i = 0
    while i < len(s):
        ch = s[i]
        if _decimal(ch) is not None:
            j = i
            while j < len(s) and _decimal(s[j]) is not None:
                j += 1
            if digit is not None and not after_zero:
                return default
            digit, after_zero = int(s[i:j]), False
            i = j
            continue
        if ch in CN_DIGIT_VALUES:
            if digit is not None and not after_zero:
                return default
            digit, after_zero = CN_DIGIT_VALUES[ch], ch in _ZEROS
        elif ch in CN_SMALL_UNITS:
            section += (1 if digit is None else digit) * CN_SMALL_UNITS[ch]
            digit, after_zero = None, False
        elif ch in CN_BIG_UNITS:
            value = section + (digit or 0)
            if ch == "亿" and (total or value):        # 一亿, 一万亿
                total = (total + value) * CN_BIG_UNITS[ch]
            elif ch == "万" and value:
                total += value * CN_BIG_UNITS[ch]
            else:
                return default
            section, digit, after_zero = 0, None, False
        else:
            return default
        i += 1
    return total + section + (digit or 0)


def cn_digits_to_int(text: str) -> int | None:
    """The value of a numeral written digit by digit, as years are: 二〇二五 → 2025, 二零二六 →
    2026, 二○二四 / 二O二四 → 2024, 二0二五 → 2025; None when any character is not a digit."""
    s = (text or "").strip()
    if not s:
        return None
    out = []
    for ch in s:
        d = _decimal(ch)
        if d is None:
            d = _YEAR_DIGIT_VALUES.get(ch)
        if d is None:
            return None
        out.append(str(d))
    return int("".join(out))


def _write_below_10000(n: int) -> str:
    out, gap = [], False
    for value, unit in _WRITE_SMALL:
        d = n // value % 10
        if d:
            if gap:
                out.append("零")
                gap = False
            out.append(_WRITE_DIGITS[d] + unit)
        elif out:
            gap = True
    return "".join(out)


def int_to_cn(n: int) -> str:
    """``n`` in Chinese as headings write it: 1 → 一, 10 → 十, 12 → 十二, 20 → 二十, 105 → 一百零五,
    110 → 一百一十, 1010 → 一千零一十, 10500 → 一万零五百, 0 → 零, -3 → 负三."""
    n = int(n)
    original = n
    if n < 0:
        return "负" + int_to_cn(-n)
    if n == 0:
        return "零"
    sections = []
    while n:
        sections.append(n % 10_000)
        n //= 10_000
    if len(sections) > len(_WRITE_SECTIONS):
        raise ValueError(f"{original} is too large to write in Chinese numerals")
    out: list[str] = []
    zero_pending = False
    for idx in range(len(sections) - 1, -1, -1):
        part = sections[idx]
        if not part:
            zero_pending = bool(out)
            continue
        if out and (zero_pending or part < 1000):
            out.append("零")
        out.append(_write_below_10000(part) + _WRITE_SECTIONS[idx])
        zero_pending = False
    text = "".join(out)
    return text[1:] if text.startswith("一十") else text  # 十二, not 一十二


def apply_magnitude(value: str | float, unit: str | None) -> float:
    """An Arabic amount with the magnitude word written after it as a plain number:
    ("3", "万元") → 30000.0, ("1.5", "万") → 15000.0, ("2", "亿元") → 200000000.0, ("800", "元") → 800.0."""
    scale = CN_BIG_UNITS.get((unit or "")[:1], 1)
    return float(value) * scale
