"""Deterministic logic of the rules path, kept apart from the node functions so it can be
tested directly: follow-up resolution, vagueness, sub-question split, grading scores,
extractive answers and the citation check."""

from __future__ import annotations

import re
from collections import Counter

from core.agents.rag.textutil import (
    ASPECT_WORDS, FRAME_WORDS, GENERIC_TERMS, STOPWORDS, places, salient_nouns, SYNONYMS, citation_numbers, coverage, display, entities, key_terms, ngram_containment,
    is_table_header, is_table_row, norm, place_words, numbers_in, specific_terms, split_sentences, strip_citations, term_in,
    term_weight, unit_pattern,
)
from core.text.numerals import apply_magnitude

# ---- thresholds (tuned on data/eval/docs_golden.jsonl, see the report) ----------------
REL_THRESHOLD = 0.45       # a chunk counts as relevant at or above this score
STRONG_THRESHOLD = 0.62    # one chunk this good is enough to answer without another round
SENT_MIN = 0.30            # an extracted sentence must reach this
SUPPORT_MIN = 0.55         # claim bigram containment in its cited chunk(s)
MAX_USED = 5
MAX_SENTENCES = 10

ARTICLE = re.compile(r"第([一二三四五六七八九十百零\d]{1,5})(条|章|款|项|节)")
FOLLOWUP = re.compile(
    r"^(那|那么|还有|另外|再问|然后|以及|此外)|[呢吗][?？。]?$|这个|那个|这份|这项|该(文件|政策|通知|公告|细则|办法|方案|活动)|"
    r"上述|其中|它的|它们|第[一二三四五六七八九十百\d]+(条|章|款|项)|^(需要|要)(交|提交|准备|带|提供)?(哪些|什么)(材料|资料)|(怎么|如何)(申请|申领|申报|领取)")
LABEL_LINE = re.compile(r"^\s*[\u4e00-\u9fff（）()]{2,12}[：:]\s*$")
SUBHEAD = re.compile(r"^\s*([一二三四五六七八九十]+、|（[一二三四五六七八九十]+）)[\u4e00-\u9fff（）()与和及、]{2,16}$")
FOLLOW_START = re.compile(r"^(那|那么|其中|另外|还有|此外|然后)")
ATTRIBUTE_TERMS = frozenset("""有效期 期限 截止 截止日期 电话 客服 热线 地址 额度 总额 面额 金额 条件 材料 资料 流程 方式
渠道 平台 对象 范围 时间 标准 比例 上限 名额 要求 规则 有效 多长时间 多长""".split())
# an ordinal of the same kind in a follow-up replaces the previous one (第一轮 → 第二轮)
ORDINAL = re.compile(r"第[一二三四五六七八九十\d]{1,3}(轮|批次|批|期|阶段|档)")
WHERE_Q = re.compile(r"(?:去哪里?|到哪里?|在哪里?|哪里|哪儿|什么地方)(?:可以|能|才能)?([领办申买用交兑换])")
# the cover of an issuing notice, and the questions it does answer (依据 / 文号 / 印发)
PREAMBLE = re.compile(r"此件公开发布|印发给你们|请抓好贯彻落实|请认真贯彻|的通知[^，。]{0,6}各[^。]{2,60}[:：]$|"
                      r"^为(落实|贯彻)[^。]{10,}(文件要求|决策部署|工作部署)|特制定本")
BASIS_Q = re.compile(r"依据|根据|为什么|目的|文号|印发|发文|制定|关于什么|是什么文件|落实")
# a question about what something consists of, and a sentence that details the one before it
COMPOSE_Q = re.compile(r"(包括|包含|含有|组成|构成)(了)?(什么|哪些|啥|哪几)|由(什么|哪些|哪几)[^，。？?]{0,6}(组成|构成)")
COMPOSE_S = re.compile(r"^(其中|包括|包含|含)[，,：:]?")
HOW_Q = re.compile(r"怎么|如何|怎样|流程|程序|步骤|方式|渠道|在哪")
HOW_S = re.compile(r"方式|流程|程序|通过|登录|扫描|提交|办理|申请人|平台|APP|二维码|网站")
META_Q = {
    "authority": re.compile(r"(哪个|哪些|哪几个|哪几家|什么)(部门|单位|机关|机构)(联合)?(发布|印发|发文|制定|出台|发的)|"
                            r"谁(发布|印发|制定|发的)|发文(机关|单位|部门)|印发(部门|单位)|由谁(发布|印发|制定)"),
    "doc_number": re.compile(r"文号"),
    "date": re.compile(r"(什么时候|何时|哪天|哪一天|几号)(发布|印发|出台|发文|发的)|(发布|印发|成文)(日期|时间)|"
                       r"(公告|通知|文件|细则|方案)[^，,。？?]{0,4}(哪天|什么时候|何时)(发布|印发|出|发)"),
}
LIST_Q = re.compile(r"哪些|什么材料|什么资料|条件|流程|程序|步骤|怎么|如何|范围|对象|要求")
# what kind of value a question asks for → the shape of a sentence that gives it
ANSWER_TYPES = [
    (re.compile(r"(哪个|哪些|什么|哪一?个?)(部门|单位|机关|机构)|由谁|谁(负责|发布|解释|印发|审核|兑付)"),
     re.compile(r"[\u4e00-\u9fff]{1,12}(局|厅|委员会|发展改革委|委|部|政府|办公室|办公厅|银行|机构|中心|总局)")),
    (re.compile(r"电话|热线|客服|联系方式"), re.compile(r"\d{5,}|\d{3,4}-\d{7,8}")),
    # 在哪个平台领 → a named platform ("通过“抖音”APP发放")
    (re.compile(r"(哪个|什么|哪家|哪一个)(平台|APP|app|软件|网站|公众号|小程序)"),
     re.compile(r"“[^”]{2,24}”\s*(APP|app|平台|公众号|小程序|网站)|[\u4e00-\u9fff]{2,12}(APP|公众号|小程序)")),
    (re.compile(r"比例|百分之|几成|折扣"), re.compile(r"\d+(\.\d+)?\s*[%％]")),
    (re.compile(r"多久|多长时间|有效期|期限|几天|几日|多少天|几个月|几年|多少小时"),
     re.compile(r"\d+\s*(个)?(自然日|工作日|天|日|小时|个月|月|年)(?!\d)|当批次")),
    (re.compile(r"(什么时候|何时|哪天|几号|哪一天).{0,4}(开始|启动|开放|起)|从(什么时候|何时|哪天)(?!.{0,4}(到|至))"),
     # (the start of a period "8月6日10时至9月5日24时" says when it begins too)
     re.compile(r"\d{1,2}\s*(月|日|时)[^，。；]{0,3}起|自\s*\d|起(开放|启动|开始)|开放申报|启动|"
                r"\d{1,2}\s*日\s*(\d{1,2}\s*时|\d{1,2}:\d{2})?\s*(至|到|—|－|-|~|～)\s*\d")),
    (re.compile(r"什么时候|何时|哪天|几号|时间|日期|截止|截至|开始|起止|哪一天"),
     re.compile(r"\d{1,2}\s*月\s*\d{1,2}\s*日|\d{4}\s*年|\d{1,2}\s*时|\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}")),
    (re.compile(r"多少钱|多少元|金额|补贴多少|补多少|领多少|领取多少|能领|可以领|最高|上限|额度|总额|资金"),
     re.compile(r"\d+(\.\d+)?\s*(万)?元|\d+(\.\d+)?\s*[%％]")),
    (re.compile(r"((?<!哪)几|多少)\s*(辆|件|次|条|个|轮|名|场|批次|类|家|台|期|项|人)"),
     re.compile(r"\d+\s*(辆|件|次|条|个|轮|名|场|批次|类|家|台|期|项|人)|[:：]\s*\d+")),
    (re.compile(r"多少|(?<!哪)几"), re.compile(r"\d")),
]
# the slot a question asks to fill (哪个部门 → a department's name): not a focus term
SLOT_TERMS = re.compile(r"(?:哪个|哪些|什么|哪一个|哪家|哪几个|哪几家)(部门|单位|机关|机构|地方|时候)")
# colloquial intents → the words documents use for them (资金从哪里来 → 资金保障 / 特别国债)
INTENT_TERMS = [
    (re.compile(r"(资金|钱|经费).{0,6}(从哪|哪里来|哪儿来|来源|谁出|谁来出|谁承担)|资金来源"),
     ["资金保障", "统筹使用", "特别国债", "中央和地方资金", "分担"]),
    (re.compile(r"(谁|哪个部门|哪个单位|什么部门).{0,4}解释|解释权"), ["解释", "解释权"]),
    (re.compile(r"(几|多少)辆|限购"), ["限购"]),
    # who may take part, asked by where one is (人不在济南 / 外地人): the documents say it by 定位 / 户籍
    (re.compile(r"(人|我|本人)?不在(济南|本地|当地|本市)|外地人"), ["定位在", "不限户籍", "参与对象", "参与用户"]),
    (re.compile(r"(还能|能否|可以|可不可以|能不能).{0,6}(申领|申请|享受|参加)|有没有资格|资格吗"),
     ["无申领资格", "可继续申领", "继续享受", "资格"]),
]
COMPARE_Q = re.compile(r"分别|对比|比较|区别|不同|差异|各(是|为|有)|和.{1,20}(相比|一样|相同)|哪个(更|多|高|早)")
NUMERIC_Q = re.compile(r"多少|(?<!哪)几|标准|比例|上限|金额|额度|时间|日期|期限|多久|什么时候|何时|哪天|电话|热线|最高|最多|不超过")


