"""Passage-embedding throughput on law articles, and what raises it (prints JSON;
scripts/bench_all.py renders it).

    python scripts/bench_embedding.py [--sample 1024] [--articles 3000] [--questions 50]

Every option embeds the same random sample of article chunks of ../shared/data/laws with the
bundled e5-small (sentence-transformers folder, CPU):

- ``unsorted_batches``: the texts in corpus order, 64 per call (what the cache helper did before
  it sorted: each call pads its batches to their longest text);
- ``sorted_bs8`` / ``sorted_bs16`` / ``sorted_bs32``: the whole sample sorted by length first
  (what ``core.retrieval.dense.embed_with_cache`` does now), at three batch sizes;
- ``sorted_bs16_1thread``: the same with one torch thread instead of the default (≤ 4);
- ``sorted_bs16_int8``: torch dynamic int8 quantisation of the linear layers.

The int8 model's effect on retrieval: every chunk of the comparison corpus (the most-cited laws
up to ``--articles``) is embedded with it, and dense recall@10 on ``--questions`` LeCoQA questions
is compared with the shipped fp32 vectors (same query vectors; from the content-hash cache).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))


def _rate(encode, texts: list[str], calls: list[list[str]]) -> dict:
    encode(texts[:16])  # warm up to these lengths
    t, c0 = time.perf_counter(), time.process_time()
    for part in calls:
        encode(part)
    wall, cpu = time.perf_counter() - t, time.process_time() - c0
    return {"chunks_per_s": round(len(texts) / wall, 1), "wall_s": round(wall, 2), "cpu_s": round(cpu, 2)}


def _by_length(texts: list[str], size: int = 64) -> list[list[str]]:
    s = sorted(texts, key=len)
    return [s[i:i + size] for i in range(0, len(s), size)]


def int8_model(model):
    import torch

    return torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)


def throughput(sample: list[str]) -> dict:
    import torch

    from core.retrieval.embed import get_embedder

    st = get_embedder().passage_model()
    prefixed = ["passage: " + t for t in sample]

    def enc(model, bs):
        return lambda texts: model.encode(texts, batch_size=bs, normalize_embeddings=True, show_progress_bar=False)

    corpus_order = [prefixed[i:i + 64] for i in range(0, len(prefixed), 64)]
    out = {"unsorted_batches": _rate(enc(st.model, 16), prefixed, corpus_order)}
    for bs in (8, 16, 32):
        out[f"sorted_bs{bs}"] = _rate(enc(st.model, bs), prefixed, _by_length(prefixed))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        out["sorted_bs16_1thread"] = _rate(enc(st.model, 16), prefixed, _by_length(prefixed))
    finally:
        torch.set_num_threads(threads)
    out["sorted_bs16_int8"] = _rate(enc(int8_model(st.model), 16), prefixed, _by_length(prefixed))
    out["torch_threads"] = threads
    return out


def int8_recall(articles: int, n_questions: int) -> dict:
    """Dense recall@10 with fp32 (shipped) vs int8 passage vectors, and their cosine."""
    from bench_compare import passage_vectors, select_corpus, top10
    from bench_retrieval import gold_fn

    from core.retrieval.embed import get_embedder

    chunks, metas, questions = select_corpus(articles, n_questions)
    gold = gold_fn(chunks, metas)
    fp32 = passage_vectors(chunks)
    emb = get_embedder()
    q8 = int8_model(emb.passage_model().model)
    texts = ["passage: " + c.text for c in chunks]
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # length-sorted, rows kept in place
    int8 = np.zeros_like(fp32)
    for i in range(0, len(order), 64):
        rows = order[i:i + 64]
        int8[rows] = q8.encode([texts[r] for r in rows], batch_size=16, normalize_embeddings=True, show_progress_bar=False)
    ids = [c.chunk_id for c in chunks]
    rec = {"fp32": [], "int8": []}
    for q in questions:
        g = gold(q)
        qv = emb.encode_queries([q["question"]])[0]
        for name, mat in (("fp32", fp32), ("int8", int8)):
            rec[name].append(len(set(top10(mat @ qv, ids)) & g) / len(g))
    cos = (fp32 * int8).sum(1)
    return {"chunks": len(chunks), "questions": len(questions),
            "dense_recall_at_10_fp32": round(float(np.mean(rec["fp32"])), 4),
            "dense_recall_at_10_int8": round(float(np.mean(rec["int8"])), 4),
            "cosine_int8_vs_fp32_mean": round(float(cos.mean()), 4), "cosine_int8_vs_fp32_min": round(float(cos.min()), 4)}


def run(sample_size: int, articles: int, n_questions: int, seed: int = 11) -> dict:
    from bench_retrieval import build_laws_corpus

    chunks, _metas, _q = build_laws_corpus(10**9)
    sample = [c.text for c in random.Random(seed).sample(chunks, min(sample_size, len(chunks)))]
    lengths = sorted(len(t) for t in sample)
    out = {"sample": len(sample), "corpus_chunks": len(chunks),
           "chars_p50_p90_max": [lengths[len(lengths) // 2], lengths[int(len(lengths) * 0.9)], lengths[-1]],
           "options": throughput(sample)}
    out["int8_recall"] = int8_recall(articles, n_questions)
    base = out["options"]["sorted_bs16"]["chunks_per_s"]
    out["whole_corpus_embed_min_at_sorted_bs16"] = round(len(chunks) / base / 60, 1) if base else None
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=1024)
    ap.add_argument("--articles", type=int, default=3000)
    ap.add_argument("--questions", type=int, default=50)
    args = ap.parse_args(argv)
    os.environ.setdefault("ZHICE_MODEL_CACHE", str(REPO / ".cache" / "models"))
    print(json.dumps(run(args.sample, args.articles, args.questions), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
