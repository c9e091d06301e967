"""Attack (accidental): two ``ingest-docs`` processes at once lost documents from the index
manifest (last writer won; the lock was per process). Writers now hold a cross-process lock
on the index folder and re-read the manifest under it. Two REAL processes ingest different
files into the same workspace; every file must be in the index afterwards."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core import config
from core.retrieval.index import EmbeddedIndex
from core.security.principals import resolve_user

REPO = Path(__file__).resolve().parents[2]
PER_PROCESS = 12


def _files(folder: Path, tag: str) -> list[Path]:
    folder.mkdir(parents=True)
    out = []
    for i in range(PER_PROCESS):
        p = folder / f"{tag}_{i:02d}.txt"
        p.write_text(f"{tag}第{i}号通知\n一、{tag}示范项目第{i}批补贴标准为每户{i + 1}千元。\n", encoding="utf-8")
        out.append(p)
    return out


def test_two_ingest_processes_at_once_lose_nothing(tmp_path, monkeypatch, workspace):
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))  # keyword-only: no model load
    config.set_settings(None)
    resolve_user(None)  # the workspace (app DB, built-in admin) exists before both processes start
    groups = {"甲": _files(tmp_path / "a", "甲"), "乙": _files(tmp_path / "b", "乙")}
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([sys.executable, "-m", "core.cli", "ingest-docs", str(tmp_path / folder),
                               "--tenant", tenant, "--approve", "--json"],
                              cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for folder, tenant in (("a", "甲"), ("b", "乙"))]
    reported = set()
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
        reported |= {d["doc_id"] for d in json.loads(out)["documents"]}
    assert len(reported) == 2 * PER_PROCESS
    index = EmbeddedIndex(config.get_settings())  # a fresh reader: what is on disk
    assert {m.doc_id for m in index.list_docs()} == reported
    manifest = json.loads((workspace / "index" / "manifest.json").read_text(encoding="utf-8"))
    assert set(manifest["docs"]) == reported
