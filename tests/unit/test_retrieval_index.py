"""The document index: permission filters before scoring, review state, validity by scenario,
incremental add / delete / replace, identical re-ingest, degradation without the dense model."""

from __future__ import annotations

import pytest

from core import config
from core.documents.models import Chunk, DocMeta
from core.errors import BadInputError
from core.retrieval.index import DEGRADED_NOTICE, EmbeddedIndex, get_index, reset_indexes
from core.security.principals import Principal, Role, Scenario

ADMIN = Principal("admin", Role.admin, scenario=Scenario.research)


def manager(*tenants, scenario=Scenario.window, domains=()):
    return Principal("m", Role.manager, tenants=tuple(tenants), domains=tuple(domains), scenario=scenario)


def make_doc(doc_id, file_name, texts, *, tenant="济南", title="", doc_number="", **meta):
    chunks = [Chunk(chunk_id=f"{doc_id}-{i:04d}", doc_id=doc_id, ord=i, text=f"{title}\n{t}", body=t,
                    heading=t.split(" ")[0] if t.startswith("第") else "", kind="article")
              for i, t in enumerate(texts)]
    return DocMeta(doc_id=doc_id, file_name=file_name, title=title, doc_number=doc_number, tenant=tenant,
                   **meta), chunks


JINAN = make_doc("a" * 16, "济南家电细则.pdf", [
    "第一条 为做好济南市家电以旧换新工作，制定本细则。",
    "第五条 补贴标准：一级能效家电按售价的20%给予补贴，二级能效按15%补贴，每件最高2000元。",
    "第九条 本细则自2025年1月1日起施行。",
], title="济南市2025年家电以旧换新补贴实施细则", doc_number="济商务字〔2025〕6号")
CAR = make_doc("b" * 16, "汽车补贴公告.docx", [
    "报废旧车并购买新能源乘用车的，补贴2万元。",
    "申请材料包括身份证、购车发票和机动车登记证书。",
], title="2025年政府汽车消费补贴活动公告")
RENT = make_doc("c" * 16, "租房补助.txt", [
    "高校毕业生在本市租赁住房的，按每月800元发放租赁住房补助，最长36个月。",
], title="高校毕业生租赁住房补助办法", tenant="青岛")


@pytest.fixture(autouse=True)
def patient_dense(monkeypatch):
    """A busy shared CPU must not turn every test into a degradation test."""
    monkeypatch.setenv("ZHICE_DENSE_TIMEOUT_MS", "120000")
    config.set_settings(None)


@pytest.fixture
def index() -> EmbeddedIndex:
    reset_indexes()
    idx = get_index()
    idx.add_documents([(JINAN[0], JINAN[1], None), (CAR[0], CAR[1], None), (RENT[0], RENT[1], None)])
    return idx


def ids(result):
    return [h.chunk.chunk_id for h in result.hits]


def test_hybrid_ranks_the_subsidy_standard_first(index):
    res = index.search("济南市家电以旧换新补贴标准", ADMIN, k=5)
    assert not res.degraded and res.notices == []
    assert res.hits[0].chunk.doc_id == "a" * 16
    top = res.hits[0]
    assert top.evidence["bm25"] is not None and top.evidence["dense"] is not None
    assert top.evidence["title"] is not None  # the query names the 细则's title
    assert [h.rank for h in res.hits] == list(range(1, len(res.hits) + 1))


def test_paraphrase_found_by_dense(index):
    # no shared words with the 租赁住房补助 passage: only the dense list can find it
    res = index.search("应届生租房补贴", ADMIN, k=6, lists=("dense",))
    assert res.hits[0].chunk.doc_id == "c" * 16
    assert res.hits[0].evidence["dense"][0] == 1 and res.hits[0].evidence["bm25"] is None
    fused = index.search("应届生租房补贴", ADMIN, k=6)
    assert "c" * 16 + "-0000" in ids(fused)


