"""The slot a question asks to fill (金额 / 日期 / 期限 / 部门 / 材料 / 条件 …, table in
data/rules/rag_patterns.json "slot_kinds") and whether the evidence fills it for what is asked."""

from __future__ import annotations

import re

from core.agents.rag.amounts import amount_fits, question_amounts
from core.agents.rag.arith import net_pay_claim
from core.agents.rag.ruledata import meta_questions, pattern, rules_file, slot_kinds, synonyms, vocab_entry, weight, words
from core.agents.rag.scoring import doc_context
from core.agents.rag.sums import named_sum_claim, product_claim
from core.agents.rag.textutil import (
    coverage, display, is_table_row, key_terms, lcut, ngram_containment, norm, place_words, places, real_word,
    split_sentences,
    term_in, term_weight, unit_pattern,
)

_ARTICLE_HEAD = re.compile(r"第[一二三四五六七八九十百零\d]+条\s*")
_COUNT_TERM = re.compile(r"(几|多少)[\u4e00-\u9fff]{0,2}")


def slot_kind(question: str) -> tuple[str, re.Pattern | None]:
    if pattern("consequence_q").search(question or "") and not pattern("consequence_value_q").search(question or ""):
        return "", None  # 占额度会怎样 asks what happens, not the 额度
    # something extra (另外有多少补贴) is asked before any amount it is measured in
    for name, q_pat, s_pat in sorted(slot_kinds(), key=lambda k: k[0] != "额外"):
        if q_pat.search(question or ""):
            return name, s_pat
    return "", None


def slot_predicate(question: str) -> str:
    """The verb of an organisation slot (由哪个财政部门**拨付** → 拨付): the organisation that
    answers must be said to do that."""
    q = question or ""
    m = (re.search(r"(?:哪个|哪些|什么|哪一?个?|哪家)[\u4e00-\u9fff]{0,3}?(?:部门|单位|机关|机构|银行|公司|企业)([\u4e00-\u9fff]{1,8})", q)
         or re.search(r"(?:由谁|谁)([\u4e00-\u9fff]{1,8})", q))
    if not m:
        return ""
    for w in lcut(m.group(1)):
        if len(w) >= 2 and not real_word(w):
            return ""  # 谁管换新家电: 管 glued to 换 by the word cutter, no predicate to require
        if len(w) >= 2 and w not in words("predicate_skip") and w not in words("org_words"):
            return w
    return ""


def amount_owner(question: str) -> str:
    """What an asked price / amount belongs to (旧家电**回收**价格是多少 → 回收); "" when it is
    generic (补贴标准) or not said."""
    m = re.search(r"([\u4e00-\u9fff]{2,10}?)的?(价格|价钱|收费标准)(标准)?(是|为)?(多少|几|怎么算|如何)", question or "")
    if not m:
        return ""
    ws = [w for w in lcut(m.group(1)) if w != "的"]
    w = ws[-1] if ws else ""
    if len(w) < 2 or w in words("generic_terms") or w in words("stopwords") or pattern("asks").search(w):
        return ""
    return w


def event_predicate(question: str) -> str:
    """What happens at the date asked for (什么时候**到账** → 到账); "" when the question only asks
    a named period's date (活动时间是什么时候)."""
    m = pattern("event_after_time").search(question or "")
    if not m or m.group(1)[:2] in words("period_words"):  # 申报到哪天**截止**: the event is before 到
        return _event_before_deadline(question or "")
    asks, skip = pattern("asks"), words("event_skip")
    tail = m.group(1)
    modal = vocab_entry("glue_chars")["event_modal_heads"]  # 多长时间内**要**用掉 → 用掉
    stripped = tail.lstrip(modal)
    if len(stripped) >= 2 or (len(stripped) == 1 and len(tail) == 2):
        tail = stripped  # 最晚什么时候**能**改 → 改 (the document writes 修改)
    for w in lcut(tail):
        if asks.search(w):
            return ""  # 从哪天到哪天: a range of the period itself
        if len(w) >= 2 and w not in skip and w not in words("stopwords"):
            return w
    head = tail[:2]  # 到账 cut into single characters
    if asks.search(tail[:3]):
        return ""
    return head if head not in skip and head[0] not in vocab_entry("glue_chars")["event_head_skip"] else ""


