"""Citation preview: the PDF page(s) of a cited chunk rendered with pymupdf and the cited
passage highlighted (quote located in the text layer, restricted to the chunk's boxes; on
scanned pages the OCR line boxes of the chunk), across page breaks; DOCX/MD/TXT citations
come back as paragraphs with the cited ones marked."""

from __future__ import annotations

import re
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


def _pieces(quote: str) -> list[str]:
    runs = re.findall(r"[\u4e00-\u9fff，、（）“”《》]{4,}", quote or "")
    out = []
    for r in runs:
        for i in range(0, len(r), 12):
            piece = r[i:i + 12]
            if len(piece) >= 4:
                out.append(piece)
    return out[:16]


def _near(rect, boxes, pad: float = 6.0) -> bool:
    import pymupdf

    if not boxes:
        return True
    for b in boxes:
        r = pymupdf.Rect(b) + (-pad, -pad, pad, pad)
        if r.intersects(rect):
            return True
    return False


def render_pdf(path: Path, citation: dict, chunk=None) -> dict:
    import pymupdf

    spans = citation.get("spans") or []
    if not spans and chunk is not None:
        spans = [{"page": _get(s, "page"), "bbox": _get(s, "bbox")} for s in (_get(chunk, "spans") or [])]
    pages = sorted({int(s["page"]) for s in spans if s.get("page")}) or [int(citation.get("page") or 1)]
    quote = citation.get("quote") or ""
    out_pages = []
    with pymupdf.open(path) as doc:
        for pno in pages[:4]:
            if pno < 1 or pno > doc.page_count:
                continue
            page = doc[pno - 1]
            boxes = [s["bbox"] for s in spans if int(s.get("page") or 0) == pno and s.get("bbox")]
            rects = []
            for piece in _pieces(quote):
                for r in page.search_for(piece):
                    if _near(r, boxes):
                        rects.append(r)
            how = "quote"
            if not rects and boxes:
                rects = [pymupdf.Rect(b) for b in boxes]
                how = "chunk"
            for r in rects:
                page.draw_rect(r, color=None, fill=HIGHLIGHT, fill_opacity=0.35, overlay=True)
            pix = page.get_pixmap(dpi=DPI)
            out_pages.append({"page": pno, "png": pix.tobytes("png"), "boxes": len(rects), "located_by": how if rects else "none"})
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
