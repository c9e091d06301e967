"""Neo4j-backed document index (``ZHICE_DOC_INDEX=neo4j``), same interface as the embedded one.

Nodes (English labels, so they never collide with the business graph's Chinese labels)::

    (:ZhiceDoc {doc_id})-[:ZHICE_HAS_CHUNK]->(:ZhiceChunk {chunk_id, doc_id, ord, text, body, heading,
                                                           path, kind, page_start, page_end, spans, embedding})

Indexes: a full-text index over ``text`` and ``doc_id`` with the ``cjk`` analyzer (BM25 scoring
by Lucene) and a cosine vector index over ``embedding``. Metadata stays in the app DB
(:mod:`metastore`), as for the embedded index. The model that built the vectors is recorded on
``(:ZhiceIndexInfo {key: 'vectors'})`` (:mod:`core.retrieval.vector_model`: never two mixed).

Permission filtering happens before scoring:
- full-text: the Lucene query itself carries ``doc_id:(…allowed…)`` as a required clause, so
  only allowed chunks are matched and scored;
- dense: exact cosine (``vector.similarity.cosine``) over the allowed chunks only, so the
  approximate index can never fill the top-k with chunks that would be filtered away. The
  vector index is used only when the principal may see every document.

Written against the ``neo4j`` 6.x driver (``GraphDatabase.driver``, ``driver.execute_query``
with ``database_`` / ``routing_``) and Neo4j 5 Cypher.
"""

from __future__ import annotations

import json
import re
import threading
import time
from typing import Callable

import numpy as np

from core.config import Settings, get_settings
from core.documents.models import Chunk, DocMeta
from core.errors import AppError, BadInputError, IndexError_, NotFoundError
from core.retrieval import filters, vector_model
from core.retrieval.dense import QueryVectors, content_hash
from core.retrieval.embed import EmbeddingUnavailable
from core.retrieval.doc_refs import title_list, title_matches
from core.retrieval.fusion import FusionWeights
from core.retrieval.hybrid import fused_pool, hit_evidence
from core.retrieval.metastore import MetaStore
from core.retrieval.protocol import (CANDIDATES, DEGRADED_NOTICE, MAX_QUERY_CHARS, NO_DOCUMENTS_NOTICE, Hit,
                                     SearchResult, chunk_from_dict)
from core.security.principals import Principal

FULLTEXT_INDEX = "zhice_chunk_text"
VECTOR_INDEX = "zhice_chunk_vec"
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
MAX_CLAUSES = 900  # Lucene's default maxClauseCount is 1024

Q_SCHEMA = [
    "CREATE CONSTRAINT zhice_doc_id IF NOT EXISTS FOR (d:ZhiceDoc) REQUIRE d.doc_id IS UNIQUE",
    "CREATE CONSTRAINT zhice_chunk_id IF NOT EXISTS FOR (c:ZhiceChunk) REQUIRE c.chunk_id IS UNIQUE",
    "CREATE INDEX zhice_chunk_doc IF NOT EXISTS FOR (c:ZhiceChunk) ON (c.doc_id)",
    f"CREATE FULLTEXT INDEX {FULLTEXT_INDEX} IF NOT EXISTS FOR (c:ZhiceChunk) ON EACH [c.text, c.doc_id] "
    "OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}}",
]
# schema commands take no parameters in OPTIONS: the dimension (an int from the model) is inlined
Q_VECTOR_INDEX = (f"CREATE VECTOR INDEX {VECTOR_INDEX} IF NOT EXISTS FOR (c:ZhiceChunk) ON (c.embedding) "
                  "OPTIONS {{indexConfig: {{`vector.dimensions`: {dim}, `vector.similarity_function`: 'cosine'}}}}")
