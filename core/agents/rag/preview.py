"""Citation preview: the PDF page(s) of a cited chunk rendered with pymupdf and the cited
passage highlighted (quote located in the text layer, restricted to the chunk's boxes; on
scanned pages the OCR line boxes of the chunk), across page breaks; DOCX/MD/TXT citations
come back as paragraphs with the cited ones marked."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from core.agents.rag.textutil import norm, split_sentences
from core.config import get_settings

DPI = 110
HIGHLIGHT = (1.0, 0.85, 0.0)


def _get(obj, name, default=None):
    return obj.get(name, default) if isinstance(obj, dict) else getattr(obj, name, default)


def stored_file(doc_id: str, file_name: str = "") -> Path | None:
    """Where the ingested copy of a document lives in the workspace."""
    s = get_settings()
    try:
        from core.storage.db import get_db

        row = get_db().one("SELECT stored_path FROM documents WHERE doc_id = ?", (doc_id,))
    except Exception:  # noqa: BLE001 - table absent in a bare workspace
        row = None
    if row and row.get("stored_path"):
        p = Path(row["stored_path"])
        for cand in (p, s.home / p):
            if cand.is_file():
                return cand
    root = s.home / "documents"
    if root.is_dir():
        for p in root.rglob("*"):
            if p.is_file() and (doc_id in p.name or doc_id in p.parent.name or (file_name and p.name == file_name)):
                return p
    return None


PAGE_NUMBER = re.compile(r"^\s*[—\-－–]?\s*\d{1,3}\s*[—\-－–]?\s*$")
QUOTE_BREAK = re.compile(r"…+|\.{3,}")


def _norm_char(ch: str) -> str:
    """One character as matching sees it: NFKC (full-width digits / ％ → ASCII), lower case,
    brackets unified, whitespace dropped (may be "" or several characters)."""
    t = unicodedata.normalize("NFKC", ch).lower().replace("【", "〔").replace("】", "〕")
    return "".join(c for c in t if not c.isspace())


def _norm_text(text: str) -> str:
    return "".join(_norm_char(c) for c in text or "")


def page_chars(page) -> list[tuple[str, tuple, int]]:
    """Every character of a PDF page's text layer in reading order as (normalised char, bbox,
    line id), page-number lines ("— 3 —") left out."""
    out: list[tuple[str, tuple, int]] = []
    line_id = 0
    for block in page.get_text("rawdict").get("blocks", []):
        if block.get("type") != 0:
            continue
        for line in block.get("lines", []):
            line_id += 1
            chars = [c for span in line.get("spans", []) for c in span.get("chars", [])]
            if PAGE_NUMBER.match("".join(c["c"] for c in chars)):
                continue
            for c in chars:
                for n in _norm_char(c["c"]):
                    out.append((n, tuple(c["bbox"]), line_id))
    return out


def _segments(quote: str) -> list[str]:
    """The quote's parts that must each appear verbatim (split at ellipses; long parts also
    by sentence, so one changed character elsewhere does not lose a whole sentence)."""
    out = []
    for part in QUOTE_BREAK.split(quote or ""):
        n = _norm_text(part)
        if len(n) >= 2:
            out.append(n)
    return out


def locate_quote(pages: list[tuple[int, list]], quote: str, boxes: dict[int, list] | None = None) -> dict[int, list]:
    """Where the quote's characters are: {page number: [line rectangles]}, searching the
    pages' text as one stream (so a quote crossing a page break is found on both pages) and,
    among several occurrences, preferring the one inside the chunk's boxes."""
    stream: list[tuple[str, tuple, int, int]] = []
    for pno, chars in pages:
        stream += [(c, bbox, line, pno) for c, bbox, line in chars]
    text = "".join(x[0] for x in stream)
    hits: list[int] = []
    for seg in _segments(quote):
        parts = [seg]
        if text.find(seg) < 0:  # not verbatim: fall back to its sentences
            parts = [_norm_text(x) for x in split_sentences(seg)]
        for part in parts:
            if len(part) < 2:
                continue
            best, best_score = -1, -1.0
            pos = text.find(part)
            while pos >= 0:
                score = _inside_score(stream[pos:pos + len(part)], boxes or {})
                if score > best_score:
                    best, best_score = pos, score
                pos = text.find(part, pos + 1)
            if best >= 0:
                hits += range(best, best + len(part))
    rects: dict[int, dict[int, list]] = {}
    for i in sorted(set(hits)):
        _, bbox, line, pno = stream[i]
        rects.setdefault(pno, {}).setdefault(line, []).append(bbox)
    out: dict[int, list] = {}
    for pno, lines in rects.items():
        out[pno] = [(min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))
                    for bs in lines.values()]
    return out


def _inside_score(chars: list, boxes: dict[int, list]) -> float:
    if not boxes:
        return 0.0
    inside = 0
    for _, bbox, _, pno in chars:
        cx, cy = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
        if any(b[0] - 6 <= cx <= b[2] + 6 and b[1] - 6 <= cy <= b[3] + 6 for b in boxes.get(pno) or []):
            inside += 1
    return inside / max(1, len(chars))


