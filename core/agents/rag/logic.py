"""Deterministic logic of the rules path, kept apart from the node functions so it can be
tested directly: follow-up resolution, vagueness, sub-question split, grading scores,
extractive answers and the citation check."""

from __future__ import annotations

import re
from collections import Counter

from core.agents.rag.textutil import (
    GENERIC_TERMS, SYNONYMS, citation_numbers, coverage, display, entities, key_terms, ngram_containment,
    is_table_header, is_table_row, norm, place_words, numbers_in, specific_terms, split_sentences, strip_citations, term_in,
    term_weight,
)

# ---- thresholds (tuned on data/eval/docs_golden.jsonl, see the report) ----------------
REL_THRESHOLD = 0.45       # a chunk counts as relevant at or above this score
STRONG_THRESHOLD = 0.62    # one chunk this good is enough to answer without another round
SENT_MIN = 0.30            # an extracted sentence must reach this
SUPPORT_MIN = 0.55         # claim bigram containment in its cited chunk(s)
MAX_USED = 5
MAX_SENTENCES = 10

_CN_NUM = "零一二三四五六七八九十百"
ARTICLE = re.compile(r"第([一二三四五六七八九十百零\d]{1,5})(条|章|款|项|节)")
FOLLOWUP = re.compile(
    r"^(那|那么|还有|另外|再问|然后|以及|此外)|[呢吗][?？。]?$|这个|那个|这份|这项|该(文件|政策|通知|公告|细则|办法|方案|活动)|"
    r"上述|其中|它的|它们|第[一二三四五六七八九十百\d]+(条|章|款|项)|^(需要|要)(哪些|什么)(材料|资料)|(怎么|如何)(申请|申领|申报|领取)")
