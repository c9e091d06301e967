"""Steps of hybrid retrieval apart from where the chunks are stored: the embedded index's three
candidate lists over its in-memory snapshot (BM25 scores, the vector matrix, the title path;
:meth:`core.retrieval.index.EmbeddedIndex.candidates`), and for both backends the weighted-RRF
fusion of the lists and each hit's evidence (:mod:`core.retrieval.neo4j_index` ranks its lists
in Neo4j).

A ranked list is its keys (row numbers, chunk ids), best first; its evidence maps a key to its
(rank, score) in that list."""

from __future__ import annotations

from typing import Callable, Hashable, Sequence

import numpy as np

from core.documents.models import Chunk, DocMeta
from core.retrieval import vector_model
from core.retrieval.bm25 import BM25Index
from core.retrieval.dense import top_k
from core.retrieval.doc_refs import title_list, title_matches
from core.retrieval.fusion import FusionWeights, rrf, weights_for
from core.retrieval.protocol import CANDIDATES, DEGRADED_NOTICE
from core.retrieval.tokenize import has_exact_reference, tokenize

Evidence = dict[int, tuple[int, float]]


def document_rows(spans: list[tuple[int, int]]) -> np.ndarray:
    """The rows of documents given by their (start, end) row spans, in that order."""
    spans_ = np.array(spans, dtype=np.int64).reshape(-1, 2)
    lengths = spans_[:, 1] - spans_[:, 0]
    starts = np.cumsum(lengths) - lengths  # where each document's rows begin in the result
    return np.arange(int(lengths.sum())) + np.repeat(spans_[:, 0] - starts, lengths)


def bm25_ranked(bm25: BM25Index, query: str, rows: np.ndarray, everything: bool) -> tuple[list[int], Evidence]:
    """The allowed ``rows`` by BM25 score (above 0), at most ``CANDIDATES``; ``everything``:
    ``rows`` are all the rows, so no gather is needed."""
    ranked: list[int] = []
    evidence: Evidence = {}
    # documents appended since the snapshot was taken are not among ``rows``
    s = bm25.scores(tokenize(query), None if everything else rows)[:rows.size]
    for r, i in enumerate(top_k(s, CANDIDATES), 1):
        if s[i] <= 0:
            break
        ranked.append(int(rows[i]))
        evidence[int(rows[i])] = (r, float(s[i]))
    return ranked, evidence


def dense_ranked(mat: np.ndarray, has_vec: np.ndarray, rows: np.ndarray, query_vector: Callable[[], np.ndarray],
                 recorded_model: str | None, notices: list[str]) -> tuple[list[int], Evidence, bool]:
    """The allowed ``rows`` that have vectors by similarity to ``query_vector()``, at most
    ``CANDIDATES``, and whether dense retrieval degraded, its notice added to ``notices``: the
    vectors are not the configured model's (``recorded_model``), or there are none, or the
    model is unavailable or too slow."""
    ranked: list[int] = []
    evidence: Evidence = {}
    vrows = rows[has_vec[rows]] if has_vec.size else rows[:0]
    if not vector_model.usable(recorded_model):  # never a query of one model against another's vectors
        notices.append(vector_model.MISMATCH_NOTICE)
        return ranked, evidence, True
    try:
        if vrows.size == 0:
            raise LookupError("no vectors")
        qv = query_vector()
        s = mat @ qv if vrows.size == mat.shape[0] else mat[vrows] @ qv
        for r, i in enumerate(top_k(s, CANDIDATES), 1):
            ranked.append(int(vrows[i]))
            evidence[int(vrows[i])] = (r, float(s[i]))
    except Exception:  # noqa: BLE001 - no vectors, unavailable model, timeout: degrade
        notices.append(DEGRADED_NOTICE)
        return ranked, evidence, True
    return ranked, evidence, False


def named_documents(query: str, allowed_docs: list[str], metas: dict[str, DocMeta]) -> list[str]:
    """The allowed documents the query names by title or 文号, best first
    (:func:`core.retrieval.doc_refs.title_matches`)."""
    matched = title_matches(query, [metas[d] for d in allowed_docs],
                            [a for d in allowed_docs for a in metas[d].authorities])
    return [d for d, _ in matched]


def title_ranked(query: str, named: list[str], chunks: list[Chunk], doc_rows: dict[str, tuple[int, int]],
                 ranked_lists: Sequence[list[int]]) -> list[int]:
    """The title path: the ``named`` documents' best chunks first
    (:func:`core.retrieval.doc_refs.title_list`, ordered by ``ranked_lists``)."""
    return title_list(query, named, lambda d: [(r, chunks[r].heading) for r in range(*doc_rows[d])], ranked_lists)


def fused_pool(query: str, bm25: list, dense: list, title: list, *, degraded: bool,
               weights: FusionWeights | None, k: int) -> list[tuple[Hashable, float]]:
    """The candidates worth reranking, (key, fused score) best first: the three lists fused by
    weighted RRF (``weights``, else those for the query; the dense list weighs nothing when it
    degraded), the best ``max(k, 30)``."""
    w = weights or weights_for(has_exact_reference(query))
    fused = rrf({"bm25": bm25, "dense": dense, "title": title},
                {"bm25": w.bm25, "dense": 0.0 if degraded else w.dense, "title": w.title})
    return fused[:max(k, 30)]


def hit_evidence(bm25_ev: dict, dense_ev: dict, title: list) -> Callable[[Hashable, float], dict]:
    """A hit's evidence from its key and fused score: its (rank, score) in the BM25 and dense
    lists, its rank on the title path, the fused score."""
    title_rank = {key: i + 1 for i, key in enumerate(dict.fromkeys(title))}

    def evidence(key: Hashable, score: float) -> dict:
        return {"bm25": bm25_ev.get(key), "dense": dense_ev.get(key), "title": title_rank.get(key),
                "fused": float(score)}

    return evidence
