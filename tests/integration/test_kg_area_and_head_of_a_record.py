"""Which 片区 a person or a project belongs to is said from the areas' project lists, never
answered with the record alone; the head of an area or project asked "是哪天入职的" is the head's
own 入职日期, not the area's row."""

from __future__ import annotations

import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401
from core.agents.kg import area_of


@pytest.mark.parametrize("q,said", [
    ("王志强是哪个片区的？", "属于青浦片区"),
    ("青浦-工业园区属于哪个片区？", "青浦-工业园区（XMSQ0105）属于青浦片区"),
    ("徐汇-滨江公园在哪个片区？", "属于徐汇片区"),
])
def test_the_area_of_a_person_or_project_is_said(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"].split("\n1.")[0], r["answer"][:300]


def test_an_area_not_found_in_the_lists_is_refused_not_answered_with_the_record():
    steps = [{"tool": "staff", "rows": [{"姓名": "某人", "工号": "X1", "项目编号": "NOPE"}]}]
    assert area_of.statement("某人是哪个片区的？", {}, steps, [{"片区名称": "青浦片区", "项目编号列表": ["XMSQ0105"]}]) == ""
    from core.agents.kg.asked_slot import missing_slot
    assert missing_slot("某人是哪个片区的？", "查询范围：某人。\n共 1 人：\n1. 某人｜保洁员") is not None


@pytest.mark.parametrize("q,said", [
    ("徐汇片区负责人是哪天入职的？", "李晓峰（KWL2106004）的入职日期是2021-06-21"),
    ("李晓峰是什么时候入职的？", "入职日期是2021-06-21"),
])
def test_when_the_head_of_an_area_joined_is_the_heads_own_date(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"].split("\n1.")[0], r["answer"][:300]


@pytest.mark.parametrize("q,scope,n", [
    ("李晓峰那片的项目都有哪些？", "徐汇片区（PQ02）", "共 5 条记录"),
    ("周建国那片有几个项目？", "青浦片区（PQ01）", "共 12 个项目"),
])
def test_a_persons_area_in_everyday_words_is_the_area_they_head(kg, q, scope, n):
    r = ask(q, auto=True)
    head = r["answer"].split("\n1.")[0]
    assert scope in head and n in head, r["answer"][:300]


@pytest.mark.parametrize("q,field", [("青浦-人民医院的合同编号是多少？", "合同编号"),
                                     ("各项目的垃圾分类达标率排名怎么样？", "垃圾分类达标率")])
def test_a_field_the_data_lacks_is_refused_even_when_its_parts_are_known_words(kg, q, field):
    r = ask(q, auto=True)
    assert f"没有“{field}”这一字段" in r["answer"] and "共 1 条记录" not in r["answer"], r["answer"][:300]


@pytest.mark.parametrize("q,code", [("SB-0105-001的设备编号是多少？", "SB-0105-001"),
                                    ("赵巷镇政府以前的合同编号是什么", "XMSQ0031")])
def test_a_stored_code_field_is_still_answered(kg, q, code):
    r = ask(q, auto=True)
    assert "没有“" not in r["answer"] and code in r["answer"], r["answer"][:300]


def test_which_area_a_person_heads_is_still_answered_from_the_area_rows(kg):
    r = ask("周建国是哪个片区的负责人？", auto=True)
    assert "片区名称 青浦片区" in r["answer"] and "未找到" not in r["answer"], r["answer"][:300]


@pytest.mark.parametrize("q", ["青浦-工业园二期的合同金额是多少？", "工业园区东区有几台设备？"])
def test_a_project_name_with_a_phase_or_part_it_lacks_is_not_that_project(kg, q):
    r = ask(q, auto=True)
    assert "数据中未找到项目" in r["answer"] and "6,450,000" not in r["answer"], r["answer"][:300]