def _event_before_deadline(question: str) -> str:
    """申报截止到哪天 → 申报: the event whose deadline is asked, written before 截止."""
    m = pattern("event_before_deadline").search(question) or pattern("event_before_until").search(question)
    if not m:
        return ""
    ws = [w for w in lcut(m.group(1)) if w in words("deadline_events")]  # 申报, not the subject (消费券)
    return ws[-1] if ws else ""


def heading_org(d: dict) -> str:
    """The department an article heading names ("第十三条 市发展改革委" → 市发展改革委), or ""."""
    head = _ARTICLE_HEAD.sub("", (d.get("heading") or "").split(">")[-1]).strip()
    return head if head and pattern("named_org").fullmatch(head) else ""


def _sentences_with_heads(d: dict):
    """(sentence, heading context) of a chunk; an in-chunk sub-heading (一、活动时间) is context
    for the sentences under it."""
    sub = ""
    head = " ".join([d.get("heading") or "", " ".join(d.get("path") or [])])
    for s in split_sentences(d.get("body") or d.get("text") or ""):
        shown = display(s)
        if pattern("subhead").match(shown) and not re.search(r"[，。；！？,;!?]", shown):
            sub = shown
            continue
        if pattern("label_line").match(shown):  # "新能源汽车：" labels the list items under it
            sub = shown
            continue
        yield shown, f"{head} {sub}"


def _year_support(q: str, docs: list[dict]) -> tuple[list[dict], list[str]]:
    """(documents about every year the question names, the years none is about)."""
    years = re.findall(r"(?<!\d)((?:19|20)\d{2})(?=\s*年)", q)
    support = []
    for d in docs:
        ctx = norm(doc_context(d))
        t_years = set(re.findall(r"(?:19|20)\d{2}(?=年)", norm((d.get("title") or "") + (d.get("file_name") or ""))))
        # a document of another year (its title says 2025) mentioning 2024 in passing is not about 2024
        if all(y in ctx for y in years) and (not years or not t_years or t_years & set(years)):
            support.append(d)
    return support, ([] if support else [f"{y}年" for y in years])


def _terms_without_slot(kind: str, q: str, terms: list[str]) -> list[str]:
    """平台 / 部门 / 时间 name the slot, not what is asked: drop them from the terms (咨询电话 → 咨询)."""
    if kind not in words("generic_slots"):  # 资金总额 names what is asked
        return terms
    q_pat = next(qp for name, qp, _ in slot_kinds() if name == kind)
    asked = " ".join(m.group(0) for m in q_pat.finditer(q))  # the slot itself (申领平台叫什么 → 平台)
    ws = [w for w in re.split(r"\s+", asked) if w]
    kept = []
    for t in terms:
        if len(t) <= len(asked) and t in asked:
            continue
        for w in ws:
            for piece in re.findall(r"电话|热线|客服|平台|部门|单位|机关|机构|银行|时间|日期|期限|比例", w):
                t = t.replace(piece, "")
        if len(t) >= 2:
            kept.append(t)
    return kept


def _slot_verb(kind: str, q: str) -> str:
    verb = slot_predicate(q) if kind in ("部门", "银行") else (event_predicate(q) if kind in ("日期", "期限") else "")
    if kind in ("金额", "数值") and not verb:
        verb = amount_owner(q)  # 回收价格是多少: a price of 回收, not the 销售价格 of another sentence
    return verb


def _patterns_table(key: str) -> dict:
    return rules_file("rag_patterns")[key]


def _metadata_gap(q: str, support: list[dict]) -> str:
    """A field only a document's header states (发布日期, 文号; data: meta_questions
    "metadata_only"), asked of documents that state none: the slot to refuse on, "" otherwise."""
    table = _patterns_table("meta_questions")
    for field, label in table.get("metadata_only", {}).get("fields", {}).items():
        if meta_questions()[field].search(q) and not any(d.get(field) for d in support):
            return label
    return ""


def _gate(q: str, kind: str, shape, support: list[dict]) -> bool:
    """Does the question ask for a slot the evidence has to fill at all?"""
    if shape is None or not pattern("asks").search(q):
        return False  # a statement (建议拓宽该道路) asks for no slot
    if kind not in words("yesno_slots") and pattern("yesno_q").search(q):
        return False  # 是否有统一的收费起止时间？ asks yes or no, not for the date itself
    meta = meta_questions()
    if any(pat.search(q) for pat in meta.values()):
        field = next(f for f, pat in meta.items() if pat.search(q))
        if any(d.get(field) for d in support):
            return False
    return True


