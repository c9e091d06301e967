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
from core.agents.rag.ruledata import (
    colloquial_rewrites, derived_caches, pattern, synonyms, vocab_entry, weight, weights, words,
)

# Word lists, the synonym table and the colloquial rewrites are data
# (data/rules/rag_vocabulary.json, rag_patterns.json), read through core.agents.rag.ruledata.
_FATAL_POS = {"n", "nz", "nt", "nr", "ns", "l", "i", "nrt", "nw"}


@lru_cache(maxsize=4096)
def salient_nouns(question: str) -> tuple[str, ...]:
    """Dictionary nouns (and idioms) of the question that an answer must be about: when
    none of the retrieved relevant chunks mentions one, the corpus cannot answer."""
    import jieba.posseg as pseg

    _jieba()
    q = strip_citations(unicodedata.normalize("NFKC", question or ""))
    out = []
    out += [y + "年" for y in re.findall(r"((?:19|20)\d{2})\s*年", q)]
    yesno = bool(pattern("yesno").search(q))  # in a yes/no question the predicate (退税, 提现) must be covered too
    # ...the predicate asked about, nearest the question mark: other verbs set the scene
    # (成功办理异地就医**备案**后，…还能医保报销吗)
    preds = set(yesno_predicates(q)) if yesno else set()
    prev = ""
    for w in pseg.cut(q):
        word, flag = _action_object(w.word.strip()), w.flag
        if not word:
            continue
        asked = prev in words("ask_before") and flag in ("b", "vn", "an")  # 分为哪几个等级: 等级 is what is asked
        prev = word or prev
        pos_ok = flag in _FATAL_POS or asked or (yesno and flag == "b" and word not in words("weak_verbs")) or word in preds
        if word in words("time_frames") or word in words("aspect_words"):
            continue
        if flag.startswith("n") and (_jieba().get_FREQ(word) or 0) >= weight("common_noun_freq"):
            continue  # 企业 / 问题 / 工作: too common to tell what a document is about
        if word in words("numeral_nouns"):  # 二手 is tagged a numeral but names what is asked about
            if word not in out:
                out.append(word)
            continue
        if len(word) < 2 or word in words("stopwords") or word in words("generic_terms") or word in words("frame_words") \
                or not pos_ok:
            continue
        if len(word) == 2 and word[0] in _glue_heads() and not _in_dictionary(word):
            continue  # an HMM guess gluing a particle to the next word (活动中买 → 中买)
        if re.match(r"^(多|几|哪|什么|啥|怎)", word) or "谁" in word:
            continue  # the question type (多长时间 / 几年 / 由谁来), not its subject
        if re.fullmatch(r"[\d一二两三四五六七八九十]+[\u4e00-\u9fff]?", word):
            continue
        if len(word) == 2 and _glued("particle_after_noun", word[1]) and not _in_dictionary(word):
            continue  # 账是 in 辅助账是必须…: a particle glued to the noun before it
        if len(word) == 2 and _glued("number_tail_before_verb", word[0]) and not _in_dictionary(word):
            continue  # a document number's or article's tail glued to the verb after it (711号指的是)
        if len(word) == 2 and _glued("modal_after", word[1]):
            continue  # a jieba artefact gluing a modal to a noun (券会 in 消费券会返还)
        if len(word) == 2 and _glued("modal_before", word[0]) and not _in_dictionary(word):
            continue  # a modal glued to the verb after it (能领 / 要交)
        if word not in out:
            out.append(word)
    return tuple(out)


def _action_object(word: str) -> str:
    """A rare dictionary entry gluing an action to its object or classifier (买手机, 买辆; data:
    vocabulary "action_heads"): the object (手机), or "" when only a classifier is left."""
    e = vocab_entry("action_heads")
    if len(word) < 2 or word[0] not in e["chars"] or (_jieba().get_FREQ(word) or 0) > e["max_freq"]:
        return word
    rest = word[1:]
    return rest if len(rest) >= 2 and _in_dictionary(rest) else ""


