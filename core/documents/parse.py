"""Parse PDF / DOCX / Markdown / TXT into a :class:`ParsedDocument` of positioned blocks.

PDF (pymupdf): text blocks with page + bbox in reading order; tables found by
``page.find_tables()`` become table blocks (``rows``, header first) and their area is removed
from the text blocks; page numbers ("— 3 —", "- 3 -", "1/4") and running headers/footers are
dropped; letter-spaced 红头 issuer lines ("济\\n南\\n市\\n商\\n务\\n局") are joined; pages without a
text layer are OCR'd (rapidocr, cached per page) into ``ocr`` blocks; images carrying text inside
text pages become ``figure`` blocks. DOCX (python-docx, :mod:`core.documents.parse_docx`):
paragraphs with their visible list numbering, tables as rows. Markdown / TXT: UTF-8 with
GB18030 fallback.

Every failure raises a :class:`core.documents.errors.DocumentError` (or
:class:`UnsupportedDocumentType`) whose Chinese message names the file and the reason.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections import Counter
from pathlib import Path
from typing import Optional

from core.documents.errors import (
    CorruptDocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
    OversizedDocumentError,
    UnreadableTextError,
    UnsupportedDocumentType,
)
from core.documents.models import Block, ParsedDocument
from core.documents.normalize import normalize_text
from core.documents.parse_docx import parse_docx

log = logging.getLogger(__name__)

SUPPORTED_SUFFIXES = {".pdf": "pdf", ".docx": "docx", ".md": "md", ".markdown": "md", ".txt": "txt"}
OCR_DPI = 150
FIGURE_DPI = 200
FIGURE_MIN_SIDE = 60.0        # points; smaller images (icons, bullets) are never OCR'd
FIGURE_MIN_AREA = 6000.0      # points²
FIGURE_MIN_CHARS = 4


def doc_id_for(path: Path | str) -> str:
    """First 16 hex digits of the file's SHA-256 (stable across parses and machines)."""
    return _sha256(Path(path).read_bytes())[:16]


def tenant_doc_id(content_id: str, tenant: str) -> str:
    """The indexed id of a file's copy in one tenant: 16 hex digits of SHA-256 over the tenant
    and the file's content id (:func:`doc_id_for`). Still derived from the content alone for a
    given tenant (re-ingesting the same file into the same tenant gives the same id and chunks),
    while two tenants importing the same public file each get their own copy and never learn of
    the other's."""
    return _sha256(f"{tenant}\n{content_id}".encode("utf-8"))[:16]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def parse_file(path: Path | str, *, ocr_cache_dir: Optional[Path] = None, max_bytes: Optional[int] = None,
               ocr: bool = True, ocr_max_pages: Optional[int] = None,
               ocr_figures: bool = True) -> ParsedDocument:
    """Read one document.

    ``ocr_cache_dir``: where page OCR results are cached (recommended; OCR is slow).
    ``max_bytes``: size limit (default: settings.max_upload_mb).
    ``ocr``: OCR pages without a text layer; ``ocr_max_pages``: OCR at most this many such pages
    (the rest are reported in ``warnings``); ``ocr_figures``: OCR text-bearing images in text PDFs.
    """
    path = Path(path)
    name = path.name
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise UnsupportedDocumentType(name, suffix)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise CorruptDocumentError(name, detail=str(exc)) from exc
    if size == 0:
        raise EmptyDocumentError(name)
    if max_bytes is None:
        from core.config import get_settings

        max_bytes = int(get_settings().max_upload_mb) * 1024 * 1024
    if max_bytes and size > max_bytes:
        raise OversizedDocumentError(name, size, max_bytes)
    data = path.read_bytes()
    sha = _sha256(data)
    doc = ParsedDocument(doc_id=sha[:16], file_name=name, source_type=SUPPORTED_SUFFIXES[suffix], pages=1)
    if doc.source_type == "pdf":
        _parse_pdf(data, doc, sha=sha, ocr_cache_dir=ocr_cache_dir, ocr=ocr, ocr_max_pages=ocr_max_pages,
                   ocr_figures=ocr_figures)
    elif doc.source_type == "docx":
        parse_docx(data, doc)
    else:
        _parse_text(data, doc)
    if not any(b.text.strip() for b in doc.blocks):
        if doc.source_type == "pdf":
            if doc.warnings and not ocr:
                raise UnreadableTextError(name, "是扫描件（没有文字层），需要开启 OCR 才能识别文字")
            raise UnreadableTextError(name)
        raise EmptyDocumentError(name, "没有任何文字内容")
    return doc


