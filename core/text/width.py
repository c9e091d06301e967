"""Character-width folding for Chinese text.

:func:`fold_width` is the documents' policy: full-width digits, Latin letters and the symbols
that belong to numbers (``％．／＋＝＜＞＠＃＆＊``) become half-width, odd spaces become a plain
space (or nothing, for zero-width ones), and CJK punctuation (，；：（）〔〕…) is kept as it is.
Unicode NFKC (``unicodedata.normalize("NFKC", …)``), which matching and tokenising use, folds
more: it also turns ，→ , and （→ (; use it where punctuation does not matter.
"""

from __future__ import annotations

#: odd space characters → what they stand for
SPACE_CHARS = {
    "\u00a0": " ", "\u2002": " ", "\u2003": " ", "\u2009": " ", "\u200b": "", "\u3000": " ",
    "\ufeff": "", "\u00ad": "-", "\u2028": "\n", "\u2029": "\n", "\t": " ",
}
_NUMBER_SYMBOLS = "％．／＋＝＜＞＠＃＆＊"
_FULL = 0xFEE0  # distance of a full-width ASCII form (U+FF01…U+FF5E) from its ASCII character


def _table() -> dict[int, str]:
    table = {ord(k): v for k, v in SPACE_CHARS.items()}
    for lo, hi in (("０", "９"), ("Ａ", "Ｚ"), ("ａ", "ｚ")):
        for o in range(ord(lo), ord(hi) + 1):
            table[o] = chr(o - _FULL)
    for ch in _NUMBER_SYMBOLS:
        table[ord(ch)] = chr(ord(ch) - _FULL)
    return table


_FOLD = _table()


def fold_width(text: str) -> str:
    """"２０２５年１５％" → "2025年15%", "ＡＢｃ" → "ABc", NBSP / ideographic space → " ",
    zero-width space / BOM → ""; "，；（）〔〕" are kept."""
    return (text or "").translate(_FOLD)