Q_UPSERT = """
MERGE (d:ZhiceDoc {doc_id: $doc_id})
WITH d
UNWIND $chunks AS ch
MERGE (c:ZhiceChunk {chunk_id: ch.chunk_id})
SET c.doc_id = $doc_id, c.ord = ch.ord, c.text = ch.text, c.body = ch.body, c.heading = ch.heading,
    c.path = ch.path, c.kind = ch.kind, c.page_start = ch.page_start, c.page_end = ch.page_end,
    c.spans = ch.spans, c.hash = ch.hash
MERGE (d)-[:ZHICE_HAS_CHUNK]->(c)
"""
Q_SET_VECTORS = """
UNWIND $rows AS row
MATCH (c:ZhiceChunk {chunk_id: row.chunk_id})
SET c.embedding = row.vec
"""
Q_DELETE_CHUNKS = "MATCH (c:ZhiceChunk {doc_id: $doc_id}) DETACH DELETE c"
Q_DELETE_DOC = "MATCH (d:ZhiceDoc {doc_id: $doc_id}) DETACH DELETE d"
Q_DOC_IDS = "MATCH (d:ZhiceDoc) RETURN d.doc_id AS doc_id"
Q_CHUNKS_OF = ("MATCH (c:ZhiceChunk {doc_id: $doc_id}) RETURN c{.*, embedding: null} AS c ORDER BY c.ord")
Q_CHUNK = "MATCH (c:ZhiceChunk {chunk_id: $chunk_id}) RETURN c{.*, embedding: null} AS c"
Q_FULLTEXT = f"""
CALL db.index.fulltext.queryNodes('{FULLTEXT_INDEX}', $q, {{limit: $n}}) YIELD node, score
RETURN node.chunk_id AS chunk_id, score
"""
Q_DENSE_FILTERED = """
MATCH (c:ZhiceChunk)
WHERE c.doc_id IN $doc_ids AND c.embedding IS NOT NULL
WITH c, vector.similarity.cosine(c.embedding, $vec) AS score
ORDER BY score DESC LIMIT $n
RETURN c.chunk_id AS chunk_id, score
"""
Q_DENSE_ALL = f"""
CALL db.index.vector.queryNodes('{VECTOR_INDEX}', $n, $vec) YIELD node, score
RETURN node.chunk_id AS chunk_id, score
"""
Q_CHUNKS_BY_ID = "MATCH (c:ZhiceChunk) WHERE c.chunk_id IN $ids RETURN c{.*, embedding: null} AS c"
Q_ARTICLE_CHUNKS = ("MATCH (c:ZhiceChunk) WHERE c.doc_id IN $doc_ids "
                    "RETURN c.chunk_id AS chunk_id, c.doc_id AS doc_id, c.heading AS heading, c.ord AS ord "
                    "ORDER BY c.doc_id, c.ord")
Q_COUNTS = ("MATCH (c:ZhiceChunk) RETURN count(c) AS chunks, count(c.embedding) AS with_vectors")
Q_VECTOR_MODEL = "MATCH (i:ZhiceIndexInfo {key: 'vectors'}) RETURN i.model AS model"
Q_SET_VECTOR_MODEL = "MERGE (i:ZhiceIndexInfo {key: 'vectors'}) SET i.model = $model"
Q_VECTOR_SAMPLES = ("MATCH (c:ZhiceChunk) WHERE c.embedding IS NOT NULL AND c.hash IS NOT NULL "
                    "RETURN c.hash AS h, c.embedding AS v LIMIT 3")
Q_DROP_VECTOR_INDEX = f"DROP INDEX {VECTOR_INDEX} IF EXISTS"
Q_ALL_CHUNK_TEXTS = "MATCH (c:ZhiceChunk) RETURN c.chunk_id AS chunk_id, c.text AS text ORDER BY c.chunk_id"
Q_MISSING_VECTORS = ("MATCH (c:ZhiceChunk) WHERE c.embedding IS NULL "
                     "RETURN c.chunk_id AS chunk_id, c.text AS text LIMIT 5000")


def lucene_escape(text: str) -> str:
    """Escape Lucene syntax; upper-case AND/OR/NOT would be operators, so lower-case them."""
    text = re.sub(r"\b(AND|OR|NOT)\b", lambda m: m.group(1).lower(), text)
    return _LUCENE_SPECIAL.sub(r"\\\1", text)


def _chunk_row(c: Chunk) -> dict:
    return {"chunk_id": c.chunk_id, "ord": c.ord, "text": c.text, "body": c.body, "heading": c.heading,
            "path": list(c.path), "kind": c.kind, "page_start": c.page_start, "page_end": c.page_end,
            "spans": json.dumps([s.__dict__ for s in c.spans], ensure_ascii=False), "hash": content_hash(c.text)}


def _chunk_from_node(n: dict) -> Chunk:
    d = dict(n)
    d["spans"] = json.loads(d.get("spans") or "[]")
    d["path"] = list(d.get("path") or [])
    return chunk_from_dict(d)


