"""Chinese tokenisation for BM25 and query entity extraction.

jieba (its own ``Tokenizer`` instance, so other modules' jieba settings never interfere) in
search mode, with a domain dictionary: agency names, policy terms; 文号 (济商务字〔2025〕6号)
and article numbers (第五十四条) are kept whole as extra tokens so an exact reference
outweighs its pieces. Stopwords and punctuation are dropped; Latin letters lower-cased;
full-width forms folded.
"""

from __future__ import annotations

import re
import threading
import unicodedata

from core.text.numerals import CN_NUMERAL_CHARS, cn_to_int

# 文号: issuer abbreviation + 〔year〕 + number + 号 (brackets vary: 〔〕[]【】()（）)
DOC_NUMBER_RE = re.compile(
    r"([\u4e00-\u9fff]{1,12}?)\s*[〔\[【(（]\s*((?:19|20)\d{2})\s*[〕\]】)）]\s*(\d{1,4})\s*号")
ARTICLE_RE = re.compile(f"第\\s*([{CN_NUMERAL_CHARS}\\d]+)\\s*条")
BOOK_TITLE_RE = re.compile(r"《([^《》]{2,80})》")

AGENCY_SUFFIXES = ("人民政府办公厅", "人民政府办公室", "人民政府", "办公厅", "办公室", "委员会", "商务厅", "商务局",
                   "财政厅", "财政局", "发展和改革委员会", "发展改革委", "人力资源和社会保障局",
                   "人力资源和社会保障厅", "市场监督管理局", "税务局", "公安局", "教育局", "住房和城乡建设局",
                   "工业和信息化局", "应急管理局", "医疗保障局", "民政局", "交通运输局", "生态环境局")

DOMAIN_WORDS = [
    # agencies / places
    "国务院", "国务院办公厅", "国家发展改革委", "国家发展和改革委员会", "发改委", "商务部", "财政部",
    "人力资源社会保障部", "山东省", "山东省商务厅", "省商务厅", "济南市", "济南市商务局", "济南市财政局",
    "淮安市", "洪泽区", "人社局", "市监局", "市场监管局", "工信局", "住建局", "医保局", "应急局",
    # policy vocabulary
    "以旧换新", "家电以旧换新", "购新补贴", "消费券", "首保", "新车首保", "汽车消费补贴", "实施细则",
    "实施方案", "补贴标准", "补贴资金", "政府信息公开", "年度报告", "信用信息", "失信惩戒", "守信激励",
    "泉城购", "智能手表", "手环", "能效", "一级能效", "二级能效", "发文字号", "施行日期", "有效期",
    "租赁住房", "租房补贴", "高校毕业生", "应届生", "个体工商户", "民事法律行为", "劳动合同",
    "用人单位", "劳动者", "经济补偿", "违约金", "诉讼时效", "不可抗力", "无民事行为能力",
    "限制民事行为能力", "法定代表人", "非法人组织", "合伙企业", "合伙合同", "著作权", "商标权",
]

STOPWORDS = frozenset("""
的 了 和 与 及 或 等 是 在 对 为 以 于 将 把 被 由 从 向 之 其 该 本 此 这 那 这个 那个 一个 一些 有 无 也 都 就 还
而 并 且 但 如 如果 则 即 若 又 只 已 已经 可 可以 能 能否 会 要 应 应当 需 需要 请问 请 问 吗 呢 吧 啊 呀 么 什么 怎么
怎样 如何 哪些 哪个 多少 几 是否 没有 不 我 你 他 她 它 我们 你们 他们 自己 个 条 年 月 日 中 上 下 内 外 时 后
前 按照 根据 依照 关于 通知 规定 有关 相关 进行 工作 给 让 想 知道 一下 现在 已经 情况 问题 到 去 来 说 着 过
""".split())

_PUNCT_RE = re.compile(r"^[\W_]+$", re.UNICODE)

_lock = threading.Lock()
_jieba = None


def _tokenizer():
    global _jieba
    if _jieba is None:
        with _lock:
            if _jieba is None:
                import logging

                import jieba

                jieba.setLogLevel(logging.WARNING)
                tk = jieba.Tokenizer()
                tk.initialize()
                for w in DOMAIN_WORDS:
                    tk.add_word(w, freq=2000)
                _jieba = tk
    return _jieba


def add_words(words) -> None:
    """Teach the tokenizer more domain words (e.g. agency names found at ingestion)."""
    tk = _tokenizer()
    with _lock:
        for w in words:
            w = (w or "").strip()
            if 2 <= len(w) <= 20:
                tk.add_word(w, freq=2000)


def fold(text: str) -> str:
    """NFKC (full-width → half-width), lower-case, no spaces between CJK characters."""
    text = unicodedata.normalize("NFKC", text or "").lower()
    return re.sub(r"(?<=[\u4e00-\u9fff\d])\s+(?=[\u4e00-\u9fff\d〔〕\[\]【】])", "", text)


def special_tokens(text: str) -> list[str]:
    """文号 tokens (务字〔2025〕6号 and 〔2025〕6号) and article-number tokens (art:54)."""
    folded = fold(text)
    out = []
    for m in DOC_NUMBER_RE.finditer(folded):
        # the issuer's start is ambiguous in running text (根据济商务字…): index the number with
        # the issuer's last two characters, and the bare 〔year〕number
        core = f"〔{m.group(2)}〕{int(m.group(3))}号"
        out.extend([m.group(1)[-2:] + core, core])
    for m in ARTICLE_RE.finditer(folded):
        n = cn_to_int(m.group(1))
        if n is not None:
            out.append(f"art:{n}")
    return out


def tokenize(text: str) -> list[str]:
    """BM25 tokens of ``text`` (order kept, duplicates kept)."""
    folded = fold(text)
    toks = []
    for w in _tokenizer().cut_for_search(folded, HMM=True):
        w = w.strip()
        if not w or w in STOPWORDS or _PUNCT_RE.match(w):
            continue
        toks.append(w)
    toks.extend(special_tokens(folded))
    return toks


def has_exact_reference(query: str) -> bool:
    """True when the query names a 文号 or an article (第X条): BM25 gets more weight."""
    folded = fold(query)
    return bool(DOC_NUMBER_RE.search(folded) or ARTICLE_RE.search(folded))


def query_entities(query: str, agencies=()) -> dict:
    """Entities the title path matches against document titles and numbers:
    {"titles": [《…》 names], "doc_numbers": [...], "articles": [int], "agencies": [...]}."""
    folded = fold(query)
    titles = [fold(t) for t in BOOK_TITLE_RE.findall(query)]
    numbers = [f"{m.group(1)}〔{m.group(2)}〕{int(m.group(3))}号" for m in DOC_NUMBER_RE.finditer(folded)]
    arts = [n for n in (cn_to_int(m.group(1)) for m in ARTICLE_RE.finditer(folded)) if n is not None]
    found = [a for a in agencies if a and fold(a) in folded]
    return {"titles": titles, "doc_numbers": numbers, "articles": arts, "agencies": found}


def bigrams(text: str) -> set[str]:
    """Character bigrams of the CJK/alnum characters of ``text`` (for title matching)."""
    chars = [c for c in fold(text) if c.isalnum()]
    return {chars[i] + chars[i + 1] for i in range(len(chars) - 1)}
