"""Chinese numerals and width folding (core.text): the one place every engine reads 第十二条,
二〇二五年, 两千元, 3万元 and full-width digits, checked on the inputs the documents and questions
really hold."""

from __future__ import annotations

import re
from datetime import date

import pytest

from core.text.numerals import (CN_NUMERAL_CHARS, apply_magnitude, cn_digits_to_int, cn_to_int,
                                int_to_cn)
from core.text.width import fold_width


@pytest.mark.parametrize("text, value", [
    ("十", 10), ("十二", 12), ("二十", 20), ("五十四", 54), ("一百零五", 105), ("一百零八", 108),
    ("一百一十", 110), ("一百十", 110), ("一千零一十", 1010), ("两千", 2000), ("一万零五百", 10500),
    ("二十万", 200000), ("一亿三千万", 130_000_000), ("零", 0), ("两", 2),
])
def test_numerals_with_units_read_as_their_value(text, value):
    assert cn_to_int(text) == value


@pytest.mark.parametrize("text, value", [("54", 54), ("１２", 12), ("3万", 30000), ("3万5千", 35000), (" 7 ", 7)])
def test_arabic_digits_may_stand_for_the_digits(text, value):
    assert cn_to_int(text) == value


@pytest.mark.parametrize("text", ["", "万", "三四", "二〇二五", "1.5万", "第十二条", "十二月", "abc"])
def test_what_is_not_a_numeral_with_units_gives_the_default(text):
    assert cn_to_int(text) is None
    assert cn_to_int(text, 3) == 3


def test_article_heading_number_comes_out_of_the_heading():
    heading = "第十二条　补贴标准"
    m = re.match(f"第([{CN_NUMERAL_CHARS}\\d]+)条", heading)
    assert cn_to_int(m.group(1)) == 12
    from core.retrieval.tokenize import special_tokens
    assert "art:12" in special_tokens("《实施细则》第十二条规定")
    assert "art:105" in special_tokens("民法典第一百零五条")
    assert "art:2000" in special_tokens("第两千条")


@pytest.mark.parametrize("text, year", [("二〇二五", 2025), ("二零二六", 2026), ("二○二四", 2024),
                                        ("二O二四", 2024), ("二0二五", 2025), ("2025", 2025)])
def test_years_written_digit_by_digit(text, year):
    assert cn_digits_to_int(text) == year


@pytest.mark.parametrize("text", ["", "二〇二五年", "两〇二五"])
def test_a_year_with_other_characters_is_not_read(text):
    assert cn_digits_to_int(text) is None


def test_chinese_dates_in_document_footers_parse():
    from core.documents.metadata import parse_date
    assert parse_date("济南市商务局\n二〇二五年一月二十日") == "2025-01-20"
    assert parse_date("二○二四年十二月三十一日") == "2024-12-31"
    assert parse_date("二〇二五年二月三十日") == ""  # no such day


@pytest.mark.parametrize("n, text", [
    (1, "一"), (10, "十"), (12, "十二"), (20, "二十"), (54, "五十四"), (99, "九十九"), (105, "一百零五"),
    (110, "一百一十"), (1010, "一千零一十"), (2025, "二千零二十五"), (10500, "一万零五百"), (100000, "十万"),
    (100_000_005, "一亿零五"), (100_010_000, "一亿零一万"), (0, "零"), (-3, "负三"),
])
def test_numbers_are_written_as_headings_write_them(n, text):
    assert int_to_cn(n) == text


def test_writing_and_reading_back_agree():
    for n in list(range(0, 12001)) + [10**k + d for k in range(4, 13) for d in (0, 1, 10, 999, 1000)]:
        assert cn_to_int(int_to_cn(n)) == n, n


def test_docx_chinese_list_numbers_use_the_same_writer():
    from core.documents.parse_docx import _format_num
    assert [_format_num(n, "chineseCounting") for n in (1, 3, 10, 12, 21)] == ["一", "三", "十", "十二", "二十一"]
    assert _format_num(105, "chineseCountingThousand") == "一百零五"
    assert _format_num(0, "chineseCounting") == "0"


@pytest.mark.parametrize("value, unit, amount", [
    ("3", "万元", 30000.0), ("3", "万", 30000.0), ("1.5", "万", 15000.0), ("2", "亿元", 200_000_000.0),
    ("800", "元", 800.0), ("20", None, 20.0),
])
def test_amounts_scale_by_their_magnitude_word(value, unit, amount):
    assert apply_magnitude(value, unit) == amount


def test_amounts_stated_in_questions_are_in_yuan():
    from core.agents.rag.logic import question_amounts, tier_spans
    assert question_amounts("买一辆3万元的车能补多少") == [30000.0]
    assert tier_spans("发票金额为10万元（含）至30万元（不含）的") == [(100000.0, 299999.99)]


def test_lone_counts_read_as_digits_for_matching():
    from core.agents.rag.textutil import canonical_question, norm
    assert norm("两件家电") == "2件家电" and norm("一级能效") == "1级能效"
    assert norm("第一条") == "第一条"  # an ordinal stays as written
    assert canonical_question("第二批消费券") == "批次2消费券"


def test_business_questions_read_chinese_months_and_counts():
    from core.agents.kg.planner import apply_plan_edit
    from core.agents.kg.timeparse import parse_time
    tr = parse_time("十二月的出勤", today=date(2026, 3, 15))
    assert (tr.start, tr.end) == ("2025-12", "2025-12")
    tr = parse_time("近两个月加班", today=date(2026, 3, 15))
    assert (tr.start, tr.end) == ("2026-02", "2026-03")
    plan = [{"id": 1, "tool": "a"}, {"id": 2, "tool": "b"}, {"id": 3, "tool": "c"}]
    assert [s["id"] for s in apply_plan_edit(plan, "去掉第二步")[0]] == [1, 3]


def test_full_width_digits_and_letters_fold_but_chinese_punctuation_stays():
    assert fold_width("２０２５年１５％，（一）ＡＢｃ") == "2025年15%，（一）ABc"
    assert fold_width("济商务字〔２０２５〕６号") == "济商务字〔2025〕6号"
    assert fold_width("补贴\u3000标准\u200b") == "补贴 标准"
    assert fold_width("") == ""


def test_doc_numbers_have_one_spelling_and_none_gives_empty():
    from core.documents.doc_numbers import normalize_doc_number
    assert normalize_doc_number("济商务字［２０２５］ ６ 号") == "济商务字〔2025〕6号"
    assert normalize_doc_number("发改办财金规〔2019〕第860号") == "发改办财金规〔2019〕860号"
    assert normalize_doc_number("国务院令第 707 号") == "国务院令第707号"
    assert normalize_doc_number("关于家电以旧换新的通知") == ""
