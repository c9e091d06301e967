"""Offline grading of retrieved chunks: fused retrieval evidence plus lexical coverage of the
question's key terms, with hard penalties for a place, 文号, year, period or article the chunk's
document is not about. Weights are named in data/rules/answer_weights.json."""

from __future__ import annotations

import re

from core.agents.rag.periods import period_mismatch
from core.agents.rag.ruledata import pattern, vocab_entry, weight, weights, words
from core.agents.rag.textutil import article_refs, coverage, entities, key_terms, norm, term_in

# ---- thresholds (tuned on data/eval/docs_golden.jsonl, see the report) ----------------
REL_THRESHOLD = weight("chunk_relevant_min")      # a chunk counts as relevant at or above this score
STRONG_THRESHOLD = weight("chunk_strong_min")     # one chunk this good is enough to answer without another round


def _rank_strength(rank) -> float:
    if rank is None:
        return 0.0
    try:
        r = int(rank[0] if isinstance(rank, (list, tuple)) else rank)
    except (TypeError, ValueError):
        return 0.0
    r = max(r - 1, 0)
    return 1.0 / (1.0 + r / weight("rank_decay"))


def evidence_strength(ev: dict) -> float:
    w = weights()
    ev = ev or {}
    d, b = _rank_strength(ev.get("dense")), _rank_strength(ev.get("bm25"))
    t = _rank_strength(ev.get("title"))
    s = w["best_retriever_rank"] * max(d, b) + (w["both_retrievers_agree"] if d and b else 0.0)
    return min(1.0, s + w["title_match_rank"] * t)


def cn_date(value: str) -> str:
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", str(value or "").strip())
    return f"{int(m.group(1))}年{int(m.group(2))}月{int(m.group(3))}日" if m else str(value or "")


def doc_context(d: dict) -> str:
    return " ".join([d.get("title") or "", d.get("file_name") or "", d.get("doc_number") or "", cn_date(d.get("date")),
                     d.get("authority") or "", d.get("heading") or "", " ".join(d.get("path") or []),
                     d.get("text") or ""])


def doc_named_in(question: str, d: dict) -> bool:
    """Does the question name this document by (the core of) its title?"""
    title = norm(d.get("title") or "")
    core = pattern("title_kind").sub("", title)  # the title without its kind (公告 / 实施细则)
    return (len(core) >= 8 and core in norm(question or "")) or own_docno_named(question, d)


def own_docno_named(question: str, d: dict) -> bool:
    """Does the question quote this document's own 文号 (not one it merely cites)?"""
    no = norm(d.get("doc_number") or "")
    return len(no) >= 6 and no in norm(question or "")


def _lexical_score(question: str, terms: list[str], d: dict, ctx: str) -> tuple[float, float, float, list, list]:
    """(score, coverage, evidence, hit, missed): coverage, term bigrams and retrieval evidence."""
    w = weights()
    cov, hit, miss = coverage(terms, ctx)
    grams = set()
    for t in terms:
        grams |= {t[i:i + 2] for i in range(len(t) - 1)} if len(t) > 1 else {t}
    ctx_n = norm(ctx)
    bi = (sum(1 for g in grams if norm(g) in ctx_n) / len(grams)) if grams else 0.0
    ev = evidence_strength(d.get("evidence") or {})
    score = w["key_term_coverage"] * cov + w["key_term_bigrams"] * bi + w["retrieval_evidence"] * ev
    if own_docno_named(question, d):
        score += w["own_doc_number_named"]  # the 文号 asked about is this document's own, not one it cites
    return score, cov, ev, hit, miss


def _entity_penalties(question: str, d: dict, ctx_n: str, score: float, notes: list[str]) -> float:
    """A place or 文号 the chunk's document does not mention caps the score; another year lowers it."""
    w = weights()
    for e in entities(question):
        if e.isdigit() and len(e) < 4:
            continue
        if not term_in(e, ctx_n):
            if re.search(r"(省|市|区|县)$", e) or "〔" in e:
                score = min(score, w["unmentioned_place_or_doc_number_cap"])
                notes.append(f"文件未涉及“{e}”")
            elif re.fullmatch(r"(19|20)\d{2}", e):
                score += w["other_year_named"]
                notes.append(f"年份{e}不符")
    return score