@lru_cache(maxsize=1024)
def yesno_predicates(question: str) -> tuple[str, ...]:
    """The action a yes/no question asks about, in its last clause (能不能和…**叠加**享受 → 叠加);
    () for other questions or when the action is a generic one (享受 / 参加 / 申请)."""
    import jieba.posseg as pseg

    _jieba()
    q = strip_citations(unicodedata.normalize("NFKC", question or "")).strip().rstrip("？?。!！ ")
    if not pattern("yesno").search(q + "？"):
        return ()
    clause = re.split(r"[，,；;。?？]", q)[-1]
    joint = pattern("joint_ask").search(clause)
    if joint:  # A和B同时领吗: the answer must speak of taking both (同时 / 叠加), not of A alone
        return (joint.group(1),)
    out = []
    cut = list(pseg.cut(clause))
    for i, w in enumerate(cut):
        word = w.word.strip()
        if i + 1 < len(cut) and cut[i + 1].word == "的":
            continue  # 上传的材料: the verb qualifies a noun, it is not what is asked
        if w.flag not in ("v", "vn") or len(word) < 2 or word in words("weak_verbs") or word in words("stopwords") \
                or word in words("generic_terms") or pattern("yesno").search(word) or re.search(r"[能可会要吗么]", word) \
                or word.startswith(("不", "没")) \
                or (_jieba().get_FREQ(word) or 0) >= weight("common_verb_freq") or not real_word(word):
            continue  # (超买 in 在商超买家电: a guess of the word cutter, no action; 不让 of 让不让: the ask)
        out.append(word)
    return tuple(out[-1:])  # the action nearest the question mark


def _in_dictionary(word: str) -> bool:
    try:
        return bool(_jieba().get_FREQ(word))
    except Exception:  # noqa: BLE001 - no dictionary loaded: keep the word
        return True


def real_word(term: str) -> bool:
    """A word a reader would recognise: in jieba's dictionary (domain words included), longer
    than two characters or holding a digit — not a two-character guess of jieba's HMM across a
    word boundary (价算 in 不含税价算, 天前 in 哪天前, 超买 in 商超买家电). A document title's
    word (购新) is real too (the caller checks)."""
    return len(term) != 2 or bool(re.search(r"\d", term)) or _in_dictionary(term)


def _glued(kind: str, char: str) -> bool:
    """Is ``char`` one a search-mode cut glues to a neighbour (data: vocabulary "glue_chars")?"""
    return char in vocab_entry("glue_chars")[kind]


def _glue_heads() -> str:
    """Chars that end the previous word in a search-mode cut ("活动中买" → 中买, "工作中市" → 中市)."""
    return vocab_entry("glue_heads")["chars"]


def _cn_digit1(template: str):
    """A replacement writing group 1's Chinese numeral as a digit (第二批 → 批次2)."""
    return lambda m: template.replace("{cn_digit1}", _CN_DIGIT.get(m.group(1), m.group(1)))


def canonical_question(text: str) -> str:
    """A question with its colloquial amounts, units and dates written the way documents write
    them, so that tier matching (15万 in 10万元至30万元) and term coverage see them."""
    out = text or ""
    for pat, rep in colloquial_rewrites():
        out = pat.sub(_cn_digit1(rep) if "{cn_digit1}" in rep else rep, out)
    return out

_WS = re.compile(r"\s+")
_CN_DIGIT = {ch: str(cn_to_int(ch)) for ch in "一二两三四五六七八九十"}  # a lone numeral → its digits
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
    t = _CN_COUNT.sub(lambda m: _CN_DIGIT[m.group(1)], t)
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


_JIEBA_READY = False


def _jieba():
    global _JIEBA_READY
    import logging

    import jieba

    if not _JIEBA_READY:
        jieba.setLogLevel(logging.WARNING)
        jieba.initialize()
        # programme names jieba would cut apart (泉城购 → 泉城 / 购); subject nouns it cuts or
        # tags a verb (充电桩 → 充电 / 桩): an asked subject must then be found in the evidence;
        # colloquial verbs it cuts (垫上 → 垫 / 上) kept whole so their synonyms (垫付) rank the passage
        for key in ("domain_words", "subject_nouns", "colloquial_verbs"):
            entry = vocab_entry(key)
            for w in entry["words"]:
                jieba.add_word(w, freq=entry["freq"], tag=entry["tag"])
        _JIEBA_READY = True
    return jieba


