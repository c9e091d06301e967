"""OCR of scanned pages: lines the full-page pass misses are found again.

rapidocr's angle classifier turned some long lines of the scanned 山东省商务厅 notice upside
down; they came back as garbage under the engine's score cut and page 2 lost "（三）强化平台建设。
各市至多选择2个平台…" with its figure. The classifier is off now, and every band of ink that no
line box covers is OCR'd again on its own."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from core.documents import ocr

REPO = Path(__file__).resolve().parents[2]
SCANNED = "山东省商务厅等5部门关于印发《山东省手机、平板、智能手表（手环）购新补贴实施细则》的通知.pdf"


def test_missed_bands_finds_uncovered_ink_rows_only():
    gray = np.full((200, 400), 255, dtype=np.uint8)
    gray[20:34, 10:390] = 0      # line 1, covered by a box
    gray[60:74, 10:380] = 0      # line 2, missed by the detector
    gray[100:103, 10:390] = 0    # a rule: too thin
    gray[140:160, 10:30] = 0     # an icon: too narrow
    bands = ocr.missed_bands(gray, [(8, 18, 392, 36)], min_height_px=8, min_width_px=60)
    assert bands == [(60, 73)]
    assert ocr.missed_bands(gray, [(8, 18, 392, 36), (8, 58, 392, 76)], min_height_px=8, min_width_px=60) == []


class _FakeEngine:
    """Finds only the first line on a full page; a strip OCR'd on its own finds its line."""

    def __init__(self):
        self.calls = []

    def __call__(self, img, **kw):
        self.calls.append((img.shape, kw))
        h, w = img.shape[:2]
        if h > 300:  # the full page
            return [[[[10, 60], [w - 10, 60], [w - 10, 90], [10, 90]], "第一行文字，共计3件。", 0.99]], None
        return [[[[10, 5], [w - 10, 5], [w - 10, h - 5], [10, h - 5]], "各市至多选择2个平台开展购新补贴，", 0.99]], None


def test_full_page_ocr_refills_a_missed_line_and_caches_it(tmp_path, monkeypatch):
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=400, height=400)
    page.draw_rect(pymupdf.Rect(10, 30, 390, 42), color=(0, 0, 0), fill=(0, 0, 0))   # line 1 ink
    page.draw_rect(pymupdf.Rect(10, 80, 380, 92), color=(0, 0, 0), fill=(0, 0, 0))   # line 2 ink
    fake = _FakeEngine()
    monkeypatch.setattr(ocr, "_engine", lambda: fake)
    lines = ocr.ocr_page(page, doc_sha="synthetic", dpi=150, cache_dir=tmp_path)
    texts = [ln.text for ln in lines]
    assert texts == ["第一行文字，共计3件。", "各市至多选择2个平台开展购新补贴，"]
    refilled = lines[1]
    assert 74 <= refilled.bbox[1] < refilled.bbox[3] <= 100  # PDF points, where the ink is
    assert all(kw.get("use_cls") is False for _, kw in fake.calls)  # no angle classifier
    # cached: a second call runs no OCR at all
    n = len(fake.calls)
    again = ocr.ocr_page(page, doc_sha="synthetic", dpi=150, cache_dir=tmp_path)
    assert [ln.text for ln in again] == texts and len(fake.calls) == n


@pytest.mark.slow
def test_scanned_notice_page_two_keeps_the_platform_line_and_its_figure(shared_data, real_ocr_cache):
    """Real OCR (run this session, see ``real_ocr_cache``): the line the full-page pass lost is back, figure
    included, left to right as printed."""
    from core.documents.parse import parse_file

    doc = parse_file(shared_data / "policies" / SCANNED, ocr_cache_dir=real_ocr_cache)
    p2 = [b for b in doc.blocks if b.page == 2 and b.kind == "ocr"]
    line = next(b for b in p2 if "各市至多选择" in b.text)
    assert re.search(r"各市至多选择2个平台开展手机、平板、智能手表（手环）产品购新补贴", line.text)
    assert 640 < line.bbox[1] < 660 and line.bbox[2] > 500  # the full width of the printed line
    assert any("有效防范骗补套补行为" in b.text for b in p2)
    assert "2个平台" in doc.text