def test_denied_tenant_never_appears_even_as_best_match(index):
    q = "高校毕业生租赁住房补助每月800元"  # the 青岛 document is by far the best match
    assert get_index().search(q, ADMIN, k=10).hits[0].chunk.doc_id == "c" * 16
    res = index.search(q, manager("济南"), k=10)
    assert res.hits, "the 济南 documents are still searchable"
    assert all(h.meta.tenant == "济南" for h in res.hits)
    assert "c" * 16 not in {h.chunk.doc_id for h in res.hits}
    # the candidate set is restricted before scoring: rows of other tenants are not scored
    rows = index.allowed_rows(manager("济南"), None, None)
    assert {index._chunks[r].doc_id for r in rows} == {"a" * 16, "b" * 16}


def test_non_admin_without_tenants_sees_nothing(index):
    res = index.search("补贴", manager(), k=5)
    assert res.hits == [] and res.notices


def test_domain_restriction(index):
    index.update_meta("a" * 16, domain="商务")
    res = index.search("补贴标准", manager("济南", domains=["商务"]), k=10)
    assert {h.chunk.doc_id for h in res.hits} == {"a" * 16}


def test_pending_documents_excluded_until_approved(index):
    meta, chunks = make_doc("d" * 16, "待审核.txt", ["家电以旧换新补贴标准调整为一级能效30%。"],
                            title="家电补贴调整通知", review_state="pending")
    index.add_document(meta, chunks)
    q = "家电补贴调整 一级能效30%"
    assert "d" * 16 not in {h.chunk.doc_id for h in index.search(q, ADMIN, k=10).hits}
    index.update_meta("d" * 16, review_state="approved")
    assert index.search(q, ADMIN, k=10).hits[0].chunk.doc_id == "d" * 16


def test_repealed_excluded_in_window_included_in_research(index):
    new, chunks = make_doc("e" * 16, "新细则.pdf", ["第一条 自本细则施行之日起，济商务字〔2025〕6号同时废止。"],
                           title="济南市家电以旧换新补贴实施细则（修订）", doc_number="济商务字〔2025〕9号",
                           repeals=["济商务字〔2025〕6 号"])
    index.add_document(new, chunks)
    assert index.get_meta("a" * 16).status == "repealed"
    q = "一级能效家电补贴标准"
    window = index.search(q, manager("济南"), k=10)
    assert "a" * 16 not in {h.chunk.doc_id for h in window.hits}
    research = index.search(q, manager("济南", scenario=Scenario.research), k=10)
    assert research.hits[0].chunk.doc_id == "a" * 16
    # the explicit scenario argument wins over the principal's default
    assert "a" * 16 in {h.chunk.doc_id for h in index.search(q, manager("济南"), k=10, scenario="research").hits}
    # an administrator's override wins over the relation
    index.update_meta("a" * 16, status="in_effect", status_override=True)
    assert index.search(q, manager("济南"), k=10).hits[0].chunk.doc_id == "a" * 16
    # deleting the repealing document restores the relation-derived status of others
    index.update_meta("a" * 16, status_override=False)
    assert index.get_meta("a" * 16).status == "repealed"
    index.delete_document("e" * 16)
    assert index.get_meta("a" * 16).status == "in_effect"


def test_upcoming_documents_only_in_research(index):
    meta, chunks = make_doc("f" * 16, "明年.txt", ["2099年起电动自行车以旧换新补贴500元。"], title="电动自行车补贴",
                            effective_date="2099-01-01")
    index.add_document(meta, chunks)
    assert index.get_meta("f" * 16).status == "upcoming"
    q = "电动自行车以旧换新补贴"
    assert "f" * 16 not in {h.chunk.doc_id for h in index.search(q, manager("济南"), k=10).hits}
    assert index.search(q, manager("济南", scenario=Scenario.research), k=10).hits[0].chunk.doc_id == "f" * 16