SUBHEAD = re.compile(r"^\s*([一二三四五六七八九十]+、|（[一二三四五六七八九十]+）)[\u4e00-\u9fff（）()与和及、]{2,16}$")
FOLLOW_START = re.compile(r"^(那|那么|其中|另外|还有|此外|然后)")
ATTRIBUTE_TERMS = frozenset("""有效期 期限 截止 截止日期 电话 客服 热线 地址 额度 总额 面额 金额 条件 材料 资料 流程 方式
渠道 平台 对象 范围 时间 标准 比例 上限 名额 要求 规则 有效 多长时间 多长""".split())
# an ordinal of the same kind in a follow-up replaces the previous one (第一轮 → 第二轮)
ORDINAL = re.compile(r"第[一二三四五六七八九十\d]{1,3}(轮|批次|批|期|阶段|档)")
HOW_Q = re.compile(r"怎么|如何|怎样|流程|程序|步骤|方式|渠道|在哪")
HOW_S = re.compile(r"方式|流程|程序|通过|登录|扫描|提交|办理|申请人|平台|APP|二维码|网站")
META_Q = {
    "authority": re.compile(r"(哪个|哪些|什么)(部门|单位|机关|机构)(联合)?(发布|印发|发文|制定|出台|发的)|"
                            r"谁(发布|印发|制定|发的)|发文(机关|单位|部门)|印发(部门|单位)|由谁(发布|印发|制定)"),
    "doc_number": re.compile(r"文号"),
    "date": re.compile(r"(什么时候|何时|哪天|哪一天)(发布|印发|出台|发文)|(发布|印发|成文)(日期|时间)"),
}
LIST_Q = re.compile(r"哪些|什么材料|什么资料|条件|流程|程序|步骤|怎么|如何|范围|对象|要求")
# what kind of value a question asks for → the shape of a sentence that gives it
ANSWER_TYPES = [
    (re.compile(r"(哪个|哪些|什么|哪一?个?)(部门|单位|机关|机构)|由谁|谁(负责|发布|解释|印发|审核|兑付)"),
     re.compile(r"[\u4e00-\u9fff]{1,12}(局|厅|委员会|发展改革委|委|部|政府|办公室|办公厅|银行|机构|中心|总局)")),
    (re.compile(r"电话|热线|客服|联系方式"), re.compile(r"\d{5,}|\d{3,4}-\d{7,8}")),
    (re.compile(r"比例|百分之|几成|折扣"), re.compile(r"\d+(\.\d+)?\s*[%％]")),
    (re.compile(r"多久|多长时间|有效期|期限|几天|几日|多少天|几个月|几年|多少小时"),
     re.compile(r"\d+\s*(个)?(自然日|工作日|天|日|小时|个月|月|年)(?!\d)|当批次")),
    (re.compile(r"(什么时候|何时|哪天|几号|哪一天).{0,4}(开始|启动|开放|起)|从(什么时候|何时|哪天)"),
     re.compile(r"\d{1,2}\s*(月|日|时)[^，。；]{0,3}起|自\s*\d|起(开放|启动|开始)|开放申报|启动")),
    (re.compile(r"什么时候|何时|哪天|几号|时间|日期|截止|截至|开始|起止|哪一天"),
     re.compile(r"\d{1,2}\s*月\s*\d{1,2}\s*日|\d{4}\s*年|\d{1,2}\s*时|\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}")),
    (re.compile(r"多少钱|多少元|金额|补贴多少|补多少|领多少|领取多少|能领|可以领|最高|上限|额度|总额|资金"),
     re.compile(r"\d+(\.\d+)?\s*(万)?元|\d+(\.\d+)?\s*[%％]")),
    (re.compile(r"(几|多少)\s*(辆|件|次|条|个|轮|名|场|批次|类|家|台|期|项|人)"),
     re.compile(r"\d+\s*(辆|件|次|条|个|轮|名|场|批次|类|家|台|期|项|人)|[:：]\s*\d+")),
    (re.compile(r"多少|几"), re.compile(r"\d")),
]
# the slot a question asks to fill (哪个部门 → a department's name): not a focus term
SLOT_TERMS = re.compile(r"(?:哪个|哪些|什么|哪一个|哪家)(部门|单位|机关|机构|地方|时候)")
# colloquial intents → the words documents use for them (资金从哪里来 → 资金保障 / 特别国债)
INTENT_TERMS = [
    (re.compile(r"(资金|钱|经费).{0,6}(从哪|哪里来|哪儿来|来源|谁出|谁来出|谁承担)|资金来源"),
     ["资金保障", "统筹使用", "特别国债", "中央和地方资金", "分担"]),
    (re.compile(r"(谁|哪个部门|哪个单位|什么部门).{0,4}解释|解释权"), ["解释", "解释权"]),
    (re.compile(r"(几|多少)辆|限购"), ["限购"]),
    (re.compile(r"(还能|能否|可以|可不可以|能不能).{0,6}(申领|申请|享受|参加)|有没有资格|资格吗"),
     ["无申领资格", "可继续申领", "继续享受", "资格"]),
]
COMPARE_Q = re.compile(r"分别|对比|比较|区别|不同|差异|各(是|为|有)|和.{1,20}(相比|一样|相同)|哪个(更|多|高|早)")
NUMERIC_Q = re.compile(r"多少|几|标准|比例|上限|金额|额度|时间|日期|期限|多久|什么时候|何时|哪天|电话|热线|最高|最多|不超过")


# ---- rewrite helpers ---------------------------------------------------------------
def article_refs(text: str) -> list[str]:
    return ["第" + m.group(1) + m.group(2) for m in ARTICLE.finditer(text or "")]


def is_followup(question: str, history: list[dict]) -> bool:
    if not history:
        return False
    last = next((h for h in reversed(history) if h.get("doc_ids")), None)
    if last is None:
        return False
    spec = specific_terms(question)
    if not spec:
        return True
    q = question.strip()
    if FOLLOW_START.search(q) and len(spec) <= 6 and not entities(q):
        return True  # "其中…" / "那第二轮呢" lean on the previous turn whatever they add
    if all(t in ATTRIBUTE_TERMS for t in spec) and not entities(q):
        return True  # only an attribute (有效期 / 电话): of the thing asked about before
    return bool(FOLLOWUP.search(q)) and len(spec) <= 2


