"""Validity rules and permission predicates (pure functions, no index)."""

from __future__ import annotations

from datetime import date

from core.documents.models import DocMeta
from core.retrieval.filters import doc_allowed, doc_visible
from core.retrieval.metastore import compute_statuses, title_core
from core.security.principals import Principal, Role, Scenario

TODAY = date(2025, 6, 1)


def meta(doc_id, **kw):
    kw.setdefault("tenant", "济南")
    return DocMeta(doc_id=doc_id, file_name=f"{doc_id}.pdf", **kw)


def test_status_from_dates_relations_and_override():
    metas = [
        meta("old", doc_number="济商务字〔2024〕3号", title="关于印发《济南市示范办法》的通知"),
        meta("new", doc_number="济商务字〔2025〕8号", repeals=["济商务字[2024]3 号", "《济南市旧规定》"]),
        meta("byname", title="济南市旧规定"),
        meta("future", effective_date="2025-07-01"),
        meta("expired", expiry_date="2025-05-31"),
        meta("draft", status="draft"),
        meta("pinned", doc_number="济商务字〔2024〕3号", status="in_effect", status_override=True),
        meta("waiting", repeals=["《济南市示范办法》"], review_state="pending"),
    ]
    status, relations = compute_statuses(metas, TODAY)
    assert status == {"old": "repealed", "new": "in_effect", "byname": "repealed", "future": "upcoming",
                      "expired": "expired", "draft": "draft", "pinned": "in_effect", "waiting": "in_effect"}
    assert ("new", "济商务字[2024]3 号", "old", "repeals") in relations
    assert ("new", "《济南市旧规定》", "byname", "repeals") in relations
    assert not any(r[0] == "waiting" for r in relations)  # a pending document repeals nothing yet


def test_title_core():
    assert title_core("关于印发《济南市2025年家电以旧换新补贴实施细则》的通知") == "济南市2025年家电以旧换新补贴实施细则"
    assert title_core("中华人民共和国民法典") == "民法典"


def test_permission_predicates():
    doc = meta("d", domain="商务")
    admin = Principal("a", Role.admin)
    scoped_admin = Principal("a2", Role.admin, tenants=("青岛",))
    mgr = Principal("m", Role.manager, tenants=("济南",))
    nobody = Principal("n", Role.manager)
    other_domain = Principal("o", Role.manager, tenants=("济南",), domains=("人社",))
    assert doc_allowed(doc, admin) and doc_allowed(doc, mgr)
    assert not doc_allowed(doc, scoped_admin) and not doc_allowed(doc, nobody) and not doc_allowed(doc, other_domain)
    repealed = meta("r", status="repealed")
    assert not doc_allowed(repealed, mgr) and doc_allowed(repealed, mgr, "research")
    assert doc_allowed(repealed, Principal("r", Role.manager, tenants=("济南",), scenario=Scenario.research))
    assert not doc_allowed(meta("dr", status="draft"), mgr, "research")
    pending = meta("p", review_state="pending")
    assert not doc_allowed(pending, admin, "research")
    assert doc_visible(pending, admin) and not doc_visible(pending, mgr)
