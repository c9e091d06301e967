"""Summarizer: the report from what was collected — tables, timelines, lists, each cell
cited — with, when a fuse stopped the run, which fuse and what is still missing. With an LLM
configured, a short 综述 written from the cited results goes first; only its sentences with
existing, supported [n] are kept (core.agents.task.prose), and its tokens count against the
token fuse. The report passes the same output screening as answers (PII not in the sources
masked, sensitive words blocked)."""

from __future__ import annotations

import time

from core.agents.task.prose import write_prose
from core.agents.task.report import build_report, markdown_table
from core.agents.task.runtime import add_trace, counters, get_runtime
from core.errors import BudgetExceeded, LLMError
from core.security.injection import screen_answer


def _prose(state: dict, rt, built: dict) -> tuple[str, dict, list[str]]:
    """(checked prose, state changes, notices) — nothing without a model or citations."""
    if rt.llm is None or rt.rules_only or not built["citations"] or state.get("cancelled"):
        return "", {}, []
    tables = "\n\n".join(f"{s['title']}\n{markdown_table(s['columns'], s['rows'])}" for s in built["sections"])
    try:
        prose, dropped = write_prose(rt.llm, state.get("request") or "", tables, built["citations"],
                                     built["evidence"], budget=rt.budget)
    except BudgetExceeded as exc:
        return "", {"stopped_by": state.get("stopped_by") or exc.kind}, ["撰写综述时达到上限，报告只含规则汇总"]
    except (LLMError, ValueError) as exc:
        why = getattr(exc, "user_message", None) or "大模型服务不可用"
        return "", {}, [f"{why}，报告只含规则汇总"]
    notices = [f"大模型综述中有 {dropped} 句没有可核验的出处，已删除"] if dropped and prose else []
    if not prose:
        return "", {}, ["大模型综述未通过引用核验，报告只含规则汇总"]
    return prose, {"mode": "llm"}, notices


def summarize(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    built = build_report(state)
    prose, changes, notices = _prose(state, rt, built)
    if prose or changes:
        built = build_report({**state, **changes}, prose=prose)
    sources = " ".join(e.get("body") or "" for e in built["evidence"].values())
    screened = screen_answer(built["report"], sources=sources)
    notices = [*(state.get("notices") or []), *notices]
    report = screened["answer"]
    if screened["pii_masked"]:
        notices.append("报告中的个人信息已脱敏：" + "、".join(screened["pii_masked"]))
    if screened["sensitive"]:
        report, built["citations"], built["sections"] = "报告内容触发敏感词审核，已拦截并转人工审核。", [], []
        notices.append("敏感词：" + "、".join(screened["sensitive"]))
    return {"report": report, "sections": built["sections"], "citations": built["citations"],
            "missing": built["missing"], "notices": notices, **changes, **counters(rt),
            "trace": add_trace(state, "summarize", t0, citations=len(built["citations"]), prose=bool(prose),
                               stopped_by=changes.get("stopped_by") or state.get("stopped_by"))}
