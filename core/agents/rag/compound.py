"""Compound questions: the self-contained sub-questions of "补贴标准是多少，申请需要哪些材料？"
or "A和B分别是什么". Separators and cue words are data (data/rules/rag_patterns.json,
rag_vocabulary.json)."""

from __future__ import annotations

import re

from core.agents.rag.ruledata import pattern, word_list, words
from core.agents.rag.slots import slot_kind
from core.agents.rag.textutil import entities, key_terms, lcut, norm, specific_terms


def _slot_words(text: str) -> set[str]:
    return {t for t in specific_terms(text) if t in words("attribute_terms") or pattern("asks").search(t)}


def _match_at_word(connector: str, part: str):
    """The shortest prefix (2–30 chars) of ``part`` followed by ``connector`` where the connector
    starts a word: 能 inside 新能源 does not end the subject of 买新能源汽车…"""
    bounds, pos = {0}, 0
    for w in lcut(part):
        pos += len(w)
        bounds.add(pos)
    for k in range(2, min(30, len(part)) + 1):
        if k in bounds:
            m = re.match(r"^(.{%d})%s" % (k, connector), part)
            if m:
                return m
    return None


def _subject_of(part: str) -> str:
    """The thing a first clause asks about ("新车首保消费券的补贴申报时间…" → 新车首保消费券,
    "下半年第二轮汽车消费补贴资金总额是多少" → 下半年第二轮汽车消费补贴)."""
    attrs, tails = words("attribute_terms"), words("subject_tail")
    m = _match_at_word(r"(?:的|在|由|要|需|可以|可|能|是|有|对|每|中|召开|通过|分为|怎么|如何|多少|多长|多久|几|哪|什么|何时|"
                       r"领取|申领|申请|申报|使用|购买|办理)", part)
    subj = m.group(1) if m else ""
    m2 = _match_at_word(r"(?:在|由|要|需|可以|可|能|是|有|对|每|去|到|怎么|如何|多少|多长|多久|几|哪|什么|何时|"
                        r"领取|申领|申请|申报|使用|购买|办理)", part)
    if m and m2 and "的" in m2.group(1) and m2.group(1).startswith(subj):
        after = m2.group(1).rsplit("的", 1)[-1]
        if 2 <= len(after) <= 6 and after not in attrs and after not in tails:
            subj = m2.group(1)  # the thing owned (…补贴的加油储值卡) is what the next clause is about
    while subj:
        tail = next((w for w in sorted(attrs | tails, key=len, reverse=True) if subj.endswith(w)), "")
        if not tail or len(subj) - len(tail) < 2:
            break
        subj = subj[: -len(tail)]
    if subj and specific_terms(subj):
        return subj
    terms = [t for t in specific_terms(part) if t not in attrs and not pattern("asks").search(t)
             and t not in words("generic_terms")]
    return "".join(sorted(terms, key=lambda t: part.find(t))[:3])


def _sides(ta: list[str], tb: list[str]) -> tuple[list, list, list, list]:
    """(shared head, A's own words, B's own words, shared words after) of the two sides' cuts."""
    if len(ta) >= 2 and len(tb) == 1:      # context before A applies to B (泉城购 零售 | 餐饮)
        return ta[:-1], [ta[-1]], tb, []
    if len(tb) >= 2 and len(ta) == 1:    # context after B applies to A (第一轮 | 第二轮 汽车消费补贴的活动时间)
        return [], ta, [tb[0]], tb[1:]
    if len(ta) >= 2 and len(tb) >= 2 and ta[0] != tb[0] and (len(ta) == len(tb) or ta[-1].isdigit() and tb[-1].isdigit()):
        # parallel sides, each its own subject and year (淮安市2024年 | 洪泽区2023年)
        return [], ta, tb, []
    if len(ta) >= 2 and len(tb) >= 2:    # both carry context: the words next to 和 are what differs
        return ta[:-1], [ta[-1]], [tb[0]], tb[1:]
    return [], ta, tb, []


def _respectively(q: str) -> list[str]:
    """"A和B分别…" → [A…, B…], sharing the context either side carries (泉城购零售消费券和餐饮消费券
    分别有哪些面额 → 泉城购零售消费券有哪些面额 / 泉城购餐饮消费券有哪些面额)."""
    m = pattern("respectively").match(q.strip().rstrip("？?。"))
    if not m:
        return []
    pre, a, b, rest = m.group("pre"), m.group("a"), m.group("b"), m.group("rest")
    ask = rest or "是什么"
    left = pre + a
    if "的" in left and "的" not in b:  # 首保消费券活动的补贴申报时间和资料修改截止时间 → X的Y / X的Z
        subject = left[: left.rindex("的") + 1]
        return [left + ask, subject + b + ask]
    ta, tb = lcut(left), lcut(b)
    # common trailing words (…零售消费券 / 餐饮消费券 → 消费券) belong to both sides
    tail: list[str] = []
    while len(ta) > 1 and len(tb) > 1 and ta[-1] == tb[-1]:
        tail.insert(0, ta.pop())
        tb.pop()
    head, a_core, b_core, after = _sides(ta, tb)
    one = "".join(head + a_core + after + tail) + ask
    two = "".join(head + b_core + after + tail) + ask
    return [one, two] if one != two else []


