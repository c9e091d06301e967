"""The extractive answer of the rules path: the best-supported sentences of the used chunks,
each with its [n]. Every score adjustment is a named weight of
data/rules/answer_weights.json; question and sentence cues are patterns of
data/rules/rag_patterns.json."""

from __future__ import annotations

import re
from collections import Counter

from core.agents.rag.amounts import AMOUNT, amount_fits, question_amounts
from core.agents.rag.claims import render_claims
from core.agents.rag.ruledata import answer_types, intent_terms, meta_questions, pattern, synonyms, vocab_entry, weights, words
from core.agents.rag.scoring import doc_named_in
from core.agents.rag.slots import heading_org, slot_kind
from core.agents.rag.textutil import (
    article_refs, coverage, display, expand_terms, is_table_header, is_table_row, key_terms, ngram_containment, norm,
    numbers_in, place_words, split_sentences, term_in, term_weight,
)

SENT_MIN = weights()["sentence_min"]                          # an extracted sentence must reach this
MAX_USED = int(weights()["max_used_chunks"])                  # chunks an answer is drawn from
MAX_SENTENCES = int(weights()["list_answer_max_sentences"])   # sentences of a list answer
_PUNCT = r"[，。；！？,;!?]"
_ITEM_MARK = re.compile(r"^(\d{1,2}[.．、)）]|（\d{1,2}）|[①-⑩])")
_TOP_HEAD = re.compile(r"^([一二三四五六七八九十]+、|（[一二三四五六七八九十]+）)")


def _near_dup(a: str, b: str) -> bool:
    if numbers_in(a) != numbers_in(b):
        return False  # same wording, other figures (第一轮 7月 vs 第二轮 8月): both count
    ga = {a[i:i + 2] for i in range(len(a) - 1)}
    gb = {b[i:i + 2] for i in range(len(b) - 1)}
    if not ga or not gb:
        return a == b
    return len(ga & gb) / len(ga | gb) >= weights()["near_duplicate_bigram_jaccard"]


def answer_shape(question: str):
    """The pattern a sentence answering ``question`` must contain (a date, an amount, a
    count …), or None when the question does not ask for a value."""
    for q_pat, s_pat in answer_types():
        if q_pat.search(question or ""):
            return s_pat
    return None


def compact_row(row: str, terms: list[str]) -> str:
    """A flattened table row reduced to what the question asks: its label, the columns the
    question names, else the total column (wide statistics tables)."""
    pairs = [p.strip() for p in re.split(r"[；;]", row) if p.strip()]
    if len(pairs) <= 4:
        return "；".join(pairs)
    label, rest = pairs[0], pairs[1:]
    keyed = [(p.split(": ", 1)[0] if ": " in p else p, p) for p in rest]
    tn = [norm(t) for t in terms]
    named = [p for k, p in keyed if any(t and t in norm(k.split("/")[-1]) for t in tn)]
    if not named:
        named = [p for k, p in keyed if re.search(r"总计|合计|总数", k)]
    if not named:
        named = rest[:3]
    return "；".join([label] + named[:3])


# ---- what the question asks ---------------------------------------------------------------
def _question_view(question: str, focus_terms: list[str]) -> dict:
    """The question's focus terms and the cues that steer sentence scoring."""
    q = question or ""
    terms = list(focus_terms) or list(key_terms(question))
    # 哪几个环节 frames, it names nothing; 是从 / 从哪 are function words glued together
    terms = [t for t in terms if t not in words("frame_words") and not all(ch in words("stopwords") for ch in t)] or terms
    slots = set(pattern("slot_terms").findall(q))
    terms = [t for t in terms if t not in slots] or terms
    wm = pattern("where_q").search(q)
    qv = {
        "question": question, "intent": [t for pat, extra in intent_terms() if pat.search(q) for t in extra],
        "expanded": [t for t in expand_terms(terms) if t not in terms],
        "numeric": bool(pattern("numeric_q").search(question)), "shape": answer_shape(question),
        "compose": bool(pattern("compose_q").search(q)), "yesno": bool(re.search(r"[吗么][?？。]?\s*$", q)),
        "basis": bool(pattern("basis_q").search(q)),
        "period": len({w for w in ("开始", "结束", "截止") if w in q}) >= 2 or "起止" in q,
        "where_verb": wm.group(1)[0] if wm else "", "arts": article_refs(question),
        "how": bool(pattern("how_q").search(question)), "list": bool(pattern("list_q").search(question)),
    }
    # an amount the question states picks a tier only when it asks for an amount
    qv["amounts"] = question_amounts(question) if slot_kind(question)[0] in ("金额", "数值", "比例") else []
    qv["stated"] = set()
    if qv["amounts"]:  # 15 in "买一辆15万元的车" states the tier, it is not a term to find
        qv["stated"] = {m.group(1) for m in AMOUNT.finditer(norm(q))}
        terms = [t for t in terms if t not in qv["stated"]] or terms
    qv["terms"] = terms
    return qv