# ---- rewrite helpers ---------------------------------------------------------------
def article_refs(text: str) -> list[str]:
    return ["第" + m.group(1) + m.group(2) for m in ARTICLE.finditer(text or "")]


_SHORT_FOLLOW = 12  # a question this short, naming no document's subject, leans on the thread


def is_followup(question: str, history: list[dict], titles: list[str] | None = None) -> bool:
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
    if FOLLOWUP.search(q) and len(spec) <= 2:
        return True
    if titles and len(re.sub(r"\W", "", q)) <= _SHORT_FOLLOW and not entities(q) and not article_refs(q):
        # "空调能补几台？" / "要交哪些材料？" after a question about one programme: none of its
        # terms names any document, so it asks about the one discussed
        tn = [norm(t) for t in titles]
        named = [t for t in spec if len(t) >= 2 and any(term_in(t, x) for x in tn)]
        return not named
    return False


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
    """Retrieval queries of a question: the question itself, then its sub-questions when it is
    compound (see :func:`split_compound`)."""
    parts = split_compound(question)
    q = (question or "").strip()
    return [q] + [p for p in parts if p != q] if parts else [q]


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


_OPPOSITE_PERIODS = (("上半年", "下半年"), ("上半月", "下半月"), ("年初", "年底"))


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
    if own_docno_named(question, d):
        score += 0.15  # the 文号 asked about is this document's own, not one it cites
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
    for a, b in _OPPOSITE_PERIODS:  # 上半年那个补贴 is not the 下半年 notice
        for x, y in ((a, b), (b, a)):
            if x in question and y in title_n and x not in title_n:
                score = min(score, 0.3)
                notes.append(f"文件为{y}")
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
    evs = [f"{EVIDENCE_NAMES[k]}第{(v[0] if isinstance(v, (list, tuple)) else v)}名"
           for k, v in (d.get("evidence") or {}).items() if k in EVIDENCE_NAMES and v is not None]
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


_AMOUNT = re.compile(r"(\d+(?:\.\d+)?)\s*(万元|万|元)")
_RANGE = re.compile(r"(\d+(?:\.\d+)?)\s*(万元|万|元)?\s*[（(]?(?:含|不含)?[)）]?\s*(?:万元|万|元)?\s*(?:至|到|-|—|－|~|～)\s*"
                    r"(\d+(?:\.\d+)?)\s*(?:[（(](含|不含)[)）])?\s*(万元|万|元)\s*(?:[（(](含|不含)[)）])?")
_OPEN_RANGE = re.compile(r"(\d+(?:\.\d+)?)\s*[（(]?(?:含|不含)?[)）]?\s*(万元|万|元)\s*[（(]?(?:含|不含)?[)）]?\s*(以上|以下)")


def _yuan(value: str, unit: str | None) -> float:
    return apply_magnitude(value, unit)


def question_amounts(question: str) -> list[float]:
    """Amounts in yuan the question states (买一辆15万元的车 → 150000), not the one it asks."""
    return [_yuan(v, u) for v, u in _AMOUNT.findall(norm(question or ""))]


def amount_fits(amounts: list[float], sentence: str) -> bool | None:
    """Does a tier sentence ("发票金额为10万元（含）至30万元（不含）的") cover the amount the
    question states? None when the sentence states no tier."""
    spans = tier_spans(sentence)
    if not spans:
        return None
    return any(lo <= a <= hi for a in amounts for lo, hi in spans)


def without_tiers(sentence: str) -> str:
    """The sentence with its stated tiers blanked: their amounts are conditions, not values."""
    return _OPEN_RANGE.sub(" ", _RANGE.sub(" ", norm(sentence)))


