"""Per-case checks and aggregate metrics. Pure functions over the answer dicts."""

from __future__ import annotations

import re
import statistics

from core.evaluation.golden import GoldenCase

_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub("", str(text or "")).replace("％", "%").replace("，", ",")


def score_case(case: GoldenCase, result: dict) -> dict:
    """What passed for one case. ``ok`` = every expectation the case states holds."""
    answer = _norm(result.get("answer", ""))
    checks: dict[str, bool] = {}
    refused = bool(result.get("refused"))
    if case.kind == "docs":
        checks["refusal"] = refused == case.expect_refusal
        if case.expect_files and not case.expect_refusal:
            cited = {c.get("file_name") for c in result.get("citations") or []}
            checks["file_cited"] = any(f in cited for f in case.expect_files)
    if case.expect_answer_contains and not (case.kind == "docs" and case.expect_refusal):
        checks["answer_contains"] = all(_norm(x) in answer for x in case.expect_answer_contains)
    if case.kind == "kg" and case.expect_rows is not None:
        checks["rows"] = len(result.get("rows") or []) == case.expect_rows
    if case.kind == "kg":
        checks["provenance"] = bool(result.get("provenance")) or not result.get("rows")
    return {"checks": checks, "ok": all(checks.values()) if checks else False}


def aggregate(per_case: list[dict]) -> dict:
    def share(items: list[dict], key: str | None = None) -> float | None:
        vals = [c["ok"] if key is None else c["checks"][key] for c in items
                if key is None or key in c.get("checks", {})]
        return round(sum(vals) / len(vals), 4) if vals else None

    out: dict = {"cases": len(per_case), "errors": sum(1 for c in per_case if c.get("error"))}
    for kind in ("docs", "kg"):
        items = [c for c in per_case if c["kind"] == kind]
        if not items:
            continue
        lat = [c["latency_ms"] for c in items if c.get("latency_ms") is not None]
        out[kind] = {
            "cases": len(items),
            "accuracy": share(items),
            "answer_contains": share(items, "answer_contains"),
            "file_cited": share(items, "file_cited"),
            "refusal_correct": share(items, "refusal"),
            "rows_exact": share(items, "rows"),
            "provenance": share(items, "provenance"),
            "latency_p50_ms": round(statistics.median(lat), 1) if lat else None,
            "latency_p95_ms": round(sorted(lat)[max(0, int(len(lat) * 0.95) - 1)], 1) if lat else None,
        }
    return out