def test_incremental_add_delete_replace_and_identical_noop(index, workspace):
    before = index.stats()
    again = index.add_document(*JINAN)
    assert again["action"] == "unchanged" and index.stats() == before
    # replace: same file name, new content → old chunks gone, new ones searchable
    meta, chunks = make_doc("9" * 16, "济南家电细则.pdf", ["第五条 补贴标准：一级能效家电按售价的25%补贴。"],
                            title="济南市2025年家电以旧换新补贴实施细则")
    res = index.add_document(meta, chunks)
    assert res["action"] == "replaced" and res["replaced"] == ["a" * 16]
    assert index.get_meta("a" * 16) is None and index.get_chunk("a" * 16 + "-0001") is None
    assert index.search("家电补贴标准", ADMIN, k=3).hits[0].chunk.doc_id == "9" * 16
    # delete
    index.delete_document("b" * 16)
    assert index.chunks_of("b" * 16) == []
    assert "b" * 16 not in {h.chunk.doc_id for h in index.search("新能源乘用车补贴", ADMIN, k=10).hits}
    # persisted: a fresh process sees the same index
    reset_indexes()
    fresh = get_index()
    assert fresh is not index
    assert {m.doc_id for m in fresh.list_docs()} == {"9" * 16, "c" * 16}
    assert fresh.get_chunk("9" * 16 + "-0000").body.startswith("第五条")


def test_other_process_changes_are_seen(index):
    other = EmbeddedIndex(config.get_settings())  # a second handle on the same folder
    other.delete_document("b" * 16)
    assert index.get_meta("b" * 16) is None


def test_degrades_to_keywords_when_dense_model_unavailable(index, monkeypatch, tmp_path):
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-such-model"))
    config.set_settings(None)
    index._query_vectors.clear()
    res = index.search("济南市家电以旧换新补贴标准", ADMIN, k=5)
    assert res.degraded and DEGRADED_NOTICE in res.notices
    assert res.hits[0].chunk.doc_id == "a" * 16  # BM25 + title still answer
    assert all(h.evidence["dense"] is None for h in res.hits)


def test_degrades_when_dense_is_too_slow(index, monkeypatch):
    monkeypatch.setenv("ZHICE_DENSE_TIMEOUT_MS", "1")
    config.set_settings(None)
    index.settings = config.get_settings()
    index._query_vectors.clear()
    import core.retrieval.embed as embed

    real = embed.Embedder.encode_queries

    def slow(self, texts):
        import time

        time.sleep(0.2)
        return real(self, texts)

    monkeypatch.setattr(embed.Embedder, "encode_queries", slow)
    res = index.search("汽车报废更新补贴", ADMIN, k=3)
    assert res.degraded and DEGRADED_NOTICE in res.notices and res.hits


def test_ingest_without_model_then_backfill(monkeypatch, tmp_path):
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "missing"))
    config.set_settings(None)
    reset_indexes()
    idx = get_index()
    idx.add_document(*CAR)
    assert idx.stats()["with_vectors"] == 0
    monkeypatch.delenv("ZHICE_EMBED_MODEL")
    config.set_settings(None)
    assert idx.ensure_vectors() == 2
    assert idx.stats()["with_vectors"] == 2
    assert not idx.search("购车补贴需要哪些材料", ADMIN, k=2).degraded


def test_bad_queries_rejected(index):
    with pytest.raises(BadInputError):
        index.search("   ", ADMIN)
    res = index.search("补贴" * 6000, ADMIN, k=3)  # very long: truncated, still answers
    assert res.hits


def test_doc_ids_restriction(index):
    res = index.search("补贴", ADMIN, k=10, doc_ids=["b" * 16])
    assert res.hits and {h.chunk.doc_id for h in res.hits} == {"b" * 16}


def test_a_missing_reranker_keeps_the_fused_order_and_says_so(tmp_path, monkeypatch):
    from core import config
    from core.retrieval.rerank import rerank_pool

    pool = [("a", 0.9), ("b", 0.5)]
    notices: list[str] = []
    assert rerank_pool("补贴标准", pool, lambda item: item[0], notices) == pool and notices == []  # none configured
    monkeypatch.setenv("ZHICE_RERANK_MODEL", str(tmp_path / "no-such-model"))
    config.set_settings(None)
    try:
        assert rerank_pool("补贴标准", pool, lambda item: item[0], notices) == pool
        assert notices == ["重排模型不可用，已按融合排序返回"]
    finally:
        monkeypatch.delenv("ZHICE_RERANK_MODEL")
        config.set_settings(None)


