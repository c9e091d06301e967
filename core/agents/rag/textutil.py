"""Text helpers shared by the RAG nodes: normalisation for matching, key terms, char n-gram
overlap, sentence splitting, and the lexical support test used by the citation check.

Policy PDFs put spaces between digits and units and inside 文号 ("2025 年1 月23 日",
"济商务字〔2025〕6 号", "15％"); everything that compares text goes through :func:`norm`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from core.text.numerals import cn_to_int

# Words that carry no retrieval signal in a policy question.
STOPWORDS = frozenset("""
的 了 是 在 有 和 与 及 或 吗 呢 吧 啊 呀 么 嘛 哦 请问 请 问 我 我们 你 你们 他 她 它 这 那 这个 那个 这些 那些
什么 怎么 怎样 怎么样 如何 多少 几 哪 哪些 哪个 哪里 哪儿 为什么 是否 能否 可以 能 会 要 需要 想 想要 知道 一下
告诉 说说 讲讲 介绍 跟 给 对 向 把 被 从 到 就 都 也 还 又 再 很 最 更 一个 一些 有没有 没有 有无 是不是
包括 包含 涵盖 关于 对于 规定 相关 具体 情况 内容 问题 一般 现在 目前 如果 的话 多久 时候 哪天 办 怎么办 啥 咋 呗 多 少
发生 出现 遇到 碰到 发现 该怎么办 应该 应当 无法
""".split())

# Generic topic words: a question made only of these is too vague to retrieve on.
GENERIC_TERMS = frozenset("""
政策 补贴 补助 文件 通知 规定 办法 细则 方案 公告 活动 标准 条件 材料 流程 申请 申报 领取 资料 优惠 措施 要求
政府 部门 单位 条款 条 第二条 事项 东西 信息 内容 政策文件 说说 聊聊 了解 介绍 资金 钱 多少钱 金额 时间 期限
时候 情况 方面 相关 有关 具体 问题 办法 处理 文号 发文 机关 发文机关 发文单位 印发 发布 日期 名称 标题 全称 文件名
""".split())

_FATAL_POS = {"n", "nz", "nt", "nr", "ns", "l", "i", "nrt", "nw"}
_YESNO = re.compile(r"[吗么][?？。]?\s*$|是否|能否|可否|可不可以|能不能|是不是|有没有")
_NUMERAL_NOUNS = frozenset(("二手", "一手", "二手车", "二手房"))
_WEAK_VERBS = frozenset("""可以 能够 需要 享受 参加 参与 购买 办理 申请 申领 领取 使用 提供 进行 获得 得到 补贴 支持 适用
拿到 拿 领到 能用 用 享有 算 算不算 属于""".split())
# colloquial time frames (1月份开始的那次) that point at a document rather than name a subject
_TIME_FRAMES = frozenset("月份 年份 月初 月底 年初 年底 上旬 中旬 下旬 那次 这次 那个 这个".split())
# nouns that name the aspect asked about (有哪些分类 / 什么用途 / 如何合理…), not its subject: an
# answer need not repeat them, so they never decide that the corpus lacks the subject
ASPECT_WORDS = frozenset("""用途 分类 类别 种类 类型 方式 方法 办法 途径 条件 要求 程序 流程 步骤 手续 标准 范围 对象 依据 原因
作用 意义 区别 内容 措施 注意事项 事项 收费 费用 合理 正确 科学 充分 主要 常见 具体 有效 家庭 日常 平时 常见问题 问题
定义 概念 含义 概况 特点 要点 结果 错误 规定 政策""".split())
_COMMON_VERB_FREQ = 3000  # a yes/no predicate this common (增加 / 进行) says little about the subject
_COMMON_NOUN_FREQ = 20000  # nor does a noun this common (企业 34826, 问题, 工作)
# the question word right before the noun it asks for (哪几个**等级**, 哪些**证件**)
_ASK_BEFORE = frozenset("哪几个 哪几种 哪几类 哪几家 哪些 哪个 哪种 哪类 哪家 什么 几个 几种 几类 啥".split())
# words that frame a question (哪几个环节 / 叫什么名字) rather than name what it is about
FRAME_WORDS = frozenset("环节 名字 名称 步骤 方面 部分 东西 地方 事情 事项 内容 情况 问题 具体 哪几个 几个 哪几".split())
# a char that ends the previous word in a search-mode cut ("活动中买" → 中买, "工作中市" → 中市)
_GLUE_HEAD = frozenset("中在和的对了与及或")


@lru_cache(maxsize=4096)
def salient_nouns(question: str) -> tuple[str, ...]:
    """Dictionary nouns (and idioms) of the question that an answer must be about: when
    none of the retrieved relevant chunks mentions one, the corpus cannot answer."""
    import jieba.posseg as pseg

    _jieba()
    q = strip_citations(unicodedata.normalize("NFKC", question or ""))
    out = []
    out += [y + "年" for y in re.findall(r"((?:19|20)\d{2})\s*年", q)]
    yesno = bool(_YESNO.search(q))  # in a yes/no question the predicate (退税, 提现) must be covered too
    # ...the predicate asked about, nearest the question mark: other verbs set the scene
    # (成功办理异地就医**备案**后，…还能医保报销吗)
    preds = set(yesno_predicates(q)) if yesno else set()
    prev = ""
    for w in pseg.cut(q):
        word, flag = w.word.strip(), w.flag
        asked = prev in _ASK_BEFORE and flag in ("b", "vn", "an")  # 分为哪几个等级: 等级 is what is asked
        prev = word or prev
        pos_ok = flag in _FATAL_POS or asked or (yesno and flag == "b" and word not in _WEAK_VERBS) or word in preds
        if word in _TIME_FRAMES or word in ASPECT_WORDS:
            continue
        if flag.startswith("n") and (_jieba().get_FREQ(word) or 0) >= _COMMON_NOUN_FREQ:
            continue  # 企业 / 问题 / 工作: too common to tell what a document is about
        if word in _NUMERAL_NOUNS:  # 二手 is tagged a numeral but names what is asked about
            if word not in out:
                out.append(word)
            continue
        if len(word) < 2 or word in STOPWORDS or word in GENERIC_TERMS or word in FRAME_WORDS or not pos_ok:
            continue
        if len(word) == 2 and word[0] in _GLUE_HEAD and not _in_dictionary(word):
            continue  # an HMM guess gluing a particle to the next word (活动中买 → 中买)
        if re.match(r"^(多|几|哪|什么|啥|怎)", word):
            continue  # the question type (多长时间 / 几年), not its subject
        if re.fullmatch(r"[\d一二两三四五六七八九十]+[\u4e00-\u9fff]?", word):
            continue
        if len(word) == 2 and word[1] in "是的了有在" and not _in_dictionary(word):
            continue  # 账是 in 辅助账是必须…: a particle glued to the noun before it
        if len(word) == 2 and word[0] in "号条款项" and not _in_dictionary(word):
            continue  # a document number's or article's tail glued to the verb after it (711号指的是)
        if len(word) == 2 and word[1] in "会能要可将也都还就才":
            continue  # a jieba artefact gluing a modal to a noun (券会 in 消费券会返还)
        if len(word) == 2 and word[0] in "能会要可还都就也" and not _in_dictionary(word):
            continue  # a modal glued to the verb after it (能领 / 要交)
        if word not in out:
            out.append(word)
    return tuple(out)

@lru_cache(maxsize=1024)
def yesno_predicates(question: str) -> tuple[str, ...]:
    """The action a yes/no question asks about, in its last clause (能不能和…**叠加**享受 → 叠加);
    () for other questions or when the action is a generic one (享受 / 参加 / 申请)."""
    import jieba.posseg as pseg

    _jieba()
    q = strip_citations(unicodedata.normalize("NFKC", question or "")).strip().rstrip("？?。!！ ")
    if not _YESNO.search(q + "？"):
        return ()
    clause = re.split(r"[，,；;。?？]", q)[-1]
    out = []
    cut = list(pseg.cut(clause))
    for i, w in enumerate(cut):
        word = w.word.strip()
        if i + 1 < len(cut) and cut[i + 1].word == "的":
            continue  # 上传的材料: the verb qualifies a noun, it is not what is asked
        if w.flag not in ("v", "vn") or len(word) < 2 or word in _WEAK_VERBS or word in STOPWORDS \
                or word in GENERIC_TERMS or _YESNO.search(word) or re.search(r"[能可会要吗么]", word) \
                or (_jieba().get_FREQ(word) or 0) >= _COMMON_VERB_FREQ:
            continue
        out.append(word)
    return tuple(out[-1:])  # the action nearest the question mark


def _in_dictionary(word: str) -> bool:
    try:
        return bool(_jieba().get_FREQ(word))
    except Exception:  # noqa: BLE001 - no dictionary loaded: keep the word
        return True


# Offline synonym table used by the reflection step to widen a missed query.
SYNONYMS: dict[str, list[str]] = {
    "补贴": ["补助", "资金", "礼包", "奖励"],
    "补助": ["补贴"],
    "材料": ["资料", "申报资料", "提交资料"],
    "资料": ["材料"],
    "申请": ["申领", "申报"],
    "申领": ["申请", "申报"],
    "多久": ["有效期", "期限", "时间"],
    "有效期": ["期限", "多久"],
    "时间": ["活动时间", "期限", "日期"],
    "多少钱": ["金额", "标准", "元"],
    "标准": ["补贴标准", "金额", "比例"],
    "比例": ["%", "标准"],
    "上限": ["不超过", "最多"],
    "最多": ["不超过", "上限"],
    "加油卡": ["加油储值卡"],
    "租房": ["租赁住房", "租金"],
    "房租": ["租金", "租赁"],
    "领取": ["申领", "领"],
    "开始": ["开放", "开启", "启动"],
    "收到": ["受理", "接收"],
    "发布": ["印发", "发文"],
    "结束": ["截止", "止"],
    "购买": ["购置", "购"],
    "买": ["购买", "购置"],
    "买车": ["购车", "购置", "乘用车"],
    "购车": ["购置", "购买", "销售"],
    "认定": ["视为", "认定", "算作"],
    "汽车": ["乘用车", "车辆"],
    "电话": ["客服", "热线", "咨询"],
    "咨询": ["客服", "热线", "电话"],
    "家电": ["电冰箱", "洗衣机", "空调"],
    "个税": ["个人所得税"],
    "修复": ["信用修复", "失信修复"],
    "条件": ["范围", "对象", "资格"],
    "谁": ["对象", "范围", "个人", "企业"],
    "多少": ["金额", "标准"],
    # policy vocabulary: how citizens ask vs how documents say it
    "资金来源": ["资金保障", "资金管理", "特别国债", "中央和地方资金", "财政"],
    "来源": ["保障", "国债", "统筹使用"],
    "资金": ["资金保障", "补贴资金", "额度"],
    "总额": ["共计", "总计", "额度", "合计"],
    "总共": ["共计", "总计", "合计"],
    "一共": ["共计", "总计", "合计"],
    "类别": ["类", "品类", "品种", "范围"],
    "种类": ["类", "品类", "品种", "范围"],
    "几辆": ["限购", "辆"],
    "数量": ["限购", "数量", "件数"],
    "几轮": ["轮"],
    "平台": ["APP", "公众号", "权益平台", "服务平台"],
    "解释": ["解释权"],
    "受理": ["新收", "收到", "申请数量"],
    "申请数": ["申请数量", "新收"],
    "退款": ["退货", "退款"],
    "返还": ["返还", "退回"],
    "垫付": ["垫付", "垫资"],
    "印发": ["发布", "印发"],
    "延期": ["延期", "推迟"],
    "联系电话": ["电话", "咨询"],
    "限额": ["不超过", "最高", "上限"],
    "最高": ["不超过", "上限", "最多"],
    "截止": ["截至", "止", "前完成"],
    "百分之": ["%", "比例"],
    "百分比": ["%", "比例"],
    "参加": ["参与", "申领"],
    "参与": ["参加"],
    "到账": ["发放至", "拨付", "兑付", "到位"],
    "拨付": ["兑付", "拨付"],
    "发放": ["发放", "兑付", "拨付"],
    # colloquial words citizens use → the documents' wording
    "公司": ["企业", "单位"],
    "拿到": ["获取", "获得", "取得", "领取", "已获"],
    "退回来": ["返还", "退回"],
    "退回": ["返还"],
    "退钱": ["退款", "返还"],
    "限制": ["不超过", "上限", "不得", "不可", "限购", "仅限"],
    "大小": ["不超过", "大小"],
    "报名": ["自愿报名", "报名"],
    "证照": ["营业执照", "执照", "证件", "证书"],
    "营业执照": ["执照"],
    "身份证": ["身份证明", "身份证"],
    "到期": ["有效期", "过期", "失效"],
    "过期": ["失效", "有效期", "过期"],
    "作废": ["失效", "过期"],
    "插电混动": ["插电式混合动力"],
    "混动": ["混合动力"],
    "电车": ["新能源汽车", "纯电动"],
    "油车": ["燃油车"],
    "新能源车": ["新能源汽车", "新能源"],
    "保险": ["商业保险", "保险单"],
    "车险": ["商业保险", "保险单"],
    "商业险": ["商业保险"],
    "邮箱": ["电子邮箱", "邮箱"],
    "电邮": ["电子邮箱"],
    "联系方式": ["电话", "电子邮箱", "地址"],
    "付钱": ["支付", "付款", "结算"],
    "付款": ["支付", "结算"],
    "减掉": ["立减", "减免", "抵扣"],
    "直接减": ["立减"],
    "外地人": ["不限户籍", "户籍", "外地"],
    "户口": ["户籍"],
    "外地": ["上牌地区", "挂牌地区", "异地"],  # 在外地挂牌 ↔ 不限…挂牌地区 (not 不限户籍: where one uses a coupon is no 户籍)
    "挂牌": ["挂牌地区", "上牌地区", "上牌"],
    "地域": ["地区", "户籍", "定位"],
    "别人": ["本人", "他人", "第三人"],
    "他人": ["本人", "他人"],
    "转让": ["转让", "转借", "仅限本人", "买卖"],
    "同时": ["叠加", "同时"],
    "办事": ["服务", "办理", "受理"],
    "网上商城": ["电商平台", "线上", "网上"],
    "网购": ["电商平台", "线上"],
    "网上": ["电商平台", "线上", "网上"],
    "一单": ["每单", "单笔订单"],
}

# colloquial forms → the forms documents write (2500块 → 2500元, 20万 → 20万元, 1月份 → 1月)
_COLLOQUIAL = [
    (re.compile(r"(\d+(?:\.\d+)?)\s*(?:块钱|块|元钱|元人民币)"), r"\1元"),
    (re.compile(r"(\d+(?:\.\d+)?)\s*万(?![元人户件辆台次条个张名家项余多])"), r"\1万元"),
    (re.compile(r"(\d+(?:\.\d+)?)\s*[wW](?![a-zA-Z])"), r"\1万元"),
    (re.compile(r"(\d{1,2})\s*月份"), r"\1月"),
    (re.compile(r"(?<![补])补(?=(?:几|多少))"), "补贴"),
    (re.compile(r"商业险"), "商业保险"),
    (re.compile(r"外地(?:户口|户籍)"), "外地人"),
    (re.compile(r"同一个(?=[\u4e00-\u9fff])"), "同一"),
    (re.compile(r"哪(?:个|一)?段时间|什么时间段|哪个时间段"), "什么时间"),
    (re.compile(r"第([一二三四五六七八九\d])批(?!次)"), lambda m: "批次" + _COUNT_DIGITS.get(m.group(1), m.group(1))),
    (re.compile(r"(号)文(?:件)?(?:里|中|里面)"), r"\1文件中"),  # 860号文里 → 860号文件中
]


def canonical_question(text: str) -> str:
    """A question with its colloquial amounts, units and dates written the way documents write
    them, so that tier matching (15万 in 10万元至30万元) and term coverage see them."""
    out = text or ""
    for pat, rep in _COLLOQUIAL:
        out = pat.sub(rep, out)
    return out

_WS = re.compile(r"\s+")
# a lone Chinese numeral as the digits documents write: 三 → "3", 两 → "2", 十 → "10"
_COUNT_DIGITS = {ch: str(cn_to_int(ch)) for ch in "一二两三四五六七八九十"}
# a lone Chinese numeral before a measure word: 一级 → 1级, 三件 → 3件 (not 第一条 / 统一)
_CN_COUNT = re.compile(r"(?<![第统唯万之一二三四五六七八九十])([一二两三四五六七八九十])(?=[级台件辆类个次轮天日年])")
_CIT = re.compile(r"\[(\d{1,3})\]")
_NUM = re.compile(r"\d+(?:\.\d+)?")


@lru_cache(maxsize=8192)
def norm(text: str) -> str:
    """Normalise for matching: NFKC (full-width digits/％ → ASCII), drop whitespace, page
    numbers like "— 3 —", unify brackets used around 文号 years."""
    t = unicodedata.normalize("NFKC", text or "")
    t = re.sub(r"[—\-－]\s*\d{1,3}\s*[—\-－]", "", t)
    t = t.replace("【", "〔").replace("】", "〕")
    t = _CN_COUNT.sub(lambda m: _COUNT_DIGITS[m.group(1)], t)
    t = _WS.sub("", t)
    return t.lower()


def strip_citations(text: str) -> str:
    return _CIT.sub("", text or "")


def citation_numbers(text: str) -> list[int]:
    return [int(m) for m in _CIT.findall(text or "")]


def numbers_in(text: str) -> set[str]:
    """Numbers as they would be checked against a source (normalised, no trailing .0)."""
    out = set()
    for m in _NUM.findall(norm(strip_citations(text))):
        m = m.rstrip("0").rstrip(".") if "." in m else m
        out.add(m)
    return out


def char_ngrams(text: str, n: int = 2) -> set[str]:
    t = re.sub(r"[^\w%]", "", norm(text))
    if len(t) < n:
        return {t} if t else set()
    return {t[i:i + n] for i in range(len(t) - n + 1)}


def ngram_containment(claim: str, source: str, n: int = 2) -> float:
    """Share of the claim's char n-grams found in the source (0..1)."""
    a = char_ngrams(claim, n)
    if not a:
        return 0.0
    b = char_ngrams(source, n)
    return len(a & b) / len(a)


