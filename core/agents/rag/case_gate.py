"""A yes/no question is answered by a sentence about its case: "我车在外地上的牌，能领…吗" needs a
sentence speaking of 外地 / 上牌 (不限户籍和上牌地区), "用同一个手机号申请，算一个人吗" one of the
手机号 (同一手机号码…视为同一用户). When no cited sentence names any term of the case — only
the campaign's other rules were found — the extraction is redone with the case's terms first,
and when that finds none either the question is refused saying which case was not found,
never answered with a neighbouring rule.

The case terms are the question's content terms less those of the cited documents' titles (the
campaign: 汽车, 补贴), generic, frame and ask words and numbers; the yes/no form is data
(``decides_case`` in data/rules/rag_patterns.json)."""

from __future__ import annotations

import re

from core.agents.rag.ruledata import pattern, synonyms, words
from core.agents.rag.runtime import doc_title
from core.agents.rag.textutil import (_action_object, display, key_terms, norm, place_words, real_word, split_sentences,
                                      tagged, term_in)


def _case_words(question: str, used: list[dict]) -> list[str]:
    """The question's content terms less the cited titles' words, places, generic and ask words;
    [] for a question that is no yes/no question."""
    if not pattern("decides_case").search(norm(question)):
        return []
    titles = norm(" ".join(doc_title(d) for d in used))
    skip = words("generic_terms") | words("frame_words") | words("stopwords")
    asks, yesno = pattern("asks"), pattern("yesno")
    objects = [_action_object(t) for t in key_terms(question)]  # 买手机 → 手机 (数码产品 in the rule)
    return [t for t in objects
            if len(t) >= 2 and not re.search(r"\d", t) and t not in skip and not asks.search(t)
            and not yesno.search(t) and not term_in(t, titles) and t not in place_words(question) and _nominal(t)]


def _nominal(term: str) -> bool:
    """Is the term a real word holding a noun (手机号, 装潢, 同一个)? A time word (去年), a verb
    (买过, 挂牌), a place word (地上) or a cut across words (券下, 我车) names no case."""
    if not real_word(term):
        return False  # a cut of the word cutter across words (券下 in 用泉城购券下的单): no case
    return any(flag.startswith("n") or flag in ("b", "vn") for _word, flag in tagged(term))


def case_terms(question: str, used: list[dict]) -> list[str]:
    """The terms naming the case a yes/no question asks about: its content words less those
    most used chunks name (发票, 购车 frame the campaign; the case is in the rest)."""
    bodies = [norm(d.get("body") or d.get("text") or "") for d in used]
    return [t for t in _case_words(question, used)
            if not (len(bodies) >= 2 and sum(term_in(t, b) for b in bodies) * 2 > len(bodies))]


def _names(term: str, text: str) -> bool:
    t = norm(text)
    if any(norm(x) in t for x in synonyms().get(term, ())):
        return True
    return term_in(term, t) and (len(norm(term)) != 2 or _whole(norm(term), t))


def _whole(term: str, text: str) -> bool:
    """Does a two-character term stand in the text as a word of its own, or inside a longer word
    that is not itself the modifier of another noun (动力电池的费用, 手机号码 name them; 燃料电池汽车
    is a car, not a battery), rather than as a cut across two words?"""
    toks = tagged(text)
    for i, (tok, _) in enumerate(toks):
        if tok == term:
            return True
        if term in tok and not (i + 1 < len(toks) and toks[i + 1][1].startswith("n")):
            return True
    return False


def undecided_case(question: str, claims: list[dict], used: list[dict]) -> list[str]:
    """The case terms when no claim names any of them (the case is not decided); else []."""
    terms = case_terms(question, used)
    if not terms or not claims:
        return []
    if any(_names(t, c["text"]) for t in terms for c in claims):
        return []
    return terms


def deciding_claims(question: str, used: list[dict], limit: int = 2) -> list[dict]:
    """The sentences of the used chunks naming the most of the case's terms — one of 3+
    characters (手机号, 二手车) or two of them (装潢 and 挂牌): a single two-character term is too
    often a cut across words — up to ``limit`` tied best, each cited; [] when none does."""
    terms = _case_words(question, used)  # all of them: 同一张银行卡 is the case though 银行卡 is common
    scored = []
    for n, d in enumerate(used, 1):
        for pos, sent in enumerate(split_sentences(d.get("body") or d.get("text") or "")):
            named = [t for t in terms if _names(t, sent)]
            if any(len(t) >= 3 for t in named) or len(named) >= 2:  # 手机号 / 装潢 + 挂牌
                scored.append((sum(len(t) for t in named), n, pos, sent))
    if not scored:
        return []
    top = max(s[0] for s in scored)
    return [{"text": display(sent), "cites": [n], "source": sent, "n": n, "pos": pos}
            for score, n, pos, sent in scored if score == top][:limit]


def case_phrase(question: str, terms: list[str]) -> str:
    """The clause of the question that states the case, for a refusal to name ("我车在外地上的牌",
    not its word fragments): the one naming most case terms, a clause without the yes/no ask
    first on a tie."""
    yesno = pattern("decides_case")
    clauses = [c.strip() for c in re.split(r"[，,；;。？?！!]", question or "") if c.strip()]
    if not clauses:
        return "、".join(terms[:2])
    best = max(clauses, key=lambda c: (sum(1 for t in terms if t in c), not yesno.search(c)))
    return best.removesuffix("的")