def _chunk_pages(citation: dict, spans: list[dict]) -> list[int]:
    pages = {int(s["page"]) for s in spans if s.get("page")}
    first = int(citation.get("page") or 0)
    last = int(citation.get("page_end") or first or 0)
    if first:
        pages |= set(range(first, max(first, last) + 1))
    return sorted(pages) or [1]


def render_pdf(path: Path, citation: dict, chunk=None) -> dict:
    """The chunk's page(s) with exactly the quoted characters highlighted on every page they
    span; each page also comes as a close-up (``focus_png``) around its highlight, which the
    page shows first (the passage in view without scrolling)."""
    import pymupdf

    spans = citation.get("spans") or []
    if not spans and chunk is not None:
        spans = [{"page": _get(s, "page"), "bbox": _get(s, "bbox")} for s in (_get(chunk, "spans") or [])]
    if chunk is not None and not citation.get("page_end"):
        citation = {**citation, "page_end": _get(chunk, "page_end")}
    pages = _chunk_pages(citation, spans)[:4]
    quote = citation.get("quote") or ""
    out_pages = []
    with pymupdf.open(path) as doc:
        pages = [p for p in pages if 1 <= p <= doc.page_count]
        boxes = {p: [tuple(s["bbox"]) for s in spans if int(s.get("page") or 0) == p and s.get("bbox")] for p in pages}
        located = locate_quote([(p, page_chars(doc[p - 1])) for p in pages], quote, boxes)
        for pno in pages:
            page = doc[pno - 1]
            rects = [pymupdf.Rect(r) for r in located.get(pno, [])]
            how = "quote"
            if not rects and boxes.get(pno) and not located:
                rects = [pymupdf.Rect(b) for b in boxes[pno]]
                how = "chunk"
            for r in rects:
                page.draw_rect(r + (-1, -1, 1, 1), color=None, fill=HIGHLIGHT, fill_opacity=0.45, overlay=True)
            pix = page.get_pixmap(dpi=DPI)
            entry = {"page": pno, "png": pix.tobytes("png"), "boxes": len(rects),
                     "located_by": how if rects else "none", "rects": [tuple(round(v, 1) for v in r) for r in rects]}
            if rects:
                area = pymupdf.Rect(rects[0])
                for r in rects[1:]:
                    area |= r
                clip = pymupdf.Rect(page.rect.x0, max(page.rect.y0, area.y0 - 60), page.rect.x1,
                                    min(page.rect.y1, area.y1 + 60))
                entry["focus_png"] = page.get_pixmap(dpi=int(DPI * 1.6), clip=clip).tobytes("png")
                entry["focus_top"] = round(area.y0 / page.rect.height, 3)
            out_pages.append(entry)
    return {"kind": "pdf", "pages": out_pages, "file_name": citation.get("file_name"), "quote": quote}


def _paragraphs(path: Path) -> list[str]:
    suffix = path.suffix.lower()
    if suffix == ".docx":
        import docx

        d = docx.Document(str(path))
        paras = [p.text for p in d.paragraphs]
        for t in d.tables:
            for row in t.rows:
                paras.append(" | ".join(c.text for c in row.cells))
        return [p for p in paras if p.strip()]
    text = path.read_text(encoding="utf-8", errors="replace")
    return [p for p in re.split(r"\n\s*\n|\n", text) if p.strip()]


def render_text(citation: dict, chunk=None, path: Path | None = None) -> dict:
    quote = citation.get("quote") or ""
    qsents = [norm(s) for s in split_sentences(quote)] or [norm(quote)]
    paras: list[str] = []
    if path is not None:
        try:
            paras = _paragraphs(path)
        except Exception:  # noqa: BLE001 - unreadable copy: fall back to the chunk text
            paras = []
    if not paras and chunk is not None:
        paras = [p for p in (_get(chunk, "body") or _get(chunk, "text") or "").split("\n") if p.strip()]
    marks = []
    for i, p in enumerate(paras):
        pn = norm(p)
        marks.append(any(s and (s[:20] in pn or pn[:20] in s) for s in qsents if len(s) >= 4) if pn else False)
    if not any(marks) and citation.get("para") is not None and 0 <= int(citation["para"]) < len(paras):
        marks[int(citation["para"])] = True
    hits = [i for i, m in enumerate(marks) if m]
    if hits:
        lo, hi = max(0, hits[0] - 2), min(len(paras), hits[-1] + 3)
    else:
        lo, hi = 0, min(len(paras), 8)
    return {"kind": "text", "file_name": citation.get("file_name"), "quote": quote,
            "paragraphs": [{"index": i, "text": paras[i], "highlight": marks[i]} for i in range(lo, hi)]}


def render_citation(citation: dict, meta, index) -> dict:
    chunk = None
    try:
        chunk = index.get_chunk(citation.get("chunk_id"))
    except Exception:  # noqa: BLE001
        chunk = None
    path = stored_file(citation.get("doc_id") or "", _get(meta, "file_name", "") or "")
    if path is not None and path.suffix.lower() == ".pdf":
        return render_pdf(path, citation, chunk)
    return render_text(citation, chunk, path)