def slot_gaps(question: str, docs: list[dict], *, max_docs: int = 8, explain: list | None = None) -> list[str]:
    """What the question pins down that no evidence chunk gives: a year no chunk's document
    is about, or the asked-for slot (金额 / 日期 / 期限 / 部门 / 材料 / 条件 …) that no sentence
    fills *for what is asked* — a sentence of the right shape that also mentions the
    question's own terms (those the document title does not already cover). ``[]`` = covered."""
    q = question or ""
    docs = [d for d in docs[:max_docs] if d]
    if not docs:
        return []
    support, year_gaps = _year_support(q, docs)
    if not support:
        return year_gaps
    # documents about the question's subject: title coverage near the best one
    terms = [t for t in key_terms(q) if not _COUNT_TERM.fullmatch(t) and t not in words("frame_words")
             and not all(ch in words("stopwords") for ch in t)]  # 是从 / 从哪: function words glued together
    tcov = [coverage(terms, (d.get("title") or "") + " " + (d.get("file_name") or ""))[0] for d in support]
    best = max(tcov, default=0.0)
    support = [d for d, c in zip(support, tcov) if c >= best - weight("subject_title_margin")]
    kind, shape = slot_kind(q)
    gap = _metadata_gap(q, support)
    if gap:
        return [gap]
    if not _gate(q, kind, shape, support):
        return []
    if _computed_from_evidence(q, kind, support):
        return []
    if kind == "数量":  # 多少张 is answered by "1张", not by "14批次" (几台 by "3件")
        unit = pattern("count_unit").search(q).group(1)
        shape = re.compile(r"\d+\s*" + unit_pattern(unit) + r"|[:：]\s*\d+")
    ask = {"q": q, "kind": kind, "shape": shape, "terms": _terms_without_slot(kind, q, terms),
           "verb": _slot_verb(kind, q), "amounts": question_amounts(q),
           "total": bool(pattern("total_asked").search(q))}
    # terms that only state the amount or count the question gives (30万元, 一辆): a tier
    # sentence that covers the amount answers them
    counted = re.search(r"(?:(?<!哪)几|多少)\s*(?:批次|[\u4e00-\u9fff])([\u4e00-\u9fff]{2,10})", q) if kind == "数量" else None
    if counted and any(counted.group(1).startswith(v) for v in words("count_predicate_verbs")):
        counted = None  # 最多能买几辆**享受补贴**: what the counted things get, not what is counted
    ask["counted"] = [t for t in ask["terms"] if counted and t in counted.group(1)]  # 多少篇**政策解读**
    # "一共有几次领取机会" is answered by "有3次领取机会": the count of exactly the asked thing
    ask["count_of"] = _count_of(unit, counted.group(1)) if counted else None
    ask["amount_terms"] = {t for t in ask["terms"]
                           if re.fullmatch(r"[\d.]+(万元|万|元)?|[一二两三四五六七八九十\d]+[辆台件个张次份套]", t)}
    for d in support:
        filled = _doc_fills(ask, d, explain)
        if filled is not None:
            return filled
    return [kind]


def _computed_from_evidence(q: str, kind: str, support: list[dict]) -> bool:
    """The asked figure is computed from figures the evidence states, so no sentence states it:
    行政处罚和行政许可一共多少件 (both counts stated, added); 满200减40，买了280元实际付多少 (the
    满减 tier the spend reaches stated, subtracted); 两个人各买一辆30万的车一共能领多少 (the
    per-item amount of the tier stated, times the count)."""
    if kind in ("数量", "数值") and named_sum_claim(q, support) is not None:
        return True
    if kind in ("数值", "金额"):
        sentences = [{"text": display(s), "cites": [n], "n": n} for n, d in enumerate(support, 1)
                     for s in split_sentences(d.get("body") or d.get("text") or "")]
        return net_pay_claim(q, sentences) is not None or product_claim(q, sentences, support) is not None
    return False


def _count_of(unit: str, thing: str) -> re.Pattern:
    """A count of exactly the thing asked, either order ("有3次领取机会", "新闻发布会12场"), or
    a table cell of its row ("行政强制；本年处理决定数量: 195")."""
    u, t, whole = unit_pattern(unit), re.escape(thing[:2]), re.escape(thing[:4])
    return re.compile(r"\d+\s*" + u + t + "|" + whole + r"[\u4e00-\u9fff]{0,4}\d+\s*" + u + "|" + whole + r"[^;；。:：]{0,10}[;；]?[^;；。:：]{0,20}[:：]\s*\d+")


