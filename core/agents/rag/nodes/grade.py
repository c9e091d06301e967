"""Grade: per-chunk relevance to the ORIGINAL (resolved) question, never to the rewrite.
Offline from the hit's fused evidence + lexical coverage of the question's key terms; with
an LLM a JSON verdict with reason per chunk (the model judges, code decides)."""

from __future__ import annotations

import time

from pydantic import BaseModel, Field

from core.agents.rag.compound import leans_on_first
from core.agents.rag.gaps import guessed_terms, question_gaps
from core.agents.rag.runtime import add_trace, get_runtime, llm_failure, llm_step, usable_llm
from core.agents.rag.scoring import REL_THRESHOLD, merge_pool, part_pool, score_chunk
from core.agents.rag.slots import slot_kind
from core.security.injection import DATA_INSTRUCTION, data_block

MAX_GRADE = 16


class Verdict(BaseModel):
    n: int
    relevant: bool
    reason: str = ""


class GradeOut(BaseModel):
    verdicts: list[Verdict]
    missing: list[str] = Field(default_factory=list, description="回答该问题还缺少的信息/术语")
    exclude: list[str] = Field(default_factory=list, description="应排除的无关主题或文件")


GRADE_PROMPT = (
    "你是检索质量评审员。判断每个候选片段是否包含回答用户问题所需的信息。"
    "只依据片段内容判断，不要回答问题。对每个片段给出 relevant（true/false）和一句话理由；"
    "并列出还缺少的信息（missing）和应排除的无关主题或文件（exclude）。" + DATA_INSTRUCTION
)


def listing(docs: list[dict]) -> str:
    """The numbered candidates for the grading prompt; chunk text only inside data blocks."""
    return "\n\n".join(f"[{i}] 《{d.get('title') or d.get('file_name')}》{d.get('heading') or ''}\n"
                       f"{data_block((d.get('text') or '')[:600])}" for i, d in enumerate(docs, 1))


def grade(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    question = state.get("resolved_question") or state.get("question") or ""
    docs = (state.get("documents") or [])[:MAX_GRADE]
    out: dict = {}
    parts = [p for p in state.get("parts") or [] if p]
    graded_all = _rules_grades(question, docs, parts)
    llm = usable_llm(state, rt)
    llm_info = {}
    if llm is not None and docs:
        try:
            llm_step(rt)
            res = llm.generate([{"role": "system", "content": GRADE_PROMPT},
                                {"role": "user", "content": f"用户问题：{question}\n\n候选片段：\n{listing(docs)}"}],
                               GradeOut, budget=rt.budget)
            verdicts = {v.n: v for v in res.verdicts}
            for i, d in enumerate(graded_all, 1):
                v = verdicts.get(i)
                if v is None:
                    continue
                g = d["grade"]
                score = max(g["score"], REL_THRESHOLD) if v.relevant else min(g["score"], REL_THRESHOLD - 0.01)
                d["grade"] = {**g, "score": round(score, 3), "relevant": bool(v.relevant), "reason": v.reason or g["reason"],
                              "by": "llm"}
            llm_info = {"llm_missing": res.missing[:6], "llm_exclude": res.exclude[:6]}
        except Exception as exc:  # noqa: BLE001 - model failure → rules verdicts stand
            out.update(llm_failure(state, exc, "grade"))
    relevant = [d for d in graded_all if d["grade"]["relevant"]]
    missing: list[str] = []
    for d in graded_all[:5]:
        for t in d["grade"].get("missing") or []:
            if t not in missing and not any(t in (r["grade"].get("hit") or []) for r in relevant):
                missing.append(t)
    missing = llm_info.get("llm_missing") or missing
    pool = merge_pool(state.get("relevant_pool") or [], relevant)
    # titles of documents retrieved this round but not in the evidence (the 购新补贴 notice
    # rejected as another province's): a question term only they carry is not covered
    in_pool = {d["doc_id"] for d in pool}
    titles = list(dict.fromkeys(d.get("title") or "" for d in graded_all if d["doc_id"] not in in_pool and d.get("title")))
    uncovered, unanswered, part_info = _evidence_gaps(question, parts, pool, titles)
    for t in uncovered:
        if t not in missing:
            missing.insert(0, t)
    out.update(graded_docs=relevant, relevant_pool=pool, missing_terms=missing[:6],
               documents=graded_all, uncovered_terms=uncovered, unanswered_parts=unanswered,
               guessed_terms=guessed_terms(uncovered, titles))
    if llm_info.get("llm_exclude"):
        out["reflection_feedback"] = "排除：" + "、".join(llm_info["llm_exclude"])
    out["trace"] = add_trace(state, "grade", t0, graded=len(graded_all), relevant=len(relevant), uncovered=uncovered,
                             **({"parts": part_info} if part_info else {}),
                             best=max((d["grade"]["score"] for d in graded_all), default=0.0),
                             grades=[{"chunk_id": d["chunk_id"], "score": d["grade"]["score"],
                                      "relevant": d["grade"]["relevant"], "reason": d["grade"]["reason"],
                                      "by": d["grade"]["by"]} for d in graded_all], **llm_info)
    return out


def _rules_grades(question: str, docs: list[dict], parts: list[str]) -> list[dict]:
    """Each chunk graded by the rules; for a compound question by its best-answered part."""
    out = []
    for d in docs:
        g = score_chunk(question, d)
        for p in parts:  # a compound question: a chunk that answers one part is relevant
            gp = score_chunk(p, d)
            if gp["score"] > g["score"]:
                g = gp
        out.append({**d, "grade": {**g, "by": "rules"}})
    return out


def _evidence_gaps(question: str, parts: list[str], pool: list[dict],
                   titles: list[str]) -> tuple[list[str], list[str], list[dict]]:
    """(what the evidence leaves open, the parts of a compound question left open, per-part
    detail). Open: a salient noun no relevant chunk mentions (税率 in a notice about 纳税信用),
    or the asked-for slot (金额/日期/部门 …) no sentence fills for what is asked — reflect, and
    refuse at the end. A compound question is judged part by part: the parts left open are
    refused on their own (partial refusal)."""
    if not parts:
        return (question_gaps(question, pool, titles) if pool else []), [], []
    if not pool:
        return [], [], []
    gaps_by_part = []
    for p in parts:
        own = part_pool(p, pool)
        gaps_by_part.append(question_gaps(p, own, titles) if own else [slot_kind(p)[0] or "相关规定"])
    if gaps_by_part[0]:  # 有客房消费券吗，面额多少: the 面额 asked is the 客房券's, open with it
        for i, lean in enumerate(leans_on_first(question)):
            if lean and i < len(gaps_by_part) and not gaps_by_part[i]:
                gaps_by_part[i] = list(gaps_by_part[0])
    part_info = [{"part": p, "gaps": g} for p, g in zip(parts, gaps_by_part)]
    if all(gaps_by_part):
        return list(dict.fromkeys(t for g in gaps_by_part for t in g)), [], part_info
    return [], [p for p, g in zip(parts, gaps_by_part) if g], part_info
