"""Adding or deleting a document re-derives the statuses and 废止 relations of the documents
related to it only (those naming its 文号 or title, and those it names); the outcome equals
a full recompute over every document."""

from __future__ import annotations

from core.documents.models import DocMeta
from core.retrieval.metastore import MetaStore

TODAY = __import__("datetime").date(2025, 6, 1)


def _meta(doc_id, **kw) -> DocMeta:
    return DocMeta(doc_id=doc_id, file_name=f"{doc_id}.txt", tenant=kw.pop("tenant", "济南"), **kw)


DOCS = [
    _meta("old6", title="济南市家电以旧换新补贴实施细则", doc_number="济商务字〔2025〕6号"),
    _meta("new9", title="济南市家电以旧换新补贴实施细则（修订）", doc_number="济商务字〔2025〕9号",
          repeals=["济商务字〔2025〕6 号", "《济南市汽车消费补贴办法》"]),
    _meta("car", title="济南市汽车消费补贴办法", doc_number="济商务字〔2024〕3号"),
    _meta("pend", title="关于调整补贴的通知", doc_number="济商务字〔2025〕11号", review_state="pending",
          repeals=["济商务字〔2024〕3号"]),
    _meta("qd", title="青岛市家电补贴办法", doc_number="青商字〔2025〕2号", tenant="青岛",
          repeals=["济商务字〔2025〕9号"]),
    _meta("ghost", title="废止一份尚未入库的文件", repeals=["济商务字〔2025〕20号"]),
    _meta("later", title="济南市家电补贴补充通知", doc_number="济商务字〔2025〕20号", effective_date="2099-01-01"),
]


def _state(store: MetaStore) -> tuple[dict, set]:
    return ({m.doc_id: m.status for m in store.all()},
            {(r["from_doc"], r["target"], r["to_doc"]) for r in store.relations()})


def test_related_recompute_after_each_add_and_delete_equals_a_full_recompute(workspace):
    store = MetaStore()
    for m in DOCS:  # arrival order matters: targets before and after the documents naming them
        store.put(m)
        store.recompute_related([m.doc_id], today=TODAY)
        related = _state(store)
        store.recompute(today=TODAY)
        assert _state(store) == related, m.doc_id
    statuses, relations = _state(store)
    assert statuses["old6"] == statuses["car"] == statuses["later"] == "repealed"
    assert ("ghost", "济商务字〔2025〕20号", "later") in relations  # resolved when its target arrived
    assert statuses["new9"] == "in_effect"  # another tenant (untrusted) cannot repeal it
    for doc_id in ("new9", "later", "car"):
        removed = store.get_many([doc_id])
        before = store.relations_touching([doc_id])
        store.delete(doc_id)
        store.recompute_related([], removed, before, today=TODAY)
        related = _state(store)
        store.recompute(today=TODAY)
        assert _state(store) == related, doc_id
    assert _state(store)[0]["old6"] == "in_effect"  # its repealer left
