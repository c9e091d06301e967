"""Reference and filler words in a question (那次投标, 那几个项目, 中班排得最多, 工业园区那边) point
at something already named; they are never a missing field, and "那几个项目" is not a count of
projects. Fields the records lack, asked in everyday forms (有几个X, 交了多少X, 是哪个X毕业的),
are said to be missing instead of answered with the record."""

from __future__ import annotations

import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401


@pytest.mark.parametrize("q,expected", [
    ("投标金额最高的那次投标是哪个项目的？", "青浦-人民医院"),
    ("1月谁的中班排得最多？", "孙海涛"),
])
def test_a_reference_word_is_not_read_as_a_missing_field(kg, q, expected):
    r = ask(q, auto=True)
    assert "没有“" not in r["answer"] and expected in r["answer"].split("依据")[0], r["answer"][:300]


def test_those_projects_someone_heads_are_counted_by_the_asked_noun(kg):
    r = ask("周建国负责的那几个项目一共有几台设备？", auto=True)
    assert "共 3 台设备" in r["answer"], r["answer"][:300]


@pytest.mark.parametrize("q,field", [
    ("青浦-体育馆有几个出入口？", "出入口"),
    ("青浦-人民医院投标时交了多少保证金？", "保证金"),
    ("孔美玲是哪个学校毕业的？", "学校"),
])
def test_a_field_the_records_lack_is_said_missing_not_answered_with_the_record(kg, q, field):
    r = ask(q, auto=True)
    assert f"没有“{field}”" in r["answer"], r["answer"][:300]
    assert not r["rows"]


@pytest.mark.parametrize("q,expected", [
    ("青浦-体育馆有几个员工？", "共"),
    ("青浦片区有几个项目？", "共 12 个项目"),
])
def test_known_things_in_the_same_forms_still_answer(kg, q, expected):
    r = ask(q, auto=True)
    assert expected in r["answer"] and "没有“" not in r["answer"], r["answer"][:300]


@pytest.mark.parametrize("q,expected", [
    ("陈慧敏手上还在服务的项目，一年合同额加起来多少？", "2,600,000"),
    ("王志强手上有几个项目？", "共 3 个项目"),
])
def test_projects_in_someones_hands_are_the_projects_they_head(kg, q, expected):
    r = ask(q, auto=True)
    assert expected in r["answer"].split("依据")[0], r["answer"][:300]


def test_how_many_of_them_are_x_is_a_head_count_not_a_field(kg):
    r = ask("女员工里有几个是中共党员？", auto=True)
    assert "没有“" not in r["answer"] and "共 2 人" in r["answer"], r["answer"][:300]