def lcut(text: str) -> list[str]:
    """jieba's precise-mode cut of ``text`` (domain words kept whole)."""
    return _jieba().lcut(text)


@lru_cache(maxsize=4096)
def key_terms(question: str) -> tuple[str, ...]:
    """Content terms of a question, longest first (search-mode cut, stopwords dropped,
    sub-terms of a longer kept term dropped)."""
    q = strip_citations(unicodedata.normalize("NFKC", question or ""))
    q = pattern("asked_month").sub(" ", q)  # 1月份开始的: picks the document (periods.py), not a term
    q = pattern("date_ask").sub(" ", q)  # 哪天到哪天 asks the date slot: no 天到 / 天前 terms
    q = re.sub(r"[^\w\u4e00-\u9fff%〔〕]", " ", q)
    jieba = _jieba()
    terms: list[str] = []
    for w in jieba.cut_for_search(q):
        w = w.strip()
        if not w or w in words("stopwords"):
            continue
        if len(w) == 2 and _glued("particle_after_term", w[1]) and not w.isdigit():
            continue  # a search-mode artefact such as 券有 / 券是
        if len(w) == 1 and not w.isdigit():
            continue
        if len(w) == 2 and (_glued("modal_after", w[1]) or _glued("modal_before", w[0])) and not _in_dictionary(w):
            continue  # 车能 / 能补 / 要交: a modal glued to a neighbour, not a term
        if w in words("time_frames"):
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
    return [t for t in key_terms(question) if t not in words("generic_terms")]


def term_weight(term: str) -> float:
    w = weights()
    if term.isdigit():
        return w["number_term"]
    if re.fullmatch(r"(几|多少)[\u4e00-\u9fff]{1,2}", term):
        return w["count_question_term"]  # the answer type (几辆 / 多少天) decides which sentence answers
    tw = min(len(term), w["term_length_cap"]) / w["term_length_divisor"]
    if term in words("generic_terms"):
        tw *= w["generic_term_factor"]
    return tw


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




def unit_pattern(unit: str) -> str:
    """Regex of a counting unit and the units used interchangeably with it."""
    if len(unit) == 1:
        for fam in vocab_entry("unit_families")["families"]:  # 几台空调 ↔ 最多补贴3件
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
        elif any(norm(syn) in tn for syn in synonyms().get(t, ())):
            got += weights()["synonym_hit_share"] * w
            hit.append(t)
        else:
            miss.append(t)
    return (got / total if total else 0.0), hit, miss


def expand_terms(missing: list[str]) -> list[str]:
    """The documents' wordings of missed terms (data/rules/rag_vocabulary.json "synonyms"), for a
    term itself and for any synonym key inside it."""
    table = synonyms()
    out: list[str] = []
    for t in missing:
        for syn in table.get(t, []):
            if syn not in out:
                out.append(syn)
        for k, syns in table.items():
            if k != t and k in t:
                for syn in syns:
                    if syn not in out:
                        out.append(syn)
    return out


ARTICLE = re.compile(r"第([一二三四五六七八九十百零\d]{1,5})(条|章|款|项|节)")


def article_refs(text: str) -> list[str]:
    """Articles a text names (第二条, 第三章)."""
    return ["第" + m.group(1) + m.group(2) for m in ARTICLE.finditer(text or "")]


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
        if len(w.word) == 2 and w.word[0] in _glue_heads():
            continue  # 工作中市场 → "中市": a particle glued to 市, not a place
        if w.flag == "ns" and re.search(r"(省|市|区|县|自治区)$", w.word) and len(w.word) >= 2 \
                and w.word not in words("place_not_names"):
            out.append(w.word)
    return tuple(out)


@lru_cache(maxsize=8192)
def tagged(text: str) -> tuple[tuple[str, str], ...]:
    """(word, part of speech) as jieba's tagger cuts the text — cached: the same chunk sentences
    are tagged again for every term checked against them."""
    import jieba.posseg as pseg

    _jieba()
    return tuple((w.word, w.flag) for w in pseg.cut(text or ""))


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


derived_caches(salient_nouns, yesno_predicates, key_terms, _places)