class Neo4jIndex:
    def __init__(self, settings: Settings | None = None, driver=None):
        self.settings = settings or get_settings()
        if driver is None:
            if not self.settings.neo4j_uri:
                raise IndexError_("未配置 ZHICE_NEO4J_URI，无法使用 Neo4j 文档索引")
            from neo4j import GraphDatabase

            driver = GraphDatabase.driver(self.settings.neo4j_uri,
                                          auth=(self.settings.neo4j_user, self.settings.neo4j_password))
        self.driver = driver
        self.db = self.settings.neo4j_database or None
        self.metas = MetaStore()
        self._lock = threading.RLock()
        self._vector_dim: int | None = None
        self._query_vectors = QueryVectors()
        for q in Q_SCHEMA:
            self._write(q)
        self._write("CALL db.awaitIndexes(300)")

    # ---- driver helpers ------------------------------------------------------------------------
    def _write(self, query: str, **params):
        return self._execute(query, params, write=True)

    def _read(self, query: str, **params):
        return self._execute(query, params, write=False)

    def _execute(self, query: str, params: dict, *, write: bool):
        from neo4j import RoutingControl

        try:
            return self.driver.execute_query(query, parameters_=params, database_=self.db,
                                             routing_=RoutingControl.WRITE if write else RoutingControl.READ).records
        except Exception as exc:  # noqa: BLE001
            raise IndexError_("Neo4j 文档索引写入失败" if write else "Neo4j 文档索引查询失败",
                              detail=f"{exc} :: {query[:200]}") from exc

    def close(self) -> None:
        self.driver.close()

    def _ensure_vector_index(self, dim: int) -> None:
        if self._vector_dim != dim:
            self._write(Q_VECTOR_INDEX.format(dim=int(dim)))
            self._write("CALL db.awaitIndexes(300)")  # a populating index refuses queries
            self._vector_dim = dim

    # ---- writes ----------------------------------------------------------------------------------
    def _doc_ids(self) -> list[str]:
        return [r["doc_id"] for r in self._read(Q_DOC_IDS)]

    def has_document(self, doc_id: str) -> bool:
        return doc_id in set(self._doc_ids())

    def vector_model(self) -> str | None:
        """The identity of the model that built the vectors (None: not recorded). An index built
        before the record existed gets the model the vector cache identifies, recorded once."""
        rows = self._read(Q_VECTOR_MODEL)
        if rows:
            return rows[0]["model"]
        samples = [(r["h"], np.asarray(r["v"], dtype=np.float32)) for r in self._read(Q_VECTOR_SAMPLES)]
        inferred = vector_model.infer(samples, self.settings.model_cache_dir / "vectors.sqlite")
        if inferred:
            self._write(Q_SET_VECTOR_MODEL, model=inferred)
        return inferred

    def _embed(self, texts: list[str]):
        return vector_model.embed_for_index(texts, self.vector_model(),
                                            self.settings.model_cache_dir / "vectors.sqlite")

    def _set_vectors(self, ids: list[str], vecs: np.ndarray, model: str) -> None:
        self._ensure_vector_index(int(vecs.shape[1]))
        for i in range(0, len(ids), 500):
            self._write(Q_SET_VECTORS, rows=[{"chunk_id": cid, "vec": vecs[i + j].astype(float).tolist()}
                                             for j, cid in enumerate(ids[i:i + 500])])
        if self.vector_model() is None:
            self._write(Q_SET_VECTOR_MODEL, model=model)

    def reembed(self) -> dict:
        """Re-embed every chunk with the configured model and record it (see the embedded
        index's ``reembed``); a new dimension gets a new vector index."""
        with self._lock:
            rows = self._read(Q_ALL_CHUNK_TEXTS)
            vecs, stats = vector_model.embed_passages([r["text"] for r in rows],
                                                      self.settings.model_cache_dir / "vectors.sqlite")
            if vecs is None:
                raise EmbeddingUnavailable(stats["error"])
            self._write(Q_SET_VECTOR_MODEL, model=vector_model.REBUILDING)
            self._write(Q_DROP_VECTOR_INDEX)
            self._vector_dim = None
            if rows:
                self._set_vectors([r["chunk_id"] for r in rows], vecs, stats["model"])
            self._write(Q_SET_VECTOR_MODEL, model=stats["model"])
        return {"documents": len(self._doc_ids()), "chunks": len(rows), "embedded": stats["embedded"],
                "cached": stats["cached"], "seconds": round(stats["seconds"], 1), "model": stats["model"]}

    def add_document(self, meta: DocMeta, chunks: list[Chunk], *, user: str | None = None,
                     stored_path: str | None = None) -> dict:
        result = self.add_documents([(meta, chunks, stored_path)], user=user)[0]
        if result["action"] == "error":
            raise result["error"]
        return result

    def add_documents(self, items, *, user: str | None = None) -> list[dict]:
        """Documents one by one (an admission error is the item's result, as in the embedded index)."""
        results = []
        with self._lock:
            present = set(self._doc_ids())
            for meta, chunks, stored_path in items:
                try:
                    old = self.metas.admission(meta, chunks, present)
                except AppError as exc:
                    results.append({"doc_id": meta.doc_id, "action": "error", "error": exc, "replaced": [],
                                    "embed": None})
                    continue
                if old is None:
                    results.append({"doc_id": meta.doc_id, "action": "unchanged", "replaced": [], "embed": None})
                    continue
                vecs, stats = self._embed([c.text for c in chunks])
                # the new chunks are written before the old document goes, so a reader always
                # finds one complete version (metadata swaps in one app-DB transaction)
                self._write(Q_UPSERT, doc_id=meta.doc_id, chunks=[_chunk_row(c) for c in chunks])
                if vecs is not None:
                    self._set_vectors([c.chunk_id for c in chunks], vecs, stats["model"])
                with self.metas.db.transaction():
                    for d in old:
                        self.metas.delete(d)
                    self.metas.put(meta, chunks=len(chunks), stored_path=stored_path, user=user)
                for d in old:
                    self._write(Q_DELETE_CHUNKS, doc_id=d)
                    self._write(Q_DELETE_DOC, doc_id=d)
                present = (present - set(old)) | {meta.doc_id}
                results.append({"doc_id": meta.doc_id, "action": "replaced" if old else "added", "replaced": old,
                                "embed": stats})
            self.metas.recompute()
        return results

    def delete_document(self, doc_id: str) -> None:
        with self._lock:
            if self.metas.get(doc_id) is None and not self.has_document(doc_id):
                raise NotFoundError(f"文档不存在：{doc_id}")
            self.metas.delete(doc_id)
            self._write(Q_DELETE_CHUNKS, doc_id=doc_id)
            self._write(Q_DELETE_DOC, doc_id=doc_id)
            self.metas.recompute()

    def update_meta(self, doc_id: str, **changes) -> DocMeta:
        with self._lock:
            return self.metas.update(doc_id, changes)

    def ensure_vectors(self) -> int:
        rows = self._read(Q_MISSING_VECTORS)
        if not rows:
            return 0
        vecs, stats = self._embed([r["text"] for r in rows])
        if vecs is None:
            return 0
        self._set_vectors([r["chunk_id"] for r in rows], vecs, stats["model"])
        return len(rows)

    # ---- reads -----------------------------------------------------------------------------------
    def get_chunk(self, chunk_id: str) -> Chunk | None:
        rows = self._read(Q_CHUNK, chunk_id=chunk_id)
        return _chunk_from_node(rows[0]["c"]) if rows else None

    def chunks_of(self, doc_id: str) -> list[Chunk]:
        return [_chunk_from_node(r["c"]) for r in self._read(Q_CHUNKS_OF, doc_id=doc_id)]

    def get_meta(self, doc_id: str) -> DocMeta | None:
        return self.metas.get(doc_id) if self.has_document(doc_id) else None

    def list_docs(self) -> list[DocMeta]:
        present = set(self._doc_ids())
        return [m for m in self.metas.all() if m.doc_id in present]

    def stats(self) -> dict:
        r = self._read(Q_COUNTS)[0]
        return {"documents": len(self._doc_ids()), "chunks": r["chunks"], "with_vectors": r["with_vectors"]}

    # ---- search ----------------------------------------------------------------------------------
    def _start_query_vector(self, query: str) -> Callable[[], np.ndarray]:
        return self._query_vectors.start(query, self.settings.dense_timeout_ms / 1000)

    def search(self, query: str, principal: Principal, k: int = 10, *, scenario: str | None = None,
               doc_ids: list[str] | None = None, weights: FusionWeights | None = None,
               lists: tuple[str, ...] = ("bm25", "dense", "title")) -> SearchResult:
        t0 = time.perf_counter()
        query = (query or "").strip()
        if not query:
            raise BadInputError("检索问题不能为空")
        query = query[:MAX_QUERY_CHARS]
        metas = {m.doc_id: m for m in self.list_docs()}
        wanted = set(doc_ids) if doc_ids is not None else None
        candidates = [d for d in metas if wanted is None or d in wanted]
        allowed = [d for d, ok in zip(candidates, filters.docs_allowed([metas[d] for d in candidates], principal,
                                                                       scenario)) if ok]
        notices: list[str] = []
        if not allowed:
            notices.append(NO_DOCUMENTS_NOTICE)
            return SearchResult([], notices, (time.perf_counter() - t0) * 1000, False)
        sees_all = len(allowed) == len(metas)
        bm25_list, bm25_ev, dense_list, dense_ev, degraded = [], {}, [], {}, False
        # the query is embedded on the worker thread while Neo4j answers the full-text query
        query_vector = self._start_query_vector(query) if "dense" in lists else None
        if "bm25" in lists:
            bm25_list, bm25_ev = self._fulltext_ranked(query, allowed, sees_all, notices)
        if query_vector is not None:
            dense_list, dense_ev, degraded = self._dense_ranked(query_vector, allowed, sees_all, notices)
        title_ids = self._title_ranked(query, allowed, metas, (bm25_list, dense_list)) if "title" in lists else []
        pool = fused_pool(query, bm25_list, dense_list, title_ids, degraded=degraded, weights=weights, k=k)
        nodes = {r["c"]["chunk_id"]: _chunk_from_node(r["c"])
                 for r in self._read(Q_CHUNKS_BY_ID, ids=[cid for cid, _ in pool])}
        pool = [(cid, s) for cid, s in pool if cid in nodes]

        from core.retrieval.rerank import rerank_pool

        pool = rerank_pool(query, pool, lambda item: nodes[item[0]].text, notices)
        evidence = hit_evidence(bm25_ev, dense_ev, title_ids)
        hits = [Hit(rank=i, chunk=nodes[cid], meta=metas[nodes[cid].doc_id], score=float(s),
                    evidence=evidence(cid, s)) for i, (cid, s) in enumerate(pool[:k], 1)]
        return SearchResult(hits, notices, (time.perf_counter() - t0) * 1000, degraded)

    def _fulltext_ranked(self, query: str, allowed: list[str], sees_all: bool,
                         notices: list[str]) -> tuple[list[str], dict[str, tuple[int, float]]]:
        """Chunk ids by Lucene full-text score; unless the principal sees every document, the
        query itself requires ``doc_id`` to be one of the ``allowed``."""
        ranked: list[str] = []
        evidence: dict[str, tuple[int, float]] = {}
        text_q = f"text:({lucene_escape(query)})"
        if not sees_all:
            if len(allowed) > MAX_CLAUSES:
                raise IndexError_("可检索文档过多，超出全文索引的过滤上限")
            text_q += " AND doc_id:(" + " OR ".join(f'"{d}"' for d in allowed) + ")"
        try:
            ft_rows = self._read(Q_FULLTEXT, q=text_q, n=CANDIDATES)
        except IndexError_:
            ft_rows = []  # e.g. nothing left to search for after analysis
            notices.append("关键词检索失败，已仅按向量与标题检索")
        for r, row in enumerate(ft_rows, 1):
            ranked.append(row["chunk_id"])
            evidence[row["chunk_id"]] = (r, float(row["score"]))
        return ranked, evidence

    def _dense_ranked(self, query_vector: Callable[[], np.ndarray], allowed: list[str], sees_all: bool,
                      notices: list[str]) -> tuple[list[str], dict[str, tuple[int, float]], bool]:
        """Chunk ids by cosine similarity to the query (the vector index when the principal sees
        every document, else exact over the ``allowed`` ones), and whether dense retrieval
        degraded, its notice added to ``notices``: another model's vectors, no rows, the model
        missing or too slow, no vector index."""
        ranked: list[str] = []
        evidence: dict[str, tuple[int, float]] = {}
        if not vector_model.usable(self.vector_model()):
            notices.append(vector_model.MISMATCH_NOTICE)  # never a query of one model against another's vectors
            return ranked, evidence, True
        try:
            vec = query_vector().astype(float).tolist()
            rows = (self._read(Q_DENSE_ALL, n=CANDIDATES, vec=vec) if sees_all else
                    self._read(Q_DENSE_FILTERED, doc_ids=allowed, n=CANDIDATES, vec=vec))
            for r, row in enumerate(rows, 1):
                ranked.append(row["chunk_id"])
                evidence[row["chunk_id"]] = (r, float(row["score"]))
            degraded = not rows
        except Exception:  # noqa: BLE001 - model missing, timeout, no vector index: degrade
            degraded = True
        if degraded:
            notices.append(DEGRADED_NOTICE)
        return ranked, evidence, degraded

    def _title_ranked(self, query: str, allowed: list[str], metas: dict[str, DocMeta],
                      ranked_lists: tuple[list[str], list[str]]) -> list[str]:
        """The title path: the allowed documents the query names, their best chunks first."""
        matched = [d for d, _ in title_matches(query, [metas[d] for d in allowed],
                                               [a for d in allowed for a in metas[d].authorities])]
        by_doc: dict[str, list[tuple[str, str]]] = {}
        for row in (self._read(Q_ARTICLE_CHUNKS, doc_ids=matched) if matched else []):
            by_doc.setdefault(row["doc_id"], []).append((row["chunk_id"], row["heading"] or ""))
        return title_list(query, matched, lambda d: by_doc.get(d, []), ranked_lists)