# names of programmes the documents use that jieba would cut apart (泉城购 → 泉城 / 购一单)
DOMAIN_WORDS = ("泉城购", "首保", "以旧换新", "加油储值卡", "加油卡", "消费券", "插电混动", "商业险")
_JIEBA_READY = False


def _jieba():
    global _JIEBA_READY
    import logging

    import jieba

    if not _JIEBA_READY:
        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()
        for w in DOMAIN_WORDS:
            jieba.add_word(w, freq=20000, tag="nz")
        _JIEBA_READY = True
    return jieba


@lru_cache(maxsize=4096)
def key_terms(question: str) -> tuple[str, ...]:
    """Content terms of a question, longest first (search-mode cut, stopwords dropped,
    sub-terms of a longer kept term dropped)."""
    q = strip_citations(unicodedata.normalize("NFKC", question or ""))
    q = re.sub(r"[^\w\u4e00-\u9fff%〔〕]", " ", q)
    jieba = _jieba()
    terms: list[str] = []
    for w in jieba.cut_for_search(q):
        w = w.strip()
        if not w or w in STOPWORDS:
            continue
        if len(w) == 2 and w[1] in "有是的了在和及" and not w.isdigit():
            continue  # a search-mode artefact such as 券有 / 券是
        if len(w) == 1 and not w.isdigit():
            continue
        if len(w) == 2 and (w[1] in "能会要可将也都还就才" or w[0] in "能会要可还都就也") and not _in_dictionary(w):
            continue  # 车能 / 能补 / 要交: a modal glued to a neighbour, not a term
        if w in _TIME_FRAMES:
            continue
        if w not in terms:
            terms.append(w)
    terms.sort(key=len, reverse=True)
    kept: list[str] = []
    for t in terms:
        if any(t in k for k in kept):
            continue
        kept.append(t)
    return tuple(kept)