def resolve_followup(question: str, history: list[dict]) -> tuple[str, list[str], str]:
    """(resolved question, focus doc ids, subject) for a follow-up; the subject is the
    previous turn's main cited document title."""
    last = next((h for h in reversed(history) if h.get("doc_ids")), None)
    if last is None:
        return question, [], ""
    q = re.sub(r"^(那么|那|还有|另外|再问一下|再问|然后|此外)[，,、\s]*", "", question.strip())
    q = re.sub(r"[呢吗]?[?？。!！]*$", "", q) or question.strip()
    titles = last.get("titles") or []
    subject = titles[0] if titles else ""
    prev_q = last.get("resolved") or last.get("question") or ""
    new_ord = ORDINAL.search(q)
    old_ord = next((m for m in ORDINAL.finditer(prev_q) if new_ord and m.group(1) == new_ord.group(1)), None)
    if new_ord and old_ord:
        # same question about another round: drop the previous round's documents from focus
        rest = re.sub(r"^(那么|那)|[呢吗]?[?？。]*$", "", q.replace(new_ord.group(0), "")).strip()
        resolved = prev_q.replace(old_ord.group(0), new_ord.group(0)) + (f" {rest}" if rest else "")
        return resolved.strip(), [], subject
    if article_refs(q):
        resolved = (f"《{subject}》" if subject else "") + q
    else:
        prev_terms = [t for t in specific_terms(last.get("resolved") or last.get("question") or "")
                      if not NUMERIC_Q.fullmatch(t)]
        resolved = " ".join(prev_terms[:4] + [q]) if prev_terms else (f"《{subject}》{q}" if subject else q)
    return resolved.strip(), list(last.get("doc_ids") or []), subject


def is_vague(question: str) -> bool:
    """Too vague to retrieve on: no specific term, no article, no entity."""
    if specific_terms(question) or article_refs(question) or entities(question):
        return False
    return True


def split_subquestions(question: str) -> list[str]:
    parts = [p.strip() for p in re.split(r"[？?；;]|另外|还有|以及|同时", question) if p and p.strip()]
    parts = [p for p in parts if key_terms(p)]
    if len(parts) <= 1:
        return [question.strip()]
    subject = " ".join(specific_terms(parts[0])[:2])
    out = []
    for p in parts[:3]:
        if not specific_terms(p) and subject:
            p = f"{subject} {p}"
        out.append(p)
    if question.strip() not in out:
        out.insert(0, question.strip())
    return out[:4]


def expand_terms(missing: list[str]) -> list[str]:
    out: list[str] = []
    for t in missing:
        for syn in SYNONYMS.get(t, []):
            if syn not in out:
                out.append(syn)
        for k, syns in SYNONYMS.items():
            if k != t and k in t:
                for syn in syns:
                    if syn not in out:
                        out.append(syn)
    return out


# ---- grading -----------------------------------------------------------------------
def _rank_strength(rank) -> float:
    if rank is None:
        return 0.0
    try:
        r = int(rank[0] if isinstance(rank, (list, tuple)) else rank)
    except (TypeError, ValueError):
        return 0.0
    r = max(r - 1, 0)
    return 1.0 / (1.0 + r / 3.0)


def evidence_strength(ev: dict) -> float:
    ev = ev or {}
    d, b = _rank_strength(ev.get("dense")), _rank_strength(ev.get("bm25"))
    t = _rank_strength(ev.get("title"))
    s = 0.8 * max(d, b) + (0.2 if d and b else 0.0)
    return min(1.0, s + 0.1 * t)


def cn_date(value: str) -> str:
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", str(value or "").strip())
    return f"{int(m.group(1))}年{int(m.group(2))}月{int(m.group(3))}日" if m else str(value or "")


def doc_context(d: dict) -> str:
    return " ".join([d.get("title") or "", d.get("file_name") or "", d.get("doc_number") or "", cn_date(d.get("date")),
                     d.get("authority") or "", d.get("heading") or "", " ".join(d.get("path") or []),
                     d.get("text") or ""])


