"""Issue #15: a field or value the question names that the answer never used means the answer is to a
different, smaller question (中班和夜班加起来 answered with 夜班 alone, 夜班比早班多 with 夜班 only): it is
refused naming the word. Words the answer shows in another form (a 岗位 by its 岗位名称, a code field by its
label, 中标 / 未中标 written as values) count as used. Rows of the sample spreadsheets."""

from __future__ import annotations

import pytest

from core.agents.kg import unused_terms
from tests.integration.test_ask_kg_sample import _store_holder, ask, kg, sample_graph_path  # noqa: F401


@pytest.mark.parametrize("q,word", [
    ("体育馆那个保安4月排的中班和夜班加起来几个？", "中班"),   # 排班月报 holds 中班天数; only 夜班 was summed
    ("1月份夜班比早班多的有几个人？", "早班"),
    ("姜雨婷4月有几次是上完晚班、第二天接着上早班的？", "早班"),
    ("按入职年份统计，每年各入职了多少人？", "年份"),
])
def test_an_answer_that_left_a_named_field_out_is_refused_naming_it(kg, q, word):
    r = ask(q, auto=True)
    assert r["answer"].startswith("没能用上问题中的") and f"“{word}”" in r["answer"], r["answer"][:300]
    assert "无法回答" in r["answer"] and r["rows"] == []


@pytest.mark.parametrize("q,said", [
    ("中标和未中标的投标各有几次", "未中标"),                       # values in words, not the 标的 of 投标金额
    ("职级是P2的员工都是什么岗位？", "工程维修"),                    # 岗位 shown by its 岗位名称
    ("XMSQ0152的续签前项目编号是什么？", "续签前项目 青浦-北斗园区（XMSQ0052）"),  # a code field shown by its label
    ("体育馆那个保安4月排了几个夜班？", "夜班天数为 7天"),
])
def test_words_the_answer_shows_in_another_form_count_as_used(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"] and "没能用上" not in r["answer"], r["answer"][:300]


def test_words_are_read_longest_first_from_the_left():
    words = {"中标": (), "标的": (), "未中标": (), "夜班": (), "夜班天数": ()}
    assert unused_terms._segment("未中标的投标", words) == ["未中标"]
    assert unused_terms._segment("中标的夜班天数", words) == ["中标", "夜班天数"]