def specific_terms(question: str) -> list[str]:
    return [t for t in key_terms(question) if t not in GENERIC_TERMS]


def term_weight(term: str) -> float:
    if term.isdigit():
        return 2.0
    if re.fullmatch(r"(几|多少)[\u4e00-\u9fff]{1,2}", term):
        return 2.5  # the answer type (几辆 / 多少天) decides which sentence answers
    w = min(len(term), 4) / 2.0
    if term in GENERIC_TERMS:
        w *= 0.5
    return w


def term_in(term: str, text_norm: str) -> bool:
    """A term is present if it or (for 4+ char terms) both halves appear."""
    t = norm(term)
    if t.isdigit():  # a number matches a whole number only: "1" is not in "1000元"
        return re.search(r"(?<![\d.])" + t + r"(?![\d.])", text_norm) is not None
    if t in text_norm:
        return True
    m = re.fullmatch(r"(?:几|多少)([\u4e00-\u9fff]{1,2})", t)
    if m:  # 几辆 / 多少天 is answered by "3辆" / "90天" (几台 by "3件": one family of units)
        return re.search(r"\d+" + unit_pattern(m.group(1)), text_norm) is not None
    if len(t) >= 4:
        half = len(t) // 2
        return t[:half] in text_norm and t[half:] in text_norm
    return False