def score_chunk(question: str, d: dict) -> dict:
    """Offline relevance of one chunk to the question: fused evidence + lexical coverage of
    the question's key terms, with hard penalties for a named place or 文号 that the chunk's
    document does not mention and for an article the chunk is not."""
    terms = list(key_terms(question))
    ctx = doc_context(d)
    cov, hit, miss = coverage(terms, ctx)
    grams = set()
    for t in terms:
        grams |= {t[i:i + 2] for i in range(len(t) - 1)} if len(t) > 1 else {t}
    ctx_n = norm(ctx)
    bi = (sum(1 for g in grams if norm(g) in ctx_n) / len(grams)) if grams else 0.0
    ev = evidence_strength(d.get("evidence") or {})
    score = 0.55 * cov + 0.2 * bi + 0.25 * ev
    notes = []
    for e in entities(question):
        if e.isdigit() and len(e) < 4:
            continue
        if not term_in(e, ctx_n):
            if re.search(r"(省|市|区|县)$", e) or "〔" in e:
                score = min(score, 0.3)
                notes.append(f"文件未涉及“{e}”")
            elif re.fullmatch(r"(19|20)\d{2}", e):
                score -= 0.15
                notes.append(f"年份{e}不符")
    # an annual report / notice of another year or of a sub-area is not about what is asked
    title_n = norm((d.get("title") or "") + " " + (d.get("file_name") or ""))
    q_years = [e for e in entities(question) if re.fullmatch(r"(19|20)\d{2}", e)]
    t_years = set(re.findall(r"(?:19|20)\d{2}(?=年)", title_n))
    if q_years and t_years and not any(y in t_years for y in q_years) and re.search(r"年度报告|年报", title_n):
        score = min(score, 0.3)
        notes.append(f"文件年度为{'、'.join(sorted(t_years))}年")
    for e in entities(question):
        if re.search(r"(省|市)$", e) and len(e) >= 3 and norm(e) not in title_n:
            sub = re.findall(r"([\u4e00-\u9fff]{2})(区|县)(?:\d|人民政府|政府)", title_n)
            if sub and not any(norm(a) in norm(e) for a, _ in sub):
                score = min(score, 0.3)
                notes.append(f"文件为{sub[0][0]}{sub[0][1]}，非“{e}”")
    arts = article_refs(question)
    if arts:
        head = norm((d.get("heading") or "") + " ".join(d.get("path") or []))
        if any(norm(a) in head for a in arts):
            score = max(score, 0.75)
        else:
            score -= 0.25
            notes.append("非所问条款")
    score = max(0.0, min(1.0, score))
    reason = "覆盖：" + ("、".join(hit[:6]) or "无")
    if miss:
        reason += "；缺少：" + "、".join(miss[:6])
    evs = [f"{k}#{(v[0] if isinstance(v, (list, tuple)) else v)}" for k, v in (d.get("evidence") or {}).items()
           if k in ("bm25", "dense", "title") and v is not None]
    if evs:
        reason += "；检索证据：" + " ".join(evs)
    if notes:
        reason += "；" + "；".join(notes)
    return {"score": round(score, 3), "coverage": round(cov, 3), "evidence": round(ev, 3), "hit": hit,
            "missing": miss, "reason": reason, "relevant": score >= REL_THRESHOLD}


def merge_pool(pool: list[dict], graded: list[dict]) -> list[dict]:
    by_id = {d["chunk_id"]: d for d in pool}
    for d in graded:
        old = by_id.get(d["chunk_id"])
        if old is None or d["grade"]["score"] > old["grade"]["score"]:
            by_id[d["chunk_id"]] = d
    return sorted(by_id.values(), key=lambda d: -d["grade"]["score"])


# ---- extractive answer ---------------------------------------------------------------
def _near_dup(a: str, b: str) -> bool:
    if numbers_in(a) != numbers_in(b):
        return False  # same wording, other figures (第一轮 7月 vs 第二轮 8月): both count
    ga = {a[i:i + 2] for i in range(len(a) - 1)}
    gb = {b[i:i + 2] for i in range(len(b) - 1)}
    if not ga or not gb:
        return a == b
    return len(ga & gb) / len(ga | gb) >= 0.85


def answer_shape(question: str):
    """The pattern a sentence answering ``question`` must contain (a date, an amount, a
    count …), or None when the question does not ask for a value."""
    for q_pat, s_pat in ANSWER_TYPES:
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