def _off_topic(qv: dict, used: list[dict]) -> list[float]:
    """Per used document, how much less its sentences count: its title matches the subject
    much worse than the best one, the question names another document, or its title names
    another place than the one asked about."""
    w, question = weights(), qv["question"]
    title_cov = [coverage(qv["terms"], (d.get("title") or "") + " " + (d.get("file_name") or ""))[0] for d in used]
    best_title = max(title_cov, default=0.0)
    q_places = [p for p in place_words(question) if len(p) >= 2]
    titled = [any(norm(p) in norm((d.get("title") or "") + (d.get("file_name") or "")) for p in q_places)
              for d in used]
    named = [doc_named_in(question, d) for d in used]
    out = []
    for i, d in enumerate(used):
        off = -w["title_far_below_best"] if title_cov[i] < best_title - w["title_far_below_best_margin"] else 0.0
        if any(named) and not named[i]:
            off += -w["other_document_named"]
        if any(titled) and not titled[i] and place_words(d.get("title") or ""):
            off += -w["title_names_other_place"]
        out.append(off)
    return out


# ---- one document's sentences --------------------------------------------------------------
def _doc_view(qv: dict, n: int, d: dict, off_topic: float) -> dict:
    """What a document's sentences are scored against: terms its title does not cover, whether
    its heading or article is the one asked about."""
    w = weights()
    arts = qv["arts"]
    title_n = norm(d.get("title") or "") + norm(d.get("file_name") or "")
    s_terms = [t for t in qv["terms"] if not term_in(t, title_n)]
    # a generic word (补贴) that another used document's title says and this one's happens not
    # to is no reason to prefer this document's sentences: the distinctive terms (先垫) decide
    s_terms = [t for t in s_terms if not (t in words("generic_terms")
                                          and any(term_in(t, x) for x in qv.get("titles_n") or []))] or s_terms
    if qv["period"]:  # 从什么时候开始到什么时候结束: the period, which documents head "…时间"
        s_terms = [t for t in s_terms if t not in words("period_words")] + ["时间"]
    head_n = norm((d.get("heading") or "") + " ".join((d.get("path") or [])[1:]))
    head_hit = bool(s_terms) and any(term_in(t, head_n) for t in s_terms)
    sents = split_sentences(d.get("body") or d.get("text") or "")
    return {
        "n": n, "d": d, "off_topic": off_topic, "title_n": title_n, "s_terms": s_terms, "sents": sents,
        "whole_article": bool(arts) and any(norm(a) in norm(d.get("heading") or "") for a in arts),
        "head_hit": head_hit, "head_bonus": w["focus_term_in_heading"] if head_hit else 0.0,
        # the question names this section: quote it
        "section": head_hit and len(sents) <= w["named_section_max_sentences"],
        "section_end": next((i for i, x in enumerate(sents) if i > 0 and
                             re.match(r"^\s*([一二三四五六七八九十]+、|第[一二三四五六七八九十百]+条)", x)), len(sents)),
        "sub_head": "", "sub_hit": False, "list_head": "",  # the line introducing the current list ("燃油车：")
    }


