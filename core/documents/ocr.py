"""Offline OCR with rapidocr-onnxruntime, cached per page.

Line boxes come back in PDF coordinates (points), so OCR blocks can be highlighted like text
blocks. Results are cached as JSON keyed by (document sha, page, dpi[, clip]) because OCR costs
9–23 s per page on 2 busy cores.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from core.documents.normalize import correct_ocr, normalize_text

_ENGINE = None
_ENGINE_LOCK = threading.Lock()
MIN_CONFIDENCE = 0.6


@dataclass
class OcrLine:
    text: str
    bbox: tuple[float, float, float, float]  # PDF points on the page
    score: float


def _engine():
    global _ENGINE
    with _ENGINE_LOCK:
        if _ENGINE is None:
            from rapidocr_onnxruntime import RapidOCR  # heavy import, only when OCR is needed

            _ENGINE = RapidOCR()
        return _ENGINE


def _cache_file(cache_dir: Path, doc_sha: str, page_no: int, dpi: int, clip=None) -> Path:
    key = f"{doc_sha}-p{page_no}-d{dpi}"
    if clip is not None:
        key += "-c" + hashlib.sha1(",".join(f"{v:.1f}" for v in clip).encode()).hexdigest()[:10]
    return cache_dir / f"{key}.json"


def ocr_page(page, *, doc_sha: str, dpi: int = 150, clip=None,
             cache_dir: Optional[Path] = None) -> list[OcrLine]:
    """OCR one pymupdf page (or the ``clip`` rectangle of it). Returns corrected lines with
    boxes in PDF points, top-to-bottom, left-to-right."""
    cache_path = _cache_file(Path(cache_dir), doc_sha, page.number + 1, dpi, clip) if cache_dir else None
    raw: list[dict]
    if cache_path and cache_path.is_file():
        try:
            raw = json.loads(cache_path.read_text(encoding="utf-8"))["lines"]
        except (ValueError, KeyError, OSError):
            raw = []
            cache_path = cache_path  # unreadable cache entry: recompute below
        else:
            return _to_lines(raw)
    import numpy as np
    import pymupdf

    rect = pymupdf.Rect(clip) if clip is not None else page.rect
    pix = page.get_pixmap(dpi=dpi, clip=rect, alpha=False)
    img = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.h, pix.w, pix.n)
    if pix.n == 1:
        img = np.repeat(img, 3, axis=2)
    result, _ = _engine()(img)
    scale_x = rect.width / pix.w
    scale_y = rect.height / pix.h
    raw = []
    for box, text, score in result or []:
        xs = [pt[0] for pt in box]
        ys = [pt[1] for pt in box]
        raw.append({
            "text": text,
            "bbox": [rect.x0 + min(xs) * scale_x, rect.y0 + min(ys) * scale_y,
                     rect.x0 + max(xs) * scale_x, rect.y0 + max(ys) * scale_y],
            "score": float(score),
        })
    if cache_path:
        cache_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache_path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"dpi": dpi, "lines": raw}, ensure_ascii=False), encoding="utf-8")
        tmp.replace(cache_path)
    return _to_lines(raw)


def _to_lines(raw: list[dict]) -> list[OcrLine]:
    lines = []
    for r in raw:
        if r["score"] < MIN_CONFIDENCE:
            continue
        text = correct_ocr(normalize_text(r["text"]))
        if text.strip():
            lines.append(OcrLine(text, tuple(r["bbox"]), r["score"]))
    lines.sort(key=lambda ln: (round(ln.bbox[1] / 6), ln.bbox[0]))
    return lines
