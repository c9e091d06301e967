"""Accident: ``ingest-docs`` killed (SIGKILL) while it commits a batch of files. The index must
hold each document completely or not at all (files are written before the manifest lists
them; metadata swaps in one transaction), and running the same command again completes it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from core import config
from core.retrieval.index import EmbeddedIndex
from core.security.principals import resolve_user
from core.services import ingest

REPO = Path(__file__).resolve().parents[2]
FILES = 40  # more than one batch


def test_killed_while_committing_a_batch_leaves_whole_documents_and_a_rerun_completes(tmp_path, monkeypatch,
                                                                                      workspace):
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))  # keyword-only: no model load
    config.set_settings(None)
    admin = resolve_user(None)
    folder = tmp_path / "notices"
    folder.mkdir()
    for i in range(FILES):
        (folder / f"通知{i:02d}.txt").write_text(f"第{i}号通知\n一、示范项目第{i}批补贴标准为每户{i + 1}千元。\n",
                                               encoding="utf-8")
    docs_dir = workspace / "index" / "docs"
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "ingest-docs", str(folder), "--tenant", "济南",
                             "--approve", "--json"], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if docs_dir.is_dir() and any(docs_dir.glob("*.json")):
            break  # the first batch is being written
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the ingest finished before it could be killed"

    index = EmbeddedIndex(config.get_settings())  # what a fresh reader finds on disk
    manifest = workspace / "index" / "manifest.json"
    listed = json.loads(manifest.read_text(encoding="utf-8"))["docs"] if manifest.is_file() else []
    assert len(listed) < FILES
    assert {m.doc_id for m in index.list_docs()} == set(listed)
    assert all(len(index.chunks_of(d)) >= 1 for d in listed)

    report = ingest.ingest_paths([folder], admin, "济南", approve=True)
    assert report["errors"] == [] and len(report["documents"]) == FILES
    index = EmbeddedIndex(config.get_settings())
    assert len(index.list_docs()) == FILES
    hits = ingest.search("第7批补贴标准", admin, k=3).hits
    assert "每户8千元" in hits[0].chunk.text