def _sentence_view(qv: dict, dv: dict, s: str) -> dict | None:
    """How a sentence reads (shown form, list intro, bare value line); None when it is no claim."""
    table_row = is_table_row(s)
    shown = compact_row(display(s), qv["terms"] + qv["expanded"]) if table_row else display(s)
    content = re.sub(r"\W", "", shown)
    intro = not table_row and bool(re.search(r"(如下|以下|下列)[:：]?$|[:：]$", shown)
                                   # "提交资料如下：1.身份证…；" — the intro glued to its first item
                                   or re.search(r"(如下|以下|下列)[^，。；]{0,6}[:：]\s*(\d{1,2}[.．、]|（\d{1,2}）)", shown))
    # a bare value line (a hotline number) under the heading the question names
    digits_only = bool(re.fullmatch(r"[\d\s、,，\-—/（）()]{5,}", shown))
    # a short value line under the heading the question names ("2025年7月19日至2025年11月15日")
    shape, s_terms = qv["shape"], dv["s_terms"]
    value_line = (dv["sub_hit"] and not digits_only and shape is not None and len(shown) <= 40
                  and bool(shape.search(shown)) and not table_row and not pattern("subhead").match(shown)
                  and all(term_in(t, norm(dv["sub_head"])) for t in s_terms))
    bare_value = (dv["head_hit"] or dv["sub_hit"]) and (digits_only or value_line)
    if (len(content) < 6 and not intro and not bare_value) or norm(shown).rstrip("。") in dv["title_n"]:
        return None
    if not re.search(r"[，。；：！？,;:!?]", shown) and not dv["whole_article"] and not bare_value:
        return None  # a bare heading or a title line is not a claim
    if re.search(r"https?://", shown) and not re.search(r"链接|网址|网站", qv["question"]):
        return None
    return {"shown": shown, "intro": intro, "value_line": value_line, "bare_value": bare_value}


def _base_score(qv: dict, dv: dict, shown: str, ref: str) -> tuple[float, list[str]]:
    """Coverage of the focus terms by the sentence and its context, term bigrams, chunk grade."""
    w, d, terms, s_terms = weights(), dv["d"], qv["terms"], dv["s_terms"]
    ctx = " ".join([shown, ref, d.get("heading") or "", dv["sub_head"], dv["list_head"], d.get("title") or "",
                    " ".join(d.get("path") or [])])
    cov_ctx, hit, _ = coverage(terms, ctx)
    cov_all, _, _ = coverage(terms, shown + ref)
    cov_own = coverage(s_terms, shown + ref)[0] if s_terms else cov_all
    if ref:
        cov_all, cov_own = cov_all + w["detailed_sentence_coverage"], cov_own + w["detailed_sentence_coverage"]
    cov_s = w["coverage_all_terms_share"] * cov_all + w["coverage_own_terms_share"] * cov_own
    if qv["expanded"] and any(term_in(t, norm(shown)) for t in qv["expanded"]):
        cov_s = max(cov_s, w["synonym_in_sentence_coverage_floor"])
    bi = ngram_containment(" ".join(s_terms or terms), shown, 2)
    sc = w["sentence_term_coverage"] * cov_s + w["context_term_coverage"] * cov_ctx + \
        w["term_bigrams_in_sentence"] * bi + w["chunk_grade"] * d["grade"]["score"] + dv["head_bonus"]
    return sc, hit


def _cue_score(sc: float, qv: dict, dv: dict, pos: int, sv: dict) -> float:
    """Headings, how / where cues, the asked value's shape, a bare value line."""
    w, shown = weights(), sv["shown"]
    if dv["sub_hit"] and not dv["head_hit"]:
        sc += w["focus_term_in_subheading"]
    if dv["section"] and pos < dv["section_end"] and not re.match(r"^[一二三四五六七八九十]+、", shown):
        sc = max(sc, w["named_section_floor"] - w["named_section_position_step"] * pos)
    if qv["how"] and pattern("how_s").search(shown):
        sc += w["how_question_how_sentence"]
    if (qv["how"] or qv["where_verb"]) and pattern("deferral").search(shown):
        sc += w["deferral_how_question"]  # "在原平台开放申报" sends the asker elsewhere: not how / where
    if qv["where_verb"] and re.search(r"(在|到|向|至|通过)[^，。；]{1,20}" + re.escape(qv["where_verb"]), shown):
        sc += w["where_question_place_and_verb"]  # 加油卡去哪里领 → "可在中石油或中石化领取加油储值卡"
    unmarked = re.sub(r"^(\d{1,2}[.．、)）]|（\d{1,2}）)", "", shown)
    unmarked = re.sub(r"第[\d、]+页|〔\d{4}〕\d+号|[（(]\d{4}-\d{4}年?[)）]", "", unmarked)
    shape, digit = qv["shape"], re.search(r"\d", unmarked)
    if shape is not None:
        if shape.search(unmarked) or shape.search(norm(unmarked)):  # 一次 → 1次
            sc += w["answer_shape_in_sentence"]
        elif qv["numeric"]:
            sc += w["numeric_question_digit_wrong_shape"] if digit else w["numeric_question_no_digit"]
    elif qv["numeric"]:
        sc += w["numeric_question_digit_no_shape"] if digit else w["numeric_question_no_digit"]
    if sv["bare_value"]:
        sc = max(sc, w["value_line_floor"]) + w["value_line_bonus"] if sv["value_line"] else \
            max(sc, w["bare_value_floor"])
    return sc