# counting units citizens use interchangeably for one thing (几台空调 ↔ 最多补贴3件)
_UNIT_FAMILIES = ("台件个套部只", "天日", "张份", "家户", "次回")


def unit_pattern(unit: str) -> str:
    """Regex of a counting unit and the units used interchangeably with it."""
    if len(unit) == 1:
        for fam in _UNIT_FAMILIES:
            if unit in fam:
                return "[" + fam + "]"
    return re.escape(unit)


def coverage(terms: list[str] | tuple[str, ...], text: str) -> tuple[float, list[str], list[str]]:
    """Weighted share of ``terms`` present in ``text``; also the hit and missed terms."""
    tn = norm(text)
    hit, miss = [], []
    total = got = 0.0
    for t in terms:
        w = term_weight(t)
        total += w
        if term_in(t, tn):
            got += w
            hit.append(t)
        elif any(norm(syn) in tn for syn in SYNONYMS.get(t, ())):
            got += 0.8 * w
            hit.append(t)
        else:
            miss.append(t)
    return (got / total if total else 0.0), hit, miss


_SENT_END = re.compile(r"(?<=[。！？!?；;])")


_TABLE_ROW = re.compile(r"^[^：:；;]{1,60}: [^；;]*；")
_TABLE_HEAD = re.compile(r"^\s*(表头[:：]|【第[^】]{1,20}】\s*$)")


