"""Okapi BM25 over an inverted index: the same scores as ``rank_bm25.BM25Okapi`` (k1=1.5,
b=0.75, epsilon=0.25: negative idf floored at epsilon × mean idf), computed from the postings
of the query terms only, with idf and the length normalisation taken from the live corpus
statistics at query time.

Adding documents costs in proportion to their own size: their postings go to a small tail
(term -> rows), document frequencies and lengths are updated in place, and nothing already
indexed is touched. The tail is merged into the term-major base matrix (a scipy CSC of term
frequencies) once it holds a quarter of the base (amortised O(1) per added row). Removing rows
builds a new index from the per-document term counts kept in memory (no re-tokenising).
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from typing import Iterable, Sequence

import numpy as np
from scipy import sparse

TAIL_MIN_ROWS = 512  # the tail is merged once it holds max(this, base rows / 4) rows


class BM25Index:
    def __init__(self, k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25):
        self.k1, self.b, self.epsilon = k1, b, epsilon
        self._lock = threading.Lock()
        self.vocab: dict[str, int] = {}
        self._rows: list[tuple[np.ndarray, np.ndarray]] = []  # per document: (term ids, counts)
        self._lens = np.zeros(0)  # per document: token count (a buffer: the first n_docs entries)
        self._rebuild()

    # ---- building ----------------------------------------------------------------------
    def _encode(self, tokens: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        counts = Counter(tokens)
        ids = np.empty(len(counts), dtype=np.int32)
        cnt = np.empty(len(counts), dtype=np.float32)
        for i, (t, c) in enumerate(counts.items()):
            tid = self.vocab.get(t)
            if tid is None:
                tid = self.vocab[t] = len(self.vocab)
            ids[i], cnt[i] = tid, c
        return ids, cnt

    def set_documents(self, docs: Iterable[Sequence[str]]) -> None:
        """Replace the documents (read once, in order: a generator is fine)."""
        with self._lock:
            self.vocab = {}
            self._rows, lens = [], []
            for d in docs:
                self._rows.append(self._encode(d))
                lens.append(len(d))
            self._lens = np.array(lens, dtype=np.float64)
            self._rebuild()

    def add_documents(self, docs: Iterable[Sequence[str]]) -> None:
        """Append documents (rows n, n+1, …): cost in proportion to their tokens."""
        with self._lock:
            for d in docs:
                ids, cnt = self._encode(d)
                row = len(self._rows)
                self._rows.append((ids, cnt))
                self._lens = _grow(self._lens, row + 1)
                self._lens[row] = len(d)
                self._total_len += len(d)
                self._df = _grow(self._df, len(self.vocab))
                self._df[ids] += 1
                for tid, c in zip(ids.tolist(), cnt.tolist()):
                    post = self._tail.get(tid)
                    if post is None:
                        post = self._tail[tid] = ([], [])
                    post[0].append(row)
                    post[1].append(c)
            self._avg_idf = None
            if len(self._rows) - self._base_rows > max(TAIL_MIN_ROWS, self._base_rows // 4):
                self._merge()

    def without_rows(self, rows: Sequence[int]) -> "BM25Index":
        """A new index without ``rows`` (the others renumbered in order); this one is left
        as it is for searches in flight."""
        drop = set(int(r) for r in rows)
        out = BM25Index(self.k1, self.b, self.epsilon)
        with self._lock:
            keep = [i for i in range(len(self._rows)) if i not in drop]
            out.vocab = dict(self.vocab)
            out._rows = [self._rows[i] for i in keep]
            out._lens = self._lens[keep] if keep else np.zeros(0)
        out._rebuild()
        return out

    @property
    def n_docs(self) -> int:
        return len(self._rows)

    @property
    def n_terms(self) -> int:
        """Distinct terms in the documents present (the vocabulary keeps removed ones)."""
        return int((self._df > 0).sum())

    def _rebuild(self) -> None:
        """Statistics and the base matrix from ``_rows`` / ``_lens`` (set or after removals)."""
        self._total_len = float(self._lens[:len(self._rows)].sum())
        self._df = np.zeros(len(self.vocab), dtype=np.int64)
        for ids, _ in self._rows:
            self._df[ids] += 1
        self._merge()

    def _merge(self) -> None:
        """Fold the tail into the base matrix (term-major term frequencies)."""
        n, v = len(self._rows), len(self.vocab)
        indptr = np.zeros(n + 1, dtype=np.int64)
        indptr[1:] = np.cumsum([len(r[0]) for r in self._rows])
        indices = np.concatenate([r[0] for r in self._rows]) if indptr[-1] else np.zeros(0, np.int32)
        tf = np.concatenate([r[1] for r in self._rows]).astype(np.float64) if indptr[-1] else np.zeros(0)
        self._base = sparse.csr_matrix((tf, indices, indptr), shape=(n, v)).tocsc()
        self._base.sort_indices()
        self._base_rows = n
        self._tail: dict[int, tuple[list[int], list[float]]] = {}
        self._avg_idf = None

    # ---- scoring -------------------------------------------------------------------------
    def query_vector(self, tokens: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(term ids, multiplicities) of the known query terms."""
        c = Counter(t for t in tokens if t in self.vocab)
        ids = np.array([self.vocab[t] for t in c], dtype=np.int64)
        mult = np.array(list(c.values()), dtype=np.float64)
        return ids, mult

    def _idf(self, ids: np.ndarray, n: int) -> np.ndarray:
        df = self._df[ids].astype(np.float64)
        idf = np.log(n - df + 0.5) - np.log(df + 0.5)
        if (idf < 0).any():
            if self._avg_idf is None:
                # rank_bm25 averages idf over the corpus vocabulary (terms that occur) and
                # floors negative values at epsilon × that average
                all_df = self._df.astype(np.float64)
                present = all_df > 0
                all_idf = np.log(n - all_df + 0.5) - np.log(all_df + 0.5)
                self._avg_idf = all_idf[present].sum() / max(1, int(present.sum()))
            idf = np.where(idf < 0, self.epsilon * self._avg_idf, idf)
        return np.where(df > 0, idf, 0.0)

    def _postings(self, tid: int) -> tuple[np.ndarray, np.ndarray]:
        rows, tf = np.zeros(0, dtype=np.int64), np.zeros(0)
        if tid < self._base.shape[1]:
            s, e = self._base.indptr[tid], self._base.indptr[tid + 1]
            rows, tf = self._base.indices[s:e], self._base.data[s:e]
        tail = self._tail.get(tid)
        if tail:
            rows = np.concatenate([rows, np.asarray(tail[0], dtype=rows.dtype)])
            tf = np.concatenate([tf, np.asarray(tail[1], dtype=np.float64)])
        return rows, tf

    def scores(self, tokens: Sequence[str], rows: np.ndarray | None = None) -> np.ndarray:
        """BM25 score of every document (or only ``rows``, in that order) for the query.
        Repeated query terms count repeatedly, as in rank_bm25."""
        with self._lock:  # a consistent snapshot; the arithmetic runs outside the lock
            n = self.n_docs
            ids, mult = self.query_vector(tokens)
            if n == 0 or len(ids) == 0:
                return np.zeros(n if rows is None else len(rows))
            idf = self._idf(ids, n)
            postings = [self._postings(int(t)) for t in ids]
            lens, avgdl = self._lens[:n], self._total_len / n
        parts_r, parts_w = [], []
        for (r, tf), w_idf, m in zip(postings, idf, mult):
            if len(r):
                denom = tf + self.k1 * (1 - self.b + self.b * lens[r] / avgdl)
                parts_r.append(r)
                parts_w.append(w_idf * tf * (self.k1 + 1) / denom * m)
        out = (np.bincount(np.concatenate(parts_r), weights=np.concatenate(parts_w), minlength=n)
               if parts_r else np.zeros(n))
        return out if rows is None else out[rows]