def _value_score(sc: float, qv: dict, dv: dict, pos: int, shown: str) -> float:
    """Intent words, a stated amount's tier, the asked article, a cover notice, an off-topic document."""
    w = weights()
    if qv["intent"] and any(term_in(t, norm(shown)) for t in qv["intent"]):
        # a yes/no question is answered by the sentence that rules on it
        sc += w["intent_words_yesno_question"] if qv["yesno"] else w["intent_words"]
    if qv["amounts"]:
        # "其中，…" details the tier or amount of the sentence before it (8500元的礼包。其中，5000元的加油卡)
        before = display(dv["sents"][pos - 1]) if pos > 0 and pattern("compose_s").match(shown) else ""
        fit = amount_fits(qv["amounts"], shown)
        if fit is None and before:
            fit = amount_fits(qv["amounts"], before)
        written = any(re.search(r"(?<![\d.])" + re.escape(x) + r"\s*(万元|万|元)", norm(shown + before))
                      for x in qv["stated"])
        if written and fit is False:  # 8500元的礼包 names the tier by its own amount, not by a price in it
            sc += w["amount_tier_fits"]
        elif fit is not None:  # the tier (10万元（含）至30万元（不含）) the asked 15万元 falls in
            sc += w["amount_tier_fits"] if fit else w["amount_tier_misses"]
        elif written:
            sc += w["stated_amount_written"]  # the amount itself is written there (满200元减50元)
    if dv["whole_article"]:
        sc = max(sc, w["asked_article_floor_sentence"] - w["asked_article_position_step"] * pos)
    if not qv["basis"] and pattern("preamble").search(norm(shown)):
        sc += w["cover_notice_not_basis_question"]  # the issuing notice's cover (为落实…, 此件公开发布) answers no how / what
    return sc - dv["off_topic"]


def _list_items(dv: dict, pos: int, sc: float) -> list[dict]:
    """The list items right after an introducing sentence, sharing its score."""
    w, sents, out = weights(), dv["sents"], []
    prev_item = ""
    for k in range(pos + 1, min(pos + w["list_item_window"], len(sents))):
        item = display(sents[k])
        if _TOP_HEAD.match(item):
            break
        listy = (re.match(r"^(\d{1,2}[.．、)）]|（\d{1,2}）|[①-⑩]|[\u4e00-\u9fff]{1,8}[：:])", item)
                 or re.search(r"[;；:：]$", item))
        same_shape = prev_item and norm(item)[:4] == norm(prev_item)[:4]
        if not (listy or same_shape):
            break
        if len(re.sub(r"\W", "", item)) >= 4:
            out.append({"n": dv["n"], "pos": k, "text": item, "source": sents[k],
                        "score": sc - w["list_item_position_step"] * (k - pos), "hit": 0, "item_of": pos})
        prev_item = item
        if not listy:
            break
    return out


