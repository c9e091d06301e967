"""Attack: a tenant-B document whose text says it repeals tenant A's 《山东省2025年家电以旧换新
实施方案》 marked A's document 已废止 and showed A's users B's doc id. Relations act only within a
tenant or from an issuer the tenant trusts; a relation is shown only when the viewer may see
both ends."""

from __future__ import annotations

import pytest

from core import config
from core.security.principals import Principal, Role, resolve_user
from core.services import ingest

PLAN = ("山东省2025年家电以旧换新实施方案\n鲁商字〔2025〕1号\n山东省商务厅\n2025年1月20日\n"
        "一、对个人消费者购买一级能效家电给予补贴。\n")
ATTACK = ("关于调整家电补贴的通知\n青商字〔2025〕9号\n青岛市商务局\n2025年3月1日\n"
          "一、本通知自印发之日起施行，《山东省2025年家电以旧换新实施方案》同时废止。\n")
PROVINCE = ("山东省2025年家电以旧换新实施方案（修订）\n鲁商字〔2025〕7号\n山东省商务厅\n2025年4月1日\n"
            "一、本方案自印发之日起施行，《山东省2025年家电以旧换新实施方案》同时废止。\n")


@pytest.fixture(autouse=True)
def keyword_only(monkeypatch, tmp_path):
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))  # BM25 only: fast
    config.set_settings(None)


def _file(tmp_path, name: str, text: str):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _ingest(admin, tmp_path, name, text, tenant):
    return ingest.ingest_paths([_file(tmp_path, name, text)], admin, tenant, approve=True)["documents"][0]


def test_another_tenants_document_cannot_repeal_mine(tmp_path):
    admin = resolve_user(None)
    mine = _ingest(admin, tmp_path, "实施方案.txt", PLAN, "济南")
    theirs = _ingest(admin, tmp_path, "青岛通知.txt", ATTACK, "青岛")
    reader = Principal("reader", Role.manager, tenants=("济南",))
    metas = {d["doc_id"]: d for d in ingest.list_documents(reader)}
    assert metas[mine["doc_id"]]["status"] == "in_effect"
    detail = ingest.get_document(reader, mine["doc_id"])
    assert all(theirs["doc_id"] not in (r["from_doc"], r["to_doc"]) for r in detail["relations"])
    assert ingest.search("山东省2025年家电以旧换新实施方案的补贴", reader, k=5).hits  # still 现行有效 for its tenant


def test_a_trusted_issuer_may_repeal_but_the_relation_shows_only_to_who_sees_both_ends(tmp_path):
    admin = resolve_user(None)
    mine = _ingest(admin, tmp_path, "实施方案.txt", PLAN, "济南")
    prov = _ingest(admin, tmp_path, "省修订方案.txt", PROVINCE, "山东省")
    assert ingest.get_document(admin, mine["doc_id"])["meta"]["status"] == "in_effect"  # not trusted yet
    ingest.set_trusted_issuers(admin, "济南", [{"issuer_tenant": "山东省", "authority": "山东省商务厅"}])
    assert ingest.trusted_issuers(admin, "济南") == [{"issuer_tenant": "山东省", "authority": "山东省商务厅"}]
    assert ingest.get_document(admin, mine["doc_id"])["meta"]["status"] == "repealed"
    both = Principal("both", Role.manager, tenants=("济南", "山东省"))
    rels = ingest.get_document(both, mine["doc_id"])["relations"]
    assert [(r["from_doc"], r["to_doc"]) for r in rels] == [(prov["doc_id"], mine["doc_id"])]
    city_only = Principal("city", Role.manager, tenants=("济南",))
    assert ingest.get_document(city_only, mine["doc_id"])["relations"] == []
    # a wrong authority is not trusted: the status goes back to in effect
    ingest.set_trusted_issuers(admin, "济南", ["山东省:山东省财政厅"])
    assert ingest.get_document(admin, mine["doc_id"])["meta"]["status"] == "in_effect"


def test_only_admins_configure_trust(tmp_path):
    from core.errors import PermissionDenied

    mgr = Principal("m", Role.manager, tenants=("济南",))
    with pytest.raises(PermissionDenied):
        ingest.set_trusted_issuers(mgr, "济南", ["山东省"])
