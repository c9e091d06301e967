"""BM25 scores equal the reference computation and rank_bm25's; tokenisation keeps 文号 and
article numbers whole; weighted RRF behaves as specified."""

from __future__ import annotations

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from core.documents.doc_numbers import normalize_doc_number
from core.retrieval.bm25 import BM25Index, reference_scores
from core.retrieval.fusion import DEFAULT_WEIGHTS, EXACT_REF_WEIGHTS, RRF_K, rrf, weights_for
from core.retrieval.tokenize import has_exact_reference, query_entities, tokenize
from core.text.numerals import cn_to_int

DOCS = [
    "济南市2025年家电以旧换新补贴实施细则 第二条 补贴标准 一级能效家电按售价的20%补贴，每件最高2000元",
    "山东省手机、平板、智能手表（手环）购新补贴实施细则 第三条 单件补贴不超过500元",
    "济南市2025年下半年汽车消费补贴活动第一轮公告 报废旧车购买新能源车补贴",
    "中华人民共和国民法典 第五十四条 自然人从事工商业经营，经依法登记，为个体工商户。个体工商户可以起字号。",
    "关于追加2025年政府汽车消费补贴资金额度的公告 济商务字〔2025〕12号",
    "家电 家电 家电 补贴 补贴",
    "政府信息公开工作年度报告 主动公开政府信息情况",
]
QUERIES = ["济南家电补贴标准", "个体工商户 字号 第五十四条", "汽车 补贴 补贴", "济商务字[2025] 12 号 追加额度",
           "完全无关的词语组合"]


@pytest.fixture(scope="module")
def corpus():
    return [tokenize(d) for d in DOCS]


@pytest.mark.parametrize("query", QUERIES)
def test_scores_equal_reference_and_rank_bm25(corpus, query):
    q = tokenize(query)
    idx = BM25Index()
    idx.set_documents(corpus)
    ours = idx.scores(q)
    np.testing.assert_allclose(ours, reference_scores(corpus, q), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(ours, BM25Okapi(corpus).get_scores(q), rtol=1e-9, atol=1e-12)


def test_row_subset_scores_only_those_rows(corpus):
    idx = BM25Index()
    idx.set_documents(corpus)
    q = tokenize("家电补贴")
    full = idx.scores(q)
    rows = np.array([5, 0, 3])
    np.testing.assert_allclose(idx.scores(q, rows), full[rows])


def test_incremental_add_and_remove_equal_a_fresh_build(corpus):
    inc = BM25Index()
    inc.set_documents(corpus[:3])
    inc.add_documents(corpus[3:])
    inc.add_documents([tokenize("临时文档 家电")])
    inc = inc.without_rows([len(corpus)])
    fresh = BM25Index()
    fresh.set_documents(corpus)
    q = tokenize("家电 汽车 补贴 个体工商户")
    np.testing.assert_allclose(inc.scores(q), fresh.scores(q), rtol=1e-12)


def test_exact_references_are_whole_tokens():
    toks = tokenize("根据济商务字〔2025〕6 号第五十四条")
    assert "务字〔2025〕6号" in toks and "〔2025〕6号" in toks and "art:54" in toks
    assert "务字〔2025〕6号" in tokenize("济商务字[2025] 6号")
    assert normalize_doc_number("济商务字【2025】 6 号") == "济商务字〔2025〕6号"
    assert cn_to_int("一百零八") == 108 and cn_to_int("十二") == 12 and cn_to_int("54") == 54
    assert has_exact_reference("民法典第五十四条") and has_exact_reference("鲁商字[2025]1号")
    assert not has_exact_reference("家电补贴标准是多少")
    ents = query_entities("《济南市2025年家电以旧换新补贴实施细则》第二条和济商务字〔2025〕5号", ["济南市商务局"])
    assert ents["titles"] == ["济南市2025年家电以旧换新补贴实施细则"]
    assert ents["doc_numbers"][0].endswith("济商务字〔2025〕5号") and ents["articles"] == [2]


def test_stopwords_and_punctuation_dropped():
    toks = tokenize("请问，家电补贴的标准是什么？")
    assert "的" not in toks and "，" not in toks and "什么" not in toks and "补贴" in toks


def test_weighted_rrf():
    fused = dict(rrf({"bm25": ["a", "b"], "dense": ["b", "c"]}, {"bm25": 0.3, "dense": 0.7}))
    assert fused["a"] == pytest.approx(0.3 / (RRF_K + 1))
    assert fused["b"] == pytest.approx(0.3 / (RRF_K + 2) + 0.7 / (RRF_K + 1))
    assert fused["c"] == pytest.approx(0.7 / (RRF_K + 2))
    order = [x for x, _ in rrf({"bm25": ["a", "b"], "dense": ["b", "c"]}, {"bm25": 0.3, "dense": 0.7})]
    assert order == ["b", "c", "a"]
    # a zero weight switches a list off
    assert [x for x, _ in rrf({"bm25": ["a"], "dense": ["c"]}, {"bm25": 0.0, "dense": 1.0})] == ["c"]


def test_exact_reference_shifts_weight_to_bm25():
    assert weights_for(False) == DEFAULT_WEIGHTS
    w = weights_for(True)
    assert w.bm25 == max(EXACT_REF_WEIGHTS.bm25, DEFAULT_WEIGHTS.bm25) and w.bm25 >= 0.7
    assert w.dense <= DEFAULT_WEIGHTS.dense
    assert w.title == DEFAULT_WEIGHTS.title


def _law_articles(path) -> list[str]:
    """The articles of one LawRefBook Markdown law (each 第…条 with its following lines)."""
    import re

    arts: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if re.match(r"^第[零〇一二三四五六七八九十百千]+条", s):
            arts.append(s)
        elif arts and s and not s.startswith(("#", "<!--")):
            arts[-1] += s
    return arts


def test_incremental_index_ranks_real_laws_as_a_fresh_build(shared_data):
    """Laws added one by one (the tail merged into the base several times on the way) and
    one law removed score and rank every LeCoQA question exactly as a from-scratch build."""
    import json

    from core.retrieval.dense import top_k

    files = sorted((shared_data / "laws" / "民法商法").glob("*.md"))
    laws = [[tokenize(a) for a in _law_articles(f)] for f in files if f.name != "_index.md"]
    laws = [law for law in laws if law]
    inc = BM25Index()
    inc.set_documents(laws[0])
    for law in laws[1:]:
        inc.add_documents(law)
    gone = range(len(laws[0]), len(laws[0]) + len(laws[1]))  # the second law leaves
    inc = inc.without_rows(list(gone))
    fresh = BM25Index()
    fresh.set_documents([a for i, law in enumerate(laws) if i != 1 for a in law])
    assert inc.n_docs == fresh.n_docs > 2000
    lines = (shared_data / "qa" / "lecoqa-train.jsonl").read_text(encoding="utf-8").splitlines()[:40]
    for q in (tokenize(json.loads(line)["question"]) for line in lines):
        a, b = inc.scores(q), fresh.scores(q)
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
        assert top_k(a, 100).tolist() == top_k(b, 100).tolist()