def test_a_batch_behaves_as_adding_its_documents_one_by_one(index):
    """One add_documents call: a later file of the same name replaces an earlier one, an
    identical repeat is a no-op, an empty document is refused alone; everything else becomes
    searchable at once, and a fresh process sees the same index."""
    v1, c1 = make_doc("1" * 16, "批量.txt", ["第一版：电动自行车以旧换新补贴300元。"], title="电动自行车补贴")
    v2, c2 = make_doc("2" * 16, "批量.txt", ["第二版：电动自行车以旧换新补贴500元。"], title="电动自行车补贴")
    other, co = make_doc("3" * 16, "手机.txt", ["手机购新补贴按售价的15%，最高500元。"], title="手机购新补贴")
    empty, _ = make_doc("4" * 16, "空.txt", [])
    results = index.add_documents([(v1, c1, None), (other, co, None), (other, co, None), (empty, [], None),
                                   (v2, c2, None)])
    assert [r["action"] for r in results] == ["added", "added", "unchanged", "error", "replaced"]
    assert results[4]["replaced"] == ["1" * 16] and isinstance(results[3]["error"], BadInputError)
    assert index.get_meta("1" * 16) is None
    assert index.search("电动自行车以旧换新补贴", ADMIN, k=1).hits[0].chunk.doc_id == "2" * 16
    assert index.search("手机购新补贴", ADMIN, k=1).hits[0].chunk.doc_id == "3" * 16
    reset_indexes()
    fresh = get_index()
    assert {m.doc_id for m in fresh.list_docs()} == {"a" * 16, "b" * 16, "c" * 16, "2" * 16, "3" * 16}
    assert fresh.stats() == index.stats()


def test_a_campaign_that_ends_overnight_leaves_the_window_the_next_morning(index, monkeypatch):
    """Who may retrieve what is worked out once per asker and kept; the day is part of it, so a
    campaign past its end date is gone from 窗口咨询 the next day without any document changing."""
    monkeypatch.setenv("ZHICE_TODAY", "2025-06-30")
    config.set_settings(None)
    meta, chunks = make_doc("g" * 16, "端午消费券.txt", ["端午节消费券每张满200元减50元，活动至2025年6月30日。"],
                            title="端午消费券活动公告", expiry_date="2025-06-30")
    index.add_document(meta, chunks)
    q = "端午节消费券满200元减50元"
    assert index.search(q, manager("济南"), k=10).hits[0].chunk.doc_id == "g" * 16
    assert index.search(q, manager("济南"), k=10).hits[0].chunk.doc_id == "g" * 16  # kept, same answer
    monkeypatch.setenv("ZHICE_TODAY", "2025-07-01")
    config.set_settings(None)
    assert "g" * 16 not in {h.chunk.doc_id for h in index.search(q, manager("济南"), k=10).hits}
    assert index.search(q, manager("济南", scenario=Scenario.research), k=10).hits[0].chunk.doc_id == "g" * 16


def test_what_one_asker_may_see_is_never_reused_for_another(index):
    q = "高校毕业生租赁住房补助每月800元"
    assert index.search(q, manager("青岛"), k=10).hits[0].chunk.doc_id == "c" * 16
    assert "c" * 16 not in {h.chunk.doc_id for h in index.search(q, manager("济南"), k=10).hits}
    assert index.search(q, manager("青岛"), k=10).hits[0].chunk.doc_id == "c" * 16
    assert index.search(q, manager("济南", "青岛"), k=10).hits[0].chunk.doc_id == "c" * 16
    assert index.search(q, manager("青岛"), k=10, doc_ids=["a" * 16]).hits == []
