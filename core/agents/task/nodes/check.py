"""Checker: judges the step just run. A search that found nothing, a document not found, a
comparison cell whose sentence is not in its cited chunk (dropped, so the cell reads 未规定),
a table whose every cell is 未规定 — each is recorded as an issue on the step."""

from __future__ import annotations

import time

from core.agents.task.clauses import supported
from core.agents.task.runtime import add_trace


def _not_found(out: dict) -> list[str]:
    return [f"有 {len(out['not_found'])} 份文件未找到"] if out.get("not_found") else []


def _check_compare(out: dict) -> list[str]:
    chunks = {e["chunk_id"]: e for e in out.get("evidence") or []}
    titles = {d["doc_id"]: d.get("title") or d.get("file_name") for d in out.get("documents") or []}
    issues, filled = [], 0
    for doc_id, row in (out.get("cells") or {}).items():
        for dim, clauses in row.items():
            kept = [c for c in clauses if supported(c["text"], chunks.get(c["chunk_id"]))]
            if len(kept) < len(clauses):
                issues.append(f"《{titles.get(doc_id, '')}》的“{dim}”：{len(clauses) - len(kept)} 条摘录与出处不符，已删除")
            row[dim] = kept
            filled += bool(kept)
    if out.get("cells") and not filled:
        issues.append("所有单元格均为“未规定”")
    return issues + _not_found(out)


def check(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    results = list(state.get("results") or [])
    if not results:
        return {}
    last = dict(results[-1])
    issues: list[str] = []
    if not last.get("ok"):
        issues.append(last.get("error") or "执行失败")
    else:
        out = last.get("output") or {}
        if last["tool"] == "search_policy" and not out.get("documents"):
            issues.append(out.get("message") or "未找到相关文件")
        elif last["tool"] == "compare_documents":
            issues += _check_compare(out)
        elif last["tool"] == "generate_summary":
            issues += _not_found(out)
        elif last["tool"] == "track_changes" and not out.get("events"):
            issues.append(out.get("message") or "没有可排的时间线事件")
        last["output"] = out
    results[-1] = last
    verdict = {"step": last["step"], "tool": last["tool"], "ok": bool(last.get("ok")) and not issues, "issues": issues}
    return {"results": results, "checks": [*(state.get("checks") or []), verdict],
            "trace": add_trace(state, "check", t0, step=last["step"], issues=issues or None)}
