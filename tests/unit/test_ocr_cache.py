"""The OCR cache (core/documents/ocr.py): re-ingesting the same scan does not redo OCR, a changed
file or engine does, and a damaged entry is recomputed instead of failing the ingestion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core import config
from core.documents import ocr
from core.documents.parse import parse_file


class _CountingEngine:
    """Stands in for rapidocr: one line per image, counting the calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, img, **kw):
        self.calls += 1
        h, w = img.shape[:2]
        return [[[[10, 10], [w - 10, 10], [w - 10, min(h - 1, 60)], [10, min(h - 1, 60)]],
                 "对示范企业一次性奖励20万元。", 0.98]], None


@pytest.fixture
def engine(monkeypatch) -> _CountingEngine:
    fake = _CountingEngine()
    monkeypatch.setattr(ocr, "_engine", lambda: fake)
    return fake


def _scan(path: Path, shade: int = 0) -> Path:
    """A one-page PDF with no text layer: a picture of a line of ink (what a scan is)."""
    import pymupdf

    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 400, 80), False)
    pix.clear_with(255)
    pix.set_rect(pymupdf.IRect(20, 30, 380, 50), (shade, shade, shade))
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_image(pymupdf.Rect(0, 20, 400, 100), pixmap=pix)
    doc.save(path)
    return path


def test_same_file_again_is_served_from_the_cache(tmp_path, engine):
    cache = tmp_path / "ocr"
    first = parse_file(_scan(tmp_path / "扫描件.pdf"), ocr_cache_dir=cache)
    assert first.ocr_pages == [1] and "一次性奖励20万元" in first.text
    n = engine.calls
    assert n >= 1
    # the same bytes under another name (another upload, another workspace): no OCR at all
    copy = tmp_path / "扫描件（再次上传）.pdf"
    copy.write_bytes((tmp_path / "扫描件.pdf").read_bytes())
    again = parse_file(copy, ocr_cache_dir=cache)
    assert engine.calls == n
    assert [b.text for b in again.blocks] == [b.text for b in first.blocks]
    assert [b.bbox for b in again.blocks] == [b.bbox for b in first.blocks]


def test_changed_bytes_or_engine_are_a_miss(tmp_path, engine, monkeypatch):
    cache = tmp_path / "ocr"
    parse_file(_scan(tmp_path / "a.pdf"), ocr_cache_dir=cache)
    n = engine.calls
    parse_file(_scan(tmp_path / "b.pdf", shade=40), ocr_cache_dir=cache)  # other bytes
    assert engine.calls > n
    n = engine.calls
    parse_file(tmp_path / "a.pdf", ocr_cache_dir=cache)
    assert engine.calls == n  # still cached
    monkeypatch.setattr(ocr, "engine_tag", lambda: "another-engine-version")
    parse_file(tmp_path / "a.pdf", ocr_cache_dir=cache)
    assert engine.calls > n  # an upgraded engine never serves an old result


@pytest.mark.parametrize("damage", ["", "{\"lines\": [", "[1, 2]", "{\"lines\": [{\"text\": 1}]}", "\xff garbage"])
def test_a_damaged_entry_is_recomputed_and_rewritten(tmp_path, engine, damage):
    cache = tmp_path / "ocr"
    pdf = _scan(tmp_path / "扫描件.pdf")
    good = parse_file(pdf, ocr_cache_dir=cache)
    entries = sorted(cache.glob("*.json"))
    assert entries and not list(cache.glob("*.tmp"))  # written atomically, no leftovers
    for e in entries:
        e.write_text(damage, encoding="utf-8")
    n = engine.calls
    again = parse_file(pdf, ocr_cache_dir=cache)
    assert engine.calls > n
    assert [b.text for b in again.blocks] == [b.text for b in good.blocks]
    for e in entries:
        assert json.loads(e.read_text(encoding="utf-8"))["lines"]  # repaired
    n = engine.calls
    parse_file(pdf, ocr_cache_dir=cache)
    assert engine.calls == n


def test_an_unwritable_cache_does_not_fail_the_ocr(tmp_path, engine):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be", encoding="utf-8")
    doc = parse_file(_scan(tmp_path / "扫描件.pdf"), ocr_cache_dir=blocked)
    assert "一次性奖励20万元" in doc.text and engine.calls >= 1


def test_the_key_names_the_engine_version():
    import importlib.metadata

    ocr.engine_tag.cache_clear()
    tag = ocr.engine_tag()
    assert len(tag) == 12 and tag == ocr.engine_tag()
    assert importlib.metadata.version("rapidocr-onnxruntime")  # the version the tag is built from


def test_cache_folder_comes_from_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("ZHICE_OCR_CACHE", str(tmp_path / "shared-ocr"))
    config.set_settings(None)
    assert config.get_settings().ocr_cache_dir == tmp_path / "shared-ocr"
    assert (tmp_path / "shared-ocr").is_dir()
    # unset: the user's cache folder, outside the workspace (a new workspace reuses it)
    s = config.load_settings({"ocr_cache": ""}, env={"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert s.ocr_cache == ""
    assert config.user_cache_dir({"XDG_CACHE_HOME": str(tmp_path / "xdg")}) == tmp_path / "xdg" / "zhice"
    assert config.user_cache_dir({}) == Path.home() / ".cache" / "zhice"
