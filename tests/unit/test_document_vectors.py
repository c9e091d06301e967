"""The document index never mixes vectors of two embedding models: an interrupted rebuild is
noticed and resumed from the vector cache, and administrators check and rebuild from the
command line (the contract suite covers the mismatch itself on both backends)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from core import config
from core.cli import main
from core.retrieval import vector_model
from core.retrieval.index import get_index, reset_indexes
from core.security.principals import Principal, Role, Scenario
from tests.contracts.doc_index_contract import corpus, second_model

REPO = Path(__file__).resolve().parents[2]
ADMIN = Principal("admin", Role.admin, scenario=Scenario.research)
CAR_NOTICE = REPO / "data" / "samples" / "policies" / "2025年政府汽车消费补贴活动公告.docx"


@pytest.fixture(autouse=True)
def patient_dense(monkeypatch):
    monkeypatch.setenv("ZHICE_DENSE_TIMEOUT_MS", "120000")
    config.set_settings(None)


def use_model(monkeypatch, folder: Path | None) -> None:
    if folder is None:
        monkeypatch.delenv("ZHICE_EMBED_MODEL", raising=False)
    else:
        monkeypatch.setenv("ZHICE_EMBED_MODEL", str(folder))
    config.set_settings(None)


def test_an_interrupted_rebuild_is_never_searched_and_resumes_from_the_cache(monkeypatch, tmp_path):
    reset_indexes()
    index = get_index()
    index.add_documents(corpus())
    use_model(monkeypatch, second_model(tmp_path / "other-e5"))
    writes = []
    real_save = np.save

    def disk_full_after_one(path, arr):
        if writes:
            raise OSError(28, "No space left on device")
        writes.append(path)
        real_save(path, arr)

    monkeypatch.setattr("core.retrieval.index_files.np.save", disk_full_after_one)
    with pytest.raises(OSError):
        index.reembed()
    monkeypatch.setattr("core.retrieval.index_files.np.save", real_save)
    # one document has the new model's vectors, the others the old one's: none is used
    assert index.vector_model() == vector_model.REBUILDING
    res = index.search("一级能效家电补贴标准", ADMIN, k=3)
    assert res.degraded and vector_model.MISMATCH_NOTICE in res.notices and res.hits
    # another process sees the same state
    reset_indexes()
    assert get_index().vector_model() == vector_model.REBUILDING
    again = get_index().reembed()
    assert again["embedded"] == 0 and again["cached"] == 5  # computed before the failure, kept in the cache
    assert get_index().vector_model() == vector_model.configured()
    assert not get_index().search("一级能效家电补贴标准", ADMIN, k=3).degraded


def test_administrators_check_and_rebuild_from_the_command_line(monkeypatch, tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(CAR_NOTICE, src)
    assert main(["ingest-docs", str(src), "--tenant", "demo", "--approve", "--json"]) == 0
    capsys.readouterr()
    assert main(["reembed", "--check", "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["matches"] and state["recorded"] == state["configured"]

    use_model(monkeypatch, second_model(tmp_path / "other-e5"))
    reset_indexes()
    assert main(["reembed", "--check"]) == 1
    out = capsys.readouterr().out
    assert "重建文档向量" in out and "other-e5" in out

    assert main(["reembed", "--json"]) == 0
    captured = capsys.readouterr()
    done = json.loads(captured.out)
    assert done["documents"] == 1 and done["chunks"] >= 1 and done["model"].startswith("other-e5:")
    assert f"向量化 {done['chunks']}/{done['chunks']}" in captured.err
    assert main(["reembed", "--check", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"]
    events = main(["audit", "--kind", "doc", "--json"])
    assert events == 0 and "重建文档向量" in capsys.readouterr().out


def test_only_administrators_rebuild(capsys):
    from core.services.users import add_user

    add_user("li", "manager", "pass-word-2026", tenants=("demo",))
    assert main(["reembed", "--user", "li"]) == 2  # refused like every admin-only command
    assert "只有管理员可以重建文档向量" in capsys.readouterr().err


def test_an_index_built_before_the_record_is_recognised_by_its_vectors(monkeypatch, tmp_path):
    reset_indexes()
    index = get_index()
    index.add_documents(corpus())
    built_by = index.vector_model()
    manifest = json.loads(index.manifest_path.read_text(encoding="utf-8"))
    del manifest["vector_model"]  # what an index written by an earlier version holds
    index.manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    use_model(monkeypatch, second_model(tmp_path / "other-e5"))
    reset_indexes()
    old = get_index()
    assert old.vector_model() == built_by  # the vector cache knows which model made these vectors
    assert vector_model.MISMATCH_NOTICE in old.search("一级能效家电补贴标准", ADMIN, k=3).notices
    # the first write records it for good
    old.delete_document(corpus()[2][0].doc_id)
    assert json.loads(old.manifest_path.read_text(encoding="utf-8"))["vector_model"] == built_by