def is_table_row(line: str) -> bool:
    """A flattened table row ("项目: …；列名: 值；…") as the document parser writes it."""
    line = (line or "").strip()
    return bool(_TABLE_ROW.match(line)) and line.count(": ") >= 2


def is_table_header(line: str) -> bool:
    return bool(_TABLE_HEAD.match(line or ""))


def split_sentences(text: str) -> list[str]:
    """Sentences of a chunk body; every flattened table row stays one unit and table header
    lines are kept apart (never glued to the row after them)."""
    lines = (text or "").split("\n")
    if any(is_table_row(x) for x in lines):
        out: list[str] = []
        prose: list[str] = []
        for line in lines:
            if is_table_row(line) or is_table_header(line):
                if prose:
                    out += _split_prose("\n".join(prose))
                    prose = []
                out.append(line.strip())
            else:
                prose.append(line)
        if prose:
            out += _split_prose("\n".join(prose))
        return out
    return _split_prose(text)


def _split_prose(text: str) -> list[str]:
    """Sentences of a chunk body. Uses core.documents.normalize.split_sentences when it is
    available; otherwise joins broken lines and splits on 。！？； and list markers."""
    # re-join lines the PDF text layer broke at the page width (a long line that does not
    # end a sentence continues on the next one); short lines are headings and stay apart
    lines = (text or "").split("\n")
    joined: list[str] = []
    for line in lines:
        if joined and len(joined[-1].strip()) >= 15 and not re.search(r"[。！？；;：:!?]\s*$", joined[-1]) \
                and line.strip() and not re.match(r"^\s*(\d{1,2}[.．、]|（[一二三四五六七八九十\d]+）|[一二三四五六七八九十]+、|第[一二三四五六七八九十百]+[章条])", line):
            joined[-1] = joined[-1].rstrip() + line.strip()
        elif joined and re.search(r"[：:]\s*$", joined[-1]) and re.match(r"^\s*[A-Za-z0-9][\w.@-]*[@.]", line) \
                and len(joined[-1].strip()) >= 8:
            joined[-1] = joined[-1].rstrip() + line.strip()  # an address / e-mail cut after its label
        else:
            joined.append(line)
    text = "\n".join(joined)
    try:
        from core.documents.normalize import split_sentences as _split  # type: ignore

        out = [s.strip() for s in _split(text) if s and s.strip()]
        if out:
            return out
    except Exception:  # noqa: BLE001 - module not landed yet or failed on this text
        pass
    t = re.sub(r"[—\-－]\s*\d{1,3}\s*[—\-－]", "", text or "")
    t = re.sub(r"(?<=[\u4e00-\u9fff\d，、（）])\n(?=[\u4e00-\u9fff\d（])", "", t)
    t = re.sub(r"(?<=\d)\s+(?=[年月日号%％元万件台])|(?<=[年月〔])\s+(?=\d)", "", t)
    parts: list[str] = []
    for line in t.split("\n"):
        line = line.strip()
        if not line:
            continue
        # list items "1." "（一）" start a new sentence
        for piece in re.split(r"(?=(?<![\d.])\d{1,2}[\.．、](?!\d))|(?=（[一二三四五六七八九十\d]{1,3}）)", line):
            for s in _SENT_END.split(piece):
                s = s.strip()
                if len(re.sub(r"\W", "", s)) >= 2:
                    parts.append(s)
    return parts


