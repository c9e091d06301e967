"""Per-case judgements and aggregate metrics. Pure functions over the answer dicts: the LLM
judge (core.evaluation.llm_judge, optional) adds a graded ``judge_score`` per case, averaged
here apart as ``llm_judge``; no other metric depends on it.

Per case (``score_case``): the pass/fail checks the case states, plus the judgements the
metrics are computed from — retrieval (expected files among the retrieved ones: recall@k,
reciprocal rank), citations (precision: a citation of an expected file or whose quote holds an
expected fact; recall: expected files cited), correctness (share of expected facts present),
faithfulness (share of answer sentences that the passages they cite support),
refusal, rounds and reflection saves, KG provenance, tokens and latency; conflicting evidence
(cases of category 冲突证据 must note a conflict, cases of category 证据一致 must not).
"""

from __future__ import annotations

import math
import re
import statistics

from core.evaluation.golden import GoldenCase

_SPACE = re.compile(r"\s+")
_CITE = re.compile(r"\[(\d+)\]")
#: a sentence with the citation markers that follow its full stop ("……12类家电产品。[1]")
_SENT = re.compile(r"[^。！？\n]+(?:[。！？]+|\n|$)(?:\s*\[\d+\])*")
RECALL_K = 5
SUPPORT_MIN = 0.5
CONFLICT_CATEGORY = "冲突证据"   # golden cases whose documents really conflict: a note must appear
AGREE_CATEGORY = "证据一致"      # golden cases whose documents agree: no note may appear


def _norm(text: str) -> str:
    return _SPACE.sub("", str(text or "")).replace("％", "%").replace("，", ",")


def _bigrams(text: str) -> set[str]:
    t = _norm(_CITE.sub("", text))
    return {t[i:i + 2] for i in range(len(t) - 1)}


