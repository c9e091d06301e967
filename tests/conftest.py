"""Shared fixtures. Every test gets its own empty workspace (``ZHICE_HOME``); model caches
are shared across the session so the embedding model is converted once."""

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