def display(text: str) -> str:
    """Readable form of a source sentence: collapse whitespace that the PDF text layer put
    between digits, units and CJK characters."""
    if is_table_row(text):
        return re.sub(r"\s+", " ", text).strip()
    t = re.sub(r"[—\-－]\s*\d{1,3}\s*[—\-－]", "", text or "")
    t = re.sub(r"\s*\n\s*", "", t)
    t = re.sub(r"(?<=[\u4e00-\u9fff\d〔〕%％])[ \t\u3000]+(?=[\u4e00-\u9fff\d〔〕%％])", "", t)
    return t.strip()


_DOCNO = re.compile(r"[\u4e00-\u9fff]{1,12}〔\d{4}〕\d+号")
_YEAR = re.compile(r"(?:19|20)\d{2}年?")


@lru_cache(maxsize=4096)
def _places(t: str) -> tuple[str, ...]:
    import jieba.posseg as pseg

    _jieba()
    out = []
    for w in pseg.cut(t):
        if len(w.word) == 2 and w.word[0] in _GLUE_HEAD:
            continue  # 工作中市场 → "中市": a particle glued to 市, not a place
        if w.flag == "ns" and re.search(r"(省|市|区|县|自治区)$", w.word) and len(w.word) >= 2 \
                and w.word not in ("地区", "城区", "社区", "辖区", "市区", "全市", "全省", "全区", "各市", "本市"):
            out.append(w.word)
    return tuple(out)


