"""Structure-aware chunking.

- 条文 documents (章-节-条-款-项): one chunk per 条, its header path injected as the first line of
  ``text`` ("济南市2025年家电以旧换新补贴实施细则 > 第一章 补贴范围和标准 > 第二条 补贴标准");
  a long 条 is split at 款 boundaries (then sentences) under the same header.
- Tables: cross-page pieces with the same columns are stitched first, then rendered row by row
  with their column headers ("列名: 值；…", :mod:`core.documents.tables`), at most ``table_rows``
  rows per chunk, each chunk repeating the header line.
- Prose (notices, reports): 300–600 tokens (a CJK character = one token), ~15 % overlap, cut at
  sentence boundaries, never across a top-level section once the chunk is big enough.
- Every chunk keeps doc_id, page_start/page_end and spans (page + bbox per source line for PDF,
  paragraph index for DOCX/MD/TXT). Ids are stable: f"{doc_id}-{ord:04d}".

``chunk_markdown_law`` is the fast path for the Markdown law corpus (article-level chunks).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Optional

from core.documents.metadata import is_agency_name
from core.documents.models import Chunk, DocMeta, ParsedDocument, Span
from core.documents.normalize import count_tokens, normalize_text, sentence_spans
from core.documents.structure import (
    RE_BIAN,
    RE_JIE,
    RE_TIAO,
    RE_ZHANG,
    Paragraph,
    Piece,
    build_paragraphs,
    count_articles,
    dedupe_spans,
    is_issue_line,
    match_heading,
    paragraph_sentences,
)
from core.documents.tables import render_table_lines, stitch_tables, table_segments
from core.text.numerals import CN_NUMERAL_CHARS

MAX_TOKENS = 600
MIN_TOKENS = 300
OVERLAP = 0.15
TABLE_ROWS = 25
FIGURE_MIN_TOKENS = 20
PATH_SEP = " > "


@dataclass
class _Unit:
    """A sentence (or a piece of an over-long sentence) with where it came from."""

    text: str
    spans: list[Span]
    path: list[str]
    section: int          # top-level section counter (chunks do not straddle sections when big enough)
    new_para: bool
    is_heading: bool = False
    tokens: int = 0

    def __post_init__(self) -> None:
        self.tokens = count_tokens(self.text)


class _Builder:
    def __init__(self, doc_id: str):
        self.doc_id = doc_id
        self.chunks: list[Chunk] = []

    def add(self, *, body: str, path: list[str], kind: str, spans: list[Span], heading: str = "") -> None:
        body = body.strip()
        if not body:
            return
        path = [p for p in path if p]
        spans = dedupe_spans(spans) or [Span(page=1)]
        ord_ = len(self.chunks)
        header = PATH_SEP.join(path)
        text = f"{header}\n{body}" if header else body
        pages = [s.page for s in spans]
        self.chunks.append(Chunk(
            chunk_id=f"{self.doc_id}-{ord_:04d}", doc_id=self.doc_id, ord=ord_, text=text, body=body,
            heading=heading or (path[-1] if len(path) > 1 else ""), path=path, kind=kind,  # type: ignore[arg-type]
            page_start=min(pages), page_end=max(pages), spans=spans,
        ))


def chunk_document(doc: ParsedDocument, meta: Optional[DocMeta] = None, *, max_tokens: int = MAX_TOKENS,
                   min_tokens: int = MIN_TOKENS, overlap: float = OVERLAP,
                   table_rows: int = TABLE_ROWS) -> list[Chunk]:
    """Chunks of one parsed document (see module doc). ``meta`` gives the title used in header
    paths (falls back to the file name)."""
    title = (meta.title if meta and meta.title else re.sub(r"\.[A-Za-z0-9]+$", "", doc.file_name)).strip()
    paras = stitch_tables(build_paragraphs(doc))
    b = _Builder(doc.doc_id)
    if count_articles(paras) >= 2:
        _chunk_articles(paras, title, b, max_tokens=max_tokens, min_tokens=min_tokens, overlap=overlap,
                        table_rows=table_rows)
    else:
        _chunk_prose(paras, [title], b, max_tokens=max_tokens, min_tokens=min_tokens, overlap=overlap,
                     table_rows=table_rows, kind="prose")
    return b.chunks


# ====================================================================== articles

def _chunk_articles(paras: list[Paragraph], title: str, b: _Builder, *, max_tokens: int, min_tokens: int,
                    overlap: float, table_rows: int) -> None:
    """One chunk per 条 (more when it is long) under its 编 / 章 / 节 path; what comes before the
    first heading, or between a 章 heading and its first 条, is chunked as preamble, and the
    closing lines (抄送, 印发) after the articles."""
    divisions = ("", "", "")  # 编, 章, 节
    preamble: list[Paragraph] = []
    trailer: list[Paragraph] = []
    art_label = ""
    art_parts: list[tuple[str, list[Span]]] = []
    seen_structure = False

    def struct_path() -> list[str]:
        return [title, *divisions]

    def flush_article() -> None:
        nonlocal art_parts
        if art_label and art_parts:
            _emit_article(b, struct_path() + [art_label], art_label, art_parts, max_tokens)
        art_parts = []

    def flush_preamble() -> None:
        nonlocal preamble
        if preamble:
            _chunk_prose(preamble, [title], b, max_tokens=max_tokens, min_tokens=min_tokens, overlap=overlap,
                         table_rows=table_rows, kind="preamble")
        preamble = []

    for p in paras:
        if p.kind in ("table", "figure"):
            if not seen_structure:
                preamble.append(p)
                continue
            flush_article()
            path = struct_path() + ([art_label] if art_label else [])
            if p.kind == "table":
                _emit_table(b, p, path, table_rows)
            else:
                _emit_figure(b, p, path)
            continue
        text = p.text.strip()
        h = match_heading(text)
        if h and h.level in ("bian", "zhang", "jie", "tiao"):
            if not seen_structure:
                flush_preamble()
            seen_structure = True
            flush_article()
            art_label = h.label if h.level == "tiao" else ""
            if h.level != "tiao":
                divisions = _enter_division(divisions, h.level, h.label)
            elif h.rest:
                start = len(text) - len(h.rest)
                art_parts.append((h.rest, p.spans_for(start, len(text))))
            continue
        if is_issue_line(text) or (seen_structure and _is_closing_line(text)):
            trailer.append(p)
            continue
        if seen_structure and re.fullmatch(r"(19|20)\d{2}年\d{1,2}月\d{1,2}日印发", text):
            if art_parts and is_agency_name(art_parts[-1][0]):
                moved_text, moved_spans = art_parts.pop()
                trailer.append(Paragraph(text=moved_text, pieces=[Piece(0, len(moved_text), s) for s in moved_spans]))
            trailer.append(p)
            continue
        if not seen_structure:
            preamble.append(p)
        elif art_label:
            art_parts.append((text, p.spans))
        else:  # text between a 章 heading and its first 条
            preamble.append(p)
    flush_article()
    flush_preamble()
    if trailer:
        _chunk_prose(trailer, [title], b, max_tokens=max_tokens, min_tokens=min_tokens, overlap=overlap,
                     table_rows=table_rows, kind="preamble")


def _enter_division(divisions: tuple[str, str, str], level: str, label: str) -> tuple[str, str, str]:
    """(编, 章, 节) once a heading of ``level`` ("bian", "zhang" or "jie") named ``label`` starts:
    the levels below it end."""
    bian, zhang, _jie = divisions
    if level == "bian":
        return label, "", ""
    if level == "zhang":
        return bian, label, ""
    return bian, zhang, label


def _is_closing_line(text: str) -> bool:
    t = re.sub(r"\s+", "", text)
    return bool(re.fullmatch(r"(抄送|主送)[:：].*|（此件公开发布）|\(此件公开发布\)", t))


def _emit_article(b: _Builder, path: list[str], label: str, parts: list[tuple[str, list[Span]]],
                  max_tokens: int) -> None:
    groups: list[list[tuple[str, list[Span]]]] = [[]]
    size = 0
    for text, spans in _split_long_parts(parts, max_tokens):
        t = count_tokens(text)
        if groups[-1] and size + t > max_tokens:
            groups.append([])
            size = 0
        groups[-1].append((text, spans))
        size += t
    for g in groups:
        body = "\n".join(t for t, _ in g)
        spans = [s for _, ss in g for s in ss]
        b.add(body=body, path=path, kind="article", spans=spans, heading=label)


def _split_long_parts(parts, max_tokens):
    """款 longer than max_tokens are cut at sentence boundaries."""
    for text, spans in parts:
        if count_tokens(text) <= max_tokens:
            yield text, spans
            continue
        buf = ""
        for a, z in sentence_spans(text):
            s = text[a:z]
            if buf and count_tokens(buf) + count_tokens(s) > max_tokens:
                yield buf, spans
                buf = ""
            buf += s
        if buf:
            yield buf, spans


# ====================================================================== prose

def _chunk_prose(paras: list[Paragraph], base_path: list[str], b: _Builder, *, max_tokens: int, min_tokens: int,
                 overlap: float, table_rows: int, kind: str) -> None:
    sec1 = sec2 = ""
    section = 0
    units: list[_Unit] = []

    def flush_units() -> None:
        nonlocal units
        if units:
            _pack(units, b, kind=kind, max_tokens=max_tokens, min_tokens=min_tokens, overlap=overlap)
        units = []

    figures: list[tuple[Paragraph, list[str]]] = []
    for p in paras:
        if p.kind == "figure":  # image text does not interrupt the running text
            figures.append((p, base_path + [sec1, sec2]))
            continue
        if p.kind == "table":
            # a caption line right above a table ("第二十条第（一）项") becomes the table's caption;
            # a section heading right above it lives on in the table's path only
            caption = ""
            if units and units[-1].new_para and units[-1].tokens <= 24 and not re.search(r"[。，；：]", units[-1].text) \
                    and not units[-1].is_heading:
                caption = units.pop().text
            while units and units[-1].is_heading and units[-1].section == section:
                units.pop()
            flush_units()
            for fp, fpath in figures:
                _emit_figure(b, fp, fpath)
            figures = []
            _emit_table(b, p, base_path + [sec1, sec2], table_rows, caption=caption)
            continue
        text = p.text.strip()
        h = match_heading(text)
        if h and h.level == "sec1" and len(text) <= 40:
            sec1, sec2 = h.label, ""
            section += 1
        elif h and h.level == "sec2":
            sec2 = h.label if h.title else ""
        elif h and h.level in ("bian", "zhang", "jie"):
            sec1, sec2 = h.label, ""
            section += 1
        path = base_path + [sec1, sec2]
        first = True
        heading_only = bool(h and h.level in ("sec1", "bian", "zhang", "jie") and not h.rest)
        for sent, spans in paragraph_sentences(p):
            for piece in _hard_split(sent, max_tokens):
                units.append(_Unit(piece, spans, [x for x in path if x], section, first, is_heading=heading_only))
                first = False
    flush_units()
    for fp, fpath in figures:
        _emit_figure(b, fp, fpath)


def _hard_split(sentence: str, max_tokens: int) -> list[str]:
    if count_tokens(sentence) <= max_tokens:
        return [sentence]
    out, buf = [], ""
    for ch in sentence:
        buf += ch
        if count_tokens(buf) >= max_tokens:
            out.append(buf)
            buf = ""
    if buf:
        out.append(buf)
    return out


def _pack(units: list[_Unit], b: _Builder, *, kind: str, max_tokens: int, min_tokens: int, overlap: float) -> None:
    chunks: list[list[_Unit]] = []
    cur: list[_Unit] = []
    size = 0
    overlapped = 0  # how many leading units of cur are overlap copies

    for u in units:
        boundary = bool(cur) and u.section != cur[-1].section
        if boundary and size >= min_tokens // 2:
            chunks.append(cur)
            cur, size, overlapped = [], 0, 0
        elif cur and size + u.tokens > max_tokens and len(cur) > overlapped:
            chunks.append(cur)
            tail: list[_Unit] = []
            tail_size = 0
            for prev in reversed(cur):
                if prev.section != u.section or tail_size + prev.tokens > overlap * size:
                    break
                tail.insert(0, prev)
                tail_size += prev.tokens
            cur, size, overlapped = list(tail), tail_size, len(tail)
        cur.append(u)
        size += u.tokens
    if cur and len(cur) > overlapped:
        chunks.append(cur)
    for group in chunks:
        body = ""
        for i, u in enumerate(group):
            if i and u.new_para:
                body += "\n"
            body += u.text
        first_real = group[0]
        b.add(body=body, path=first_real.path, kind=kind, spans=[s for u in group for s in u.spans])


# ====================================================================== tables

def _emit_table(b: _Builder, p: Paragraph, path: list[str], max_rows: int, caption: str = "") -> None:
    rows = p.rows or [[c] for c in p.text.split("\n")]
    segs = render_table_lines(rows)
    if caption and segs and not segs[0][0]:
        segs[0] = (caption, segs[0][1], segs[0][2])
    spans = p.spans
    caption0 = next((c for c, _, _ in segs if c), "")
    heading = [x for x in path if x][-1] if len([x for x in path if x]) > 1 else (caption0 or "表格")
    batch: list[str] = []
    count = 0

    def flush() -> None:
        nonlocal batch, count
        if batch:
            b.add(body="\n".join(batch), path=path, kind="table", spans=spans, heading=heading)
        batch, count = [], 0

    for caption, header_line, lines in segs:
        for k in range(0, max(len(lines), 1), max_rows):
            part = lines[k:k + max_rows]
            if count and count + len(part) > max_rows:
                flush()
            if caption:
                batch.append(f"【{caption}】")
            if header_line:
                batch.append(f"表头：{header_line}")
            batch.extend(part)
            count += len(part)
    flush()


def _emit_figure(b: _Builder, p: Paragraph, path: list[str]) -> None:
    if count_tokens(p.text) < FIGURE_MIN_TOKENS:
        return
    b.add(body=p.text, path=path, kind="figure", spans=p.spans, heading="图片文字")


# ====================================================================== Markdown laws (fast path)

_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s*(.*?)\s*#*\s*$")
_ART_LINE = re.compile(f"^\\s*(第[{CN_NUMERAL_CHARS}\\d]+条(?:之[一二三四五六七八九十]+)?)(?:[\\s　]+|(?=[^\\s　]))(.*)$")
_STRUCT_LINE = re.compile(f"^\\s*(第[{CN_NUMERAL_CHARS}\\d]+[编章节])(?:[\\s　]+(.*))?$")


def law_doc_id(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def chunk_markdown_law(text: str, title: Optional[str] = None, *, doc_id: Optional[str] = None,
                       max_tokens: int = MAX_TOKENS) -> list[Chunk]:
    """Article-level chunks of one Markdown law (LawRefBook layout: ``# 标题``, optional
    ``# X编``, ``## 第一章 总则``, ``第一条 …`` lines; metadata above ``<!-- INFO END -->``).

    path = [title, 编, 章, 节, 第X条]; heading = "第五十四条"; body = the article text without the
    marker. Text before the first article (preamble, 公布令) becomes one "preamble" chunk.
    ``doc_id`` defaults to the first 16 hex of the text's SHA-256.
    """
    doc_id = doc_id or law_doc_id(text)
    lines = text.replace("\r\n", "\n").split("\n")
    h1: list[str] = []
    info_end = next((i for i, ln in enumerate(lines) if "INFO END" in ln), -1)
    body_lines = lines[info_end + 1:] if info_end >= 0 else lines
    for ln in lines[: info_end + 1] if info_end >= 0 else lines[:5]:
        m = _MD_HEADING.match(ln)
        if m and len(m.group(1)) == 1 and m.group(2):
            h1.append(m.group(2).strip())
    doc_title = (title or (h1[0] if h1 else "")).strip()
    # a code split over files: "# 中华人民共和国民法典" + "# 总则" / "# 物权编"
    law = _MarkdownLaw(_Builder(doc_id), doc_title, bian=h1[1] if len(h1) > 1 else "", max_tokens=max_tokens)
    for idx, raw in enumerate(body_lines):
        law.read(idx, raw.strip())
    law.finish()
    return law.b.chunks


_DIVISION_OF_MARK = {"编": "bian", "章": "zhang", "节": "jie"}


class _MarkdownLaw:
    """The reader of one Markdown law's body, line by line: where it stands (编 / 章 / 节, the
    article being read and its text), each article emitted when the next heading or article
    starts, the preamble kept for :meth:`finish`."""

    def __init__(self, b: _Builder, title: str, *, bian: str, max_tokens: int):
        self.b, self.title, self.max_tokens = b, title, max_tokens
        self.divisions = (bian, "", "")
        self.art = ""
        self.parts: list[str] = []
        self.para_of_art = 0
        self.preamble: list[str] = []
        self.seen_article = False

    def read(self, idx: int, line: str) -> None:
        """One stripped line, the ``idx``-th of the body."""
        if not line or line.startswith("<!--"):
            return
        m = _MD_HEADING.match(line)
        if m:
            self._heading(m.group(2).strip())
            return
        am = _ART_LINE.match(line)
        if am:
            self._flush()
            self.seen_article = True
            self.art = am.group(1)
            self.para_of_art = idx
            rest = am.group(2).strip()
            if rest:
                self.parts.append(_fold_spaces(rest))
            return
        sm = _STRUCT_LINE.match(line)
        if sm and len(line) <= 40:
            self._flush()
            self.art = ""
            self._enter(sm)
            return
        if self.art:
            self.parts.append(_fold_spaces(line))
        elif not self.seen_article:
            self.preamble.append(_fold_spaces(line))

    def _heading(self, heading_text: str) -> None:
        sm = _STRUCT_LINE.match(heading_text)
        self._flush()
        self.art = ""
        if sm:
            self._enter(sm)
        elif re.search(r"编$", heading_text):
            self.divisions = _enter_division(self.divisions, "bian", heading_text)
        elif not self.seen_article:
            self.preamble.append(heading_text)

    def _enter(self, sm: re.Match) -> None:
        """A 编 / 章 / 节 line (``_STRUCT_LINE``) starts."""
        label = (sm.group(1) + " " + _fold_spaces(sm.group(2) or "")).strip()
        self.divisions = _enter_division(self.divisions, _DIVISION_OF_MARK[sm.group(1)[-1]], label)

    def _flush(self) -> None:
        if self.art and self.parts:
            path = [self.title, *self.divisions, self.art]
            _emit_law_article(self.b, path, self.art, "\n".join(self.parts), self.para_of_art, self.max_tokens)
        self.parts = []

    def finish(self) -> None:
        """The last article, then the preamble: it comes first in reading order but is emitted
        after the articles so that article ids do not move when only the preamble changes; a law
        without articles (a 决定) is chunked as prose."""
        self._flush()
        if self.preamble and count_tokens("\n".join(self.preamble)) >= 8:
            kind = "preamble" if self.seen_article else "prose"
            for part, _ in _emit_groups(self.preamble, self.max_tokens):
                self.b.add(body=part, path=[self.title], kind=kind, spans=[Span(page=1, para=0)], heading="")


def canonical_law_name(name: str) -> str:
    """Name used to match law articles across sources: "中华人民共和国" dropped everywhere (also
    inside 《》), dates in brackets and spaces removed. LeCoQA gold "合伙企业法第四条" and the
    corpus' "中华人民共和国合伙企业法" + "第四条" meet here."""
    s = name.replace("中华人民共和国", "")
    s = re.sub(r"[（(]\d{4}[-年]\d{1,2}[-月]\d{1,2}日?[)）]", "", s)
    return re.sub(r"\s+", "", s)


