"""Text normalisation shared by parsing, metadata extraction, chunking and answer checking.

The real policy PDFs put spaces between digits and units ("2025 年1 月23 日"), inside 文号
("济商务字〔2025〕6 号"), use full-width digits and percent signs ("15％"), mix half-width
punctuation into Chinese sentences and break sentences at the page width. Everything that
compares or quotes text goes through :func:`normalize_text` first.

Punctuation policy: inside Chinese text the sentence punctuation is full-width (，；：！？（）);
digits, Latin letters, ``%``, ``.`` in decimals and ``:`` in times (23:59) stay half-width.
"""

from __future__ import annotations

import re
import unicodedata

from core.text.width import fold_width

# CJK ideographs + CJK punctuation / full-width forms that never want a space next to them.
_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_PUNCT = r"\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\u2010-\u201f\u2026\u2014\u00b7"
_CJK_RE = re.compile(f"[{_CJK}]")

# space between two characters where at least one is CJK (ideograph or CJK punctuation)
_SPACE_CJK_LEFT = re.compile(f"(?<=[{_CJK}{_CJK_PUNCT}]) +(?=\\S)")
_SPACE_CJK_RIGHT = re.compile(f"(?<=\\S) +(?=[{_CJK}{_CJK_PUNCT}])")
# "2025 年", "15 %", "〔2025〕6 号"
_SPACE_BEFORE_UNIT = re.compile(r"(?<=\d) +(?=[%％‰])")

_HALF_TO_FULL = {",": "，", ";": "；", "?": "？", "!": "！", "(": "（", ")": "）"}
_PUNCT_NEAR_CJK = re.compile(f"(?<=[{_CJK}])([,;?!])|([,;?!])(?=[{_CJK}])")
_COLON_NEAR_CJK = re.compile(f"(?<=[{_CJK}]):|:(?=[{_CJK}])")
_PAREN_CJK = re.compile(f"\\(([^()\\n]{{0,40}}[{_CJK}][^()\\n]{{0,40}})\\)")

_SENT_END = "。！？!?；;…"
_CLOSERS = "”’」』）)》〕】\"'"


def normalize_text(text: str, *, keep_newlines: bool = True) -> str:
    """Normalise one piece of extracted text.

    - full-width digits/letters/% -> half-width; NBSP, ideographic spaces, zero-width -> space/none
    - spaces next to CJK characters removed ("2025 年1 月23 日" -> "2025年1月23日",
      "济商务字〔2025〕6 号" -> "济商务字〔2025〕6号"); spaces between Latin words kept
    - half-width , ; ? ! ( ) next to CJK -> full-width; ":" next to CJK -> "："
    - runs of spaces collapsed; trailing spaces per line stripped
    """
    if not text:
        return ""
    text = unicodedata.normalize("NFC", text)
    text = fold_width(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"[ \t]+", " ", text)
    text = _SPACE_CJK_LEFT.sub("", text)
    text = _SPACE_CJK_RIGHT.sub("", text)
    text = _SPACE_BEFORE_UNIT.sub("", text)
    text = _PAREN_CJK.sub(lambda m: f"（{m.group(1)}）", text)
    text = _PUNCT_NEAR_CJK.sub(lambda m: _HALF_TO_FULL[m.group(1) or m.group(2)], text)
    text = _COLON_NEAR_CJK.sub("：", text)
    lines = [ln.strip() for ln in text.split("\n")]
    if keep_newlines:
        return "\n".join(lines).strip("\n")
    return " ".join(ln for ln in lines if ln).strip()


def compact(text: str) -> str:
    """Normalised text with every whitespace removed — for matching and answer checking."""
    return re.sub(r"\s+", "", normalize_text(text))


# Markers that start a new paragraph even when the previous line did not end a sentence.
_PARA_START = re.compile(
    r"^(第[一二三四五六七八九十百千零〇\d]+[编章节条款]|[一二三四五六七八九十]+、|（[一二三四五六七八九十]+）"
    r"|\(?\d{1,2}[.、）)]|（\d{1,2}）|[①-⑳]|附件|附表)"
)