def tier_spans(sentence: str) -> list[tuple[float, float]]:
    """The amount tiers (in yuan) a sentence states: "10万元（含）至30万元（不含）" → (100000, 299999.99)."""
    t = norm(sentence)
    spans = []
    for m in _RANGE.finditer(t):
        unit = m.group(5)
        hi = _yuan(m.group(3), unit)
        if "不含" in ((m.group(4) or "") + (m.group(6) or "")):
            hi -= 0.01  # the upper bound excluded: 15万 falls in the next tier
        spans.append((_yuan(m.group(1), m.group(2) or unit), hi))
    for m in _OPEN_RANGE.finditer(t):
        v = _yuan(m.group(1), m.group(2))
        spans.append((v, float("inf")) if m.group(3) == "以上" else (0.0, v))
    return spans


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
    # 哪几个环节 frames, it names nothing; 是从 / 从哪 are function words glued together
    terms = [t for t in terms if t not in FRAME_WORDS and not all(ch in STOPWORDS for ch in t)] or terms
    slots = set(SLOT_TERMS.findall(question or ""))
    terms = [t for t in terms if t not in slots] or terms
    intent = [t for pat, extra in INTENT_TERMS if pat.search(question or "") for t in extra]
    expanded = [t for t in expand_terms(terms) if t not in terms]
    numeric = bool(NUMERIC_Q.search(question))
    shape = answer_shape(question)
    compose = bool(COMPOSE_Q.search(question or ""))
    yesno_q = bool(re.search(r"[吗么][?？。]?\s*$", question or ""))
    basis_q = bool(BASIS_Q.search(question or ""))
    period_q = len({w for w in ("开始", "结束", "截止") if w in (question or "")}) >= 2 or "起止" in (question or "")
    wm = WHERE_Q.search(question or "")
    where_verb = wm.group(1)[0] if wm else ""
    arts = article_refs(question)
    cands = []
    # an amount the question states picks a tier only when it asks for an amount
    q_amounts = question_amounts(question) if slot_kind(question)[0] in ("金额", "数值", "比例") else []
    stated: set[str] = set()
    if q_amounts:  # 15 in "买一辆15万元的车" states the tier, it is not a term to find
        stated = {m.group(1) for m in _AMOUNT.finditer(norm(question or ""))}
        terms = [t for t in terms if t not in stated] or terms
    # documents whose title matches the question's subject much worse than the best one
    # only contribute clearly better sentences
    title_cov = [coverage(terms, (d.get("title") or "") + " " + (d.get("file_name") or ""))[0] for d in used]
    best_title = max(title_cov, default=0.0)
    # a place the question names (济南) that some used document's title carries: documents
    # whose title lacks it (the province's plan) only add clearly better sentences
    q_places = [p for p in place_words(question) if len(p) >= 2]
    titled = [any(norm(p) in norm((d.get("title") or "") + (d.get("file_name") or "")) for p in q_places)
              for d in used]
    # a question that names a document by its title ("2025年政府汽车消费补贴活动…") is about it
    named = [doc_named_in(question, d) for d in used]
    for n, d in enumerate(used, 1):
        off_topic = 0.15 if title_cov[n - 1] < best_title - 0.3 else 0.0
        if any(named) and not named[n - 1]:
            off_topic += 0.25
        if any(titled) and not titled[n - 1] and place_words(d.get("title") or ""):
            off_topic += 0.12  # its title names another place
        whole_article = bool(arts) and any(norm(a) in norm(d.get("heading") or "") for a in arts)
        title_n = norm(d.get("title") or "") + norm(d.get("file_name") or "")
        s_terms = [t for t in terms if not term_in(t, title_n)]
        if period_q:  # 从什么时候开始到什么时候结束: the period, which documents head "…时间"
            s_terms = [t for t in s_terms if t not in _PERIOD_WORDS] + ["时间"]
        head_n = norm((d.get("heading") or "") + " ".join((d.get("path") or [])[1:]))
        head_hit = bool(s_terms) and any(term_in(t, head_n) for t in s_terms)
        head_bonus = 0.1 if head_hit else 0.0
        sents = split_sentences(d.get("body") or d.get("text") or "")
        section = head_hit and len(sents) <= 10  # the question names this section: quote it
        section_end = next((i for i, x in enumerate(sents) if i > 0 and
                            re.match(r"^\s*([一二三四五六七八九十]+、|第[一二三四五六七八九十百]+条)", x)), len(sents))
        sub_head, sub_hit = "", False
        list_head = ""  # the line introducing the list this line belongs to ("燃油车：")
        for pos, s in enumerate(sents):
            if is_table_header(s) or s.strip().startswith("表头"):
                continue
            if SUBHEAD.match(display(s)) and not re.search(r"[，。；！？,;!?]", display(s)):
                # an in-chunk heading ("一、活动时间"): context for the sentences under it
                sub_head = display(s)
                list_head = ""
                sub_hit = bool(s_terms) and any(term_in(t, norm(sub_head)) for t in s_terms)
                continue
            table_row = is_table_row(s)
            shown = compact_row(display(s), terms + expanded) if table_row else display(s)
            content = re.sub(r"\W", "", shown)
            intro = not table_row and bool(re.search(r"(如下|以下|下列)[:：]?$|[:：]$", shown)
                                           # "提交资料如下：1.身份证…；" — the intro glued to its first item
                                           or re.search(r"(如下|以下|下列)[^，。；]{0,6}[:：]\s*(\d{1,2}[.．、]|（\d{1,2}）)", shown))
            # a bare value line (a hotline number) under the heading the question names
            digits_only = bool(re.fullmatch(r"[\d\s、,，\-—/（）()]{5,}", shown))
            # a short value line under the heading the question names ("2025年7月19日至2025年11月15日")
            value_line = (sub_hit and not digits_only and shape is not None and len(shown) <= 40
                          and bool(shape.search(shown)) and not table_row and not SUBHEAD.match(shown)
                          and all(term_in(t, norm(sub_head)) for t in s_terms))
            bare_value = (head_hit or sub_hit) and (digits_only or value_line)
            if (len(content) < 6 and not intro and not bare_value) or norm(shown).rstrip("。") in title_n:
                continue
            if not re.search(r"[，。；：！？,;:!?]", shown) and not whole_article and not bare_value:
                continue  # a bare heading or a title line is not a claim
            if re.search(r"https?://", shown) and not re.search(r"链接|网址|网站", question):
                continue
            if list_head and not re.match(r"^(\d{1,2}[.．、)）]|（\d{1,2}）|[①-⑩])", shown):
                list_head = ""
            # what something consists of (礼包具体包括什么): "其中，…" details the sentence before it
            ref = display(sents[pos - 1]) if compose and pos > 0 and COMPOSE_S.match(shown) else ""
            ctx = " ".join([shown, ref, d.get("heading") or "", sub_head, list_head, d.get("title") or "",
                            " ".join(d.get("path") or [])])
            cov_ctx, hit, _ = coverage(terms, ctx)
            cov_all, _, _ = coverage(terms, shown + ref)
            cov_own = coverage(s_terms, shown + ref)[0] if s_terms else cov_all
            if ref:
                cov_all, cov_own = cov_all + 0.1, cov_own + 0.1
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
            if where_verb and re.search(r"(在|到|向|至|通过)[^，。；]{1,20}" + re.escape(where_verb), shown):
                sc += 0.2  # 加油卡去哪里领 → "可在中石油或中石化领取加油储值卡"
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
                sc = max(sc, 0.9) + 0.2 if value_line else max(sc, 0.7)
            if intent and any(term_in(t, norm(shown)) for t in intent):
                sc += 0.3 if yesno_q else 0.15  # a yes/no question is answered by the sentence that rules on it
            if q_amounts:
                fit = amount_fits(q_amounts, shown)
                if fit is None and pos > 0 and re.match(r"^(其中|含|包括)", shown):
                    fit = amount_fits(q_amounts, display(sents[pos - 1]))  # "其中，…" details the tier before it
                if fit is not None:
                    sc += 0.3 if fit else -0.1
                elif any(re.search(r"(?<![\d.])" + re.escape(x) + r"\s*(万元|万|元)", norm(shown)) for x in stated):
                    sc += 0.2  # the amount itself is written there (满200元减50元)  # the tier (10万元（含）至30万元（不含）) the asked 15万元 falls in
            if whole_article:
                sc = max(sc, 0.8 - 0.01 * pos)
            if not basis_q and PREAMBLE.search(norm(shown)):
                sc -= 1.0  # the issuing notice's cover (addressees, 为落实…, 此件公开发布) answers no how / what
            sc -= off_topic
            own_hits = [t for t in (s_terms or terms) if term_in(t, norm(shown))]
            # an item of a short labelled list keeps its label (燃油车：1.新车购车发票金额…)
            labelled = f"{list_head}{shown}" if list_head and len(list_head) <= 12 and not intro else shown
            cands.append({"n": n, "pos": pos, "text": labelled, "source": s, "score": sc, "hit": len(hit),
                          "intro": intro, "own_hits": own_hits})
            if intro:
                list_head = shown
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
    listy = bool(LIST_Q.search(question)) or compose or any("item_of" in c for c in picked)
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
    if slot_kind(question)[0] == "部门":
        for cl in claims:
            _name_the_org_from_heading(cl, used[cl["n"] - 1])
    claims.sort(key=lambda c: (c["n"], c["pos"]))
    return render_claims(claims, used), claims