def extract_answer(question: str, focus_terms: list[str], used: list[dict]) -> tuple[str, list[dict]]:
    """The best-supported sentences of the used chunks, each with its [n]. Returns the
    answer text and the claims ``[{text, cites, source}]``. A picked sentence that
    introduces a list (ends with "：" / "如下") brings the list items after it."""
    terms = list(focus_terms) or list(key_terms(question))
    slots = set(SLOT_TERMS.findall(question or ""))
    terms = [t for t in terms if t not in slots] or terms
    intent = [t for pat, extra in INTENT_TERMS if pat.search(question or "") for t in extra]
    expanded = [t for t in expand_terms(terms) if t not in terms]
    numeric = bool(NUMERIC_Q.search(question))
    shape = answer_shape(question)
    arts = article_refs(question)
    cands = []
    # documents whose title matches the question's subject much worse than the best one
    # only contribute clearly better sentences
    title_cov = [coverage(terms, (d.get("title") or "") + " " + (d.get("file_name") or ""))[0] for d in used]
    best_title = max(title_cov, default=0.0)
    # a place the question names (济南) that some used document's title carries: documents
    # whose title lacks it (the province's plan) only add clearly better sentences
    q_places = [p for p in place_words(question) if len(p) >= 2]
    titled = [any(norm(p) in norm((d.get("title") or "") + (d.get("file_name") or "")) for p in q_places)
              for d in used]
    for n, d in enumerate(used, 1):
        off_topic = 0.15 if title_cov[n - 1] < best_title - 0.3 else 0.0
        if any(titled) and not titled[n - 1] and place_words(d.get("title") or ""):
            off_topic += 0.12  # its title names another place
        whole_article = bool(arts) and any(norm(a) in norm(d.get("heading") or "") for a in arts)
        title_n = norm(d.get("title") or "") + norm(d.get("file_name") or "")
        s_terms = [t for t in terms if not term_in(t, title_n)]
        head_n = norm((d.get("heading") or "") + " ".join((d.get("path") or [])[1:]))
        head_hit = bool(s_terms) and any(term_in(t, head_n) for t in s_terms)
        head_bonus = 0.1 if head_hit else 0.0
        sents = split_sentences(d.get("body") or d.get("text") or "")
        section = head_hit and len(sents) <= 10  # the question names this section: quote it
        section_end = next((i for i, x in enumerate(sents) if i > 0 and
                            re.match(r"^\s*([一二三四五六七八九十]+、|第[一二三四五六七八九十百]+条)", x)), len(sents))
        sub_head, sub_hit = "", False
        for pos, s in enumerate(sents):
            if is_table_header(s) or s.strip().startswith("表头"):
                continue
            if SUBHEAD.match(display(s)) and not re.search(r"[，。；！？,;!?]", display(s)):
                # an in-chunk heading ("一、活动时间"): context for the sentences under it
                sub_head = display(s)
                sub_hit = bool(s_terms) and any(term_in(t, norm(sub_head)) for t in s_terms)
                continue
            table_row = is_table_row(s)
            shown = compact_row(display(s), terms + expanded) if table_row else display(s)
            content = re.sub(r"\W", "", shown)
            intro = not table_row and bool(re.search(r"(如下|以下|下列)[:：]?$|[:：]$", shown))
            # a bare value line (a hotline number) under the heading the question names
            bare_value = (head_hit or sub_hit) and bool(re.fullmatch(r"[\d\s、,，\-—/（）()]{5,}", shown))
            if (len(content) < 6 and not intro and not bare_value) or norm(shown).rstrip("。") in title_n:
                continue
            if not re.search(r"[，。；：！？,;:!?]", shown) and not whole_article and not bare_value:
                continue  # a bare heading or a title line is not a claim
            if re.search(r"https?://", shown) and not re.search(r"链接|网址|网站", question):
                continue
            ctx = " ".join([shown, d.get("heading") or "", sub_head, d.get("title") or "", " ".join(d.get("path") or [])])
            cov_ctx, hit, _ = coverage(terms, ctx)
            cov_all, _, _ = coverage(terms, shown)
            cov_own = coverage(s_terms, shown)[0] if s_terms else cov_all
            cov_s = 0.5 * cov_all + 0.5 * cov_own
            if expanded and any(term_in(t, norm(shown)) for t in expanded):
                cov_s = max(cov_s, 0.7)
            bi = ngram_containment(" ".join(s_terms or terms), shown, 2)
            sc = 0.45 * cov_s + 0.25 * cov_ctx + 0.15 * bi + 0.15 * d["grade"]["score"] + head_bonus
            if sub_hit and not head_hit:
                sc += 0.1
            if section and pos < section_end and not re.match(r"^[一二三四五六七八九十]+、", shown):
                sc = max(sc, 0.75 - 0.005 * pos)
            if HOW_Q.search(question) and HOW_S.search(shown):
                sc += 0.1
            unmarked = re.sub(r"^(\d{1,2}[.．、)）]|（\d{1,2}）)", "", shown)
            unmarked = re.sub(r"第[\d、]+页|〔\d{4}〕\d+号|[（(]\d{4}-\d{4}年?[)）]", "", unmarked)
            if shape is not None:
                if shape.search(unmarked) or shape.search(norm(unmarked)):  # 一次 → 1次
                    sc += 0.2
                elif numeric:
                    sc += 0.05 if re.search(r"\d", unmarked) else -0.1
            elif numeric:
                sc += 0.15 if re.search(r"\d", unmarked) else -0.1
            if bare_value:
                sc = max(sc, 0.7)
            if intent and any(term_in(t, norm(shown)) for t in intent):
                sc += 0.15
            if whole_article:
                sc = max(sc, 0.8 - 0.01 * pos)
            sc -= off_topic
            own_hits = [t for t in (s_terms or terms) if term_in(t, norm(shown))]
            cands.append({"n": n, "pos": pos, "text": shown, "source": s, "score": sc, "hit": len(hit),
                          "intro": intro, "own_hits": own_hits})
            if intro:
                if LIST_Q.search(question):
                    cands[-1]["score"] = sc = sc + 0.15
                # list items right after an introducing sentence share its score
                prev_item = ""
                for k in range(pos + 1, min(pos + 12, len(sents))):
                    item = display(sents[k])
                    if re.match(r"^([一二三四五六七八九十]+、|（[一二三四五六七八九十]+）)", item):
                        break
                    listy = (re.match(r"^(\d{1,2}[.．、)）]|（\d{1,2}）|[①-⑩]|[\u4e00-\u9fff]{1,8}[：:])", item)
                             or re.search(r"[;；:：]$", item))
                    same_shape = prev_item and norm(item)[:4] == norm(prev_item)[:4]
                    if not (listy or same_shape):
                        break
                    if len(re.sub(r"\W", "", item)) >= 4:
                        cands.append({"n": n, "pos": k, "text": item, "source": sents[k],
                                      "score": sc - 0.001 * (k - pos), "hit": 0, "item_of": pos})
                    prev_item = item
                    if not listy:
                        break
    if not cands:
        return "", []
    items = [c for c in cands if "item_of" in c]
    plain: dict[tuple, dict] = {}
    for c in cands:
        if "item_of" not in c:
            plain[(c["n"], c["pos"])] = c
    cands = list(plain.values())
    # a focus term found in few sentences (解释 vs 负责) tells more than one found everywhere
    df: Counter = Counter()
    for c in cands:
        for t in set(c.get("own_hits") or []):
            df[t] += 1
    for c in cands:
        hits = c.get("own_hits") or []
        if hits and len(cands) >= 4:
            rare = sum(term_weight(t) / df[t] for t in hits) / sum(term_weight(t) for t in hits)
            c["score"] += 0.12 * rare * min(1.0, len(hits) / 2)
    best = max(c["score"] for c in cands)
    compare = bool(COMPARE_Q.search(question))
    floor = max(SENT_MIN, 0.85 * best)
    if not compare:
        # one document answers: others only contribute sentences about as good as its best
        best_n = max(cands, key=lambda c: c["score"])["n"]
        best_doc = used[best_n - 1]["doc_id"]
        cands = [c for c in cands if used[c["n"] - 1]["doc_id"] == best_doc or c["score"] >= 0.97 * best]
    picked = sorted([c for c in cands if c["score"] >= floor], key=lambda c: -c["score"])[:MAX_SENTENCES * 2]
    if not picked:
        picked = sorted(cands, key=lambda c: -c["score"])[:2]
    # the items of a picked list-introducing sentence come with it, right after it
    intros = {(c["n"], c["pos"]) for c in picked if c.get("intro")}
    have = {(c["n"], c["pos"]) for c in picked}
    extra = []
    for it in items:
        key = (it["n"], it["pos"])
        if (it["n"], it["item_of"]) in intros and key not in have:
            have.add(key)
            extra.append({**it, "score": plain.get((it["n"], it["item_of"]), it)["score"] - 0.001})
    # an introducing sentence ("适用场景：") whose items did not come along says nothing
    with_items = {(it["n"], it["item_of"]) for it in extra} | {(c["n"], c.get("item_of")) for c in picked if "item_of" in c}
    picked = [c for c in picked if not (c.get("intro") and re.search(r"[:：]$", c["text"])
                                        and (c["n"], c["pos"]) not in with_items
                                        and len(re.sub(r"\W", "", c["text"])) < 12)] or picked
    picked = sorted(picked + extra, key=lambda c: -c["score"])
    # concise: a value question gets its few best sentences, a list question its items
    listy = bool(LIST_Q.search(question)) or any("item_of" in c for c in picked)
    limit = MAX_SENTENCES if (listy or compare) else 4
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
    # questions about the document itself are answered from its metadata (文号 / 机关 / 日期)
    for field, pat in META_Q.items():
        if not pat.search(question):
            continue
        d = next((x for x in used if x.get(field)), None)
        if d is None:
            continue
        from core.agents.rag.runtime import doc_title

        n = used.index(d) + 1
        label = {"authority": "发文机关为", "doc_number": "文号为", "date": "发布日期为"}[field]
        value = d[field]
        m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", str(value).strip())
        if m:  # as documents write it (and as the number check compares it)
            value = f"{int(m.group(1))}年{int(m.group(2))}月{int(m.group(3))}日"
        claims.insert(0, {"text": f"《{doc_title(d)}》的{label}{value}。", "cites": [n], "source": "",
                          "n": n, "pos": -1})
    claims.sort(key=lambda c: (c["n"], c["pos"]))
    lines: list[str] = []
    current = None
    for cl in claims:
        d = used[cl["n"] - 1]
        if d["doc_id"] != current:
            current = d["doc_id"]
            lines.append(heading_line(d))
        body = cl["text"].rstrip().rstrip("，、,")
        if not re.search(r"[。！？；.!?;：:]$", body):
            body += "。"
        lines.append(f"- {body}" + "".join(f"[{n}]" for n in sorted(cl["cites"])))
    return "\n".join(lines), claims


