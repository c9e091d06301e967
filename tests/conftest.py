"""Shared fixtures. Every test gets its own empty workspace (``ZHICE_HOME``); model caches
are shared across the session so the embedding model is converted once, and so is the OCR
cache (``ZHICE_OCR_CACHE``, keyed by file content + engine version): the scanned sample PDF is
OCR'd for real once per run, by the first test that ingests it, not by every demo load.
Tests of the OCR result itself use :func:`real_ocr_cache`, a separate folder that starts empty
each run, so they always run the engine."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core import config

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("ZHICE_SHARED_DATA", REPO.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def model_cache(tmp_path_factory) -> Path:
    explicit = os.environ.get("ZHICE_MODEL_CACHE")
    if explicit:
        return Path(explicit)
    return REPO / ".cache" / "models"


@pytest.fixture(scope="session", autouse=True)
def ocr_cache(tmp_path_factory) -> Path:
    """One OCR cache for the whole run (every workspace, the browser suite's servers and CLI
    subprocesses inherit it through the environment). Starts empty unless ZHICE_OCR_CACHE is
    already set; never the user's own cache."""
    explicit = os.environ.get("ZHICE_OCR_CACHE")
    path = Path(explicit) if explicit else tmp_path_factory.mktemp("ocr-cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("ZHICE_OCR_CACHE", str(path))
    yield path
    mp.undo()


@pytest.fixture(scope="session")
def real_ocr_cache(tmp_path_factory) -> Path:
    """For tests that check what OCR reads: empty at the start of every run, shared only by
    those tests, so each page they assert on is recognised by the engine in this run."""
    return tmp_path_factory.mktemp("real-ocr")


@pytest.fixture(autouse=True)
def workspace(tmp_path, monkeypatch, model_cache) -> Path:
    home = tmp_path / "workspace"
    monkeypatch.setenv("ZHICE_HOME", str(home))
    monkeypatch.setenv("ZHICE_MODEL_CACHE", str(model_cache))
    for var in ("ZHICE_LLM_API_KEY", "ZHICE_DATABASE_URL", "ZHICE_NEO4J_URI", "ZHICE_EMBED_MODEL",
                "ZHICE_RERANK_MODEL", "ZHICE_DOC_INDEX"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env from the repo
    config.set_settings(None)
    yield home
    config.set_settings(None)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    return SHARED_DATA
