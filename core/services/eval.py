"""``python -m core.cli eval DATASET.jsonl``: run a golden set and write a report."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.config import get_settings
from core.evaluation.golden import load_golden
from core.evaluation.metrics import aggregate
from core.evaluation.report import write_report
from core.evaluation.runner import run_cases
from core.storage.db import get_db


def run_eval(dataset: Path, out_dir: Path | None = None, progress=None) -> dict:
    cases = load_golden(dataset)
    per_case = run_cases(cases, progress=progress)
    metrics = aggregate(per_case)
    report = write_report(out_dir or get_settings().dir("reports"), str(dataset), metrics, per_case)
    get_db().execute("INSERT INTO eval_runs (dataset, metrics, report_path) VALUES (?, ?, ?)",
                     (str(dataset), json.dumps(metrics, ensure_ascii=False), str(report)))
    return {"metrics": metrics, "per_case": per_case, "report": str(report)}


def cli_eval(args: argparse.Namespace) -> int:
    from core.cli import emit

    def progress(i: int, n: int) -> None:
        if not args.json:
            print(f"\r{i}/{n}", end="", file=sys.stderr, flush=True)

    result = run_eval(args.dataset, args.out, progress)

    def human(r: dict) -> str:
        m = r["metrics"]
        parts = [f"\n用例 {m['cases']}，出错 {m['errors']}"]
        for kind, title in (("docs", "政策问答"), ("kg", "图谱问答")):
            if kind in m:
                parts.append(f"{title}：通过率 {m[kind]['accuracy']:.1%}（{m[kind]['cases']} 例），"
                             f"p50 {m[kind]['latency_p50_ms']} ms")
        parts.append(f"报告：{r['report']}")
        return "\n".join(parts)

    emit(result, args.json, human)
    return 0