@lru_cache(maxsize=4096)
def place_words(text: str) -> tuple[str, ...]:
    """Every word jieba tags as a place (济南, 淮安市, 泉城), with or without 省/市/区/县."""
    import jieba.posseg as pseg

    _jieba()
    return tuple(dict.fromkeys(w.word for w in pseg.cut(unicodedata.normalize("NFKC", text or ""))
                               if w.flag == "ns" and len(w.word) >= 2))


def places(text: str) -> list[str]:
    """Place names (省/市/区/县) as jieba tags them — not any run of characters before 市."""
    return list(_places(text or ""))


def entities(text: str) -> list[str]:
    """Entities and constraints a rewrite must keep: 文号, years, numbers, places, 《titles》."""
    t = unicodedata.normalize("NFKC", text or "").replace(" ", "")
    out: list[str] = []
    for m in _DOCNO.findall(t.replace("[", "〔").replace("]", "〕").replace("【", "〔").replace("】", "〕")):
        out.append(re.split(r"[的为是和及与在按照据即]", m)[-1])  # "…的文号为济商务字〔2025〕5号" → the 文号
    out += re.findall(r"《([^》]+)》", t)
    out += [m.rstrip("年") for m in _YEAR.findall(t)]
    out += places(t)
    out += [n for n in _NUM.findall(t) if len(n) >= 2]
    seen: list[str] = []
    for e in out:
        if e and e not in seen:
            seen.append(e)
    return seen
