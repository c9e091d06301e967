"""Dense retrieval: a numpy matrix of L2-normalised chunk vectors; cosine = dot product.

Vectors are cached by (model, chunk content hash) in a small SQLite file, so an unchanged
chunk is never embedded twice (re-ingest, replace, rebuild, benchmark re-runs).
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import threading
import time
from collections import Counter, OrderedDict
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from core.storage.db import open_sqlite


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class VectorCache:
    """``(model, content hash) -> float32 vector`` in SQLite (safe for concurrent readers)."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._conn = open_sqlite(path, timeout=60)
        self._conn.execute("CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, h TEXT NOT NULL, "
                           "v BLOB NOT NULL, PRIMARY KEY (model, h))")
        self._conn.execute("CREATE INDEX IF NOT EXISTS vectors_by_text ON vectors (h)")
        self._conn.commit()

    def get_many(self, model: str, hashes: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        uniq = list(dict.fromkeys(hashes))
        with self._lock:
            for i in range(0, len(uniq), 500):
                part = uniq[i:i + 500]
                rows = self._conn.execute(
                    f"SELECT h, v FROM vectors WHERE model = ? AND h IN ({','.join('?' * len(part))})",
                    (model, *part)).fetchall()
                for h, v in rows:
                    out[h] = np.frombuffer(v, dtype=np.float32)
        return out

    def models_of(self, h: str) -> list[tuple[str, np.ndarray]]:
        """Every model's cached vector of one text."""
        with self._lock:
            rows = self._conn.execute("SELECT model, v FROM vectors WHERE h = ?", (h,)).fetchall()
        return [(m, np.frombuffer(v, dtype=np.float32)) for m, v in rows]

    def put_many(self, model: str, items: Iterable[tuple[str, np.ndarray]]) -> None:
        with self._lock:
            self._conn.executemany("INSERT OR REPLACE INTO vectors (model, h, v) VALUES (?, ?, ?)",
                                   [(model, h, np.asarray(v, dtype=np.float32).tobytes()) for h, v in items])
            self._conn.commit()

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def embed_with_cache(texts: Sequence[str], cache: VectorCache, model_name: str,
                     encode: Callable[[list[str]], np.ndarray], *, batch: int = 64,
                     progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, dict]:
    """Vectors for ``texts`` (row-aligned), embedding only those not in the cache.
    ``progress(done, len(texts))`` counts cached texts as done from the start.
    Returns (matrix, stats) with stats = {"cached", "embedded", "seconds"}."""
    hashes = [content_hash(t) for t in texts]
    have = cache.get_many(model_name, hashes)
    todo: dict[str, str] = {}
    for h, t in zip(hashes, texts):
        if h not in have and h not in todo:
            todo[h] = t
    t0 = time.perf_counter()
    # length-sorted batches: a batch pads to its longest text, so mixing a 40-character article
    # with a 450-character one wastes most of the work (law articles: 22 -> 34 chunks/s measured)
    items = sorted(todo.items(), key=lambda item: len(item[1]))
    copies = Counter(hashes)  # a text repeated in ``texts`` is done when its one embedding is
    done = len(texts) - sum(copies[h] for h in todo)  # texts already cached count as done
    if progress:
        progress(done, len(texts))
    for i in range(0, len(items), batch):
        part = items[i:i + batch]
        vecs = encode([t for _, t in part])
        new = [(h, vecs[j]) for j, (h, _) in enumerate(part)]
        cache.put_many(model_name, new)
        have.update({h: np.asarray(v, dtype=np.float32) for h, v in new})
        done += sum(copies[h] for h, _ in part)
        if progress:
            progress(done, len(texts))
    seconds = time.perf_counter() - t0
    dim = next(iter(have.values())).shape[0] if have else 0
    mat = np.zeros((len(texts), dim), dtype=np.float32)
    for i, h in enumerate(hashes):
        mat[i] = have[h]
    return mat, {"cached": len(texts) - len(todo), "embedded": len(todo), "seconds": seconds}


def dense_scores(matrix: np.ndarray, query_vec: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """Cosine of the query against ``matrix`` rows (all, or only ``rows``)."""
    if rows is None:
        return matrix @ query_vec
    return matrix[rows] @ query_vec


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` best scores, best first (ties broken by index)."""
    k = min(k, scores.shape[0])
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    part = np.argpartition(-scores, k - 1)[:k]
    return part[np.lexsort((part, -scores[part]))]


class QueryVectors:
    """Query vectors of the process's embedder, the last ``size`` queries kept (least recently
    used dropped first). Encoding runs on one worker thread and is given ``timeout_s``: past it
    :class:`TimeoutError` is raised at once (the caller degrades to keywords + titles) while the
    late vector is still computed and cached for the next asker. Loading the model is not timed."""

    def __init__(self, size: int = 256):
        self.size = size
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._pool = cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix="dense-query")

    def start(self, query: str, timeout_s: float) -> Callable[[], np.ndarray]:
        """Begin encoding ``query`` on the worker now, so that the caller ranks its other lists
        meanwhile (the C engine runs without the GIL); the returned function gives the vector,
        waiting at most until ``timeout_s`` after this call. Whatever fails here (no model) is
        raised by the returned function, where the caller degrades."""
        from core.retrieval.embed import get_embedder

        with self._lock:
            vec = self._cache.get(query)
            if vec is not None:
                self._cache.move_to_end(query)
                return lambda: vec
        deadline = time.monotonic() + timeout_s
        try:
            fut = self._pool.submit(self._encode, get_embedder(), query)
        except Exception as exc:  # noqa: BLE001 - raised where the vector is asked for
            failure = exc

            def fail() -> np.ndarray:
                raise failure
            return fail
        return lambda: fut.result(timeout=max(0.0, deadline - time.monotonic()))

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()

    def _encode(self, emb, query: str) -> np.ndarray:
        vec = emb.encode_queries([query])[0]
        with self._lock:
            self._cache[query] = vec
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return vec
