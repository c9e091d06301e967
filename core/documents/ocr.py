"""Offline OCR with rapidocr-onnxruntime, cached per page.

Line boxes come back in PDF coordinates (points), so OCR blocks can be highlighted like text
blocks. Results are cached as JSON keyed by (file sha256, page, dpi[, clip], engine tag: rapidocr's
version and this module's settings) because OCR costs 9–23 s per page on 2 busy cores; the
product keeps them in ``Settings.ocr_cache_dir`` (``ZHICE_OCR_CACHE``), outside the workspace,
so re-ingesting the same scan — into another tenant or a fresh workspace — does not redo OCR.
An unreadable entry is recomputed and rewritten; writes are atomic.

Missed lines. rapidocr's angle classifier turned some long lines upside down; they were then
recognised as garbage ("）") and dropped under the engine's score cut, so page 2 of the scanned
山东省商务厅 notice lost "（三）强化平台建设。各市至多选择2个平台开展手机…" and with it the
figure. The classifier is now off (rendered pages are upright), and after a full-page pass
every band of ink rows that no confident line box covers is OCR'd again on its own (a
full-width strip, cached like any clip) and the lines found there merged in — which also
repairs page results cached before the fix. Text the PDF itself cuts off is not recoverable: that
screenshot's lines end at a clip path at x≈568 pt (the web page was wider than the paper),
and no glyph exists beyond it — rendering with a widened page shows nothing more.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from core.documents.normalize import correct_ocr, normalize_text

_ENGINE = None
_ENGINE_LOCK = threading.Lock()
MIN_CONFIDENCE = 0.6
GAP_MIN_PT = 6.0      # an uncovered band of ink at least this tall is a line the detector missed
GAP_MIN_WIDTH_PT = 60.0  # … and at least this wide (icons and rules are narrower)
GAP_PAD_PT = 4.0      # margin around a missed band when it is OCR'd again
INK_LEVEL = 128       # grey value below which a pixel is ink
PIPELINE_VERSION = 2  # bump when this module's output for the same engine changes (part of the cache key)


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
    key = f"{doc_sha}-p{page_no}-d{dpi}-e{engine_tag()}"
    if clip is not None:
        key += "-c" + hashlib.sha1(",".join(f"{v:.1f}" for v in clip).encode()).hexdigest()[:10]
    return cache_dir / f"{key}.json"


@functools.lru_cache(maxsize=1)
def engine_tag() -> str:
    """What decides a page's OCR result besides its bytes: the engine and its version (its
    models ship inside the package) and this module's settings. Part of every cache key, so
    upgrading rapidocr or changing a setting never serves a stale result."""
    try:
        version = importlib.metadata.version("rapidocr-onnxruntime")
    except importlib.metadata.PackageNotFoundError:
        version = "absent"
    spec = {"engine": "rapidocr-onnxruntime", "version": version, "pipeline": PIPELINE_VERSION,
            "use_cls": False, "min_confidence": MIN_CONFIDENCE, "ink": INK_LEVEL,
            "gap": [GAP_MIN_PT, GAP_MIN_WIDTH_PT, GAP_PAD_PT]}
    return hashlib.sha1(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:12]


def _read_cache(path: Optional[Path]) -> tuple[Optional[list[dict]], bool]:
    """A cached page: ``(raw lines, gaps filled)``, or ``(None, False)`` when there is no entry
    or it is unreadable (truncated, not JSON, wrong shape) — the caller then recomputes."""
    if path is None or not path.is_file():
        return None, False
    try:
        cached = json.loads(path.read_text(encoding="utf-8"))
        raw = cached["lines"]
        for r in raw:
            if not (isinstance(r["text"], str) and len(r["bbox"]) == 4 and float(r["score"]) >= 0
                    and all(isinstance(v, (int, float)) for v in r["bbox"])):
                raise ValueError("bad OCR line")
        return raw, bool(cached.get("gaps_filled"))
    except (ValueError, KeyError, TypeError, OSError):
        return None, False


def _write_cache(path: Path, payload: dict) -> None:
    """Atomic: a unique temporary file in the same folder, then a rename, so concurrent
    ingestions (app, CLI, API processes) never read half an entry. A cache that cannot be
    written (full disk, read-only folder) costs the next ingestion time, never this one's result."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem[:40] + ".", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(payload, f, ensure_ascii=False)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if not isinstance(exc, OSError):
            raise


