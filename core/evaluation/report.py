"""Evaluation reports: a JSON file with everything and a Markdown summary a reviewer reads."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path


def write_report(out_dir: Path, dataset: str, metrics: dict, per_case: list[dict]) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    base = out_dir / f"eval-{Path(dataset).stem}-{stamp}"
    base.with_suffix(".json").write_text(json.dumps({"dataset": dataset, "metrics": metrics, "per_case": per_case},
                                                    ensure_ascii=False, indent=2), encoding="utf-8")
    lines = [f"# 评测报告：{Path(dataset).name}", "", f"时间：{stamp}　用例：{metrics['cases']}　出错：{metrics['errors']}", ""]
    names = {"accuracy": "整体通过率", "answer_contains": "答案要点命中", "file_cited": "引用正确文件",
             "refusal_correct": "拒答判断正确", "rows_exact": "结果行数一致", "provenance": "带溯源",
             "latency_p50_ms": "时延 p50 (ms)", "latency_p95_ms": "时延 p95 (ms)", "tokens": "Token 用量",
             "llm_judge": "大模型评分（仅供参考）", "llm_judge_unscored": "大模型未评分（例）"}
    for kind, title in (("docs", "政策问答"), ("kg", "图谱问答")):
        if kind not in metrics:
            continue
        lines += [f"## {title}（{metrics[kind]['cases']} 例）", "", "| 指标 | 值 |", "|---|---|"]
        lines += [f"| {names[k]} | {v} |" for k, v in metrics[kind].items() if k in names and v is not None]
        lines.append("")
    failed = [c for c in per_case if not c["ok"]]
    if failed:
        lines += ["## 未通过的用例", "", "| id | 问题 | 未通过 | 答案摘录 |", "|---|---|---|---|"]
        for c in failed:
            bad = c.get("error") or "、".join(k for k, v in c.get("checks", {}).items() if not v)
            snippet = (c.get("answer") or "").replace("\n", " ").replace("|", "｜")[:80]
            lines.append(f"| {c['id']} | {c['question'][:40]} | {bad} | {snippet} |")
    path = base.with_suffix(".md")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