def _own_slot_terms(ask: dict, d: dict) -> list[str]:
    """The question's terms a sentence of ``d`` must mention: not the slot, not what the
    title covers, not an aspect, a place or a year."""
    q = ask["q"]
    slots = set(pattern("slot_terms").findall(q))
    q_places = set(place_words(q)) | set(places(q))  # where: a document-level constraint
    title_n = norm((d.get("title") or "") + (d.get("file_name") or ""))
    return [t for t in ask["terms"] if t not in slots and not term_in(t, title_n) and t not in words("asked_frame")
            and real_word(t)  # not 天到 (哪天到哪天) nor 价算: guesses of the word cutter
            and t not in words("aspect_words") and t not in q_places and not re.fullmatch(r"(19|20)\d{2}年?", t)]


def _sentence_fits(ask: dict, d: dict, shown: str, head: str) -> bool:
    """Has the sentence the asked slot's shape, for the asked total / organisation / action?"""
    kind, shape = ask["kind"], ask["shape"]
    body = pattern("unmark").sub("", shown)
    if kind not in ("日期",):
        body = pattern("year_word").sub("", body)  # 2019年 is not a duration or a count
    row = is_table_row(shown)
    head_org = kind == "部门" and bool(heading_org(d))  # 第十三条 市发展改革委: 负责加强统筹协调
    row_fits = row and re.search(r"\d", body) and kind not in words("shape_only_slots")
    if not (shape.search(body) or shape.search(norm(body)) or row_fits or head_org):
        return False  # (a table row's unit sits in its header: 本年收费金额（单位：万元）: 7730.28)
    if ask["total"] and not pattern("total_said").search(shown) and not pattern("total_said").search(head) \
            and not (ask.get("count_of") and ask["count_of"].search(norm(shown))) \
            and not (kind == "比例" and len(shape.findall(norm(shown))) >= 2):  # 15%…额外再给予5%: summed (calc.py)
        return False  # a total is asked: a per-person figure does not answer it
    if kind in ("部门", "银行") and not _names_org(shown, ask["q"], shape) and not head_org:
        return False  # "保险公司应依法经营" names no company; "消费者提交的银行卡" no bank
    if kind == "名称" and not names_asked_item(shown, ask["q"], shape):
        return False  # "制作《淮安市人民政府公报》6期" names no 规章
    verb, sent_n = ask["verb"], norm(shown)
    if verb and not (term_in(verb, sent_n) or any(term_in(x, sent_n) for x in synonyms().get(verb, ()))):
        return False  # the organisation / date must be said to do / be *that* (拨付, 到账)
    return not (kind == "日期" and _dates_another_event(sent_n, verb, shape))


def _dates_another_event(sentence: str, verb: str, shape) -> bool:
    """Is the date of ``sentence`` the deadline of another event than the asked one (申报资料如有修改，需在
    7月30日24时前完成提交 for 申报)? Its clause names another deadline event (``deadline_events``) and not
    the asked one (补贴资料申报及修改时间：… names both: it dates 申报 too)."""
    events = words("deadline_events")
    clause = next((c for c in re.split(r"[，,；;。]", sentence) if shape.search(c)), "")
    if verb not in events or not clause:
        return False
    same = {verb, *synonyms().get(verb, ())}
    return not any(w in clause for w in same) and any(w in clause for w in events - same)


def _doc_fills(ask: dict, d: dict, explain: list | None) -> list[str] | None:
    """``[]`` when a sentence of ``d`` fills the slot for what is asked, else None."""
    s_terms = _own_slot_terms(ask, d)
    period_words = words("period_words")
    sents = list(_sentences_with_heads(d))
    if ask["verb"]:  # "补贴申报时间：…" before a sentence that only mentions 申请人
        sents.sort(key=lambda sh: not _labels_event(sh[0], ask["verb"]))
    for shown, head in sents:
        fit = amount_fits(ask["amounts"], shown) if ask["amounts"] else None
        if not _sentence_fits(ask, d, shown, head):
            continue
        counted = [t for t in ask["counted"] if t in s_terms]
        if counted and not _soft_coverage(counted, f"{shown} {head}")[1]:
            continue  # a count of something else (3 requests 需要另行制作, not 3 政策解读)
        own_terms = [t for t in s_terms if not (t in ask["amount_terms"] and fit is not False)] \
            if ask["amounts"] else s_terms
        if ask["kind"] == "日期" and pattern("period").search(norm(shown)):
            # a period "7月19日至11月15日" says when it starts and when it ends
            own_terms = [t for t in own_terms if t not in period_words]
            if s_terms and all(t in period_words for t in s_terms):
                return _filled(explain, d, shown, s_terms, [])
        if (fit is True and not own_terms) or not s_terms:
            return _filled(explain, d, shown, s_terms, [])
        cov, hit = _soft_coverage(own_terms or s_terms, f"{shown} {head}")
        if cov >= weight("slot_terms_covered_min"):
            return _filled(explain, d, shown, s_terms, hit)
        if explain is not None:
            explain.append({"miss": shown[:50], "terms": s_terms, "cov": round(cov, 2)})
    return None


