"""Document structure: paragraphs rebuilt from positioned blocks, and the 编-章-节-条-款-项 outline.

PDF lines are glued back into paragraphs (a line continues the previous one unless it is
indented, starts with a structural marker or the previous line ended a sentence / stopped short
of the right margin), keeping for every paragraph the exact source blocks (page + bbox) of each
character range so a sentence can be highlighted precisely.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

from core.documents.models import Block, ParsedDocument, Span
from core.documents.normalize import sentence_spans, starts_new_paragraph
from core.text.numerals import CN_NUMERAL_CHARS as CN_NUM

_NUM = f"[{CN_NUM}\\d]+"

RE_BIAN = re.compile(f"^第({_NUM})编\\s*(.*)$", re.S)
RE_ZHANG = re.compile(f"^第({_NUM})章\\s*(.*)$", re.S)
RE_JIE = re.compile(f"^第({_NUM})节\\s*(.*)$", re.S)
RE_TIAO = re.compile(f"^第({_NUM})条(之[{CN_NUM}]+)?[\\s　]*(.*)$", re.S)
RE_SECTION1 = re.compile(r"^([一二三四五六七八九十]+)、\s*(.*)$", re.S)
RE_SECTION2 = re.compile(r"^（([一二三四五六七八九十]+)）\s*(.*)$", re.S)
_SENT_PUNCT = re.compile(r"[。；，：！？;,:!?]")
_ISSUE_LINE = re.compile(r"^.{2,30}(办公室|办公厅|秘书处).{0,4}\d{4}年\d{1,2}月\d{1,2}日印发$")


@dataclass
class Piece:
    start: int
    end: int
    span: Span


@dataclass
class Paragraph:
    text: str
    kind: str = "text"                     # text | ocr | table | figure
    pieces: list[Piece] = field(default_factory=list)
    rows: Optional[list[list[str]]] = None
    block: Optional[Block] = None          # the source block for tables / figures

    @property
    def spans(self) -> list[Span]:
        return dedupe_spans([p.span for p in self.pieces])

    @property
    def page_start(self) -> int:
        return min((p.span.page for p in self.pieces), default=1)

    @property
    def page_end(self) -> int:
        return max((p.span.page for p in self.pieces), default=1)

    def spans_for(self, start: int, end: int) -> list[Span]:
        """Source spans covering characters [start, end) of this paragraph."""
        hit = [p.span for p in self.pieces if p.start < end and p.end > start]
        return dedupe_spans(hit or [p.span for p in self.pieces[:1]])


def dedupe_spans(spans: list[Span]) -> list[Span]:
    seen = set()
    out = []
    for s in spans:
        key = (s.page, s.bbox, s.para)
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out


def _page_margins(blocks: list[Block]) -> dict[int, tuple[float, float]]:
    """Per page: body left edge (most common x0) and right edge (90th percentile x1)."""
    by_page: dict[int, list[Block]] = {}
    for b in blocks:
        if b.bbox and b.kind in ("text", "ocr"):
            by_page.setdefault(b.page, []).append(b)
    out = {}
    for page, bl in by_page.items():
        x0s = Counter(round(b.bbox[0] / 4) * 4 for b in bl)
        left = min(x for x, c in x0s.items() if c == max(x0s.values()))
        x1s = sorted(b.bbox[2] for b in bl)
        right = x1s[int(0.9 * (len(x1s) - 1))]
        out[page] = (left, right)
    return out


def build_paragraphs(doc: ParsedDocument) -> list[Paragraph]:
    """Blocks -> paragraphs. DOCX/MD/TXT blocks already are paragraphs; PDF/OCR lines are
    re-joined. Tables and figures stay single paragraphs."""
    margins = _page_margins(doc.blocks)
    paras: list[Paragraph] = []
    cur: Optional[Paragraph] = None
    prev_line_short = True

    def flush() -> None:
        nonlocal cur
        if cur is not None and cur.text.strip():
            paras.append(cur)
        cur = None

    for b in doc.blocks:
        if b.kind in ("table", "figure"):
            flush()
            span = Span(page=b.page, bbox=b.bbox, para=b.para)
            paras.append(Paragraph(text=b.text, kind=b.kind, pieces=[Piece(0, len(b.text), span)], rows=b.rows,
                                   block=b))
            prev_line_short = True
            continue
        if b.bbox is None:  # DOCX / MD / TXT: one block = one paragraph
            flush()
            span = Span(page=b.page, bbox=None, para=b.para)
            paras.append(Paragraph(text=b.text, kind=b.kind, pieces=[Piece(0, len(b.text), span)]))
            continue
        left, right = margins.get(b.page, (b.bbox[0], b.bbox[2]))
        lines = [ln for ln in b.text.split("\n") if ln.strip()]
        indented = b.bbox[0] > left + 12
        for li, line in enumerate(lines):
            line = line.strip()
            span = Span(page=b.page, bbox=b.bbox)
            new_para = (
                cur is None
                or _is_agency_line(cur.text) and _is_agency_line(line)
                or (li == 0 and indented)
                or starts_new_paragraph(line)
                or cur.text[-1] in "。！？；：:!?"
                or prev_line_short
                or li > 0 and _is_heading_like(lines[li - 1])
            )
            if new_para:
                flush()
                cur = Paragraph(text="", kind=b.kind)
            start = len(cur.text)
            if cur.text and re.match(r"[A-Za-z0-9]", line[0]) and re.match(r"[A-Za-z]", cur.text[-1]):
                cur.text += " "
                start += 1
            cur.text += line
            cur.pieces.append(Piece(start, len(cur.text), span))
            # a line is "short" when it is the block's last line and stops well before the margin
            last = li == len(lines) - 1
            if last:
                prev_line_short = b.bbox[2] < right - 24
            else:  # inside a multi-line block only a full-width line continues into the next
                longest = max(len(x.strip()) for x in lines)
                prev_line_short = len(line) < max(15, 0.9 * longest) or _is_heading_like(line)
    flush()
    return paras


def _is_agency_line(text: str) -> bool:
    from core.documents.metadata import is_agency_name

    return len(text) <= 30 and is_agency_name(text)


def _is_heading_like(line: str) -> bool:
    line = line.strip()
    return bool(RE_ZHANG.match(line) or RE_JIE.match(line) or RE_BIAN.match(line)) and len(line) <= 30


# ------------------------------------------------------------------ headings

@dataclass
class Heading:
    level: str          # bian | zhang | jie | tiao | sec1 | sec2
    marker: str         # 第一章 / 第二条 / 一、 / （一）
    title: str          # 补贴标准 ('' when none)
    rest: str           # body text on the same line (laws: "第一条 为了……")

    @property
    def label(self) -> str:
        if not self.title:
            return self.marker
        sep = "" if self.marker.endswith(("、", "）", ")", ".")) else " "
        return f"{self.marker}{sep}{self.title}"


def match_heading(text: str) -> Optional[Heading]:
    t = text.strip()
    for level, rx in (("bian", RE_BIAN), ("zhang", RE_ZHANG), ("jie", RE_JIE)):
        m = rx.match(t)
        if m:
            title = m.group(2).strip()
            if len(title) > 40 or _SENT_PUNCT.search(title[:-1] if title.endswith("。") else title):
                return None  # "第二章规定的…" is a sentence, not a heading
            return Heading(level, t[: m.start(2)].strip(), title.rstrip("。"), "")
    m = RE_TIAO.match(t)
    if m:
        marker = t[: m.start(3)].strip()
        rest = m.group(3).strip()
        if re.match(r"^(第[（(]?[一二三四五六七八九十\d]+[)）]?[款项]|规定|的|、|和|及|至|中|所|之规定|款|项)", rest):
            return None  # "第二十条第（一）项", "第五条规定的…": a reference, not an article
        if "条" in marker[:-1] and not marker.startswith("第"):
            return None
        if rest and len(rest) <= 24 and not _SENT_PUNCT.search(rest):
            return Heading("tiao", marker, rest, "")
        # "第三条 平台机构 济南市…" rarely occurs; laws put the body right after the marker
        return Heading("tiao", marker, "", rest)
    m = RE_SECTION1.match(t)
    if m:
        head = m.group(2).strip()
        title, rest = _split_inline_title(head)
        return Heading("sec1", t[: m.start(2)].strip(), title, rest)
    m = RE_SECTION2.match(t)
    if m:
        head = m.group(2).strip()
        title, rest = _split_inline_title(head)
        return Heading("sec2", t[: m.start(2)].strip(), title, rest)
    return None


def _split_inline_title(head: str) -> tuple[str, str]:
    """"主动公开情况。主要通过…" -> ("主动公开情况", "主要通过…"); a short line with no
    punctuation is all title."""
    if len(head) <= 30 and not _SENT_PUNCT.search(head):
        return head, ""
    m = re.match(r"^([^。；，：！？]{2,30})[。：:]\s*(.+)$", head, re.S)
    if m:
        return m.group(1), m.group(2)
    return "", head


def is_issue_line(text: str) -> bool:
    """"济南市商务局办公室 2025年1月20日印发" (the 版记 line)."""
    return bool(_ISSUE_LINE.match(re.sub(r"\s+", "", text)))


def count_articles(paras: list[Paragraph]) -> int:
    n = 0
    for p in paras:
        if p.kind in ("text", "ocr"):
            h = match_heading(p.text)
            if h is not None and h.level == "tiao":
                n += 1
    return n


def paragraph_sentences(p: Paragraph) -> list[tuple[str, list[Span]]]:
    """The sentences of a paragraph, each with the source spans it came from."""
    return [(p.text[a:b], p.spans_for(a, b)) for a, b in sentence_spans(p.text)]
