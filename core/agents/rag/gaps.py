"""What the evidence leaves unanswered (uncovered nouns, title terms, the action of a
how-question, the unfilled slot) and, for a refusal, which documents may still be related."""

from __future__ import annotations

import re
from collections import Counter

from core.agents.rag.ruledata import pattern, synonyms, weight, words
from core.agents.rag.scoring import _rank_strength, doc_context
from core.agents.rag.slots import slot_gaps
from core.agents.rag.textutil import _jieba, coverage, key_terms, lcut, norm, real_word, salient_nouns, term_in


def _noun_covered(t: str, c: str) -> bool:
    if term_in(t, c) or any(norm(x) in c for x in synonyms().get(t, ())):
        return True
    tn = norm(t)  # a colloquial compound (首保券): its parts are enough
    return len(tn) == 3 and tn[:2] in c and tn[2:] in c


def uncovered_nouns(question: str, pool: list[dict], limit: int = 8) -> list[str]:
    """Salient nouns of the question that no relevant chunk mentions: the corpus does not cover
    what is asked (税率 in a notice about 纳税信用)."""
    ctx = [norm(doc_context(d)) for d in pool[:limit]]
    if not ctx:
        return []
    gaps = [t for t in salient_nouns(question) if not any(_noun_covered(t, c) for c in ctx)]
    if len(gaps) == 1 and _common_word(gaps[0]) and _agreed_best(pool):
        return []  # one everyday word (错误 / 疾病) the answer words differently, best match agreed on
    return gaps


def _common_word(word: str) -> bool:
    """An everyday word by its jieba dictionary frequency."""
    return (_jieba().get_FREQ(word) or 0) >= weight("common_word_freq")


def _agreed_best(pool: list[dict]) -> bool:
    """The best evidence chunk is first for both retrievers and covers most of the question."""
    if not pool:
        return False
    d = pool[0]
    ev = d.get("evidence") or {}
    ranks = [_rank_strength(ev.get(k)) for k in ("bm25", "dense")]
    return all(r >= 1.0 for r in ranks) and \
        float((d.get("grade") or {}).get("coverage") or 0.0) >= weight("agreed_best_coverage_min")


def title_term_gaps(question: str, pool: list[dict], titles: list[str], limit: int = 8) -> list[str]:
    """Terms of the question that name what some indexed document is about (its title says
    购新补贴) while no evidence chunk mentions them: the evidence is about something else."""
    if not titles or not pool:
        return []
    tn = [norm(t) for t in titles if t]
    ctx = [norm(doc_context(d)) for d in pool[:limit]]
    out = []
    for t in key_terms(question):
        if len(t) < 2 or t in words("generic_terms") or t in words("frame_words") or pattern("asks").search(t) \
                or re.search(r"\d", t):
            continue
        if any(term_in(t, x) for x in tn) and not any(_noun_covered(t, c) for c in ctx):
            out.append(t)
    return out


def how_verb_gap(question: str, pool: list[dict], limit: int = 8) -> list[str]:
    """The action a how-question asks about (商家要怎么**报名**) when no evidence chunk mentions
    it: the evidence describes other steps, not the one asked."""
    m = pattern("how_verb").search(question or "")
    if not m or not pool:
        return []
    ws = [w for w in lcut(m.group(1)) if w not in words("aspect_words")]  # 如何合理烹饪 → 烹饪
    verb = ws[0] if ws else ""
    if len(verb) < 2 or verb in words("weak_verbs") or verb in words("stopwords") or verb in words("generic_terms") \
            or pattern("asks").search(verb):
        return []
    docs = pool[:limit]
    # only the documents about the question's subject (their title matches it about as well
    # as the best one): 报名 in the 家电 rules does not say how 泉城购 merchants sign up
    terms = [t for t in key_terms(question) if t not in words("frame_words") and t != verb]
    tcov = [coverage(terms, (d.get("title") or "") + " " + (d.get("file_name") or ""))[0] for d in docs]
    best = max(tcov, default=0.0)
    ctx = [norm(doc_context(d)) for d, c in zip(docs, tcov) if c >= best - weight("subject_title_margin")]
    return [] if any(_noun_covered(verb, c) for c in ctx) else [verb]


def question_gaps(question: str, pool: list[dict], titles: list[str] | None = None) -> list[str]:
    """Everything the evidence leaves open for one (sub-)question: uncovered salient nouns and
    title terms, the action a how-question asks about, then the unfilled slot or a year no
    evidence document is about."""
    gaps = uncovered_nouns(question, pool)
    if not pool:
        return gaps
    for g in how_verb_gap(question, pool):
        if g not in gaps:
            gaps.append(g)
    for g in title_term_gaps(question, pool, titles or []):
        if g not in gaps:
            gaps.append(g)
    for g in slot_gaps(question, pool):
        if g not in gaps:
            gaps.append(g)
    return gaps


def guessed_terms(gaps: list[str], titles: list[str] | None = None) -> list[str]:
    """The gaps that are no real word (a guess of jieba's HMM across a word boundary): they
    send the search round again but never refuse an answer, nor show in a refusal."""
    title_n = [norm(t) for t in titles or [] if t]
    return [g for g in gaps if not real_word(g) and not any(term_in(g, t) for t in title_n)]



# ---- a refusal's suggestions ---------------------------------------------------------------
def top_authorities(docs: list[dict], limit: int = 3) -> list[str]:
    c: Counter = Counter()
    for d in docs:
        for a in d.get("authorities") or ([d["authority"]] if d.get("authority") else []):
            if a:
                c[a] += 1
    return [a for a, _ in c.most_common(limit)]


def topic_terms(question: str) -> list[str]:
    """The question's distinctive terms (not 补贴/条件/多少钱…, no numbers, no 几X/多少X)."""
    return [t for t in key_terms(question) if t not in words("generic_terms") and not t.isdigit()
            and not re.fullmatch(r"(几|多少)[\u4e00-\u9fff]{0,2}", t) and len(t) >= 2]


def related_documents(question: str, documents: list[dict], limit: int = 3) -> list[dict]:
    """Documents plausibly about the asked topic, for a refusal's "可能相关的文件": the title
    names one of the question's distinctive terms, or the text holds most of them (at least
    two). A document that only shares generic words (补贴, 条件, 申请) is not suggested."""
    topic = topic_terms(question)
    if not topic:
        return []
    out: list[dict] = []
    seen: set[str] = set()
    for d in documents or []:
        title = norm((d.get("title") or "") + (d.get("file_name") or ""))
        in_title = [t for t in topic if term_in(t, title)]
        cov, hit, _ = coverage(topic, d.get("text") or d.get("body") or "")
        if not in_title and not (len(hit) >= weight("related_document_hits_min")
                                 and cov >= weight("related_document_coverage_min")):
            continue
        key = d.get("doc_id") or d.get("title") or ""
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    return out[:limit]


def generic_topic(question: str) -> str:
    terms = [t for t in key_terms(question) if t in words("generic_terms")]
    return terms[0] if terms else ""