# ====================================================================== PDF

_PAGE_NO_RES = [
    re.compile(r"^[-—–－_~·•\s]*\d{1,4}[-—–－_~·•\s]*$"),        # — 3 —, - 3 -, 3
    re.compile(r"^第\s*\d{1,4}\s*页(\s*[，,/]?\s*共\s*\d{1,4}\s*页)?$"),
    re.compile(r"^\d{1,4}\s*/\s*\d{1,4}$"),                       # 1/4
    re.compile(r"^[-—–－\s]*[一二三四五六七八九十]+[-—–－\s]*$"),
]


def _is_page_number(text: str) -> bool:
    t = text.strip()
    return bool(t) and len(t) <= 16 and any(r.match(t) for r in _PAGE_NO_RES)


def _parse_pdf(data: bytes, doc: ParsedDocument, *, sha: str, ocr_cache_dir, ocr: bool,
               ocr_max_pages: Optional[int], ocr_figures: bool) -> None:
    import pymupdf

    name = doc.file_name
    if not data.lstrip()[:1024].startswith(b"%PDF") and b"%PDF" not in data[:1024]:
        raise CorruptDocumentError(name, "PDF 文件")
    try:
        pdf = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # pymupdf raises its own FileDataError / RuntimeError
        raise CorruptDocumentError(name, "PDF 文件", detail=str(exc)) from exc
    if pdf.needs_pass or pdf.is_encrypted:
        raise EncryptedDocumentError(name)
    if pdf.page_count == 0:  # a valid PDF has at least one page: this one is truncated or damaged
        raise CorruptDocumentError(name, "PDF 文件（找不到任何页面，文件可能不完整）")
    doc.pages = pdf.page_count
    ocr_done = 0
    from core.progress import report

    ocr_total = None  # pages without a text layer, counted on the first one met
    per_page: list[list[Block]] = []
    page_heights: list[float] = []
    for page in pdf:
        page_no = page.number + 1
        page_heights.append(page.rect.height)
        try:
            raw = page.get_text("dict", sort=True)
        except Exception as exc:
            raise CorruptDocumentError(name, "PDF 文件", detail=f"page {page_no}: {exc}") from exc
        text_chars = sum(len(s["text"].strip()) for b in raw["blocks"] if b.get("type") == 0
                         for ln in b["lines"] for s in ln["spans"])
        if text_chars < 5:
            # no text layer: a scan, a screenshot or glyphs drawn as vector paths
            has_ink = bool(page.get_image_info()) or len(page.get_drawings()) > 0
            if not has_ink:
                per_page.append([])
                continue
            if not ocr or (ocr_max_pages is not None and ocr_done >= ocr_max_pages):
                doc.warnings.append(f"第{page_no}页没有文字层，未进行 OCR")
                per_page.append([])
                continue
            if ocr_total is None:
                ocr_total = sum(1 for p in pdf if len(p.get_text("text").strip()) < 5)
                if ocr_max_pages is not None:
                    ocr_total = min(ocr_total, ocr_max_pages)
            report("ocr", ocr_done + 1, max(ocr_total, ocr_done + 1))
            per_page.append(_ocr_page_blocks(page, sha=sha, cache_dir=ocr_cache_dir))
            doc.ocr_pages.append(page_no)
            ocr_done += 1
            continue
        tables = _page_tables(page)
        blocks = _text_blocks(raw, [t.bbox for t in tables], page_no)
        blocks.extend(tables)
        if ocr and ocr_figures:
            blocks.extend(_figure_blocks(page, sha=sha, cache_dir=ocr_cache_dir, text_blocks=blocks))
        blocks.sort(key=lambda b: (round(b.bbox[1], 0), b.bbox[0]) if b.bbox else (0, 0))
        per_page.append(blocks)
    _drop_page_furniture(per_page, page_heights)
    for blocks in per_page:
        doc.blocks.extend(b for b in blocks if b.text.strip())


