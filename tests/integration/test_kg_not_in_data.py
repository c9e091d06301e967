"""Blind questions about things the sample data does not hold: an unknown code, a fuzzy name in
another district, a field the records lack. Each is answered "not found / no such field", never
with the records of something else."""

from __future__ import annotations

import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401


@pytest.mark.parametrize("q,said", [
    ("XMSQ0200 是什么项目？", "未找到项目“XMSQ0200”"),        # code-shaped: no near-miss of XMSQ0100
    ("KWL9999999 是谁？", "未找到人员“KWL9999999”"),
    ("徐汇-体育中心的合同金额是多少？", "未找到项目“徐汇-体育中心”"),  # not 青浦-文体中心
    ("徐汇体育中心的合同金额是多少？", "未找到项目“徐汇体育中心”"),
])
def test_unknown_code_or_name_is_not_found_not_another_record(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"], r["answer"][:200]
    assert not r["rows"] and not r["provenance"]
    assert "共 16" not in r["answer"] and "7,200,000" not in r["answer"]


def test_a_fuzzy_name_in_another_district_is_only_a_suggestion(kg):
    r = ask("徐汇-体育中心的合同金额是多少？", auto=True)
    assert "最接近的是" in r["answer"] and "青浦-文体中心" in r["answer"]


@pytest.mark.parametrize("q,nearest", [
    ("徐汇-科技大厦的合同金额是多少？", "徐汇-科创大厦"),    # same district, other words: another project
    ("青浦-体操馆的项目负责人是谁？", "青浦-体育馆"),
])
def test_a_look_alike_name_in_the_same_district_is_not_that_project(kg, q, nearest):
    r = ask(q, auto=True)
    assert r["answer"].startswith("数据中未找到项目") and f"最接近的是：{nearest}" in r["answer"], r["answer"][:200]
    assert not r["rows"] and not r["provenance"]


def test_a_colloquial_reference_inside_a_project_name_still_answers(kg):
    r = ask("那个档案馆项目的合同金额是多少？", auto=True)
    assert "徐汇-区档案馆" in r["answer"] and "未找到" not in r["answer"], r["answer"][:200]


# unknown-field forms (是什么X, 每月缴多少, 还剩几天X): with the others in test_kg_blind_questions.py


def test_known_fields_in_the_same_forms_still_answer(kg):
    r = ask("XMSQ0100 的合同金额是多少？", auto=True)
    assert "7,200,000" in r["answer"]


def test_a_value_of_a_named_field_filters(kg):
    r = ask("职级是M3的员工是谁？", auto=True)
    assert "共 2 人" in r["answer"] and "周建国" in r["answer"] and "王志强" in r["answer"], r["answer"][:300]
    assert "共 34" not in r["answer"]


def test_a_value_the_named_field_does_not_hold_finds_nothing(kg):
    r = ask("职级是M9的员工是谁？", auto=True)
    assert "未找到" in r["answer"] and not r["rows"], r["answer"][:200]


def test_a_person_filters_the_bids_they_handled(kg):
    r = ask("李晓峰经办过哪个项目的投标？", auto=True)
    assert "共 1 条记录" in r["answer"] and "徐汇-科创大厦" in r["answer"], r["answer"][:300]
    assert "投标经办人：李晓峰" in r["answer"]  # the condition in words: the column and the person
    assert all(row.get("投标经办人工号") == "KWL2106004" for row in r["rows"])


@pytest.mark.parametrize("q,said", [
    ("SB-0102-001 是什么设备？", "共 1 条记录"),
    ("SB-0102-099 是什么设备？", "未找到符合条件的记录（设备编号：SB-0102-099）"),
])
def test_an_equipment_code_filters_or_finds_nothing(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"], r["answer"][:200]
    assert "共 21" not in r["answer"]


def test_one_years_contract_amount_is_the_annualised_figure(kg):
    r = ask("徐汇-科创大厦一年的合同额是多少？", auto=True)
    assert "年化合同额为 1,950,000元" in r["answer"], r["answer"][:200]


@pytest.mark.parametrize("q,nearest", [
    ("徐汇-区图书馆的合同金额是多少？", "青浦-区图书馆"),     # the real one lies in 青浦
    ("青浦-科创大厦的项目负责人是谁？", "徐汇-科创大厦"),
    ("徐汇-人民医院的客户满意度是多少？", "青浦-人民医院"),
])
def test_a_real_project_name_under_another_district_is_not_that_project(kg, q, nearest):
    r = ask(q, auto=True)
    assert r["answer"].startswith("数据中未找到项目") and nearest in r["answer"], r["answer"][:200]
    assert not r["rows"] and not r["provenance"]


def test_a_project_name_with_its_own_district_still_answers(kg):
    r = ask("青浦区图书馆的合同金额是多少？", auto=True)
    assert "3,240,000" in r["answer"] and "未找到" not in r["answer"], r["answer"][:200]