def heading_line(d: dict) -> str:
    from core.agents.rag.runtime import doc_title

    bits = [b for b in (d.get("doc_number"), d.get("date")) if b]
    return f"依据《{doc_title(d)}》" + (f"（{'，'.join(bits)}）" if bits else "") + "："


# ---- citation check ----------------------------------------------------------------
_HEADING = re.compile(r"^\s*依据《[^》]*》[^\n]*：\s*$")
_CLAIM = re.compile(r"[^。！？!?\n]+(?:[。！？!?]|(?=\n)|$)(?:\s*\[\d{1,3}\])*")


def split_claims(text: str) -> list[dict]:
    """Claims of an answer: sentences with the [n] markers that follow or end them.
    Heading lines (依据《…》：) are not claims."""
    out = []
    for line in (text or "").split("\n"):
        if not line.strip() or _HEADING.match(line):
            continue
        line_body = re.sub(r"^\s*(?:[-*•]|\d+[.、)]|（[一二三四五六七八九十\d]+）)\s*", "", line)
        for m in _CLAIM.finditer(line_body):
            seg = m.group(0).strip()
            if not seg:
                continue
            # markers right after the punctuation belong to this sentence
            out.append({"text": seg, "plain": strip_citations(seg).strip(), "cites": citation_numbers(seg),
                        "line": line})
    # a marker-only fragment ("[1]") glued to the previous claim
    merged: list[dict] = []
    for c in out:
        if not re.sub(r"\W", "", c["plain"]) and merged:
            merged[-1]["cites"] += c["cites"]
            merged[-1]["text"] += c["text"]
            continue
        merged.append(c)
    return merged


