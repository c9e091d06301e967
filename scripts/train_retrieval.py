"""Domain-adapted embeddings for retrieval (issue 17): held-out split, fine-tuning, evaluation.

One reproducible script, fixed seeds, three stages:

    python scripts/train_retrieval.py --stage split   # held-out ids -> data/eval/retrieval_heldout.json
    python scripts/train_retrieval.py --stage train   # fine-tune e5-small -> .cache/retrieval/finetuned-e5-small
    python scripts/train_retrieval.py --stage eval    # base vs fine-tuned, held-out and train questions

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stage", choices=["split", "train", "eval"], required=True)
    args = ap.parse_args()
    from bench_retrieval import DATA

    if args.stage == "split":
        out = write_split(DATA)
        print({k: (v["n_heldout"], v["n_total"]) for k, v in out.items() if isinstance(v, dict) and "heldout" in v})
        return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