def _grow(arr: np.ndarray, size: int) -> np.ndarray:
    """``arr`` with room for ``size`` entries (capacity doubles; new entries are zero)."""
    if len(arr) >= size:
        return arr
    out = np.zeros(max(size, 2 * len(arr), 16), dtype=arr.dtype)
    out[:len(arr)] = arr
    return out


def reference_scores(corpus: Sequence[Sequence[str]], query: Sequence[str], k1: float = 1.5, b: float = 0.75,
                     epsilon: float = 0.25) -> list[float]:
    """Textbook BM25Okapi, term by term (for tests)."""
    n = len(corpus)
    avgdl = sum(len(d) for d in corpus) / n
    df: Counter = Counter()
    for d in corpus:
        df.update(set(d))
    idf = {t: math.log(n - f + 0.5) - math.log(f + 0.5) for t, f in df.items()}
    avg = sum(idf.values()) / len(idf)
    idf = {t: (epsilon * avg if v < 0 else v) for t, v in idf.items()}
    out = []
    for d in corpus:
        tf = Counter(d)
        s = 0.0
        for q in query:
            f = tf.get(q, 0)
            s += idf.get(q, 0.0) * f * (k1 + 1) / (f + k1 * (1 - b + b * len(d) / avgdl))
        out.append(s)
    return out