def ocr_page(page, *, doc_sha: str, dpi: int = 150, clip=None,
             cache_dir: Optional[Path] = None) -> list[OcrLine]:
    """OCR one pymupdf page (or the ``clip`` rectangle of it). Returns corrected lines with
    boxes in PDF points, top-to-bottom, left-to-right. ``doc_sha`` is the sha256 of the file's
    bytes; with ``cache_dir`` results are cached by (file, page, dpi, clip, :func:`engine_tag`)."""
    cache_path = _cache_file(Path(cache_dir), doc_sha, page.number + 1, dpi, clip) if cache_dir else None
    raw, filled = _read_cache(cache_path)
    if raw is not None and (filled or clip is not None):
        return _to_lines(raw)
    import pymupdf

    rect = pymupdf.Rect(clip) if clip is not None else page.rect
    gray = None
    if raw is None:
        img, scale_x, scale_y = _render(page, rect, dpi)
        raw = _recognise(img, rect, scale_x, scale_y)
        gray = img.min(axis=2)
    if clip is None:
        # lines the full-page pass missed: OCR each uncovered band of ink on its own
        if gray is None:
            img, scale_x, scale_y = _render(page, rect, dpi)
            gray = img.min(axis=2)
        raw = raw + _fill_missed_lines(page, gray, raw, rect, dpi=dpi, doc_sha=doc_sha, cache_dir=cache_dir)
        filled = True
    if cache_path:
        payload = {"dpi": dpi, "engine": engine_tag(), "lines": raw}
        if filled:
            payload["gaps_filled"] = True
        _write_cache(cache_path, payload)
    return _to_lines(raw)


def _render(page, rect, dpi: int):
    import numpy as np

    pix = page.get_pixmap(dpi=dpi, clip=rect, alpha=False)
    img = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.h, pix.w, pix.n)
    if pix.n == 1:
        img = np.repeat(img, 3, axis=2)
    return img, rect.width / pix.w, rect.height / pix.h


def _recognise(img, rect, scale_x: float, scale_y: float) -> list[dict]:
    # no angle classifier: rendered PDF pages are upright, and the classifier turned some
    # long lines upside down (recognised as "）", then dropped below the engine's score cut)
    result, _ = _engine()(img, use_cls=False)
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
    return raw


def missed_bands(gray, boxes_px: list, *, min_height_px: int, min_width_px: int, min_ink_px: int = 3,
                 join_px: int = 2) -> list[tuple[int, int]]:
    """Row bands ``(y0, y1)`` (pixels, inclusive) of a grey page image that hold ink but that no
    OCR box covers: lines the detector missed. A band must be ``min_height_px`` tall and its
    ink ``min_width_px`` wide, so rules, dots and small icons do not count."""
    import numpy as np

    h = gray.shape[0]
    ink = gray < INK_LEVEL
    covered = np.zeros(h, dtype=bool)
    for x0, y0, x1, y1 in boxes_px:
        covered[max(int(y0), 0):min(int(y1) + 1, h)] = True
    rows = np.where((ink.sum(axis=1) >= min_ink_px) & ~covered)[0]
    bands: list[list[int]] = []
    for r in rows:
        if bands and r - bands[-1][1] <= join_px:
            bands[-1][1] = int(r)
        else:
            bands.append([int(r), int(r)])
    out = []
    for y0, y1 in bands:
        if y1 - y0 + 1 < min_height_px:
            continue
        cols = np.where(ink[y0:y1 + 1].any(axis=0))[0]
        if len(cols) and cols.max() - cols.min() + 1 >= min_width_px:
            out.append((y0, y1))
    return out


def _fill_missed_lines(page, gray, raw: list[dict], rect, *, dpi: int, doc_sha: str, cache_dir) -> list[dict]:
    px = dpi / 72.0
    boxes = [((b[0] - rect.x0) * px, (b[1] - rect.y0) * px, (b[2] - rect.x0) * px, (b[3] - rect.y0) * px)
             for b in (r["bbox"] for r in raw if r.get("score", 1.0) >= MIN_CONFIDENCE)]
    bands = missed_bands(gray, boxes, min_height_px=max(int(GAP_MIN_PT * px), 4),
                         min_width_px=int(GAP_MIN_WIDTH_PT * px))
    found: list[dict] = []
    for y0, y1 in bands:
        top, bottom = rect.y0 + y0 / px, rect.y0 + (y1 + 1) / px
        clip = (rect.x0, max(rect.y0, top - GAP_PAD_PT), rect.x1, min(rect.y1, bottom + GAP_PAD_PT))
        try:
            lines = ocr_page(page, doc_sha=doc_sha, dpi=dpi, clip=clip, cache_dir=cache_dir)
        except Exception:  # noqa: BLE001 - a second look must never lose the first
            continue
        for ln in lines:
            cy = (ln.bbox[1] + ln.bbox[3]) / 2
            if top - 1 <= cy <= bottom + 1:  # the missed line, not a neighbour cut in half
                found.append({"text": ln.text, "bbox": list(ln.bbox), "score": ln.score, "refilled": True})
    return found


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