def _share(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def faithfulness(answer: str, citations: list[dict]) -> float | None:
    """Share of the answer's sentences (lead-ins ending in a colon aside) whose cited passages
    together contain at least SUPPORT_MIN of the sentence's character bigrams. None for an
    empty answer."""
    quotes = {str(c.get("n")): str(c.get("quote") or "") for c in citations or []}
    sents = [s for s in _SENT.findall(answer or "") if len(_norm(_CITE.sub("", s))) >= 4
             and not s.rstrip().endswith(("：", ":"))]  # a lead-in ("依据《…》：") states nothing
    if not sents:
        return None
    ok = 0
    for s in sents:
        grams = _bigrams(s)
        cited = set().union(*(_bigrams(quotes.get(n, "")) for n in _CITE.findall(s)))
        if grams and len(grams & cited) / len(grams) >= SUPPORT_MIN:
            ok += 1
    return round(ok / len(sents), 4)


def judge(case: GoldenCase, result: dict) -> dict:
    """The per-case judgements metrics are computed from (None = not applicable)."""
    answer = _norm(result.get("answer", ""))
    refused = bool(result.get("refused"))
    facts = [_norm(x) for x in case.expect_answer_contains]
    j: dict = {"refused": refused, "expect_refusal": case.expect_refusal, "rounds": result.get("rounds"),
               "tokens": result.get("tokens"),
               "correctness": _share(sum(1 for f in facts if f in answer), len(facts))
               if facts and not (case.kind == "docs" and case.expect_refusal) else None}
    if case.kind == "docs":
        cites = result.get("citations") or []
        expected = set(case.expect_files)
        retrieved = list(dict.fromkeys(result.get("retrieved_files") or []))
        if expected and not case.expect_refusal:
            ranks = [i for i, f in enumerate(retrieved, 1) if f in expected]
            j["recall_at_k"] = _share(len(expected & set(retrieved[:RECALL_K])), len(expected))
            j["rr"] = round(1 / ranks[0], 4) if ranks else 0.0
            j["citation_recall"] = _share(len(expected & {c.get("file_name") for c in cites}), len(expected))
        if cites and (expected or facts):
            good = sum(1 for c in cites if c.get("file_name") in expected
                       or any(f and f in _norm(c.get("quote") or "") for f in facts))
            j["citation_precision"] = _share(good, len(cites))
        if not refused:
            j["faithfulness"] = faithfulness(result.get("answer") or "", cites)
        j["conflict"] = bool(result.get("conflicts"))
    else:
        rows = result.get("rows") or []
        j["provenance"] = bool(result.get("provenance")) if rows else None
        j["intent"] = (result.get("slots") or {}).get("intent")
    return j


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
    if case.kind == "docs" and case.category in (CONFLICT_CATEGORY, AGREE_CATEGORY):
        checks["conflict_noted"] = bool(result.get("conflicts")) == (case.category == CONFLICT_CATEGORY)
    if case.kind == "kg" and case.expect_rows is not None:
        checks["rows"] = len(result.get("rows") or []) == case.expect_rows
    if case.kind == "kg":
        checks["provenance"] = bool(result.get("provenance")) or not result.get("rows")
    ok = all(checks.values()) if checks else False
    j = judge(case, result)
    j["reflection_save"] = bool(ok and (j.get("rounds") or 0) > 1) if case.kind == "docs" else None
    return {"checks": checks, "ok": ok, "judgement": j}


def _mean(values) -> float | None:
    vals = [v for v in values if v is not None]
    return round(sum(float(v) for v in vals) / len(vals), 4) if vals else None


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    s = sorted(values)  # nearest rank
    return round(s[max(0, min(len(s) - 1, math.ceil(q * len(s)) - 1))], 1)


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
        js = [c.get("judgement") or {} for c in items]
        m = {
            "cases": len(items),
            "accuracy": share(items),
            "answer_contains": share(items, "answer_contains"),
            "file_cited": share(items, "file_cited"),
            "refusal_correct": share(items, "refusal"),
            "rows_exact": share(items, "rows"),
            "provenance": share(items, "provenance"),
            "correctness": _mean(j.get("correctness") for j in js),
            "latency_p50_ms": round(statistics.median(lat), 1) if lat else None,
            "latency_p95_ms": _pct(lat, 0.95),
            "tokens": sum(int(j.get("tokens") or 0) for j in js),
        }
        judged = [c for c in items if "judge_score" in c]
        if judged:  # only runs with the LLM judge on (eval --judge)
            m["llm_judge"] = _mean(c["judge_score"] for c in judged)
            m["llm_judge_unscored"] = sum(1 for c in judged if c["judge_score"] is None)
        if kind == "docs":
            tp = sum(1 for j in js if j.get("refused") and j.get("expect_refusal"))
            refused = sum(1 for j in js if j.get("refused"))
            should = sum(1 for j in js if j.get("expect_refusal"))
            rounds = [j.get("rounds") for j in js if j.get("rounds") is not None]
            m.update({
                f"recall_at_{RECALL_K}": _mean(j.get("recall_at_k") for j in js),
                "mrr": _mean(j.get("rr") for j in js),
                "citation_precision": _mean(j.get("citation_precision") for j in js),
                "citation_recall": _mean(j.get("citation_recall") for j in js),
                "faithfulness": _mean(j.get("faithfulness") for j in js),
                "refusal_precision": _share(tp, refused), "refusal_recall": _share(tp, should),
                "rounds_mean": _mean(rounds),
                "reflection_saves": sum(1 for j in js if j.get("reflection_save")),
                "conflicts_detected": sum(1 for j in js if j.get("conflict")),
                "conflicts_decided_as_expected": share([c for c in items if c.get("category") == CONFLICT_CATEGORY]),
                "conflict_notes_where_agreeing": sum(1 for c in items if c.get("category") == AGREE_CATEGORY
                                                     and (c.get("judgement") or {}).get("conflict")),
            })
        else:
            m["provenance_rate"] = _mean(None if j.get("provenance") is None else float(j["provenance"]) for j in js)
        out[kind] = m
    return out


#: the headline metrics a run is compared on (higher is better), with their Chinese names
HEADLINE: dict[str, str] = {
    "docs.accuracy": "政策问答 通过率", f"docs.recall_at_{RECALL_K}": f"检索召回@{RECALL_K}", "docs.mrr": "检索 MRR",
    "docs.citation_precision": "引用精确率", "docs.citation_recall": "引用召回率", "docs.correctness": "答案正确性",
    "docs.faithfulness": "忠实度", "docs.refusal_precision": "拒答精确率", "docs.refusal_recall": "拒答召回率",
    "kg.accuracy": "图谱问答 准确率", "kg.correctness": "图谱 答案要点命中", "kg.provenance_rate": "图谱 溯源率",
    # the optional LLM judge (core.evaluation.llm_judge): present only in runs that used it
    "docs.llm_judge": "大模型评分（政策问答）", "kg.llm_judge": "大模型评分（图谱问答）",
}
METRIC_LABELS: dict[str, str] = {
    **{k.split(".", 1)[1]: v for k, v in HEADLINE.items()},
    "accuracy": "通过率", "answer_contains": "答案要点全部命中", "file_cited": "引用正确文件", "refusal_correct": "拒答判断正确",
    "rows_exact": "结果行数一致", "provenance": "带溯源", "latency_p50_ms": "时延 p50 (ms)", "latency_p95_ms": "时延 p95 (ms)",
    "rounds_mean": "平均检索轮数", "reflection_saves": "反思挽回", "conflicts_detected": "检出冲突证据",
    "conflicts_decided_as_expected": "冲突证据 按预期裁决", "conflict_notes_where_agreeing": "证据一致却提示冲突",
    "conflict_noted": "冲突提示符合预期", "tokens": "Token 用量", "correctness": "答案正确性",
    "llm_judge": "大模型评分", "llm_judge_unscored": "大模型未评分（例）",
}


def metric_value(metrics: dict, dotted: str):
    kind, key = dotted.split(".", 1)
    return (metrics.get(kind) or {}).get(key)


def regressions(metrics: dict, baseline: dict, tolerance: float) -> list[str]:
    """Headline metrics worse than the baseline by more than ``tolerance`` (absolute)."""
    out = []
    for name in HEADLINE:
        now, before = metric_value(metrics, name), metric_value(baseline, name)
        if now is not None and before is not None and now < before - tolerance:
            out.append(name)
    return out