def _ocr_page_blocks(page, *, sha: str, cache_dir) -> list[Block]:
    from core.documents.ocr import ocr_page

    lines = ocr_page(page, doc_sha=sha, dpi=OCR_DPI, cache_dir=cache_dir)
    return [Block(page=page.number + 1, text=ln.text, bbox=_round_bbox(ln.bbox), kind="ocr") for ln in lines]


def _figure_blocks(page, *, sha: str, cache_dir, text_blocks: list[Block]) -> list[Block]:
    """OCR images that are big enough to carry text (charts, stamps, scanned inserts)."""
    from core.documents.ocr import ocr_page

    out = []
    page_area = page.rect.width * page.rect.height
    seen = set()
    for info in page.get_image_info():
        x0, y0, x1, y1 = info["bbox"]
        w, h = x1 - x0, y1 - y0
        key = (round(x0), round(y0), round(x1), round(y1))
        if key in seen or w < FIGURE_MIN_SIDE or h < FIGURE_MIN_SIDE or w * h < FIGURE_MIN_AREA:
            continue
        if w * h > 0.9 * page_area:
            continue  # a full-page background image behind real text
        seen.add(key)
        clip = (max(x0, 0), max(y0, 0), min(x1, page.rect.width), min(y1, page.rect.height))
        try:
            lines = ocr_page(page, doc_sha=sha, dpi=FIGURE_DPI, clip=clip, cache_dir=cache_dir)
        except Exception as exc:  # OCR must never break a text document
            log.warning("figure OCR failed on page %s: %s", page.number + 1, exc)
            continue
        text = "\n".join(ln.text for ln in lines)
        if sum(1 for ch in text if not ch.isspace()) < FIGURE_MIN_CHARS:
            continue
        out.append(Block(page=page.number + 1, text=text, bbox=_round_bbox(clip), kind="figure"))
    return out


def _round_bbox(b) -> tuple[float, float, float, float]:
    return tuple(round(float(v), 2) for v in b)  # type: ignore[return-value]


def _inside(bbox, rects, pad: float = 2.0) -> bool:
    cx = (bbox[0] + bbox[2]) / 2
    cy = (bbox[1] + bbox[3]) / 2
    return any(r[0] - pad <= cx <= r[2] + pad and r[1] - pad <= cy <= r[3] + pad for r in rects)


def _text_blocks(raw: dict, table_rects: list, page_no: int) -> list[Block]:
    """pymupdf blocks -> Blocks; lines inside tables dropped; lines on the same visual row
    (letter-spaced headings such as 济 南 市 商 务 局) merged left to right."""
    out = []
    for b in raw["blocks"]:
        if b.get("type") != 0:
            continue
        lines = []
        for ln in b["lines"]:
            text = "".join(s["text"] for s in ln["spans"])
            if not text.strip():
                continue
            if ln.get("dir", (1, 0))[0] < 0.5 and abs(ln.get("dir", (1, 0))[1]) > 0.5:
                pass  # rotated text is kept; its bbox still locates it
            if table_rects and _inside(ln["bbox"], table_rects):
                continue
            lines.append((tuple(ln["bbox"]), text))
        if not lines:
            continue
        rows: list[list] = []  # [bbox, [(x0, text)]]
        for bbox, text in lines:
            cy = (bbox[1] + bbox[3]) / 2
            h = bbox[3] - bbox[1]
            for row in rows:
                rb = row[0]
                rcy = (rb[1] + rb[3]) / 2
                rh = rb[3] - rb[1]
                overlaps_x = not (bbox[0] >= rb[2] - 1 or bbox[2] <= rb[0] + 1)
                if abs(cy - rcy) < 0.35 * max(h, rh, 1) and not overlaps_x:
                    row[1].append((bbox[0], bbox[2], text))
                    row[0] = (min(rb[0], bbox[0]), min(rb[1], bbox[1]), max(rb[2], bbox[2]), max(rb[3], bbox[3]))
                    break
            else:
                rows.append([bbox, [(bbox[0], bbox[2], text)]])
        texts = []
        for row in rows:
            # parts far apart on one row (two issuers side by side in a 落款) stay separate lines;
            # letter-spaced characters and "第一章  总则" are joined
            h = max(row[0][3] - row[0][1], 1.0)
            groups: list[list] = []
            for x0, x1, t in sorted(row[1], key=lambda p: p[0]):
                if groups and x0 - groups[-1][-1][1] < 1.5 * h:
                    groups[-1].append((x0, x1, t))
                else:
                    groups.append([(x0, x1, t)])
            for g in groups:
                texts.append(normalize_text(" ".join(t.strip() for _, _, t in g)))
        x0 = min(r[0][0] for r in rows)
        y0 = min(r[0][1] for r in rows)
        x1 = max(r[0][2] for r in rows)
        y1 = max(r[0][3] for r in rows)
        text = "\n".join(t for t in texts if t)
        if text:
            out.append(Block(page=page_no, text=text, bbox=_round_bbox((x0, y0, x1, y1)), kind="text"))
    return out