#: a department named as such (市商务局, 省发展改革委), not "有关部门" / "相关单位"
_NAMED_ORG = re.compile(r"(?<![有相])[\u4e00-\u9fff]{1,10}(?:局|厅|委员会|发展改革委|政府|办公室|办公厅|银行)")
_ARTICLE_HEAD = re.compile(r"第[一二三四五六七八九十百零\d]+条\s*")


def _name_the_org_from_heading(claim: dict, d: dict) -> None:
    """"第十一条 市商务局 / 负责组织实施…": a sentence under an article headed by the
    department names it only through the heading; say it, so "哪个部门负责" is answered."""
    head = heading_org(d)
    if head and not _NAMED_ORG.search(claim["text"]):
        claim["text"] = f"{head}：{claim['text']}"


def heading_org(d: dict) -> str:
    """The department an article heading names ("第十三条 市发展改革委" → 市发展改革委), or ""."""
    head = _ARTICLE_HEAD.sub("", (d.get("heading") or "").split(">")[-1]).strip()
    return head if head and _NAMED_ORG.fullmatch(head) else ""


def render_claims(claims: list[dict], used: list[dict]) -> str:
    """Claims as answer lines, grouped under a 依据《…》 heading per document."""
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
    return "\n".join(lines)


_TITLE_KIND = re.compile(r"(活动)?(公告|通知|实施细则|细则|实施方案|方案|办法|规定|年度报告|报告)$")


def doc_named_in(question: str, d: dict) -> bool:
    """Does the question name this document by (the core of) its title?"""
    title = norm(d.get("title") or "")
    core = _TITLE_KIND.sub("", title)
    return (len(core) >= 8 and core in norm(question or "")) or own_docno_named(question, d)


def own_docno_named(question: str, d: dict) -> bool:
    """Does the question quote this document's own 文号 (not one it merely cites)?"""
    no = norm(d.get("doc_number") or "")
    return len(no) >= 6 and no in norm(question or "")


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


