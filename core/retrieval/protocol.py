"""What a document index is, whichever backend holds it: the embedded index
(:mod:`core.retrieval.index`) and the Neo4j index (:mod:`core.retrieval.neo4j_index`) both
implement :class:`DocumentIndexProtocol`, return :class:`SearchResult` s of :class:`Hit` s, and
read chunks back with :func:`chunk_from_dict`. Callers (services, agents) depend on this
module's surface only; ``tests/contracts/doc_index_contract.py`` checks both backends keep it.

A search filters by permission (tenant, business domain, review state, validity for the
principal's scenario) before scoring, so a hit is always one the principal may see."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from core.documents.models import Chunk, DocMeta, Span
from core.security.principals import Principal

DEGRADED_NOTICE = "向量检索不可用，已降级为关键词+标题检索"
NO_DOCUMENTS_NOTICE = "没有可检索的文档（按当前账号的租户、业务域和有效性范围）"
CANDIDATES = 100          # per list, before fusion
MAX_QUERY_CHARS = 2000


@dataclass
class Hit:
    rank: int
    chunk: Chunk
    meta: DocMeta
    score: float
    evidence: dict  # {"bm25": (rank, score)|None, "dense": (rank, cos)|None, "title": rank|None, "fused": float}


@dataclass
class SearchResult:
    hits: list[Hit]
    notices: list[str] = field(default_factory=list)
    latency_ms: float = 0.0
    degraded: bool = False


@runtime_checkable
class DocumentIndexProtocol(Protocol):
    """The methods both backends implement and callers use. ``add_documents`` takes
    ``(meta, chunks, stored_path)`` triples and returns one ``{"doc_id", "action", "replaced",
    "embed"[, "error"]}`` per item (``action``: added / replaced / unchanged / error).
    ``vector_model`` is the identity of the model that built the vectors and ``reembed`` rebuilds
    them with the configured one (:mod:`core.retrieval.vector_model`)."""

    def search(self, query: str, principal: Principal, k: int = 10, *, scenario: str | None = None,
               doc_ids: list[str] | None = None) -> SearchResult: ...
    def add_document(self, meta: DocMeta, chunks: list[Chunk], *, user: str | None = None,
                     stored_path: str | None = None) -> dict: ...
    def add_documents(self, items: list, *, user: str | None = None) -> list[dict]: ...
    def has_document(self, doc_id: str) -> bool: ...
    def delete_document(self, doc_id: str) -> None: ...
    def update_meta(self, doc_id: str, **changes) -> DocMeta: ...
    def get_chunk(self, chunk_id: str) -> Chunk | None: ...
    def chunks_of(self, doc_id: str) -> list[Chunk]: ...
    def get_meta(self, doc_id: str) -> DocMeta | None: ...
    def list_docs(self) -> list[DocMeta]: ...
    def stats(self) -> dict: ...
    def vector_model(self) -> str | None: ...
    def reembed(self) -> dict: ...


def chunk_from_dict(d: dict) -> Chunk:
    """A chunk back from its stored form (:meth:`Chunk.to_dict`)."""
    spans = [Span(page=s["page"], bbox=tuple(s["bbox"]) if s.get("bbox") else None, para=s.get("para"))
             for s in d.get("spans", [])]
    return Chunk(chunk_id=d["chunk_id"], doc_id=d["doc_id"], ord=d["ord"], text=d["text"], body=d["body"],
                 heading=d.get("heading", ""), path=list(d.get("path", [])), kind=d.get("kind", "prose"),
                 page_start=d.get("page_start", 1), page_end=d.get("page_end", 1), spans=spans)


def hit_to_dict(hit: Hit) -> dict:
    """The CLI/agent JSON shape of one hit."""
    c, m = hit.chunk, hit.meta
    return {"rank": hit.rank, "chunk_id": c.chunk_id, "doc_id": c.doc_id, "file_name": m.file_name,
            "doc_number": m.doc_number, "page": c.page_start, "score": round(hit.score, 6), "text": c.text,
            "title": m.title, "heading": c.heading, "status": m.status,
            "evidence": {k: (list(v) if isinstance(v, tuple) else v) for k, v in hit.evidence.items()}}


__all__ = ["CANDIDATES", "DEGRADED_NOTICE", "MAX_QUERY_CHARS", "DocumentIndexProtocol", "Hit", "SearchResult",
           "chunk_from_dict", "hit_to_dict"]