def _doc_candidates(qv: dict, dv: dict) -> list[dict]:
    """Scored candidate sentences (and list items) of one used document."""
    cands: list[dict] = []
    sents, s_terms = dv["sents"], dv["s_terms"]
    for pos, s in enumerate(sents):
        if is_table_header(s) or s.strip().startswith("表头"):
            continue
        if pattern("subhead").match(display(s)) and not re.search(_PUNCT, display(s)):
            # an in-chunk heading ("一、活动时间"): context for the sentences under it
            dv["sub_head"], dv["list_head"] = display(s), ""
            dv["sub_hit"] = bool(s_terms) and any(term_in(t, norm(dv["sub_head"])) for t in s_terms)
            continue
        sv = _sentence_view(qv, dv, s)
        if sv is None:
            continue
        shown, intro = sv["shown"], sv["intro"]
        if dv["list_head"] and not _ITEM_MARK.match(shown):
            dv["list_head"] = ""
        # what something consists of (礼包具体包括什么): "其中，…" details the sentence before it
        ref = display(sents[pos - 1]) if qv["compose"] and pos > 0 and pattern("compose_s").match(shown) else ""
        sc, hit = _base_score(qv, dv, shown, ref)
        sc = _value_score(_cue_score(sc, qv, dv, pos, sv), qv, dv, pos, shown)
        # a focus term said in the document's words (先垫 → 先行垫付) is a hit of that term too
        own_hits = [t for t in (s_terms or qv["terms"]) if _says_term(t, norm(shown))]
        # an item of a short labelled list keeps its label (燃油车：1.新车购车发票金额…)
        list_head = dv["list_head"]
        labelled = f"{list_head}{shown}" if list_head and len(list_head) <= 12 and not intro else shown
        cands.append({"n": dv["n"], "pos": pos, "text": labelled, "source": s, "score": sc, "hit": len(hit),
                      "intro": intro, "own_hits": own_hits})
        if intro:
            dv["list_head"] = shown
            if qv["list"]:
                cands[-1]["score"] = sc = sc + weights()["list_intro_list_question"]
            cands += _list_items(dv, pos, sc)
    return cands


# ---- picking the answer's sentences ----------------------------------------------------------
def _says_term(term: str, text_n: str) -> bool:
    return term_in(term, text_n) or any(norm(x) in text_n for x in synonyms().get(term, ()) if len(x) >= 2)


def _rarity_bonus(cands: list[dict]) -> None:
    """A focus term found in few sentences (解释 vs 负责) tells more than one found everywhere."""
    w = weights()
    df: Counter = Counter()
    for c in cands:
        for t in set(c.get("own_hits") or []):
            df[t] += 1
    for c in cands:
        hits = c.get("own_hits") or []
        if hits and len(cands) >= w["rare_focus_term_min_candidates"]:
            rare = sum(term_weight(t) / df[t] for t in hits) / sum(term_weight(t) for t in hits)
            c["score"] += w["rare_focus_term"] * rare * min(1.0, len(hits) / 2)


def _pick(qv: dict, cands: list[dict], used: list[dict], compare: bool) -> list[dict]:
    """The sentences about as good as the best one (from the best document unless comparing)."""
    w = weights()
    best = max(c["score"] for c in cands)
    floor = max(w["sentence_min"], w["pick_share_of_best"] * best)
    if not compare:
        # one document answers: others only contribute sentences about as good as its best
        best_n = max(cands, key=lambda c: c["score"])["n"]
        best_doc = used[best_n - 1]["doc_id"]
        cands = [c for c in cands
                 if used[c["n"] - 1]["doc_id"] == best_doc or c["score"] >= w["other_document_share_of_best"] * best]
    picked = sorted([c for c in cands if c["score"] >= floor],
                    key=lambda c: -c["score"])[:w["list_answer_max_sentences"] * 2]
    return picked or sorted(cands, key=lambda c: -c["score"])[:w["fallback_sentences"]]


def _with_items(picked: list[dict], items: list[dict], plain: dict) -> list[dict]:
    """The items of a picked list-introducing sentence come with it, right after it; an
    introducing sentence ("适用场景：") whose items did not come along says nothing."""
    intros = {(c["n"], c["pos"]) for c in picked if c.get("intro")}
    have = {(c["n"], c["pos"]) for c in picked}
    extra = []
    for it in items:
        key = (it["n"], it["pos"])
        if (it["n"], it["item_of"]) in intros and key not in have:
            have.add(key)
            extra.append({**it, "score": plain.get((it["n"], it["item_of"]), it)["score"]
                          - weights()["list_item_after_intro_step"]})
    with_items = {(it["n"], it["item_of"]) for it in extra} | {(c["n"], c.get("item_of")) for c in picked if "item_of" in c}
    picked = [c for c in picked if not (c.get("intro") and re.search(r"[:：]$", c["text"])
                                        and (c["n"], c["pos"]) not in with_items
                                        and len(re.sub(r"\W", "", c["text"])) < 12)] or picked
    return sorted(picked + extra, key=lambda c: -c["score"])