def _clauses(q: str) -> list[str]:
    """The question cut at hard separators, and at commas where both sides ask something."""
    hard = pattern("hard_sep")
    raw = re.split("(" + hard.pattern + ")", q)
    pieces = []
    for i in range(0, len(raw), 2):
        p = raw[i].strip(" ，,、。")
        sep = raw[i - 1] if i else ""
        if re.search(r"另外|此外|还有", sep) and pattern("extra_ask").search(p) and not re.search(r"另外|额外|还有", p):
            p = "另外" + p  # "…，另外有多少补贴？" asks for something extra, not the same amount again
        pieces.append(p)
    pieces = [p for p in pieces if p and key_terms(p)]
    clauses: list[str] = []
    asks = pattern("asks")
    for p in pieces:
        soft = [x.strip() for x in pattern("soft_sep").split(p) if x.strip()]
        # "补贴标准是多少，申请需要哪些材料": split on a comma only when both sides ask something
        if len(soft) > 1 and all(asks.search(x) for x in soft) and all(key_terms(x) for x in soft):
            clauses += soft
        else:
            clauses.append(p)
    return clauses


def _merge_clauses(clauses: list[str]) -> list[str]:
    """Clauses that refine the previous one's slot or ask nothing are merged into it."""
    parts: list[str] = []
    kinds: list[str] = []
    asks, attrs = pattern("asks"), words("attribute_terms")
    for c in clauses:
        kind = slot_kind(c)[0]
        own = [t for t in specific_terms(c) if t not in attrs and not asks.search(t)]
        if parts and kind and kind == kinds[-1] and not own:
            parts[-1] = parts[-1] + "，" + c  # 什么时候到账 + 具体日期是哪天: one question
            continue
        if not asks.search(c) and parts:
            parts[-1] = parts[-1] + "，" + c  # a clause that asks nothing qualifies the previous one
            continue
        parts.append(c)
        kinds.append(kind)
    return parts


def split_compound(question: str) -> list[str]:
    """The self-contained sub-questions of a compound question ("补贴标准是多少，申请需要哪些
    材料？" → 2 parts, "A和B分别是什么" → 2 parts); ``[]`` for a simple question. A later clause
    without its own subject gets the first clause's; a clause that only refines the previous
    one's slot (什么时候到账？具体日期是哪天？) is merged into it."""
    q = (question or "").strip()
    if not q:
        return []
    parts = _merge_clauses(_clauses(q))
    if not parts:  # nothing that asks anything (e.g. only control characters and symbols)
        return []
    if len(parts) == 1:
        resp = _respectively(parts[0])
        return resp if len(resp) >= 2 else []
    subject = _subject_of(parts[0])
    verb_start = tuple(word_list("verb_start"))
    out = [parts[0]]
    for p in parts[1:4]:
        if p.startswith("其中"):  # 能拿多少礼包？其中加油卡额度是多少 → within what the first part asks
            out.append(re.sub(r"[？?。]+$", "", parts[0]) + "，" + p)
            continue
        # a part naming its own document (省家电方案每件上限又是多少) keeps its own subject
        has_own = bool(entities(p)) or (subject and norm(subject) in norm(p)) or bool(pattern("own_document").search(p))
        if not has_own and subject:
            p = f"{subject}{'' if p.startswith(('的', '中') + verb_start) else '的'}{p}"
        out.append(p)
    return out[:3]


def leans_on_first(question: str) -> list[bool]:
    """Per part of :func:`split_compound`: does it only ask an attribute (面额多少 / 名单有哪些)
    of the thing the first part asks about (有客房消费券吗 / 在哪些保险公司买)? Such a part is
    open whenever the first one is: 零售券的面额 does not answer 客房券的面额."""
    parts = _merge_clauses(_clauses((question or "").strip()))
    if len(parts) < 2 or not pattern("introduces_object").search(parts[0].rstrip("？?。 ")):
        return []
    attrs = words("attribute_terms") | words("subject_tail")
    flags = [False]
    for p in parts[1:3]:
        own = specific_terms(p)
        flags.append(bool(own) and all(t in attrs for t in own) and not entities(p))
    return flags


def split_subquestions(question: str) -> list[str]:
    """Retrieval queries of a question: the question itself, then its sub-questions when it is
    compound (see :func:`split_compound`)."""
    parts = split_compound(question)
    q = (question or "").strip()
    return [q] + [p for p in parts if p != q] if parts else [q]
