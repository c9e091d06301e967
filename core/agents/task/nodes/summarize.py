"""Summarizer: the report from what was collected — tables, timelines, lists, each cell
cited — with, when a fuse stopped the run, which fuse and what is still missing. The report
passes the same output screening as answers (PII not in the sources masked, sensitive words
blocked)."""

from __future__ import annotations

import time

from core.agents.task.report import build_report
from core.agents.task.runtime import add_trace, counters, get_runtime
from core.security.injection import screen_answer


def summarize(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    built = build_report(state)
    sources = " ".join(e.get("body") or "" for r in state.get("results") or []
                       for e in ((r.get("output") or {}).get("evidence") or []))
    screened = screen_answer(built["report"], sources=sources)
    notices = list(state.get("notices") or [])
    report = screened["answer"]
    if screened["pii_masked"]:
        notices.append("报告中的个人信息已脱敏：" + "、".join(screened["pii_masked"]))
    if screened["sensitive"]:
        report, built["citations"], built["sections"] = "报告内容触发敏感词审核，已拦截并转人工审核。", [], []
        notices.append("敏感词：" + "、".join(screened["sensitive"]))
    return {"report": report, "sections": built["sections"], "citations": built["citations"],
            "missing": built["missing"], "notices": notices, **counters(rt),
            "trace": add_trace(state, "summarize", t0, citations=len(built["citations"]),
                               stopped_by=state.get("stopped_by"))}