def _with_back_references(picked: list[dict], plain: dict) -> list[dict]:
    """A sentence that only refers back ("如有上述行为之一，将取消…资格") and the sentence it refers
    to ("严禁…虚开…发票") are one claim: whichever of the two was picked brings the other."""
    keys = {(c["n"], c["pos"]) for c in picked}
    out = []
    for c in picked:
        if "item_of" in c:
            out.append(c)
            continue
        prev, nxt = plain.get((c["n"], c["pos"] - 1)), plain.get((c["n"], c["pos"] + 1))
        if _refers_back(c):
            if prev and (c["n"], c["pos"] - 1) in keys:
                continue  # its antecedent is picked and takes it along
            c = _joined(prev, c) if prev else c
        elif nxt and _refers_back(nxt):
            c = _joined(c, nxt)
        out.append(c)
    return out


def _refers_back(c: dict) -> bool:
    return bool(pattern("back_reference").match(c["text"]))


def _joined(first: dict, then: dict) -> dict:
    # one claim, one citation: joined by "；" so the answer line stays one sentence
    return {**first, "text": first["text"].rstrip("。.") + "；" + then["text"], "source": first["source"] + then["source"],
            "score": max(first["score"], then["score"])}


def _claims(picked: list[dict], limit: int) -> list[dict]:
    """Claims of the picked sentences; a near-duplicate adds its citation to the first."""
    claims: list[dict] = []
    for c in picked:
        dup = next((cl for cl in claims if _near_dup(norm(cl["text"]), norm(c["text"]))), None)
        if dup is not None:
            if c["n"] not in dup["cites"]:
                dup["cites"].append(c["n"])
            continue
        if len(claims) >= limit:
            continue
        claims.append({"text": c["text"], "cites": [c["n"]], "source": c["source"], "n": c["n"], "pos": c["pos"]})
    return claims


def _metadata_claims(question: str, used: list[dict], claims: list[dict]) -> None:
    """Questions about the document itself are answered from its metadata (文号 / 机关 / 日期)."""
    labels = vocab_entry("meta_labels")["map"]
    for field, pat in meta_questions().items():
        if not pat.search(question):
            continue
        d = next((x for x in used if x.get(field)), None)
        if d is None:
            continue
        from core.agents.rag.runtime import doc_title

        n = used.index(d) + 1
        value = d[field]
        m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", str(value).strip())
        if m:  # as documents write it (and as the number check compares it)
            value = f"{int(m.group(1))}年{int(m.group(2))}月{int(m.group(3))}日"
        claims.insert(0, {"text": f"《{doc_title(d)}》的{labels[field]}{value}。", "cites": [n], "source": "",
                          "n": n, "pos": -1})


def _name_the_org_from_heading(claim: dict, d: dict) -> None:
    """"第十一条 市商务局 / 负责组织实施…": a sentence under an article headed by the
    department names it only through the heading; say it, so "哪个部门负责" is answered."""
    head = heading_org(d)
    if head and not pattern("named_org").search(claim["text"]):
        claim["text"] = f"{head}：{claim['text']}"


def extract_answer(question: str, focus_terms: list[str], used: list[dict]) -> tuple[str, list[dict]]:
    """The best-supported sentences of the used chunks, each with its [n]. Returns the
    answer text and the claims ``[{text, cites, source}]``. A picked sentence that
    introduces a list (ends with "：" / "如下") brings the list items after it."""
    qv = _question_view(question, focus_terms)
    qv["titles_n"] = [norm((d.get("title") or "") + (d.get("file_name") or "")) for d in used]
    cands: list[dict] = []
    for n, (d, off) in enumerate(zip(used, _off_topic(qv, used)), 1):
        cands += _doc_candidates(qv, _doc_view(qv, n, d, off))
    if not cands:
        return "", []
    items = [c for c in cands if "item_of" in c]
    plain = {(c["n"], c["pos"]): c for c in cands if "item_of" not in c}
    cands = list(plain.values())
    _rarity_bonus(cands)
    compare = bool(pattern("compare_q").search(question))
    picked = _with_back_references(_with_items(_pick(qv, cands, used, compare), items, plain), plain)
    # concise: a value question gets its few best sentences, a list question its items
    listy = qv["list"] or qv["compose"] or any("item_of" in c for c in picked)
    w = weights()
    claims = _claims(picked, w["list_answer_max_sentences"] if (listy or compare) else w["value_answer_max_sentences"])
    _metadata_claims(question, used, claims)
    if slot_kind(question)[0] == "部门":
        for cl in claims:
            _name_the_org_from_heading(cl, used[cl["n"] - 1])
    claims.sort(key=lambda c: (c["n"], c["pos"]))
    return render_claims(claims, used), claims