def _fold_spaces(s: str) -> str:
    s = s.replace("\u3000", " ")
    s = re.sub(r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])", "", s) if re.fullmatch(r"[\u4e00-\u9fff ]{1,12}", s) else s
    return re.sub(r"\s+", " ", s).strip()


def _emit_law_article(b: _Builder, path: list[str], label: str, body: str, para: int, max_tokens: int) -> None:
    spans = [Span(page=1, para=para)]
    if count_tokens(body) <= max_tokens:
        b.add(body=body, path=path, kind="article", spans=spans, heading=label)
        return
    for part, _ in _emit_groups(body.split("\n"), max_tokens):
        b.add(body=part, path=path, kind="article", spans=spans, heading=label)


def _emit_groups(paragraphs: list[str], max_tokens: int):
    buf: list[str] = []
    size = 0
    for text, _ in _split_long_parts([(p, []) for p in paragraphs], max_tokens):
        t = count_tokens(text)
        if buf and size + t > max_tokens:
            yield "\n".join(buf), size
            buf, size = [], 0
        buf.append(text)
        size += t
    if buf:
        yield "\n".join(buf), size


def law_article_name(title: str, heading: str) -> str:
    """"中华人民共和国民法典" + "第五十四条" -> "中华人民共和国民法典第五十四条" (LeCoQA gold names)."""
    return f"{title}{heading}"


__all__ = [
    "chunk_document", "chunk_markdown_law", "stitch_tables", "render_table_lines", "table_segments",
    "law_article_name", "law_doc_id", "canonical_law_name", "normalize_text", "RE_TIAO", "RE_ZHANG", "RE_JIE", "RE_BIAN",
]