def claim_support(claim: str, sources: list[dict]) -> tuple[bool, str]:
    """Is the claim supported by the union of its cited chunks? Char-bigram containment of
    the normalised claim, every number and 文号/《title》 present in the sources."""
    text = " ".join(doc_context(d) for d in sources)
    cont = ngram_containment(claim, text, 2)
    if cont < SUPPORT_MIN:
        return False, f"与所引片段重合度低（{cont:.2f}）"
    src_nums = numbers_in(text)
    missing = [n for n in numbers_in(claim) if n not in src_nums]
    if missing:
        return False, "数字未出现在所引片段中：" + "、".join(missing[:5])
    tn = norm(text)
    for e in entities(claim):
        if ("〔" in e or len(e) >= 6) and not e.isdigit() and norm(e) not in tn:
            return False, f"“{e}”未出现在所引片段中"
    return True, f"重合度 {cont:.2f}"


def check_citations(answer: str, used: list[dict]) -> dict:
    """Every [n] must exist and its sentence must be supported by chunk n. Returns
    ``{"ok", "citations_exist", "claims_supported", "uncited_claims", "claims": [...]}``."""
    claims = split_claims(answer)
    results = []
    exist_ok = support_ok = True
    uncited = 0
    for c in claims:
        plain = c["plain"]
        content = re.sub(r"\W", "", plain)
        r = {"text": c["text"], "cites": c["cites"], "ok": True, "why": ""}
        if not c["cites"]:
            if numbers_in(plain) or len(content) > 30:
                r.update(ok=False, why="无引用的事实陈述")
                uncited += 1
                support_ok = False
            results.append(r)
            continue
        bad = [n for n in c["cites"] if n < 1 or n > len(used)]
        if bad:
            r.update(ok=False, why="引用编号不存在：" + "、".join(f"[{n}]" for n in bad))
            exist_ok = False
            results.append(r)
            continue
        ok, why = claim_support(plain, [used[n - 1] for n in c["cites"]])
        if not ok:
            support_ok = False
        r.update(ok=ok, why=why)
        results.append(r)
    supported = sum(1 for r in results if r["ok"] and r["cites"])
    return {"ok": exist_ok and support_ok and supported > 0, "citations_exist": exist_ok,
            "claims_supported": support_ok, "uncited_claims": uncited, "claims_total": len(results),
            "supported_claims": supported, "claims": results}