def asked_item_noun(question: str) -> str:
    """The kind of thing whose name or list is asked (新增的那件市政府规章叫什么名字 → 规章,
    能领加油卡的中石化加油站有哪些 → 加油站); "" when the question names none."""
    m = re.search(vocab_entry("named_item")["asked_noun"], question or "")
    ws = [w for w in lcut(m.group(1)) if len(w) >= 2 and w not in words("stopwords")] if m else []
    return ws[-1] if ws else ""


def names_asked_item(sentence: str, question: str, shape) -> bool:
    """Does the sentence give a name (《…》, “…”, 名单：…, several named 站/企业) next to the
    thing asked about, not a title printed elsewhere in it?"""
    noun, near = asked_item_noun(question), int(vocab_entry("named_item")["near_chars"])
    text = norm(sentence)
    for m in shape.finditer(text):
        window = text[max(0, m.start() - near):m.end() + near]
        if not noun or term_in(noun, window) or any(term_in(x, window) for x in synonyms().get(noun, ())):
            return True
    return False


def _labels_event(sentence: str, verb: str) -> bool:
    """Is the sentence a time line named after the asked event (补贴申报时间：… for 申请)?"""
    m = pattern("time_label").match(norm(sentence))
    return bool(m) and any(term_in(x, m.group(1)) for x in (verb, *synonyms().get(verb, ())))


def _filled(explain: list | None, d: dict, sentence: str, terms: list[str], hit: list[str]) -> list[str]:
    """The slot is filled: note by which sentence of which chunk (``explain``), no gap left."""
    if explain is not None:
        explain.append({"doc": d.get("title"), "chunk_id": d.get("chunk_id"), "sentence": sentence, "terms": terms,
                        "hit": hit})
    return []


def _names_org(sentence: str, question: str, shape) -> bool:
    """Does the sentence name an organisation (市商务局, 齐鲁银行, 销售企业) other than the
    generic noun the question itself uses (哪家保险公司 → "保险公司" names nobody)? When the
    question asks the name of one kind (第三方审核机构叫什么, 哪几家保险公司), only a name of that
    kind with something specific before it counts ("委托第三方机构" names no 机构)."""
    qn = norm(question)
    typed = pattern("org_type").search(question or "")
    if typed:
        kind = typed.group(2) or typed.group(4)
        kind = "公司" if kind == "保险公司" else kind
        import jieba.posseg as pseg

        for m in re.finditer(r"([\u4e00-\u9fff]{1,10}?)" + kind, sentence):
            ws = list(pseg.cut(re.split(r"[的、，,和与及或]", m.group(1))[-1]))
            while ws and pattern("org_generic").fullmatch(ws[-1].word):
                ws.pop()  # 聘请第三方专业机构: 专业 / 第三方 qualify, they name nobody
            if ws and ws[-1].flag[:1] in ("n", "j") and len(ws[-1].word) >= 2 \
                    and norm(ws[-1].word) not in qn:
                return True
        return bool(re.search(r"“[^”]{2,20}”", sentence)) and kind in ("平台",)
    for m in shape.finditer(sentence):
        name = re.split(r"[的、，,和与及或]", m.group(0))[-1]
        if len(name) >= 3 and norm(name) not in qn:
            return True
    return False


def _soft_coverage(terms: list[str], text: str) -> tuple[float, list[str]]:
    """Weighted share of terms present in text: exactly, by a synonym, or (a 3+ character
    search-mode fragment such as 件产品) by half its character bigrams."""
    tn = norm(text)
    total = got = 0.0
    hit = []
    for t in terms:
        w = term_weight(t)
        total += w
        if term_in(t, tn) or any(norm(x) in tn for x in synonyms().get(t, ())) or \
                (len(t) >= 3 and ngram_containment(t, text, 2) >= weight("soft_term_bigram_share")):
            got += w
            hit.append(t)
    return (got / total if total else 0.0), hit