def _title_penalties(question: str, d: dict, score: float, notes: list[str]) -> float:
    """An annual report of another year, a notice of a sub-area or of the opposite period is
    not about what is asked."""
    w = weights()
    title_n = norm((d.get("title") or "") + " " + (d.get("file_name") or ""))
    q_years = [e for e in entities(question) if re.fullmatch(r"(19|20)\d{2}", e)]
    t_years = set(re.findall(r"(?:19|20)\d{2}(?=年)", title_n))
    if q_years and t_years and not any(y in t_years for y in q_years) and re.search(r"年度报告|年报", title_n):
        score = min(score, w["other_report_year_cap"])
        notes.append(f"文件年度为{'、'.join(sorted(t_years))}年")
    for e in entities(question):
        if re.search(r"(省|市)$", e) and len(e) >= 3 and norm(e) not in title_n:
            sub = re.findall(r"([\u4e00-\u9fff]{2})(区|县)(?:\d|人民政府|政府)", title_n)
            if sub and not any(norm(a) in norm(e) for a, _ in sub):
                score = min(score, w["other_sub_area_cap"])
                notes.append(f"文件为{sub[0][0]}{sub[0][1]}，非“{e}”")
    for a, b in vocab_entry("opposite_periods")["pairs"]:  # 上半年那个补贴 is not the 下半年 notice
        for x, y in ((a, b), (b, a)):
            if x in question and y in title_n and x not in title_n:
                score = min(score, w["opposite_period_cap"])
                notes.append(f"文件为{y}")
    why = period_mismatch(question, d)  # 1月份开始的补贴 is not the 下半年 notice, 第一轮 not the 第二轮
    if why:
        score = min(score, w["uncovered_period_cap"])
        notes.append(why)
    return score


def _article_adjust(question: str, d: dict, score: float, notes: list[str]) -> float:
    arts = article_refs(question)
    if arts:
        head = norm((d.get("heading") or "") + " ".join(d.get("path") or []))
        if any(norm(a) in head for a in arts):
            score = max(score, weight("asked_article_floor"))
        else:
            score += weight("not_asked_article")
            notes.append("非所问条款")
    return score


def _reason(d: dict, hit: list[str], miss: list[str], notes: list[str]) -> str:
    names = vocab_entry("evidence_names")["map"]
    reason = "覆盖：" + ("、".join(hit[:6]) or "无")
    if miss:
        reason += "；缺少：" + "、".join(miss[:6])
    evs = [f"{names[k]}第{(v[0] if isinstance(v, (list, tuple)) else v)}名"
           for k, v in (d.get("evidence") or {}).items() if k in names and v is not None]
    if evs:
        reason += "；检索证据：" + " ".join(evs)
    if notes:
        reason += "；" + "；".join(notes)
    return reason


def grading_terms(question: str) -> list[str]:
    """The question's key terms less the words that frame the ask (由哪个**部门负责**解释: the
    slot 部门 and the frame 负责 are not what a chunk must be about — 解释 is)."""
    terms = list(key_terms(question))
    slots = set(pattern("slot_terms").findall(question or "")) | words("frame_words")
    return [t for t in terms if t not in slots] or terms


def score_chunk(question: str, d: dict) -> dict:
    """Offline relevance of one chunk to the question: fused evidence + lexical coverage of
    the question's key terms, with hard penalties for a named place or 文号 that the chunk's
    document does not mention and for an article the chunk is not."""
    terms = grading_terms(question)
    ctx = doc_context(d)
    score, cov, ev, hit, miss = _lexical_score(question, terms, d, ctx)
    notes: list[str] = []
    score = _entity_penalties(question, d, norm(ctx), score, notes)
    score = _title_penalties(question, d, score, notes)
    score = _article_adjust(question, d, score, notes)
    score = max(0.0, min(1.0, score))
    return {"score": round(score, 3), "coverage": round(cov, 3), "evidence": round(ev, 3), "hit": hit,
            "missing": miss, "reason": _reason(d, hit, miss, notes), "relevant": score >= REL_THRESHOLD}


def merge_pool(pool: list[dict], graded: list[dict]) -> list[dict]:
    by_id = {d["chunk_id"]: d for d in pool}
    for d in graded:
        old = by_id.get(d["chunk_id"])
        if old is None or d["grade"]["score"] > old["grade"]["score"]:
            by_id[d["chunk_id"]] = d
    return sorted(by_id.values(), key=lambda d: -d["grade"]["score"])


def part_pool(part: str, pool: list[dict]) -> list[dict]:
    """The pool re-graded against one sub-question: its relevant chunks, best first."""
    out = []
    for d in pool:
        g = score_chunk(part, d)
        if g["relevant"]:
            out.append({**d, "grade": {**(d.get("grade") or {}), **g, "by": (d.get("grade") or {}).get("by", "rules")}})
    return sorted(out, key=lambda d: -d["grade"]["score"])
