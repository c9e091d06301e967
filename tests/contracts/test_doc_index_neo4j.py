"""The Neo4j document index (core/retrieval/neo4j_index.py: full-text index with the ``cjk``
analyzer + vector index) against the embedded index on the same small real corpus: the seven
Word policy notices in shared/data/policies, one of them belonging to another tenant.

Equivalent means: the same dense ranking (same vectors, exact on the filtered path, the vector
index when the user may see everything), the same best passage after fusion, keyword lists
that agree on their best passages (Lucene's cjk bigrams vs jieba + BM25 differ in detail),
the same permission filtering before scoring, and deletes that take effect."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core import config
from core.documents.chunk import chunk_document
from core.documents.metadata import extract_metadata
from core.documents.models import Chunk, DocMeta
from core.documents.parse import parse_file
from core.retrieval.index import EmbeddedIndex
from core.retrieval.neo4j_index import FULLTEXT_INDEX, VECTOR_INDEX, Neo4jIndex
from core.security.principals import Principal, Role, Scenario
from tests.support.neo4j_server import neo4j_server, wipe  # noqa: F401 - fixture

ADMIN = Principal("admin", Role.admin, scenario=Scenario.research)
JINAN = Principal("jn", Role.manager, tenants=("济南",), scenario=Scenario.research)
OTHER_TENANT_FILE = "2025年济南市“泉城购”零售、餐饮消费券发放活动公告.docx"
QUERIES = ["汽车消费补贴申请条件", "新车首保消费券活动时间", "泉城购消费券怎么领取", "追加汽车消费补贴资金额度",
           "报废旧车购买新能源车补贴多少", "餐饮消费券发放"]


def _corpus(shared_data: Path) -> list[tuple[DocMeta, list[Chunk], None]]:
    items = []
    for path in sorted((shared_data / "policies").glob("*.docx")):
        doc = parse_file(path, ocr=False)
        meta = extract_metadata(doc)
        meta.tenant = "青岛" if path.name == OTHER_TENANT_FILE else "济南"
        meta.review_state = "approved"
        items.append((meta, chunk_document(doc, meta), None))
    return items


@pytest.fixture(scope="module")
def indexes(neo4j_server, shared_data, tmp_path_factory, model_cache):
    """Both indexes over the same corpus in one workspace (their metadata share the app DB)."""
    wipe(neo4j_server)
    settings = config.load_settings({
        "home": str(tmp_path_factory.mktemp("docidx") / "workspace"), "ZHICE_MODEL_CACHE": str(model_cache),
        "ZHICE_NEO4J_URI": neo4j_server, "ZHICE_DOC_INDEX": "neo4j",
        "ZHICE_NEO4J_PASSWORD": os.environ.get("ZHICE_TEST_NEO4J_PASSWORD", ""),
        "ZHICE_DENSE_TIMEOUT_MS": 300_000})  # a busy CI machine must not turn this into a degrade test
    config.set_settings(settings)
    try:
        items = _corpus(shared_data)
        embedded = EmbeddedIndex(settings)
        embedded.add_documents(items)
        neo = Neo4jIndex(settings)
        neo.add_documents(items)
    finally:
        config.set_settings(None)
    yield embedded, neo, items
    neo.close()


@pytest.fixture
def both(indexes, monkeypatch, model_cache):
    monkeypatch.setenv("ZHICE_MODEL_CACHE", str(model_cache))
    return indexes


def _ids(result) -> list[str]:
    assert not result.degraded, result.notices
    return [h.chunk.chunk_id for h in result.hits]


def test_same_corpus_indexed_with_cjk_fulltext_and_vectors(both):
    embedded, neo, items = both
    n_chunks = sum(len(c) for _, c, _ in items)
    assert neo.stats() == {"documents": len(items), "chunks": n_chunks, "with_vectors": n_chunks}
    assert {m.doc_id for m in neo.list_docs()} == {m.doc_id for m in embedded.list_docs()}
    some = items[0][1][0]
    assert neo.get_chunk(some.chunk_id).text == embedded.get_chunk(some.chunk_id).text
    assert [c.chunk_id for c in neo.chunks_of(some.doc_id)] == [c.chunk_id for c in embedded.chunks_of(some.doc_id)]
    rows = {r["name"]: r for r in neo._read("SHOW INDEXES YIELD name, type, state, options")}
    assert rows[FULLTEXT_INDEX]["type"] == "FULLTEXT" and rows[VECTOR_INDEX]["type"] == "VECTOR"
    assert rows[FULLTEXT_INDEX]["options"]["indexConfig"]["fulltext.analyzer"] == "cjk"
    assert rows[VECTOR_INDEX]["options"]["indexConfig"]["vector.dimensions"] == 384
    assert rows[VECTOR_INDEX]["options"]["indexConfig"]["vector.similarity_function"].lower() == "cosine"


def _dense(result, *, neo4j: bool) -> list[tuple[str, float]]:
    """(chunk id, cosine) of a dense-only result; Neo4j reports cosine as (1 + cos) / 2."""
    assert not result.degraded, result.notices
    return [(h.chunk.chunk_id, 2 * h.evidence["dense"][1] - 1 if neo4j else h.evidence["dense"][1])
            for h in result.hits]


@pytest.mark.parametrize("principal", [ADMIN, JINAN], ids=["sees-all", "one-tenant"])
def test_dense_ranking_identical(both, principal):
    """Same vectors, same ranking: every rank has the same cosine on both backends, and each
    passage Neo4j returns has that cosine in the embedded index too (two of the notices are
    near-identical rounds of one campaign, so passages may swap places only on a tie)."""
    embedded, neo, _ = both
    for q in QUERIES:
        a = _dense(embedded.search(q, principal, k=5, lists=("dense",)), neo4j=False)
        b = _dense(neo.search(q, principal, k=5, lists=("dense",)), neo4j=True)
        assert len(a) == len(b) == 5, q
        everything = dict(_dense(embedded.search(q, principal, k=200, lists=("dense",)), neo4j=False))
        for (ida, cos_a), (idb, cos_b) in zip(a, b):
            assert cos_b == pytest.approx(cos_a, abs=2e-3), (q, a, b)
            assert everything[idb] == pytest.approx(cos_b, abs=2e-3), (q, idb)
            if ida != idb:  # only a tie may reorder
                assert everything[ida] == pytest.approx(everything[idb], abs=2e-3), (q, a, b)
        assert a[0][0] == b[0][0] or a[0][1] == pytest.approx(a[1][1], abs=2e-3), q


def test_keyword_lists_agree_on_the_best_passages(both):
    embedded, neo, _ = both
    for q in QUERIES:
        a = _ids(embedded.search(q, ADMIN, k=5, lists=("bm25",)))
        b = _ids(neo.search(q, ADMIN, k=5, lists=("bm25",)))
        assert a and b, q
        assert a[0] in b[:3] and b[0] in a[:3], (q, a, b)


def test_fused_search_finds_the_same_best_passages(both):
    embedded, neo, _ = both
    same_best = 0
    for q in QUERIES:
        a = _ids(embedded.search(q, ADMIN, k=5))
        b = _ids(neo.search(q, ADMIN, k=5))
        assert a[0] in b[:3] and b[0] in a[:3], (q, a, b)
        assert len(set(a) & set(b)) >= 3, (q, a, b)
        same_best += a[0] == b[0]
    assert same_best >= len(QUERIES) - 1


def test_other_tenant_filtered_before_scoring(both):
    embedded, neo, items = both
    qd = next(m.doc_id for m, _, _ in items if m.file_name == OTHER_TENANT_FILE)
    q = "泉城购零售餐饮消费券怎么领取"  # that document is by far the best match
    assert neo.search(q, ADMIN, k=5).hits[0].chunk.doc_id == qd
    for idx in (embedded, neo):
        res = idx.search(q, JINAN, k=10)
        assert res.hits and all(h.meta.tenant == "济南" for h in res.hits)
    nobody = Principal("x", Role.manager, tenants=("淄博",))
    assert neo.search(q, nobody, k=5).hits == []


def test_delete_takes_effect(both):
    embedded, neo, _ = both
    meta = DocMeta(doc_id="f" * 16, file_name="临时通知.txt", title="临时测试通知", tenant="济南",
                   review_state="approved")
    chunks = [Chunk(chunk_id="f" * 16 + "-0000", doc_id="f" * 16, ord=0, text="临时测试通知\n独角兽企业奖励三百万元",
                    body="独角兽企业奖励三百万元", kind="prose")]
    neo.add_document(meta, chunks)
    assert neo.search("独角兽企业奖励", ADMIN, k=3).hits[0].chunk.doc_id == "f" * 16
    neo.delete_document("f" * 16)
    assert "f" * 16 not in {h.chunk.doc_id for h in neo.search("独角兽企业奖励", ADMIN, k=10).hits}
    assert neo.get_chunk("f" * 16 + "-0000") is None
