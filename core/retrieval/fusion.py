"""Weighted reciprocal-rank fusion: ``score(d) = Σ_m w_m / (k + rank_m(d))`` (ranks from 1).

Default weights come from scripts/bench_retrieval.py on the dev sets (see README): dense
outranks BM25 on both sets, so dense gets the larger share; a query that names a 文号 or an
article (第X条) shifts weight to BM25, whose exact tokens match it. The title path (query
entities matched against document titles / 文号) is a third list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Sequence

RRF_K = 60


@dataclass(frozen=True)
class FusionWeights:
    bm25: float
    dense: float
    title: float


# Tuned on the dev sets (scripts/bench_retrieval.py, 300 sampled questions each): BM25 0.2 /
# dense 0.8 gave LeCoQA recall@10 0.643 (dense alone 0.629, BM25 0.550, equal weights 0.622)
# and MSGA recall@5 0.900 (dense 0.903, BM25 0.830, equal weights 0.887). The title list has
# no measurable effect on these sets (their questions rarely name a document) and keeps the
# seed's 0.5 for queries that do.
DEFAULT_WEIGHTS = FusionWeights(bm25=0.2, dense=0.8, title=0.5)
EXACT_REF_WEIGHTS = FusionWeights(bm25=0.7, dense=0.3, title=0.5)


def weights_for(has_exact_reference: bool, base: FusionWeights | None = None) -> FusionWeights:
    base = base or DEFAULT_WEIGHTS
    if has_exact_reference:
        return FusionWeights(bm25=max(base.bm25, EXACT_REF_WEIGHTS.bm25),
                             dense=min(base.dense, EXACT_REF_WEIGHTS.dense), title=base.title)
    return base


def rrf(lists: dict[str, Sequence[Hashable]], weights: dict[str, float], k: int = RRF_K) -> list[tuple[Hashable, float]]:
    """Fuse ranked lists (best first). Returns (item, fused score), best first; ties keep
    the order of first appearance."""
    scores: dict[Hashable, float] = {}
    order: dict[Hashable, int] = {}
    for name, items in lists.items():
        w = weights.get(name, 0.0)
        if w <= 0:
            continue
        for rank, item in enumerate(items, 1):
            scores[item] = scores.get(item, 0.0) + w / (k + rank)
            order.setdefault(item, len(order))
    return sorted(scores.items(), key=lambda kv: (-kv[1], order[kv[0]]))
