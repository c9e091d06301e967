"""The held-out split and the ranking metrics of scripts/train_retrieval.py (no model, no training)."""
import importlib.util
import json
import math
import os

import pytest

_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "train_retrieval.py")
_spec = importlib.util.spec_from_file_location("train_retrieval", _PATH)
tr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tr)


def test_split_is_stable_disjoint_and_about_a_quarter():
    ids = [f"q-{i}" for i in range(4000)]
    train, held = tr.split_ids(ids)
    assert (train, held) == tr.split_ids(list(ids))            # stable
    assert not set(train) & set(held)                           # disjoint
    assert sorted(train + held) == sorted(ids)                  # nothing lost
    assert abs(len(held) / len(ids) - tr.HELDOUT_FRACTION) < 0.03
    # an id's side does not depend on the other ids, only on (seed, id)
    assert tr.split_ids(ids[:100])[1] == [i for i in held if i in set(ids[:100])]
    assert tr.split_ids(ids, seed=tr.SEED + 1)[1] != held


def test_committed_heldout_file_matches_the_rule():
    raw = json.loads(tr.HELDOUT_FILE.read_text(encoding="utf-8"))
    assert raw["seed"] == tr.SEED and raw["fraction"] == tr.HELDOUT_FRACTION
    for name in ("lecoqa", "msga"):
        held = raw[name]["heldout"]
        assert len(held) == raw[name]["n_heldout"] == len(set(held))
        assert all(tr.heldout_bucket(i) < tr.HELDOUT_FRACTION for i in held)
        assert 0.2 < len(held) / raw[name]["n_total"] < 0.3


def test_training_pairs_never_use_heldout_questions_or_their_golds():
    from core.documents.models import Chunk

    chunks = [Chunk(chunk_id=f"c{i}", doc_id="d", ord=i, text=t, body=t, kind="prose")
              for i, t in enumerate(["租房补贴申请条件", "租房补贴发放标准", "公积金提取办法"])]
    qs = [{"id": "a", "question": "租房补贴怎么申请", "gold": "c0"},
          {"id": "b", "question": "租房补贴标准是多少", "gold": "c1"}]
    sets = (chunks, [], qs, lambda q: {q["gold"]})
    pairs = tr.training_pairs(sets, {"b"}, negatives=True)
    assert [p["id"] for p in pairs] == ["a"]
    assert pairs[0]["pos"] == "租房补贴申请条件"
    assert pairs[0]["neg"] != "租房补贴发放标准"                # held-out gold is never a negative


def test_batches_hold_no_duplicate_texts():
    import random

    pairs = [{"q": f"q{i % 5}", "pos": f"p{i}", "neg": None} for i in range(20)]
    out = tr.batches(pairs, 4, random.Random(0))
    assert sorted(p["pos"] for b in out for p in b) == sorted(p["pos"] for p in pairs)
    for b in out:
        assert len({p["q"] for p in b}) == len(b) <= 4


def test_metrics_on_a_tiny_ranking():
    ranked = ["x", "g1", "y", "g2", "z"]
    gold = {"g1", "g2", "g3"}
    assert tr.recall_at(ranked, gold, 2) == pytest.approx(1 / 3)
    assert tr.recall_at(ranked, gold, 10) == pytest.approx(2 / 3)
    assert tr.mrr_at(ranked, gold) == pytest.approx(0.5)
    assert tr.mrr_at(["x", "y"], gold) == 0.0
    assert tr.mrr_at(ranked, {"g2"}, k=3) == 0.0                # beyond the cut-off
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert tr.ndcg_at(ranked, gold, 10) == pytest.approx(dcg / ideal)
    assert tr.ndcg_at(["g1"], {"g1"}, 10) == pytest.approx(1.0)
    assert tr.recall_at(ranked, set(), 10) == 0.0


def test_score_lists_and_paired_bootstrap():
    per_q = [({"dense": ["g", "x"]}, {"g"}), ({"dense": ["x", "y"]}, {"g"})]
    res = tr.score_lists(per_q)["dense"]
    assert res["recall@10"] == pytest.approx(0.5) and res["per_query"]["mrr@10"] == [1.0, 0.0]
    d, lo, hi = tr.paired_bootstrap([0, 0, 1, 1], [1, 1, 1, 1])
    assert d == pytest.approx(0.5) and lo <= d <= hi and lo >= 0.0
    assert tr.paired_bootstrap([1, 0], [1, 0]) == (0.0, 0.0, 0.0)


def test_levers_rank_like_the_product_by_default_and_feedback_moves_the_dense_list():
    """The lever grid's default is the product's fusion (the same list as core.retrieval.fusion's
    weighted RRF); pseudo-relevance feedback searches the dense list again around the fused first
    hit, so an article near that hit rises above one that only resembled the question."""
    import numpy as np

    from core.retrieval.fusion import rrf, weights_for

    texts = ["汽车报废更新补贴标准", "家电以旧换新补贴", "汽车置换更新补贴申请材料", "个人所得税专项附加扣除"]
    bm25 = tr.bm25_over(texts)
    ids = [f"c{i}" for i in range(len(texts))]
    mat = np.eye(4, dtype=np.float32) + np.float32(0.1)
    mat[2, 0] = 0.9  # c2 lies close to c0
    mat /= np.linalg.norm(mat, axis=1, keepdims=True)
    q = np.array([0.6, 0.0, 0.0, 0.8], dtype=np.float32)  # closest to c3, then c0
    out = tr.ranked_lists(bm25, mat, ids, "汽车补贴", q)
    w = weights_for(False)
    assert out["dense"] == ["c3", "c0", "c2", "c1"]
    assert out["hybrid"] == [x for x, _ in rrf({"bm25": out["bm25"], "dense": out["dense"]},
                                               {"bm25": w.bm25, "dense": w.dense})]
    assert out["hybrid"][0] == "c0"  # BM25 lifts c0 over c3
    moved = tr.ranked_lists(bm25, mat, ids, "汽车补贴", q,
                            {"bm25": 0.2, "rrf_k": 60, "prf_docs": 1, "prf_from": "hybrid", "prf_beta": 3.0})
    assert moved["dense"][:3] == ["c0", "c2", "c3"] and moved["bm25"] == out["bm25"]
    assert tr.lever_name({"bm25": 0.3, "rrf_k": 20}) == "RRF BM25 0.3 / dense 0.7, k 20"
