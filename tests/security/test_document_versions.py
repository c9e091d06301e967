"""Attack: a manager deleted an approved document by uploading another file with the same
name (the approved one disappeared, a pending one replaced it). Now a manager's same-name
upload is a pending new version; the approved document stays retrievable until an
administrator approves the new version."""

from __future__ import annotations

import pytest

from core import config
from core.security.principals import Principal, Role, resolve_user
from core.services import ingest

V1 = "示范补贴办法\n济商务字〔2024〕3号\n济南市商务局\n2024年3月1日\n一、对示范企业一次性奖励十万元。\n"
V2 = "示范补贴办法\n济商务字〔2024〕3号\n济南市商务局\n2024年3月1日\n一、对示范企业一次性奖励一元。\n"


@pytest.fixture(autouse=True)
def keyword_only(monkeypatch, tmp_path):
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))
    config.set_settings(None)


def test_manager_same_name_upload_is_a_pending_version_not_a_replacement(tmp_path):
    admin = resolve_user(None)
    mgr = Principal("mgr", Role.manager, tenants=("济南",))
    approved = ingest.ingest_uploads([("办法.txt", V1.encode())], admin, "济南")["documents"][0]
    assert approved["review_state"] == "approved"
    up = ingest.ingest_uploads([("办法.txt", V2.encode())], mgr, "济南")
    new = up["documents"][0]
    assert new["review_state"] == "pending" and new["action"] == "added" and new["doc_id"] != approved["doc_id"]
    hits = ingest.search("示范补贴办法对示范企业奖励多少", mgr, k=5).hits
    assert [h.chunk.doc_id for h in hits] == [approved["doc_id"]]
    assert "十万元" in hits[0].chunk.text
    assert {d["doc_id"] for d in ingest.list_documents(admin)} == {approved["doc_id"], new["doc_id"]}
    # the manager can neither delete nor approve; the administrator's approval retires v1
    from core.errors import PermissionDenied

    with pytest.raises(PermissionDenied):
        ingest.delete_document(mgr, approved["doc_id"])
    res = ingest.approve_document(admin, new["doc_id"])
    assert res["replaced"] == [approved["doc_id"]]
    hits = ingest.search("示范补贴办法对示范企业奖励多少", mgr, k=5).hits
    assert [h.chunk.doc_id for h in hits] == [new["doc_id"]]


def test_admin_same_name_upload_still_replaces(tmp_path):
    admin = resolve_user(None)
    v1 = ingest.ingest_uploads([("办法.txt", V1.encode())], admin, "济南")["documents"][0]
    v2 = ingest.ingest_uploads([("办法.txt", V2.encode())], admin, "济南")["documents"][0]
    assert v2["action"] == "replaced"
    assert [d["doc_id"] for d in ingest.list_documents(admin)] == [v2["doc_id"]] != [v1["doc_id"]]