def drop_failed_claims(answer: str, report: dict) -> str:
    """Remove unsupported claims from the answer; drop heading lines left without claims."""
    out = answer
    for r in report["claims"]:
        if not r["ok"]:
            out = out.replace(r["text"], "", 1)
    lines = []
    for line in out.split("\n"):
        if not re.sub(r"[\W\-*•]", "", strip_citations(line)):
            continue
        lines.append(line.rstrip())
    # a heading followed by another heading or nothing lost all its claims
    kept = []
    for i, line in enumerate(lines):
        if _HEADING.match(line) and (i + 1 >= len(lines) or _HEADING.match(lines[i + 1])):
            continue
        kept.append(line)
    return "\n".join(kept).strip()


def best_quote(claim_plain: str, d: dict) -> str:
    """The source sentence of chunk ``d`` that best supports a claim."""
    best, best_s = "", -1.0
    for s in split_sentences(d.get("body") or d.get("text") or ""):
        sc = ngram_containment(claim_plain, s, 2)
        if sc > best_s:
            best, best_s = display(s), sc
    return best


def top_authorities(docs: list[dict], limit: int = 3) -> list[str]:
    c: Counter = Counter()
    for d in docs:
        for a in d.get("authorities") or ([d["authority"]] if d.get("authority") else []):
            if a:
                c[a] += 1
    return [a for a, _ in c.most_common(limit)]


def generic_topic(question: str) -> str:
    terms = [t for t in key_terms(question) if t in GENERIC_TERMS]
    return terms[0] if terms else ""
