"""Benchmark the business-graph agent in rules mode over the sample questions.

Builds the bundled sample graph into a temporary workspace (unless ``--home`` points at one
that already has it), warms up once, then asks every question of data/eval/kg_golden.jsonl
``--repeat`` times with ``--auto`` and prints p50 / p95 latency per question, the overall
p50 / p95, and the share of answers that carry provenance.

    .venv/bin/python scripts/bench_kg.py [--repeat 5] [--home DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    if not s:
        return 0.0
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--home", help="workspace that already holds the sample graph")
    ap.add_argument("--golden", default=str(REPO / "data" / "eval" / "kg_golden.jsonl"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    home = args.home or tempfile.mkdtemp(prefix="zhice_bench_kg_")
    os.environ["ZHICE_HOME"] = home
    os.environ.pop("ZHICE_LLM_API_KEY", None)  # rules mode
    from core import config

    config.set_settings(None)
    from core.security.principals import Principal, Role
    from core.services.ask_kg import ask_kg

    t0 = time.perf_counter()
    if not args.home:
        from core.services.build import load_demo_graph

        load_demo_graph(clear=True)
    build_s = time.perf_counter() - t0
    cases = [json.loads(x) for x in Path(args.golden).read_text("utf-8").splitlines() if x.strip()]
    roles = {"staff_a": Role.staff, "guest_a": Role.guest, "manager_a": Role.manager}
    today = date(2026, 11, 30)
    t1 = time.perf_counter()
    ask_kg(cases[0]["question"], principal=Principal("admin", Role.admin), auto=True, today=today)
    first_s = time.perf_counter() - t1
    rows, all_ms, with_prov, answered = [], [], 0, 0
    for c in cases:
        name = c.get("user", "admin")
        p = Principal(name, roles.get(name, Role.admin), tenants=("demo",) if name in roles else ())
        ms, last = [], None
        for _ in range(args.repeat):
            t = time.perf_counter()
            last = ask_kg(c["question"], principal=p, auto=True, today=today)
            ms.append((time.perf_counter() - t) * 1000)
        all_ms += ms
        data_q = c.get("expect_rows", 0) > 0 and not c.get("expect_refusal")
        if data_q:
            answered += 1
            with_prov += bool(last["provenance"])
        rows.append({"id": c["id"], "question": c["question"], "p50_ms": round(pct(ms, 50), 1),
                     "p95_ms": round(pct(ms, 95), 1), "provenance": len(last["provenance"])})
    summary = {"questions": len(cases), "repeat": args.repeat, "build_s": round(build_s, 2),
               "first_question_s": round(first_s, 2), "p50_ms": round(pct(all_ms, 50), 1),
               "p95_ms": round(pct(all_ms, 95), 1), "mean_ms": round(statistics.mean(all_ms), 1),
               "provenance_share": round(with_prov / answered, 3) if answered else None}
    if args.json:
        print(json.dumps({"summary": summary, "per_question": rows}, ensure_ascii=False))
    else:
        for r in rows:
            print(f"{r['id']}  p50 {r['p50_ms']:7.1f} ms  p95 {r['p95_ms']:7.1f} ms  prov {r['provenance']:3d}  "
                  f"{r['question']}")
        print(json.dumps(summary, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