def starts_new_paragraph(line: str) -> bool:
    return bool(_PARA_START.match(line.strip()))


def join_lines(lines: list[str]) -> str:
    """Rejoin lines that a PDF broke at the page width into paragraphs.

    A line is glued to the previous one unless the previous line ends a sentence
    (。！？；：), is a short numbered heading ("1.自愿报名") or the line starts with a structural
    marker (第X条, 一、, （一）, 1.).
    Two Latin/digit tokens meeting across the break get a space; CJK joins directly.
    """
    out: list[str] = []
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if not out:
            out.append(line)
            continue
        prev = out[-1]
        short_heading = starts_new_paragraph(prev) and len(prev) <= 16 and not re.search(r"[，,。；]", prev)
        if prev[-1] in "。！？；：:!?" or starts_new_paragraph(line) or short_heading:
            out.append(line)
        elif re.match(r"[A-Za-z0-9]", line[0]) and re.match(r"[A-Za-z]", prev[-1]):
            out[-1] = prev + " " + line
        else:
            out[-1] = prev + line
    return "\n".join(out)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences of ``text`` (already normalised), same rules as
    :func:`split_sentences`; leading/trailing whitespace excluded."""
    spans: list[tuple[int, int]] = []
    n = len(text)
    start = 0
    i = 0

    def close(a: int, b: int) -> None:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            spans.append((a, b))

    while i < n:
        ch = text[i]
        if ch == "\n":
            close(start, i)
            start = i + 1
        elif ch in _SENT_END:
            while i + 1 < n and text[i + 1] in _SENT_END:
                i += 1
            while i + 1 < n and text[i + 1] in _CLOSERS:
                i += 1
            close(start, i + 1)
            start = i + 1
        i += 1
    close(start, n)
    return spans


def split_sentences(text: str) -> list[str]:
    """Split Chinese (and mixed) text into sentences.

    Splits after 。！？!?；; and … (closing quotes/brackets stay with their sentence) and at
    newlines; a decimal point or a time colon (7730.28, 23:59) never splits.
    """
    text = normalize_text(text)
    return [text[a:b] for a, b in sentence_spans(text)]


_TOKEN_RE = re.compile(f"[{_CJK}]|[A-Za-z]+|\\d+(?:\\.\\d+)?")


def count_tokens(text: str) -> int:
    """Token estimate used for chunk sizes: each CJK character is one token, each Latin word
    or number one token."""
    return len(_TOKEN_RE.findall(text))


def is_cjk(ch: str) -> bool:
    return bool(_CJK_RE.match(ch))


# ---------------------------------------------------------------- OCR correction dictionary
# (pattern, replacement) applied to OCR output only. Patterns are regexes.
OCR_CORRECTIONS: list[tuple[str, str]] = [
    (r"以[lI1|]日换新", "以旧换新"),
    (r"以旧换薪", "以旧换新"),
    (r"以l日", "以旧"),
    (r"购新补帖", "购新补贴"),
    (r"人力资源和社会保瘴局", "人力资源和社会保障局"),
    (r"高新技木企业", "高新技术企业"),
    (r"实施细贝[刂|]", "实施细则"),
    (r"商务厅等(\d)部门", r"商务厅等\1部门"),
    # 文号 context: 鲁商字【2025】1号 / 鲁商字[2025]1号 / 鲁商字(2025)1号 -> 鲁商字〔2025〕1号
    (r"([\u4e00-\u9fff]{1,10})\s*[【\[［(（〔]\s*((?:19|20)\d{2})\s*[】\]］)）〕]\s*(\d{1,4})\s*号", r"\1〔\2〕\3号"),
]
_OCR_COMPILED = [(re.compile(p), r) for p, r in OCR_CORRECTIONS]


def correct_ocr(text: str) -> str:
    """Apply the OCR correction dictionary (common misreads of 政务 vocabulary and 文号)."""
    for pat, rep in _OCR_COMPILED:
        text = pat.sub(rep, text)
    return text
