"""Parametrisation shared by the app-DB and checkpoint contract suites: every test runs on the
embedded SQLite default and on a real PostgreSQL (its own schema per test)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from core import config
from core.storage.checkpoint import reset_checkpointers
from core.storage.db import reset_db_cache


REPO = Path(__file__).resolve().parents[2]
BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def app_backend(request, monkeypatch, workspace) -> str:
    """Point the product's settings at one backend; returns its name."""
    if request.param == "postgres":
        monkeypatch.setenv("ZHICE_DATABASE_URL", request.getfixturevalue("postgres_url"))
    else:
        monkeypatch.delenv("ZHICE_DATABASE_URL", raising=False)
    config.set_settings(None)
    reset_db_cache()
    reset_checkpointers()
    assert config.get_settings().app_db_backend == request.param
    yield request.param
    reset_checkpointers()
    reset_db_cache()


def child_env() -> dict:
    """Environment for a second app process on the same backend (same home / same URL)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


PYTHON = sys.executable