def topic_terms(question: str) -> list[str]:
    """The question's distinctive terms (not 补贴/条件/多少钱…, no numbers, no 几X/多少X)."""
    return [t for t in key_terms(question) if t not in GENERIC_TERMS and not t.isdigit()
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
        if not in_title and not (len(hit) >= 2 and cov >= 0.6):
            continue
        key = d.get("doc_id") or d.get("title") or ""
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    return out[:limit]


def generic_topic(question: str) -> str:
    terms = [t for t in key_terms(question) if t in GENERIC_TERMS]
    return terms[0] if terms else ""


# ---- compound questions ----------------------------------------------------------------
# a clause that asks something (its own question word)
ASKS = re.compile(r"多少|几|什么|哪|怎么|如何|怎样|吗|是否|有没有|能否|能不能|可否|多久|何时|多长|啥|谁")
_HARD_SEP = re.compile(r"[？?；;]|(?:[，,、]\s*)?(?:另外|此外|同时还|还有|以及|并且)")
_SOFT_SEP = re.compile(r"[，,]")
_EXTRA_ASK = re.compile(r"^(有|能|可以|还能|再)?[^，,。？?]{0,4}(多少|什么|哪些|没有|几)[^，,。？?]{0,4}(补贴|奖励|优惠|补助|礼包)")
_RESPECTIVELY = re.compile(r"^(?P<pre>.*?)(?P<a>[^，,？?；;]{1,30}?)(?:和|与|及|跟)(?P<b>[^，,？?；;]{1,40}?)(?:分别|各自|各)(?P<rest>[^，,？?；;]*)$")


def _slot_words(text: str) -> set[str]:
    return {t for t in specific_terms(text) if t in ATTRIBUTE_TERMS or ASKS.search(t)}


def _match_at_word(connector: str, part: str):
    """The shortest prefix (2–30 chars) of ``part`` followed by ``connector`` where the connector
    starts a word: 能 inside 新能源 does not end the subject of 买新能源汽车…"""
    bounds, pos = {0}, 0
    for w in _jieba_lcut()(part):
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
    m = _match_at_word(r"(?:的|在|由|要|需|可以|可|能|是|有|对|每|中|召开|通过|分为|怎么|如何|多少|多长|多久|几|哪|什么|何时|"
                       r"领取|申领|申请|申报|使用|购买|办理)", part)
    subj = m.group(1) if m else ""
    m2 = _match_at_word(r"(?:在|由|要|需|可以|可|能|是|有|对|每|去|到|怎么|如何|多少|多长|多久|几|哪|什么|何时|"
                        r"领取|申领|申请|申报|使用|购买|办理)", part)
    if m and m2 and "的" in m2.group(1) and m2.group(1).startswith(subj):
        after = m2.group(1).rsplit("的", 1)[-1]
        if 2 <= len(after) <= 6 and after not in ATTRIBUTE_TERMS and after not in _SUBJECT_TAIL:
            subj = m2.group(1)  # the thing owned (…补贴的加油储值卡) is what the next clause is about
    while subj:
        tail = next((w for w in sorted(ATTRIBUTE_TERMS | _SUBJECT_TAIL, key=len, reverse=True) if subj.endswith(w)), "")
        if not tail or len(subj) - len(tail) < 2:
            break
        subj = subj[: -len(tail)]
    if subj and specific_terms(subj):
        return subj
    terms = [t for t in specific_terms(part) if t not in ATTRIBUTE_TERMS and not ASKS.search(t)
             and t not in GENERIC_TERMS]
    return "".join(sorted(terms, key=lambda t: part.find(t))[:3])


_SUBJECT_TAIL = frozenset("资金 总额 金额 标准 时间 日期 额度 数量 人数 电话 名单 一共分 总共分 共分 一共 总共 共 分".split())
_VERB_START = ("需要", "需", "要", "申请", "申领", "可以", "能", "有", "在", "由", "是", "谁", "怎么", "如何", "哪", "什么", "多少", "几")


def _respectively(q: str) -> list[str]:
    """"A和B分别…" → [A…, B…], sharing the context either side carries (泉城购零售消费券和餐饮消费券
    分别有哪些面额 → 泉城购零售消费券有哪些面额 / 泉城购餐饮消费券有哪些面额)."""
    m = _RESPECTIVELY.match(q.strip().rstrip("？?。"))
    if not m:
        return []
    jieba = _jieba_lcut()
    pre, a, b, rest = m.group("pre"), m.group("a"), m.group("b"), m.group("rest")
    ask = rest or "是什么"
    left = pre + a
    if "的" in left and "的" not in b:  # 首保消费券活动的补贴申报时间和资料修改截止时间 → X的Y / X的Z
        subject = left[: left.rindex("的") + 1]
        return [left + ask, subject + b + ask]
    ta, tb = jieba(left), jieba(b)
    # common trailing words (…零售消费券 / 餐饮消费券 → 消费券) belong to both sides
    tail: list[str] = []
    while len(ta) > 1 and len(tb) > 1 and ta[-1] == tb[-1]:
        tail.insert(0, ta.pop())
        tb.pop()
    if len(ta) >= 2 and len(tb) == 1:      # context before A applies to B (泉城购 零售 | 餐饮)
        head, a_core, b_core, after = ta[:-1], [ta[-1]], tb, []
    elif len(tb) >= 2 and len(ta) == 1:    # context after B applies to A (第一轮 | 第二轮 汽车消费补贴的活动时间)
        head, a_core, b_core, after = [], ta, [tb[0]], tb[1:]
    elif len(ta) >= 2 and len(tb) >= 2 and ta[0] != tb[0] and (len(ta) == len(tb) or ta[-1].isdigit() and tb[-1].isdigit()):
        # parallel sides, each its own subject and year (淮安市2024年 | 洪泽区2023年)
        head, a_core, b_core, after = [], ta, tb, []
    elif len(ta) >= 2 and len(tb) >= 2:    # both carry context: the words next to 和 are what differs
        head, a_core, b_core, after = ta[:-1], [ta[-1]], [tb[0]], tb[1:]
    else:
        head, a_core, b_core, after = [], ta, tb, []
    one = "".join(head + a_core + after + tail) + ask
    two = "".join(head + b_core + after + tail) + ask
    return [one, two] if one != two else []


def _jieba_lcut():
    from core.agents.rag.textutil import _jieba

    return _jieba().lcut


def split_compound(question: str) -> list[str]:
    """The self-contained sub-questions of a compound question ("补贴标准是多少，申请需要哪些
    材料？" → 2 parts, "A和B分别是什么" → 2 parts); ``[]`` for a simple question. A later clause
    without its own subject gets the first clause's; a clause that only refines the previous
    one's slot (什么时候到账？具体日期是哪天？) is merged into it."""
    q = (question or "").strip()
    if not q:
        return []
    raw = re.split("(" + _HARD_SEP.pattern + ")", q)
    pieces = []
    for i in range(0, len(raw), 2):
        p = raw[i].strip(" ，,、。")
        sep = raw[i - 1] if i else ""
        if re.search(r"另外|此外|还有", sep) and _EXTRA_ASK.search(p) and not re.search(r"另外|额外|还有", p):
            p = "另外" + p  # "…，另外有多少补贴？" asks for something extra, not the same amount again
        pieces.append(p)
    pieces = [p for p in pieces if p and key_terms(p)]
    clauses: list[str] = []
    for p in pieces:
        soft = [x.strip() for x in _SOFT_SEP.split(p) if x.strip()]
        # "补贴标准是多少，申请需要哪些材料": split on a comma only when both sides ask something
        if len(soft) > 1 and all(ASKS.search(x) for x in soft) and all(key_terms(x) for x in soft):
            clauses += soft
        else:
            clauses.append(p)
    parts: list[str] = []
    kinds: list[str] = []
    for c in clauses:
        kind = slot_kind(c)[0]
        own = [t for t in specific_terms(c) if t not in ATTRIBUTE_TERMS and not ASKS.search(t)]
        if parts and kind and kind == kinds[-1] and not own:
            parts[-1] = parts[-1] + "，" + c  # 什么时候到账 + 具体日期是哪天: one question
            continue
        if not ASKS.search(c) and parts:
            parts[-1] = parts[-1] + "，" + c  # a clause that asks nothing qualifies the previous one
            continue
        parts.append(c)
        kinds.append(kind)
    if not parts:  # nothing that asks anything (e.g. only control characters and symbols)
        return []
    if len(parts) == 1:
        resp = _respectively(parts[0])
        return resp if len(resp) >= 2 else []
    subject = _subject_of(parts[0])
    out = [parts[0]]
    for p in parts[1:4]:
        if p.startswith("其中"):  # 能拿多少礼包？其中加油卡额度是多少 → within what the first part asks
            out.append(re.sub(r"[？?。]+$", "", parts[0]) + "，" + p)
            continue
        has_own = bool(entities(p)) or (subject and norm(subject) in norm(p))
        if not has_own and subject:
            p = f"{subject}{'' if p.startswith(('的', '中') + _VERB_START) else '的'}{p}"
        out.append(p)
    return out[:3]


# ---- the slot a question asks to fill -------------------------------------------------
# (name, question pattern, pattern of a sentence that fills it); first match wins
ORG = r"[\u4e00-\u9fff]{1,12}(?:局|厅|委员会|发展改革委|委|部|政府|办公室|办公厅|银行|中心|总局|公司|企业|单位|机构|平台|商家)"
SLOT_KINDS = [
    ("银行", re.compile(r"(哪家|哪个|哪一家|什么)银行|银行(是|为)?(哪家|哪个|哪一家|什么)"), re.compile(r"[\u4e00-\u9fffA-Za-z]{2,10}银行(?![卡账])")),
    ("平台", re.compile(r"(哪个|什么|哪家|哪一个)(平台|APP|app|软件|网站|公众号|小程序)|(平台|APP|app)(叫什么|是什么|名称)"),
     re.compile(r"“[^”]{2,24}”|APP|app|公众号|小程序|网站|[\u4e00-\u9fff]{2,12}平台")),
    ("部门", re.compile(r"(哪个|哪些|什么|哪一?个?|哪几个|哪几家|哪家)[\u4e00-\u9fff]{0,3}(部门|单位|机关|机构|公司|企业)|由谁|谁(负责|发布|解释|印发|审核|兑付|出资|拨付|发放)|"
                       r"(部门|单位|机关|机构|公司|企业)[^，,。？?]{0,3}(叫什么|名字|名称|是哪家|是哪个|是谁)"),
     re.compile(ORG + r"|第三方机构|[\u4e00-\u9fff]{2,8}机构")),
    ("电话", re.compile(r"电话|热线|客服|联系方式"), re.compile(r"\d{5,}|\d{3,4}-\d{7,8}")),
    ("比例", re.compile(r"比例|百分之|几成|折扣"), re.compile(r"\d+(\.\d+)?\s*[%％]")),
    ("期限", re.compile(r"多久|多长时间|有效期|期限|几天|几日|多少天|几个月|几年|多少年|多少小时"),
     re.compile(r"(?<![\d.])\d{1,3}\s*(个)?(自然日|工作日|天|日|小时|个月|月|年)(?!\d)|当批次")),
    ("日期", re.compile(r"什么时候|何时|哪天|几号|哪一天|几月|(时间|日期)(是|为)?(什么|哪|何|多少|几)|什么(时间|日期)|"
                       r"(截止|截至)(到|至)?(什么|哪|何|几)|(时间|日期)[？?]?$"),
     re.compile(r"\d{1,2}\s*月\s*\d{1,2}\s*日|\d{4}\s*年|\d{1,2}\s*时|\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}|\d{1,2}\s*月")),
    ("数量", re.compile(r"((?<!哪)几|多少)\s*(辆|件|次|条|个|轮|名|场|批次|类|家|台|期|项|人|张|份)"),
     re.compile(r"\d+\s*(辆|件|次|条|个|轮|名|场|批次|类|家|台|期|项|人|张|份)|[:：]\s*\d+")),
    ("金额", re.compile(r"多少钱|多少元|金额|补贴多少|补多少|领多少|能领多少|可以领多少|最高|上限|额度|总额|预算|"
                       r"多少(补贴|奖励|返还|返利|费用|补助)|价格|价钱|收费标准|"
                       r"多少[\u4e00-\u9fff]{0,10}资金|资金(总额|规模|多少|是多少)"),
     # (a cap "不超过60" counts even where the unit is lost: the scanned notice's lines are cut)
     re.compile(r"\d+(\.\d+)?\s*(万|亿)?元|\d+(\.\d+)?\s*[%％]|(不超过|不高于|最高|最多|上限为?)\s*\d")),
    ("材料", re.compile(r"(哪些|什么|啥)(材料|资料|证件|证明|手续)|(提交|提供|携带|准备)(什么|哪些|啥)"),
     re.compile(r"材料|资料|证明|证件|照片|原件|复印件|身份证|发票|执照|保单|证书|信息")),
    ("条件", re.compile(r"(什么|哪些|啥)(条件|要求|资格)|需要满足|符合什么|谁可以|哪些人"),
     re.compile(r"条件|资格|须|需|应|满足|符合|限|不得|范围|对象|要求|个人|企业|消费者")),
    ("数值", re.compile(r"多少|(?<!哪)几"), re.compile(r"\d")),
    # 有什么额外奖励 / 有没有额外补贴: only a sentence granting something extra answers it
    ("额外", re.compile(r"额外|另有|另外(的)?(奖励|补贴|优惠)|另外[^，,。？?]{0,6}(奖励|补贴|优惠|补助)|特别(奖励|优惠|补贴)|加码"),
     re.compile(r"额外|另外给予|再给予|加发|叠加|奖励|上浮|提高")),
]
_PREDICATE_SKIP = frozenset("负责 进行 联合 统一 具体 主要 可以 能够 应该 需要 是 来 去 给 把 将".split())
_UNMARK = re.compile(r"^(\d{1,2}[.．、)）]|（\d{1,2}）)|第[\d、]+页|〔\d{4}〕\d+号|[（(]\d{4}-\d{4}年?[)）]")
_YEAR_WORD = re.compile(r"(?<!\d)(?:19|20)\d{2}\s*年")


EVIDENCE_NAMES = {"bm25": "关键词检索", "dense": "语义检索", "title": "标题匹配"}


def slot_kind(question: str) -> tuple[str, re.Pattern | None]:
    # something extra (另外有多少补贴) is asked before any amount it is measured in
    for name, q_pat, s_pat in sorted(SLOT_KINDS, key=lambda k: k[0] != "额外"):
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
    for w in _jieba_lcut()(m.group(1)):
        if len(w) >= 2 and w not in _PREDICATE_SKIP and w not in STOP_ATTR:
            return w
    return ""


STOP_ATTR = frozenset("部门 单位 机关 机构 银行 公司 企业".split())
_YESNO_Q = re.compile(r"是否|能否|可否|有没有|是不是|能不能|可不可以|[吗么][?？。]?\s*$")
_GENERIC_SLOTS = frozenset("平台 部门 银行 电话 日期 期限 比例 数量".split())
_EVENT_SKIP = frozenset("之前 以前 前 后 为止 开始 的 是 呢 吗 可以 能 要 需要 必须 应当 应该 须 需 有效 内 之内 以内".split())


def amount_owner(question: str) -> str:
    """What an asked price / amount belongs to (旧家电**回收**价格是多少 → 回收); "" when it is
    generic (补贴标准) or not said."""
    m = re.search(r"([\u4e00-\u9fff]{2,10}?)的?(价格|价钱|收费标准)(标准)?(是|为)?(多少|几|怎么算|如何)", question or "")
    if not m:
        return ""
    words = [w for w in _jieba_lcut()(m.group(1)) if w != "的"]
    w = words[-1] if words else ""
    if len(w) < 2 or w in GENERIC_TERMS or w in STOPWORDS or ASKS.search(w):
        return ""
    return w


def event_predicate(question: str) -> str:
    """What happens at the date asked for (什么时候**到账** → 到账); "" when the question only asks
    a named period's date (活动时间是什么时候)."""
    m = re.search(r"(?:什么时候|何时|哪天|几号|哪一天|多少天|几天|几日|多久|多长时间|几个月)(?:内|之内|以内|前|之前|以前|开始|起)?"
                  r"([\u4e00-\u9fff]{2,6})", question or "")
    if not m:
        return ""
    for w in _jieba_lcut()(m.group(1)):
        if ASKS.search(w):
            return ""  # 从哪天到哪天: a range of the period itself
        if len(w) >= 2 and w not in _EVENT_SKIP and w not in STOPWORDS:
            return w
    head = m.group(1)[:2]  # 到账 cut into single characters
    if ASKS.search(m.group(1)[:3]):
        return ""
    return head if head not in _EVENT_SKIP and head[0] not in "前后的是呢吗开起为之以可能要需" else ""


def _sentences_with_heads(d: dict):
    """(sentence, heading context) of a chunk; an in-chunk sub-heading (一、活动时间) is context
    for the sentences under it."""
    sub = ""
    head = " ".join([d.get("heading") or "", " ".join(d.get("path") or [])])
    for s in split_sentences(d.get("body") or d.get("text") or ""):
        shown = display(s)
        if SUBHEAD.match(shown) and not re.search(r"[，。；！？,;!?]", shown):
            sub = shown
            continue
        if LABEL_LINE.match(shown):  # "新能源汽车：" labels the list items under it
            sub = shown
            continue
        yield shown, f"{head} {sub}"


def slot_gaps(question: str, docs: list[dict], *, max_docs: int = 8, explain: list | None = None) -> list[str]:
    """What the question pins down that no evidence chunk gives: a year no chunk's document
    is about, or the asked-for slot (金额 / 日期 / 期限 / 部门 / 材料 / 条件 …) that no sentence
    fills *for what is asked* — a sentence of the right shape that also mentions the
    question's own terms (those the document title does not already cover). ``[]`` = covered."""
    q = question or ""
    docs = [d for d in docs[:max_docs] if d]
    if not docs:
        return []
    years = re.findall(r"(?<!\d)((?:19|20)\d{2})(?=\s*年)", q)
    support = []
    for d in docs:
        ctx = norm(doc_context(d))
        t_years = set(re.findall(r"(?:19|20)\d{2}(?=年)", norm((d.get("title") or "") + (d.get("file_name") or ""))))
        # a document of another year (its title says 2025) mentioning 2024 in passing is not about 2024
        if all(y in ctx for y in years) and (not years or not t_years or t_years & set(years)):
            support.append(d)
    if not support:
        return [f"{y}年" for y in years]
    # documents about the question's subject: title coverage near the best one
    terms = [t for t in key_terms(q) if not re.fullmatch(r"(几|多少)[\u4e00-\u9fff]{0,2}", t) and t not in FRAME_WORDS
             and not all(ch in STOPWORDS for ch in t)]  # 是从 / 从哪: function words glued together
    tcov = [coverage(terms, (d.get("title") or "") + " " + (d.get("file_name") or ""))[0] for d in support]
    best = max(tcov, default=0.0)
    support = [d for d, c in zip(support, tcov) if c >= best - 0.25]
    kind, shape = slot_kind(q)
    if shape is None or not ASKS.search(q):
        return []  # a statement (建议拓宽该道路) asks for no slot
    if kind != "额外" and _YESNO_Q.search(q):
        return []  # 是否有统一的收费起止时间？ asks yes or no, not for the date itself
    if any(pat.search(q) for pat in META_Q.values()):
        field = next(f for f, pat in META_Q.items() if pat.search(q))
        if any(d.get(field) for d in support):
            return []
    slots = set(SLOT_TERMS.findall(q))
    q_places = set(place_words(q)) | set(places(q))  # where: a document-level constraint
    q_pat = next(qp for name, qp, _ in SLOT_KINDS if name == kind)
    asked = " ".join(m.group(0) for m in q_pat.finditer(q))  # the slot itself (申领平台叫什么 → 平台)
    if kind in _GENERIC_SLOTS:  # 平台 / 部门 / 时间 name the slot; 资金总额 names what is asked
        words = [w for w in re.split(r"\s+", asked) if w]
        kept = []
        for t in terms:
            if len(t) <= len(asked) and t in asked:
                continue
            for w in words:  # 咨询电话 → 咨询
                for piece in re.findall(r"电话|热线|客服|平台|部门|单位|机关|机构|银行|时间|日期|期限|比例", w):
                    t = t.replace(piece, "")
            if len(t) >= 2:
                kept.append(t)
        terms = kept
    verb = slot_predicate(q) if kind in ("部门", "银行") else (event_predicate(q) if kind in ("日期", "期限") else "")
    if kind in ("金额", "数值") and not verb:
        verb = amount_owner(q)  # 回收价格是多少: a price of 回收, not the 销售价格 of another sentence
    if kind == "数量":  # 多少张 is answered by "1张", not by "14批次" (几台 by "3件")
        unit = re.search(r"(?:(?<!哪)几|多少)\s*(批次|[\u4e00-\u9fff])", q).group(1)
        shape = re.compile(r"\d+\s*" + unit_pattern(unit) + r"|[:：]\s*\d+")
    amounts = question_amounts(q)
    # terms that only state the amount or count the question gives (30万元, 一辆): a tier
    # sentence that covers the amount answers them
    amount_terms = {t for t in terms if re.fullmatch(r"[\d.]+(万元|万|元)?|[一二两三四五六七八九十\d]+[辆台件个张次份套]", t)}
    total = bool(re.search(r"一共|总共|共计|合计|总计|总数|累计", q))
    for d in support:
        title_n = norm((d.get("title") or "") + (d.get("file_name") or ""))
        s_terms = [t for t in terms if t not in slots and not term_in(t, title_n) and t not in ASKED_FRAME
                   and t not in ASPECT_WORDS and t not in q_places and not re.fullmatch(r"(19|20)\d{2}年?", t)]
        for shown, head in _sentences_with_heads(d):
            body = _UNMARK.sub("", shown)
            fit = amount_fits(amounts, shown) if amounts else None
            if kind not in ("日期",):
                body = _YEAR_WORD.sub("", body)  # 2019年 is not a duration or a count
            row = is_table_row(shown)
            if not (shape.search(body) or shape.search(norm(body)) or (row and re.search(r"\d", body))):
                continue  # (a table row's unit sits in its header: 本年收费金额（单位：万元）: 7730.28)
            ctx = f"{shown} {head}"
            sent_n = norm(shown)
            if total and not re.search(r"共计|一共|总共|合计|总计|累计|总数|共\d|共有", shown + head):
                continue  # a total is asked: a per-person figure does not answer it
            if kind in ("部门", "银行") and not _names_org(shown, q, shape) and not (kind == "部门" and heading_org(d)):
                continue  # "保险公司应依法经营" names no company; "消费者提交的银行卡" no bank
            if verb and not (term_in(verb, sent_n) or any(term_in(x, sent_n) for x in SYNONYMS.get(verb, ()))):
                continue  # the organisation / date must be said to do / be *that* (拨付, 到账)
            own_terms = [t for t in s_terms if not (t in amount_terms and fit is not False)] if amounts else s_terms
            if kind == "日期" and _PERIOD.search(norm(shown)):
                # a period "7月19日至11月15日" says when it starts and when it ends
                own_terms = [t for t in own_terms if t not in _PERIOD_WORDS]
                if s_terms and all(t in _PERIOD_WORDS for t in s_terms):
                    return _filled(explain, d, shown, s_terms, [])
            if (fit is True and not own_terms) or not s_terms:
                return _filled(explain, d, shown, s_terms, [])
            cov, hit = _soft_coverage(own_terms or s_terms, ctx)
            if cov >= SLOT_COVER:
                return _filled(explain, d, shown, s_terms, hit)
            if explain is not None:
                explain.append({"miss": shown[:50], "terms": s_terms, "cov": round(cov, 2)})
    return [kind]


def _filled(explain: list | None, d: dict, sentence: str, terms: list[str], hit: list[str]) -> list[str]:
    """The slot is filled: note by which sentence of which chunk (``explain``), no gap left."""
    if explain is not None:
        explain.append({"doc": d.get("title"), "chunk_id": d.get("chunk_id"), "sentence": sentence, "terms": terms,
                        "hit": hit})
    return []


SLOT_COVER = 0.4
_PERIOD = re.compile(r"\d{1,2}月\d{1,2}日[^，。；]{0,8}(至|到|—|－|-|~|～)[^，。；]{0,6}\d{1,2}月\d{1,2}日")
_PERIOD_WORDS = frozenset("开始 结束 截止 截至 起止 开始时间 结束时间 截止时间 起始 终止".split())


_ORG_TYPE = re.compile(r"([\u4e00-\u9fff]{0,6}?)(保险公司|公司|银行|机构|企业|平台|商家)[^，,。？?]{0,3}(?:叫什么|名字|名称|是哪|是谁)|"
                       r"(?:哪几家|哪家|哪个|哪些|哪一家)([\u4e00-\u9fff]{0,6}?)(保险公司|公司|银行|机构|企业|平台|商家)")
# words that qualify an organisation without naming it (第三方机构, 有资质的拆解企业)
_ORG_GENERIC = re.compile(r"^(第三方|专业|相关|有关|有资质的|合作|参与活动的?|参加活动的?|活动|指定|审核|销售|汽车销售|保险|"
                          r"拆解|回收|生产|金融|服务|服务平台|平台|其他|各类|上述|该|本)+")


def _names_org(sentence: str, question: str, shape) -> bool:
    """Does the sentence name an organisation (市商务局, 齐鲁银行, 销售企业) other than the
    generic noun the question itself uses (哪家保险公司 → "保险公司" names nobody)? When the
    question asks the name of one kind (第三方审核机构叫什么, 哪几家保险公司), only a name of that
    kind with something specific before it counts ("委托第三方机构" names no 机构)."""
    qn = norm(question)
    typed = _ORG_TYPE.search(question or "")
    if typed:
        kind = typed.group(2) or typed.group(4)
        kind = "公司" if kind == "保险公司" else kind
        import jieba.posseg as pseg

        for m in re.finditer(r"([\u4e00-\u9fff]{1,10}?)" + kind, sentence):
            words = list(pseg.cut(re.split(r"[的、，,和与及或]", m.group(1))[-1]))
            while words and _ORG_GENERIC.fullmatch(words[-1].word):
                words.pop()  # 聘请第三方专业机构: 专业 / 第三方 qualify, they name nobody
            if words and words[-1].flag[:1] in ("n", "j") and len(words[-1].word) >= 2 \
                    and norm(words[-1].word) not in qn:
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
        if term_in(t, tn) or any(norm(x) in tn for x in SYNONYMS.get(t, ())) or \
                (len(t) >= 3 and ngram_containment(t, text, 2) >= 0.5):
            got += w
            hit.append(t)
    return (got / total if total else 0.0), hit
ASKED_FRAME = frozenset("分别 各自 具体 一共 总共".split())


# ---- what the evidence leaves unanswered -------------------------------------------------
def _noun_covered(t: str, c: str) -> bool:
    if term_in(t, c) or any(norm(x) in c for x in SYNONYMS.get(t, ())):
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


COMMON_WORD_FREQ = 2000  # jieba dictionary frequency of an everyday word


def _common_word(word: str) -> bool:
    from core.agents.rag.textutil import _jieba

    return (_jieba().get_FREQ(word) or 0) >= COMMON_WORD_FREQ


def _agreed_best(pool: list[dict]) -> bool:
    """The best evidence chunk is first for both retrievers and covers most of the question."""
    if not pool:
        return False
    d = pool[0]
    ev = d.get("evidence") or {}
    ranks = [_rank_strength(ev.get(k)) for k in ("bm25", "dense")]
    return all(r >= 1.0 for r in ranks) and float((d.get("grade") or {}).get("coverage") or 0.0) >= 0.6


def part_pool(part: str, pool: list[dict]) -> list[dict]:
    """The pool re-graded against one sub-question: its relevant chunks, best first."""
    out = []
    for d in pool:
        g = score_chunk(part, d)
        if g["relevant"]:
            out.append({**d, "grade": {**(d.get("grade") or {}), **g, "by": (d.get("grade") or {}).get("by", "rules")}})
    return sorted(out, key=lambda d: -d["grade"]["score"])


def title_term_gaps(question: str, pool: list[dict], titles: list[str], limit: int = 8) -> list[str]:
    """Terms of the question that name what some indexed document is about (its title says
    购新补贴) while no evidence chunk mentions them: the evidence is about something else."""
    if not titles or not pool:
        return []
    tn = [norm(t) for t in titles if t]
    ctx = [norm(doc_context(d)) for d in pool[:limit]]
    out = []
    for t in key_terms(question):
        if len(t) < 2 or t in GENERIC_TERMS or t in FRAME_WORDS or ASKS.search(t) or re.search(r"\d", t):
            continue
        if any(term_in(t, x) for x in tn) and not any(_noun_covered(t, c) for c in ctx):
            out.append(t)
    return out


_HOW_VERB = re.compile(r"(?:怎么|如何|怎样|去哪里?|在哪里?|到哪里?)(?:才能|才可以|可以|能|去)?([\u4e00-\u9fff]{2,4})")


def how_verb_gap(question: str, pool: list[dict], limit: int = 8) -> list[str]:
    """The action a how-question asks about (商家要怎么**报名**) when no evidence chunk mentions
    it: the evidence describes other steps, not the one asked."""
    from core.agents.rag.textutil import _WEAK_VERBS

    m = _HOW_VERB.search(question or "")
    if not m or not pool:
        return []
    from core.agents.rag.textutil import ASPECT_WORDS

    words = [w for w in _jieba_lcut()(m.group(1)) if w not in ASPECT_WORDS]  # 如何合理烹饪 → 烹饪
    verb = words[0] if words else ""
    if len(verb) < 2 or verb in _WEAK_VERBS or verb in STOPWORDS or verb in GENERIC_TERMS or ASKS.search(verb):
        return []
    docs = pool[:limit]
    # only the documents about the question's subject (their title matches it about as well
    # as the best one): 报名 in the 家电 rules does not say how 泉城购 merchants sign up
    terms = [t for t in key_terms(question) if t not in FRAME_WORDS and t != verb]
    tcov = [coverage(terms, (d.get("title") or "") + " " + (d.get("file_name") or ""))[0] for d in docs]
    best = max(tcov, default=0.0)
    ctx = [norm(doc_context(d)) for d, c in zip(docs, tcov) if c >= best - 0.25]
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
