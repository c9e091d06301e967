"""The document index: hybrid retrieval (BM25 + dense + title path, weighted RRF) with
permission filters applied before scoring.

Embedded backend (default): per-document files under ``settings.index_dir`` and a manifest
listing the documents (:mod:`core.retrieval.index_files` reads and writes them).

Metadata (status, tenant, review state, …) lives in the app DB (:mod:`metastore`). Adding
documents costs in proportion to their own size: a batch writes its files, one metadata
transaction and one manifest write, re-derives the statuses of related documents only, and
appends to the in-memory index (BM25 postings, vector rows) without reloading anything.
Deleting or replacing compacts the in-memory index (no disk reads). Another process's change
is picked up by the manifest's identity (inode, mtime, size) on the next call: only the
documents it added are read; ``epoch`` changes when files of listed documents changed
(vectors filled in), which reloads everything. ``vector_model`` names the model that built the
vectors (:mod:`core.retrieval.vector_model`: an index never mixes two).

Writers in several processes (two ``ingest-docs`` at once, the dashboard beside a batch job)
take an exclusive ``flock`` on ``index/write.lock`` around every read-modify-write of the
manifest, and re-read the manifest under it, so no writer's documents are lost.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np

try:  # POSIX; elsewhere the in-process lock is all there is
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

from core.config import Settings, get_settings
from core.documents.metadata import today
from core.documents.models import Chunk, DocMeta
from core.errors import AppError, BadInputError, NotFoundError
from core.retrieval import filters, vector_model
from core.retrieval.bm25 import BM25Index
from core.retrieval.dense import QueryVectors, content_hash
from core.retrieval.fusion import FusionWeights
from core.retrieval.hybrid import (bm25_ranked, dense_ranked, document_rows, fused_pool, hit_evidence,
                                   named_documents, title_ranked)
from core.retrieval.index_files import IndexFiles
from core.retrieval.metastore import MetaStore
from core.retrieval.protocol import DEGRADED_NOTICE, MAX_QUERY_CHARS, NO_DOCUMENTS_NOTICE, Hit, SearchResult
from core.retrieval.tokenize import add_words, tokenize
from core.security.principals import Principal


class EmbeddedIndex:
    """jieba + BM25 (scipy) + numpy dense vectors, persisted under ``root``."""

    def __init__(self, settings: Settings | None = None, root: Path | None = None):
        self.settings = settings or get_settings()
        self.root = root or self.settings.index_dir
        self.files = IndexFiles(self.root)
        self.manifest_path = self.files.manifest_path
        # vectors by content hash, shared by every workspace using the same model cache
        self.vector_cache_path = self.settings.model_cache_dir / "vectors.sqlite"
        self._lock = threading.RLock()
        self._flock_depth = 0
        self._query_vectors = QueryVectors()
        self._loaded_mtime: tuple | None = None  # manifest (inode, mtime, size) last loaded
        self.metas = MetaStore()
        self._meta_version = 0  # bumped by every change of documents or metadata (:meth:`_changed`)
        self._allowed_cache: dict[tuple, tuple[list[str], np.ndarray]] = {}
        self._reset_memory()
        self._load()

    # ---- memory / persistence ---------------------------------------------------------
    def _reset_memory(self) -> None:
        self._doc_ids: list[str] = []
        self._chunks: list[Chunk] = []
        self._row_of: dict[str, int] = {}
        self._doc_rows: dict[str, tuple[int, int]] = {}
        self._bm25 = BM25Index()
        self._vec_buf = np.zeros((0, 0), dtype=np.float32)  # rows beyond len(_chunks) are spare room
        self._has_buf = np.zeros(0, dtype=bool)
        self._mat = self._vec_buf[:0]
        self._has_vec = self._has_buf[:0]
        self._meta: dict[str, DocMeta] = {}
        self._changed()
        self._epoch = 0
        self._vector_model: str | None = None

    def _changed(self) -> None:
        """Documents or their metadata changed: what :meth:`_allowed` kept is stale."""
        with self._lock:
            self._meta_version += 1
            self._allowed_cache = {}

    @contextlib.contextmanager
    def _write_lock(self) -> Iterator[None]:
        """This process's lock plus an exclusive cross-process ``flock`` on ``write.lock``
        (re-entrant within the process); the manifest is re-read under it."""
        with self._lock:
            if self._flock_depth or fcntl is None:
                self._flock_depth += 1
                try:
                    yield
                finally:
                    self._flock_depth -= 1
                return
            fd = os.open(self.files.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                self._flock_depth = 1
                try:
                    self.refresh()
                    yield
                finally:
                    self._flock_depth = 0
                    fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def _manifest_stamp(self) -> tuple | None:
        return self.files.stamp()

    def _manifest(self) -> dict:
        return self.files.manifest()

    def _write_manifest(self, docs: list[str], *, new_epoch: bool = False, model: str | None = None) -> None:
        """Replace the manifest atomically. ``new_epoch``: files of listed documents changed
        (vectors filled in), so other processes must reload them, not only diff the list.
        ``model``: record this vector model (else the recorded one is kept)."""
        old = self._manifest()
        epoch = old.get("epoch", 0) + (1 if new_epoch else 0)
        body = {"generation": old.get("generation", 0) + 1, "epoch": epoch, "docs": docs}
        recorded = model if model is not None else old.get("vector_model", self._vector_model)
        if recorded is not None:
            body["vector_model"] = recorded
        self.files.write_manifest(body)
        self._loaded_mtime = self._manifest_stamp()
        self._epoch, self._vector_model = epoch, recorded

    def _load(self) -> None:
        """(Re)load everything from disk + the app DB."""
        with self._lock:
            self._reset_memory()
            self._loaded_mtime = self._manifest_stamp()
            manifest = self._manifest()
            docs = self.files.iter_docs(manifest["docs"])
            self._epoch, self._vector_model = manifest.get("epoch", 0), manifest.get("vector_model")
            head: list[tuple] = []
            if "vector_model" not in manifest:  # built before the record existed: its first vectors tell
                for doc in docs:
                    head.append(doc)
                    if doc[4] is not None and len(doc[3]):
                        break
                self._vector_model = vector_model.infer(vector_model.samples(head), self.vector_cache_path)
            self._append_docs(itertools.chain(head, docs))
            self._reload_metas()

    def _sync(self) -> None:
        """Catch up with the manifest another process wrote: read only the documents it added,
        drop those it removed (a full reload when the order or the files of kept ones changed)."""
        with self._lock:
            stamp = self._manifest_stamp()
            manifest = self._manifest()
            docs = manifest["docs"]
            wanted = set(docs)
            kept = [d for d in self._doc_ids if d in wanted]
            added = [d for d in docs if d not in set(kept)]
            if manifest.get("epoch", 0) != self._epoch or docs != kept + added:
                return self._load()
            self._loaded_mtime = stamp
            if "vector_model" in manifest:
                self._vector_model = manifest["vector_model"]
            self._drop_docs([d for d in self._doc_ids if d not in wanted])
            self._append_docs(self.files.read_docs(added))
            self._reload_metas()

    def _append_docs(self, docs: Iterable[tuple]) -> None:
        """Append documents ``(doc_id, chunks, tokens, hashes, vectors|None)`` to the in-memory
        index: cost in proportion to their size (BM25 postings, vector rows, chunk lists). The
        documents are read once, in order; each one's tokens are encoded and let go before the
        next is read."""
        with self._lock:
            vectors: list[tuple[int, np.ndarray | None]] = []

            def tokens() -> Iterator[list[str]]:
                for doc_id, chunks, toks, _hashes, vecs in docs:
                    start = len(self._chunks)
                    self._chunks.extend(chunks)
                    self._row_of.update((c.chunk_id, i) for i, c in enumerate(chunks, start))
                    self._doc_rows[doc_id] = (start, len(self._chunks))
                    self._doc_ids.append(doc_id)
                    vectors.append((len(chunks), vecs))
                    yield from toks

            if self._bm25.n_docs == 0:
                self._bm25.set_documents(tokens())  # only term ids + counts stay in memory
            else:
                self._bm25.add_documents(tokens())
            if vectors:
                self._append_vectors(vectors)
            self._changed()

    def _append_vectors(self, parts: list[tuple[int, np.ndarray | None]]) -> None:
        n = len(self._has_vec)
        need = n + sum(c for c, _ in parts)
        dim = self._vec_buf.shape[1] or next((v.shape[1] for _, v in parts if v is not None and v.ndim == 2), 0)
        if self._vec_buf.shape[0] < need or self._vec_buf.shape[1] != dim:
            cap = need if n == 0 else max(need, n + n // 4 + 256)  # exact on a load, room to grow after
            buf, has = np.zeros((cap, dim), dtype=np.float32), np.zeros(cap, dtype=bool)
            if self._vec_buf.shape[1] == dim:
                buf[:n] = self._vec_buf[:n]
                has[:n] = self._has_buf[:n]
            self._vec_buf, self._has_buf = buf, has  # readers keep their views of the old buffers
        row = n
        for count, v in parts:
            if v is not None and v.ndim == 2 and v.shape == (count, dim):
                self._vec_buf[row:row + count] = v
                self._has_buf[row:row + count] = True
            row += count
        self._mat, self._has_vec = self._vec_buf[:row], self._has_buf[:row]

    def _drop_docs(self, doc_ids: list[str]) -> None:
        """Remove documents from memory: new row numbering, so new lists and arrays (a search
        in flight keeps the old ones)."""
        with self._lock:
            drop = [d for d in doc_ids if d in self._doc_rows]
            if not drop:
                return
            gone = set(drop)
            rows = np.concatenate([np.arange(*self._doc_rows[d]) for d in drop])
            keep = np.ones(len(self._chunks), dtype=bool)
            keep[rows] = False
            self._doc_ids = [d for d in self._doc_ids if d not in gone]
            self._chunks = [c for c, k in zip(self._chunks, keep.tolist()) if k]
            self._row_of = {c.chunk_id: i for i, c in enumerate(self._chunks)}
            old_rows, self._doc_rows, start = self._doc_rows, {}, 0
            for d in self._doc_ids:
                s, e = old_rows[d]
                self._doc_rows[d] = (start, start + e - s)
                start += e - s
            self._bm25 = self._bm25.without_rows(rows)
            self._vec_buf, self._has_buf = self._mat[keep], self._has_vec[keep]
            self._mat, self._has_vec = self._vec_buf, self._has_buf
            self._meta = {d: m for d, m in self._meta.items() if d not in gone}
            self._changed()

    def _reload_metas(self) -> None:
        self._meta = {m.doc_id: m for m in self.metas.all() if m.doc_id in self._doc_rows}
        self._changed()
        agencies = {a for m in self._meta.values() for a in m.authorities}
        if agencies:
            add_words(agencies)

    def refresh(self) -> None:
        """Pick up changes made by another process (the manifest was replaced)."""
        if self._manifest_stamp() != self._loaded_mtime:
            self._sync()

    def _touch(self) -> None:
        """Metadata changed (status, review …): bump the manifest so other processes reload."""
        with self._write_lock():
            self._write_manifest(list(self._manifest()["docs"]))

    def reload_metadata(self) -> None:
        """Metadata changed in the app DB behind the index's back (e.g. trusted issuers
        re-derived statuses): reload it here and make other processes reload too."""
        with self._write_lock():
            self._reload_metas()
            self._touch()

    # ---- embedding ---------------------------------------------------------------------
    def _embed(self, texts: list[str]) -> tuple[np.ndarray | None, dict]:
        return vector_model.embed_for_index(texts, self._vector_model, self.vector_cache_path)

    def vector_model(self) -> str | None:
        """The identity of the model that built this index's vectors (None: not recorded)."""
        self.refresh()
        return self._vector_model

    def ensure_vectors(self) -> int:
        """Embed chunks indexed while the dense model was unavailable. Returns how many."""
        with self._write_lock():
            missing = [d for d in self._doc_ids if not self.files.has_vectors(d)]
            n, model = 0, None
            for doc_id in missing:
                s, e = self._doc_rows[doc_id]
                mat, stats = self._embed([c.text for c in self._chunks[s:e]])
                if mat is None:
                    break
                self.files.save_vectors(doc_id, mat)
                n, model = n + e - s, stats["model"]
            if n:
                self._write_manifest(list(self._manifest()["docs"]), new_epoch=True,
                                     model=self._vector_model or model)
                self._load()
            return n

    def reembed(self) -> dict:
        """Re-embed every chunk with the configured model (progress as ``embed`` i/n) and record
        it. The vectors are computed first (cached, so an interrupted run resumes); while the
        files are swapped the manifest says a rebuild is under way, so no search or ingest
        uses a mixture."""
        with self._write_lock():
            texts = [c.text for c in self._chunks]
            mat, stats = vector_model.embed_passages(texts, self.vector_cache_path)
            if mat is None:
                from core.retrieval.embed import EmbeddingUnavailable

                raise EmbeddingUnavailable(stats["error"])
            docs = list(self._manifest()["docs"])
            self._write_manifest(docs, model=vector_model.REBUILDING)
            for doc_id in self._doc_ids:
                s, e = self._doc_rows[doc_id]
                self.files.save_vectors(doc_id, mat[s:e])
            self._write_manifest(docs, new_epoch=True, model=stats["model"])
            self._load()
        return {"documents": len(docs), "chunks": len(texts), "embedded": stats["embedded"],
                "cached": stats["cached"], "seconds": round(stats["seconds"], 1), "model": stats["model"]}

    # ---- writes --------------------------------------------------------------------------
    def has_document(self, doc_id: str) -> bool:
        self.refresh()
        return doc_id in self._doc_rows

    def add_document(self, meta: DocMeta, chunks: list[Chunk], *, user: str | None = None,
                     stored_path: str | None = None) -> dict:
        """Index one document. Identical content (same doc_id) is a no-op; a document with the
        same file name in the same tenant is replaced atomically. Returns
        {"doc_id", "action": added|unchanged|replaced, "replaced": [old ids], "embed": stats}."""
        result = self.add_documents([(meta, chunks, stored_path)], user=user)[0]
        if result["action"] == "error":
            raise result["error"]
        return result

    def add_documents(self, items: list[tuple[DocMeta, list[Chunk], str | None]], *,
                      user: str | None = None) -> list[dict]:
        """Bulk form of :meth:`add_document`, results in the order of ``items``: one embedding
        call, one metadata transaction and one manifest write for all (a later item with the
        name of an earlier one commits the earlier ones first, so it replaces them as it would
        one by one). An item refused on admission (no content, id collision) gets
        ``{"action": "error", "error": AppError}`` and the others go on."""
        results: list[dict] = [{}] * len(items)
        with self._write_lock():  # refreshes: another process's documents are in ``docs``
            docs = list(self._manifest()["docs"])
            batch: list[tuple] = []  # (position, meta, chunks, stored_path, replaced ids)
            for pos, (meta, chunks, stored_path) in enumerate(items):
                if any((b[1].tenant, b[1].file_name) == (meta.tenant, meta.file_name) for b in batch):
                    docs, batch = self._commit(batch, docs, results, user), []
                try:
                    old = None if meta.doc_id in {b[1].doc_id for b in batch} else \
                        self.metas.admission(meta, chunks, docs)
                except AppError as exc:
                    results[pos] = {"doc_id": meta.doc_id, "action": "error", "error": exc, "replaced": [],
                                    "embed": None}
                    continue
                if old is None:
                    results[pos] = {"doc_id": meta.doc_id, "action": "unchanged", "replaced": [], "embed": None}
                    continue
                batch.append((pos, meta, chunks, stored_path, old))
            self._commit(batch, docs, results, user)
        return results

    def _commit(self, batch: list[tuple], docs: list[str], results: list[dict], user: str | None) -> list[str]:
        """Write a batch of admitted documents: their files first (invisible until listed), one
        app-DB transaction for their metadata, one manifest write that makes them visible, then
        the statuses of related documents and the in-memory index (appended, not reloaded).
        A crash leaves the index as it was before or after the manifest write."""
        if not batch:
            return docs
        texts = [c.text for b in batch for c in b[2]]
        vecs, stats = self._embed(texts)  # one call: small documents embed in full batches
        model = stats.get("model") if self._vector_model is None and vecs is not None else None
        shares = vector_model.split_stats(stats, [len(b[2]) for b in batch])
        prepared, row = [], 0
        for _pos, meta, chunks, _stored, _old in batch:
            part = texts[row:row + len(chunks)]
            v = vecs[row:row + len(chunks)] if vecs is not None else None
            row += len(chunks)
            prepared.append((meta.doc_id, chunks, [tokenize(t) for t in part], [content_hash(t) for t in part], v))
            self.files.write_doc(*prepared[-1])
        replaced = [d for b in batch for d in b[4]]
        removed = self.metas.get_many(replaced)
        old_relations = self.metas.relations_touching(replaced)
        with self.metas.db.transaction():  # one transaction swaps the metadata …
            for d in replaced:
                self.metas.delete(d)
            for _pos, meta, chunks, stored_path, _old in batch:
                self.metas.put(meta, chunks=len(chunks), stored_path=stored_path, user=user)
        new_ids = [b[1].doc_id for b in batch]
        gone = set(replaced) | set(new_ids)
        docs = [d for d in docs if d not in gone] + new_ids
        self._write_manifest(docs, model=model)  # … and one manifest write swaps the chunks
        for d in replaced:
            self.files.remove_doc(d)
        changed = self.metas.recompute_related(new_ids, removed, old_relations)
        self._drop_docs(replaced)
        self._append_docs(prepared)
        self._update_metas(new_ids + [d for d in changed if d in self._doc_rows])
        for (pos, meta, _chunks, _stored, old), share in zip(batch, shares):
            results[pos] = {"doc_id": meta.doc_id, "action": "replaced" if old else "added", "replaced": old,
                            "embed": share}
        return docs

    def _update_metas(self, doc_ids: list[str]) -> None:
        """Reload the metadata of these documents only (added, or their status changed)."""
        metas = self.metas.get_many(doc_ids)
        with self._lock:
            self._meta.update((m.doc_id, m) for m in metas if m.doc_id in self._doc_rows)
            self._changed()
        agencies = {a for m in metas for a in m.authorities}
        if agencies:
            add_words(agencies)

    def delete_document(self, doc_id: str) -> None:
        with self._write_lock():
            if doc_id not in self._doc_rows and self.metas.get(doc_id) is None:
                raise NotFoundError(f"文档不存在：{doc_id}")
            removed = self.metas.get_many([doc_id])
            old_relations = self.metas.relations_touching([doc_id])
            self.metas.delete(doc_id)
            self._write_manifest([d for d in self._manifest()["docs"] if d != doc_id])
            self.files.remove_doc(doc_id)
            changed = self.metas.recompute_related([], removed, old_relations)
            self._drop_docs([doc_id])
            self._update_metas([d for d in changed if d in self._doc_rows])

    def update_meta(self, doc_id: str, **changes) -> DocMeta:
        """Change metadata fields (status changes should pass status_override=True)."""
        with self._write_lock():
            meta = self.metas.update(doc_id, changes)
            self._reload_metas()
            self._touch()
            return meta

    # ---- reads ---------------------------------------------------------------------------
    def get_chunk(self, chunk_id: str) -> Chunk | None:
        self.refresh()
        i = self._row_of.get(chunk_id)
        return self._chunks[i] if i is not None else None

    def chunks_of(self, doc_id: str) -> list[Chunk]:
        self.refresh()
        s, e = self._doc_rows.get(doc_id, (0, 0))
        return list(self._chunks[s:e])

    def get_meta(self, doc_id: str) -> DocMeta | None:
        self.refresh()
        return self._meta.get(doc_id)

    def list_docs(self) -> list[DocMeta]:
        self.refresh()
        return [self._meta[d] for d in self._doc_ids if d in self._meta]

    def stats(self) -> dict:
        self.refresh()
        return {"documents": len(self._doc_ids), "chunks": len(self._chunks),
                "with_vectors": int(self._has_vec.sum()), "terms": self._bm25.n_terms}

    # ---- search --------------------------------------------------------------------------
    def allowed_rows(self, principal: Principal, scenario: str | None, doc_ids: list[str] | None) -> np.ndarray:
        return self._allowed(principal, scenario, doc_ids)[1]

    def _allowed(self, principal: Principal, scenario: str | None,
                 doc_ids: list[str] | None) -> tuple[list[str], np.ndarray]:
        """The documents ``principal`` may retrieve (of ``doc_ids`` when given), in index order,
        and their rows. The last few answers are kept, keyed by everything the filter reads: the
        documents and their metadata (a version bumped by every change), who asks, the scenario,
        the day (a campaign ends at midnight)."""
        key = (self._meta_version, principal.role, principal.tenants, principal.domains,
               filters.scenario_of(principal, scenario), today().isoformat(),
               None if doc_ids is None else tuple(doc_ids))
        hit = self._allowed_cache.get(key)
        if hit is None:
            hit = self._allowed_cache[key] = self._allowed_now(principal, scenario, doc_ids)
            while len(self._allowed_cache) > 16:
                del self._allowed_cache[next(iter(self._allowed_cache))]
        return hit

    def _allowed_now(self, principal: Principal, scenario: str | None,
                     doc_ids: list[str] | None) -> tuple[list[str], np.ndarray]:
        wanted = set(doc_ids) if doc_ids is not None else None
        docs = [d for d in self._doc_ids if d in self._meta and (wanted is None or d in wanted)]
        allowed = filters.docs_allowed([self._meta[d] for d in docs], principal, scenario)
        docs = [d for d, ok in zip(docs, allowed) if ok]
        return docs, document_rows([self._doc_rows[d] for d in docs])

    def warm(self) -> bool:
        """Load the embedding model now (False when it is unavailable)."""
        from core.retrieval.embed import EmbeddingUnavailable, get_embedder

        try:
            get_embedder()
            return True
        except EmbeddingUnavailable:
            return False

    def _start_query_vector(self, query: str) -> Callable[[], np.ndarray]:
        return self._query_vectors.start(query, self.settings.dense_timeout_ms / 1000)

    def search(self, query: str, principal: Principal, k: int = 10, *, scenario: str | None = None,
               doc_ids: list[str] | None = None, weights: FusionWeights | None = None,
               lists: tuple[str, ...] = ("bm25", "dense", "title")) -> SearchResult:
        if "dense" in lists:
            self.warm()  # a first-time model load is not part of the query's latency
        t0 = time.perf_counter()
        query = (query or "").strip()
        if not query:
            raise BadInputError("检索问题不能为空")
        if k < 1:
            raise BadInputError("返回条数 k 必须为正整数")
        query = query[:MAX_QUERY_CHARS]
        cand = self.candidates(query, principal, scenario=scenario, doc_ids=doc_ids, lists=lists)
        notices, degraded = cand["notices"], cand["degraded"]
        if cand["empty"]:
            return SearchResult([], notices, (time.perf_counter() - t0) * 1000, False)
        bm25_list, dense_list, titles = cand["bm25"], cand["dense"], cand["title"]
        bm25_ev, dense_ev = cand["bm25_ev"], cand["dense_ev"]
        chunks, metas = cand["chunks"], cand["metas"]
        pool = fused_pool(query, bm25_list, dense_list, titles, degraded=degraded, weights=weights, k=k)

        from core.retrieval.rerank import rerank_pool

        pool = rerank_pool(query, pool, lambda item: chunks[item[0]].text, notices)
        evidence = hit_evidence(bm25_ev, dense_ev, titles)
        hits = [Hit(rank=rank, chunk=chunks[row], meta=metas[chunks[row].doc_id], score=float(score),
                    evidence=evidence(row, score))
                for rank, (row, score) in enumerate(pool[:k], 1)]
        return SearchResult(hits, notices, (time.perf_counter() - t0) * 1000, degraded)

    def candidates(self, query: str, principal: Principal, *, scenario: str | None = None,
                   doc_ids: list[str] | None = None, lists: tuple[str, ...] = ("bm25", "dense", "title")) -> dict:
        """The three ranked candidate lists (rows, best first) over the allowed chunks only,
        with their evidence; :meth:`search` fuses them (the benchmark tunes the fusion here)."""
        # the query is embedded on the worker thread while the allowed rows, BM25 and the titles
        # are worked out here
        query_vector = self._start_query_vector(query) if "dense" in lists and self._has_vec.any() else None
        with self._lock:
            self.refresh()
            allowed_docs, rows = self._allowed(principal, scenario, doc_ids)
            chunks, mat, has_vec, metas = self._chunks, self._mat, self._has_vec, self._meta
            doc_rows = self._doc_rows
            bm25, recorded = self._bm25, self._vector_model
            everything = rows.size == len(chunks)  # nothing filtered: skip the row gathers
        notices: list[str] = []
        out = {"empty": False, "notices": notices, "degraded": False, "bm25": [], "dense": [], "title": [],
               "bm25_ev": {}, "dense_ev": {}, "chunks": chunks, "metas": metas}
        if rows.size == 0:
            notices.append(NO_DOCUMENTS_NOTICE)
            out["empty"] = True
            return out

        if "bm25" in lists:
            out["bm25"], out["bm25_ev"] = bm25_ranked(bm25, query, rows, everything)
        named = named_documents(query, allowed_docs, metas) if "title" in lists else []
        if "dense" in lists:  # over the allowed rows that have vectors
            out["dense"], out["dense_ev"], out["degraded"] = dense_ranked(
                mat, has_vec, rows, query_vector, recorded, notices)
        if "title" in lists:  # documents the query names, their best chunks first
            out["title"] = title_ranked(query, named, chunks, doc_rows, (out["bm25"], out["dense"]))
        return out


# ---- process-wide instances --------------------------------------------------------------
_indexes: dict[tuple, object] = {}
_indexes_lock = threading.Lock()


def get_index():
    """The process-wide document index of the current workspace (embedded or Neo4j)."""
    s = get_settings()
    key = (str(s.home), s.doc_index, s.neo4j_uri)
    with _indexes_lock:
        idx = _indexes.get(key)
        if idx is None:
            if s.doc_index == "neo4j":
                from core.retrieval.neo4j_index import Neo4jIndex

                idx = Neo4jIndex(s)
            else:
                idx = EmbeddedIndex(s)
            _indexes[key] = idx
        return idx


def reset_indexes() -> None:
    with _indexes_lock:
        _indexes.clear()


# The name the API promises; the embedded backend is the default implementation.
DocumentIndex = EmbeddedIndex


__all__ = ["Hit", "SearchResult", "DocumentIndex", "EmbeddedIndex", "get_index", "reset_indexes",
           "DEGRADED_NOTICE"]