def _page_tables(page) -> list[Block]:
    """Ruled tables via find_tables (only on pages with enough vector lines: it is slow)."""
    try:
        if len(page.get_drawings()) < 4:
            return []
        # the plain line finder is cheap (~0.1 s) but over-reaches (page borders become a
        # "table"); the layout-gated finder is right but costs seconds: run it only where the
        # cheap one sees a grid at all
        if not page.find_tables(use_layout=False).tables:
            return []
        found = page.find_tables()
    except Exception as exc:  # a malformed page must not break the document
        log.warning("find_tables failed on page %s: %s", page.number + 1, exc)
        return []
    out = []
    for t in found.tables:
        rows = _table_grid(page, t)
        rows = [r for r in rows if any(c for c in r)]
        if len(rows) < 2 or max(len(r) for r in rows) < 2:
            continue
        prose_rows = sum(1 for r in rows if len(set(r)) == 1 and re.search(r"[，。；]", r[0]))
        if prose_rows > 0.3 * len(rows):
            continue  # a page frame drawn around running text, not a table
        text = "\n".join(" | ".join(c for c in r if c) for r in rows)
        out.append(Block(page=page.number + 1, text=text, bbox=_round_bbox(t.bbox), kind="table", rows=rows))
    return out


def _cell_text(page, bbox) -> str:
    import pymupdf

    txt = page.get_textbox(pymupdf.Rect(bbox))
    return normalize_text(txt.replace("\n", " ")).strip()


def _table_grid(page, table) -> list[list[str]]:
    """Cell texts with merged cells filled in (a cell spanning columns/rows repeats its text),
    so every row has a value under every column header."""
    nrows = len(table.rows)
    ncols = max(len(r.cells) for r in table.rows) if nrows else 0
    cells = [list(r.cells) + [None] * (ncols - len(r.cells)) for r in table.rows]
    # column / row centres
    col_x0 = []
    for j in range(ncols):
        xs = [cells[i][j][0] for i in range(nrows) if cells[i][j] is not None]
        col_x0.append(min(xs) if xs else None)
    col_c = []
    for j in range(ncols):
        x0 = col_x0[j]
        nxt = next((col_x0[k] for k in range(j + 1, ncols) if col_x0[k] is not None), table.bbox[2])
        col_c.append((x0 + nxt) / 2 if x0 is not None else None)
    row_c = [(r.bbox[1] + r.bbox[3]) / 2 for r in table.rows]
    grid: list[list[str]] = [[""] * ncols for _ in range(nrows)]
    origin: list[list] = [[None] * ncols for _ in range(nrows)]
    for i in range(nrows):
        for j in range(ncols):
            c = cells[i][j]
            if c is not None:
                grid[i][j] = _cell_text(page, c)
                origin[i][j] = c
                continue
            # covered by a merged cell: to the left (colspan) or above (rowspan)?
            left = origin[i][j - 1] if j > 0 else None
            if left is not None and col_c[j] is not None and left[2] >= col_c[j]:
                grid[i][j] = grid[i][j - 1]
                origin[i][j] = left
                continue
            up = origin[i - 1][j] if i > 0 else None
            if up is not None and up[3] >= row_c[i]:
                grid[i][j] = grid[i - 1][j]
                origin[i][j] = up
    return grid


def _furniture_key(text: str) -> str:
    return re.sub(r"\d+", "#", re.sub(r"\s+", "", text))


