"""The contract every document index backend passes (the embedded index and the Neo4j one,
both implementing :class:`core.retrieval.protocol.DocumentIndexProtocol`).

A backend's test module subclasses :class:`DocIndexContract` and provides a ``doc_index``
fixture returning an empty index of the current workspace, e.g.::

    class TestNeo4jDocIndex(DocIndexContract):
        @pytest.fixture
        def doc_index(self, neo4j_uri, monkeypatch):
            monkeypatch.setenv("ZHICE_NEO4J_URI", neo4j_uri); ...
            idx = Neo4jIndex(); yield idx; idx.close()

The cases are what callers (services, agents) rely on: documents added are found by a phrase
of theirs, permission filters (tenant, review state, validity by scenario) hold, a delete takes
effect everywhere, and hits carry the fields the answer and citation code read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core import config

from core.documents.models import Chunk, DocMeta
from core.errors import BadInputError, NotFoundError
from core.retrieval import vector_model
from core.retrieval.embed import CONVERTED_NAME, default_model_dir, model_identity
from core.retrieval.protocol import DocumentIndexProtocol, Hit, SearchResult, hit_to_dict
from core.security.principals import Principal, Role, Scenario

ADMIN = Principal("admin", Role.admin, scenario=Scenario.research)
APPLIANCES, CARS, RENT = "a" * 16, "b" * 16, "c" * 16


def manager(*tenants: str, scenario: Scenario = Scenario.window) -> Principal:
    return Principal("m", Role.manager, tenants=tuple(tenants), scenario=scenario)


def make_doc(doc_id: str, file_name: str, texts: list[str], *, tenant: str = "济南", title: str = "",
             **meta) -> tuple[DocMeta, list[Chunk], None]:
    chunks = [Chunk(chunk_id=f"{doc_id}-{i:04d}", doc_id=doc_id, ord=i, text=f"{title}\n{t}", body=t,
                    heading=t.split(" ")[0] if t.startswith("第") else "", kind="article", page_start=i + 1,
                    page_end=i + 1)
              for i, t in enumerate(texts)]
    return DocMeta(doc_id=doc_id, file_name=file_name, title=title, tenant=tenant, **meta), chunks, None


def corpus() -> list[tuple[DocMeta, list[Chunk], None]]:
    """Two 济南 documents and one 青岛 document."""
    return [
        make_doc(APPLIANCES, "济南家电细则.pdf", [
            "第一条 为做好济南市家电以旧换新工作，制定本细则。",
            "第五条 补贴标准：一级能效家电按售价的20%给予补贴，二级能效按15%补贴，每件最高2000元。",
        ], title="济南市2025年家电以旧换新补贴实施细则", doc_number="济商务字〔2025〕6号"),
        make_doc(CARS, "汽车补贴公告.docx", [
            "报废旧车并购买新能源乘用车的，补贴2万元。",
            "申请材料包括身份证、购车发票和机动车登记证书。",
        ], title="2025年政府汽车消费补贴活动公告"),
        make_doc(RENT, "租房补助.txt", [
            "高校毕业生在本市租赁住房的，按每月800元发放租赁住房补助，最长36个月。",
        ], title="高校毕业生租赁住房补助办法", tenant="青岛"),
    ]


def second_model(folder: Path) -> Path:
    """Another sentence-transformers model: the first six of e5-small's twelve layers, in a folder
    of its own name, so it has its own identity and its own vectors, as a fine-tuned model would."""
    src = default_model_dir()
    folder.mkdir()
    for f in src.iterdir():
        if f.name not in ("config.json", "ZHICE_CONVERTED"):
            (folder / f.name).symlink_to(f)
    cfg = json.loads((src / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**cfg, "num_hidden_layers": 6}))
    return folder


def doc_ids(result: SearchResult) -> list[str]:
    return [h.chunk.doc_id for h in result.hits]


class DocIndexContract:
    @pytest.fixture
    def doc_index(self) -> DocumentIndexProtocol:  # pragma: no cover - provided by subclasses
        raise NotImplementedError

    @pytest.fixture
    def filled(self, doc_index) -> DocumentIndexProtocol:
        results = doc_index.add_documents(corpus())
        assert [r["action"] for r in results] == ["added", "added", "added"]
        return doc_index

    def test_is_a_document_index(self, doc_index):
        assert isinstance(doc_index, DocumentIndexProtocol)
        assert doc_index.list_docs() == [] and doc_index.stats()["documents"] == 0

    def test_added_documents_are_found_by_a_phrase(self, filled):
        res = filled.search("一级能效家电补贴标准", ADMIN, k=5)
        assert not res.degraded, res.notices
        assert res.hits[0].chunk.chunk_id == APPLIANCES + "-0001"
        assert filled.search("购车发票和机动车登记证书", ADMIN, k=5).hits[0].chunk.chunk_id == CARS + "-0001"
        assert filled.search("高校毕业生租赁住房补助", ADMIN, k=5).hits[0].chunk.doc_id == RENT

    def test_documents_and_chunks_read_back(self, filled):
        assert {m.doc_id for m in filled.list_docs()} == {APPLIANCES, CARS, RENT}
        assert filled.stats()["documents"] == 3 and filled.stats()["chunks"] == 5
        assert filled.has_document(CARS) and not filled.has_document("0" * 16)
        assert filled.get_meta(APPLIANCES).doc_number == "济商务字〔2025〕6号"
        assert [c.chunk_id for c in filled.chunks_of(CARS)] == [CARS + "-0000", CARS + "-0001"]
        chunk = filled.get_chunk(APPLIANCES + "-0001")
        assert chunk.body.startswith("第五条") and chunk.heading == "第五条" and chunk.page_start == 2
        assert filled.get_chunk("0" * 16 + "-0000") is None

    def test_adding_the_same_document_again_changes_nothing(self, filled):
        before = filled.stats()
        meta, chunks, _ = corpus()[1]
        assert filled.add_document(meta, chunks)["action"] == "unchanged"
        assert filled.stats() == before

    def test_tenant_filter_never_returns_another_tenants_chunk(self, filled):
        q = "高校毕业生租赁住房补助每月800元"  # the 青岛 document is by far the best match
        assert doc_ids(filled.search(q, ADMIN, k=10))[0] == RENT
        jinan = filled.search(q, manager("济南"), k=10)
        assert jinan.hits and all(h.meta.tenant == "济南" for h in jinan.hits)
        assert RENT not in doc_ids(jinan)
        assert doc_ids(filled.search(q, manager("青岛"), k=10)) == [RENT]
        for nobody in (manager("淄博"), manager()):  # another tenant; no tenant at all (fail closed)
            res = filled.search(q, nobody, k=10)
            assert res.hits == [] and res.notices

    def test_delete_removes_from_results(self, filled):
        q = "新能源乘用车补贴"
        assert doc_ids(filled.search(q, ADMIN, k=3))[0] == CARS
        filled.delete_document(CARS)
        assert CARS not in doc_ids(filled.search(q, ADMIN, k=10))
        assert filled.get_meta(CARS) is None and filled.get_chunk(CARS + "-0000") is None
        assert filled.chunks_of(CARS) == [] and not filled.has_document(CARS)
        assert {m.doc_id for m in filled.list_docs()} == {APPLIANCES, RENT}
        with pytest.raises(NotFoundError):
            filled.delete_document(CARS)

    def test_only_documents_in_effect_by_default(self, filled):
        """The window scenario (the default) sees 现行有效 documents only; research also
        sees repealed and upcoming ones."""
        q = "一级能效家电补贴标准"
        filled.update_meta(APPLIANCES, status="repealed", status_override=True)
        assert APPLIANCES not in doc_ids(filled.search(q, manager("济南"), k=10))
        assert doc_ids(filled.search(q, manager("济南", scenario=Scenario.research), k=10))[0] == APPLIANCES
        assert doc_ids(filled.search(q, manager("济南"), k=10, scenario="research"))[0] == APPLIANCES
        upcoming = make_doc("f" * 16, "明年.txt", ["2099年起电动自行车以旧换新补贴500元。"], title="电动自行车补贴",
                            effective_date="2099-01-01")
        filled.add_documents([upcoming])
        assert filled.get_meta("f" * 16).status == "upcoming"
        q2 = "电动自行车以旧换新补贴"
        assert "f" * 16 not in doc_ids(filled.search(q2, manager("济南"), k=10))
        assert doc_ids(filled.search(q2, manager("济南", scenario=Scenario.research), k=10))[0] == "f" * 16

    def test_pending_documents_are_not_retrieved_until_approved(self, filled):
        pending = make_doc("d" * 16, "待审核.txt", ["家电以旧换新补贴标准调整为一级能效30%。"], title="家电补贴调整通知",
                           review_state="pending")
        filled.add_documents([pending])
        q = "家电补贴调整 一级能效30%"
        assert "d" * 16 not in doc_ids(filled.search(q, ADMIN, k=10))
        filled.update_meta("d" * 16, review_state="approved")
        assert doc_ids(filled.search(q, ADMIN, k=10))[0] == "d" * 16

    def test_search_restricted_to_given_documents(self, filled):
        res = filled.search("补贴", ADMIN, k=10, doc_ids=[CARS])
        assert res.hits and set(doc_ids(res)) == {CARS}

    def test_results_carry_the_fields_callers_use(self, filled):
        res = filled.search("济南市家电以旧换新补贴标准", ADMIN, k=3)
        assert isinstance(res, SearchResult) and isinstance(res.notices, list)
        assert res.latency_ms > 0 and res.degraded is False
        assert [h.rank for h in res.hits] == list(range(1, len(res.hits) + 1))
        scores = [h.score for h in res.hits]
        assert scores == sorted(scores, reverse=True)
        top: Hit = res.hits[0]
        assert isinstance(top.chunk, Chunk) and isinstance(top.meta, DocMeta)
        assert top.meta.doc_id == top.chunk.doc_id == APPLIANCES
        assert top.meta.title == "济南市2025年家电以旧换新补贴实施细则" and top.meta.status == "in_effect"
        assert set(top.evidence) >= {"bm25", "dense", "title", "fused"}
        assert top.evidence["bm25"] is not None and top.evidence["title"] is not None
        row = hit_to_dict(top)
        assert {"rank", "chunk_id", "doc_id", "file_name", "doc_number", "page", "score", "text", "title",
                "heading", "status", "evidence"} <= set(row)
        assert row["file_name"] == "济南家电细则.pdf" and row["doc_number"] == "济商务字〔2025〕6号"
        json.dumps(row, ensure_ascii=False)  # the CLI / agent shape is plain JSON

    def test_empty_query_is_refused(self, filled):
        with pytest.raises(BadInputError):
            filled.search("   ", ADMIN)

    def test_records_the_model_that_built_its_vectors(self, filled):
        assert filled.vector_model() == model_identity()
        assert filled.vector_model().startswith(CONVERTED_NAME + ":")

    def test_a_changed_model_is_never_mixed_with_the_old_vectors(self, filled, tmp_path, monkeypatch):
        built_by = filled.vector_model()
        monkeypatch.setenv("ZHICE_EMBED_MODEL", str(second_model(tmp_path / "other-e5")))
        config.set_settings(None)
        other = model_identity()
        assert other != built_by and other.startswith("other-e5:")
        # a search falls back to keywords + titles and says why, instead of comparing vectors of two models
        res = filled.search("一级能效家电补贴标准", ADMIN, k=5)
        assert res.degraded and vector_model.MISMATCH_NOTICE in res.notices
        assert res.hits[0].chunk.doc_id == APPLIANCES and all(h.evidence["dense"] is None for h in res.hits)
        # a new document is indexed (found by keywords) but not embedded with the other model
        added = filled.add_documents([make_doc("e" * 16, "充电桩.txt", ["新建充电桩每个补贴300元。"], title="充电桩补贴")])
        assert added[0]["action"] == "added" and added[0]["embed"]["error"] == vector_model.INGEST_MISMATCH
        assert filled.stats()["with_vectors"] == 5 and filled.vector_model() == built_by
        assert doc_ids(filled.search("充电桩补贴", ADMIN, k=3))[0] == "e" * 16
        # re-embedding puts every chunk on the configured model and records it
        result = filled.reembed()
        assert result["chunks"] == 6 and result["model"] == other and result["documents"] == 4
        assert filled.vector_model() == other and filled.stats()["with_vectors"] == 6
        res = filled.search("一级能效家电补贴标准", ADMIN, k=5)
        assert not res.degraded and res.hits[0].chunk.chunk_id == APPLIANCES + "-0001"
        assert res.hits[0].evidence["dense"] is not None
        # going back to the first model without a rebuild is a mismatch again
        monkeypatch.delenv("ZHICE_EMBED_MODEL")
        config.set_settings(None)
        assert vector_model.MISMATCH_NOTICE in filled.search("充电桩补贴", ADMIN, k=3).notices
