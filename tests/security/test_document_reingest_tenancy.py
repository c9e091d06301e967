"""Attack: re-ingesting a public file into a second tenant answered "已由租户“B”导入" (an
oracle naming another tenant) and let only one tenant hold the file. Each tenant now gets
its own copy, with a doc id stable per (file, tenant), and no word of the others."""

from __future__ import annotations

import pytest

from core import config
from core.retrieval.index import get_index
from core.security.principals import Principal, Role, resolve_user
from core.services import ingest

TEXT = ("济南市示范补贴办法\n济商务字〔2024〕3号\n济南市商务局\n2024年3月1日\n"
        "一、对示范企业一次性奖励10万元。\n")


@pytest.fixture(autouse=True)
def keyword_only(monkeypatch, tmp_path):
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))
    config.set_settings(None)


def test_two_tenants_each_import_their_own_copy_without_learning_of_the_other(tmp_path):
    admin = resolve_user(None)
    f = tmp_path / "示范办法.txt"
    f.write_text(TEXT, encoding="utf-8")
    a = ingest.ingest_paths([f], admin, "alpha", approve=True)
    b = ingest.ingest_paths([f], admin, "beta", approve=True)
    assert not a["errors"] and not b["errors"], b["errors"]
    da, db = a["documents"][0], b["documents"][0]
    assert da["doc_id"] != db["doc_id"] and len(db["doc_id"]) == 16
    assert "alpha" not in str(b) and "租户" not in str(b)
    # stable per (file, tenant): the same file again is a no-op with the same id
    again = ingest.ingest_paths([f], admin, "beta", approve=True)["documents"][0]
    assert again["doc_id"] == db["doc_id"] and again["action"] == "unchanged"
    idx = get_index()
    assert {m.tenant for m in idx.list_docs()} == {"alpha", "beta"}
    for tenant, doc in (("alpha", da), ("beta", db)):
        reader = Principal("r", Role.manager, tenants=(tenant,))
        hits = ingest.search("济南市示范补贴办法的示范企业奖励", reader, k=5).hits
        assert {h.chunk.doc_id for h in hits} == {doc["doc_id"]}
    # deleting one tenant's copy leaves the other's
    ingest.delete_document(admin, da["doc_id"])
    assert [m.doc_id for m in idx.list_docs()] == [db["doc_id"]]
    assert idx.chunks_of(db["doc_id"])