def _drop_page_furniture(per_page: list[list[Block]], heights: list[float]) -> None:
    """Remove page numbers and running headers/footers (text repeated in the top/bottom band
    of most pages, digits masked)."""
    n = len(per_page)
    band_counts: Counter = Counter()
    for i, blocks in enumerate(per_page):
        keys = set()
        for b in blocks:
            if b.bbox and b.kind in ("text", "ocr") and _in_band(b.bbox, heights[i]):
                keys.add(_furniture_key(b.text))
        band_counts.update(keys)
    repeated = {k for k, c in band_counts.items() if n >= 3 and c >= max(2, (n + 1) // 2) and len(k) <= 80}
    for i, blocks in enumerate(per_page):
        keep = []
        for b in blocks:
            if b.kind in ("text", "ocr"):
                lines = [ln for ln in b.text.split("\n") if not _is_page_number(ln)]
                if not lines:
                    continue
                if len(lines) != len(b.text.split("\n")):
                    b.text = "\n".join(lines)
                if b.bbox and _in_band(b.bbox, heights[i]) and (
                        _furniture_key(b.text) in repeated or _is_url_or_stamp(b.text)):
                    continue
            keep.append(b)
        per_page[i] = keep


def _in_band(bbox, height: float) -> bool:
    return bbox[3] <= height * 0.09 or bbox[1] >= height * 0.9


def _is_url_or_stamp(text: str) -> bool:
    t = text.strip()
    return bool(re.match(r"^(https?://|www\.|[a-z0-9.-]+\.(gov|com|org|net)\.cn/)", t)) or bool(
        re.match(r"^\d{4}[/-]\d{1,2}[/-]\d{1,2}\s*\d{1,2}:\d{2}", t))


# ====================================================================== Markdown / TXT

def decode_text(data: bytes, name: str = "") -> str:
    """UTF-8 (with or without BOM), else GB18030; undecodable -> CorruptDocumentError."""
    for enc in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    raise CorruptDocumentError(name, "文本文件（编码无法识别，请使用 UTF-8 或 GB18030）")


def _parse_text(data: bytes, doc: ParsedDocument) -> None:
    if b"\x00" in data[:4096]:
        raise CorruptDocumentError(doc.file_name, "文本文件（内容是二进制数据）")
    text = decode_text(data, doc.file_name)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    groups: list[list[str]] = []
    for chunk in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        lines: list[str] = []
        for ln in chunk.split("\n"):
            if doc.source_type == "md":
                if re.match(r"^\s{0,3}#{1,6}\s", ln):  # a heading is its own block, blank line or not
                    if lines:
                        groups.append(lines)
                    groups.append([re.sub(r"^\s{0,3}#{1,6}\s*", "", ln)])
                    lines = []
                    continue
                ln = re.sub(r"^\s*[-*+]\s+(?=\S)", "", ln) if not re.match(r"^\s*[-*_]{3,}\s*$", ln) else ""
            lines.append(ln)
        if not groups and len(lines) > 1 and _looks_like_title(lines[0]):
            groups.append([lines.pop(0)])  # a file's short first line is its title, not a sentence's start
        groups.append(lines)
    para = 0
    for lines in groups:
        block_text = normalize_text("\n".join(lines))
        if block_text.strip():
            doc.blocks.append(Block(page=1, text=block_text, para=para, kind="text"))
            para += 1


def _looks_like_title(line: str) -> bool:
    """Short, and ends without sentence punctuation (问答资料12 / 关于做好2025年工作的通知)."""
    t = line.strip()
    return 0 < len(t) <= 40 and not re.search(r"[。；;！!？?，,：:、]$", t)


def parse_text_content(text: str, file_name: str, *, source_type: str = "txt") -> ParsedDocument:
    """A ParsedDocument from text already in memory (e.g. a JSONL record's body); doc_id is the
    first 16 hex of the SHA-256 of the UTF-8 text."""
    data = text.encode("utf-8")
    doc = ParsedDocument(doc_id=_sha256(data)[:16], file_name=file_name,
                         source_type="md" if source_type == "md" else "txt", pages=1)
    _parse_text(data, doc)
    if not doc.blocks:
        raise EmptyDocumentError(file_name, "没有任何文字内容")
    return doc
