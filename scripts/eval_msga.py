"""Policy Q&A (rules mode) on real citizen questions: MSGABench government-service questions
answered over a small document set made of their gold passages plus distractor passages.

Sampled from ../shared/data/qa (never copied into the repo): N dev questions, their gold
passages, and D further passages (half from the same departments as the sampled questions,
so they are near misses, half random). Every passage is written as a .txt file named by its
id: a neutral first line (问答资料 + id, which the parser takes as the title) and the body
text (each question equals its passage's title, so real titles would make the task trivial),
then ingested into a throw-away workspace as the demo tenant.

Prints, over the sampled questions: the share answered citing the gold passage, the share
refused, the share answered from a wrong passage only, and the median latency.

    python scripts/eval_msga.py                        # 40 questions, 60 distractors, seed 7
    python scripts/eval_msga.py --questions 60 --seed 3 --show wrong,refused
    python scripts/eval_msga.py --home .cache/msga-eval   # keep (and reuse) the workspace
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DATA = Path(os.environ.get("ZHICE_SHARED_DATA", REPO.parent / "shared" / "data"))


def sample(n_questions: int, n_distractors: int, seed: int) -> tuple[list[dict], list[dict]]:
    passages = {p["id"]: p for p in map(json.loads, (DATA / "qa" / "msga-govqa-passages.jsonl").open(encoding="utf-8"))}
    questions = [q for q in map(json.loads, (DATA / "qa" / "msga-govqa-dev.jsonl").open(encoding="utf-8"))
                 if q.get("gold_passage") in passages]
    rng = random.Random(seed)
    picked = rng.sample(questions, min(n_questions, len(questions)))
    gold = {q["gold_passage"] for q in picked}
    depts = {q.get("department") for q in picked}
    rest = [p for pid, p in sorted(passages.items()) if pid not in gold]
    near = [p for p in rest if p.get("department") in depts]
    far = [p for p in rest if p.get("department") not in depts]
    k_near = min(len(near), n_distractors // 2)
    chosen = rng.sample(near, k_near)
    chosen += rng.sample(far, min(len(far), n_distractors - k_near))
    docs = [passages[g] for g in sorted(gold)] + chosen
    return picked, docs


def ingest(home: Path, docs: list[dict]) -> None:
    from core.security.principals import resolve_user
    from core.services.ingest import ingest_paths

    marker = home / "msga-docs.json"
    ids = sorted(d["id"] for d in docs)
    if marker.exists() and json.loads(marker.read_text(encoding="utf-8")) == ids:
        return  # the same sample is already indexed in this workspace
    src = home / "msga-passages"
    src.mkdir(parents=True, exist_ok=True)
    files = []
    for d in docs:
        f = src / f"{d['id']}.txt"
        # a short neutral first line (the parser takes it as the title): the id, not the passage
        # title, which equals the question
        f.write_text(f"问答资料{d['id']}\n{d['text']}", encoding="utf-8")
        files.append(f)
    t0 = time.perf_counter()
    report = ingest_paths(files, resolve_user(None), "demo", approve=True)
    if report["errors"]:
        print("ingest errors:", report["errors"][:5])
    print(f"ingested {len(report['documents'])} passages in {time.perf_counter() - t0:.1f} s")
    marker.write_text(json.dumps(ids), encoding="utf-8")


def evaluate(questions: list[dict], show: set[str]) -> dict:
    from core.security.principals import resolve_user
    from core.services.ask_docs import ask_docs

    admin = resolve_user(None)
    ask_docs("预热", admin)  # index and dictionary load, not counted
    gold_cited = refused = wrong = 0
    latencies = []
    for q in questions:
        t0 = time.perf_counter()
        res = ask_docs(q["question"], admin)
        latencies.append((time.perf_counter() - t0) * 1000)
        cited = {Path(c.get("file_name") or "").stem for c in res["citations"]}
        if res["refused"]:
            refused += 1
            verdict = "refused"
        elif q["gold_passage"] in cited:
            gold_cited += 1
            verdict = "gold"
        else:
            wrong += 1
            verdict = "wrong"
        if verdict in show:
            print(f"[{verdict}] {q['id']} {q['question']} (gold {q['gold_passage']}, cited {sorted(cited)})")
            print("    " + res["answer"][:240].replace("\n", "\n    "))
    n = len(questions)
    return {"questions": n, "gold": gold_cited, "refused": refused, "wrong": wrong,
            "median_ms": statistics.median(latencies) if latencies else 0.0}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--questions", type=int, default=40)
    ap.add_argument("--distractors", type=int, default=60)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--home", help="workspace folder to keep and reuse (default: a temporary one)")
    ap.add_argument("--show", default="", help="comma list of verdicts to print: gold,refused,wrong")
    args = ap.parse_args(argv)
    if not (DATA / "qa" / "msga-govqa-dev.jsonl").exists():
        print(f"MSGABench files not found under {DATA / 'qa'}")
        return 2
    questions, docs = sample(args.questions, args.distractors, args.seed)
    tmp = None
    if args.home:
        home = Path(args.home).resolve()
        home.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="msga-eval-")
        home = Path(tmp.name)
    os.environ["ZHICE_HOME"] = str(home)
    os.environ.setdefault("ZHICE_MODEL_CACHE", str(REPO / ".cache" / "models"))
    os.environ.pop("ZHICE_LLM_API_KEY", None)  # rules mode
    from core import config

    config.set_settings(None)
    ingest(home, docs)
    r = evaluate(questions, {s for s in args.show.split(",") if s})
    n = r["questions"] or 1
    print(f"MSGABench rules mode: {r['questions']} questions over {len(docs)} passages "
          f"({len(docs) - len({q['gold_passage'] for q in questions})} distractors), seed {args.seed}")
    print(f"  answered citing the gold passage: {r['gold']}/{r['questions']} = {r['gold'] / n:.0%}")
    print(f"  refused:                          {r['refused']}/{r['questions']} = {r['refused'] / n:.0%}")
    print(f"  answered from a wrong passage:    {r['wrong']}/{r['questions']} = {r['wrong'] / n:.0%}")
    print(f"  median latency: {r['median_ms']:.0f} ms per question")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
