"""A person's own field asked of a role holder ("青浦片区负责人的联系电话") is answered about that
person, not refused on the 片区/项目 record; "X所在片区的负责人" is the head of X's 片区, not X's
项目负责人."""

from __future__ import annotations

import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401


@pytest.mark.parametrize("q,said", [
    ("青浦片区负责人的联系电话是多少？", "周建国（KWL1801001）的联系电话是13944421359"),
    ("徐汇-滨江公园的项目负责人的联系电话是多少？", "张丽娟（KWL2209005）的联系电话是"),
])
def test_a_role_holders_own_field_is_answered_about_the_person(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"] and "未找到" not in r["answer"], r["answer"][:300]


def test_the_head_of_the_area_a_project_lies_in(kg):
    r = ask("徐汇-滨江公园所在片区的负责人是谁？", auto=True)
    assert "李晓峰" in r["answer"].split("\n1.")[0] and "张丽娟" not in r["answer"], r["answer"][:300]


def test_the_role_itself_is_still_answered_from_the_record(kg):
    r = ask("青浦片区负责人名下有几个项目？", auto=True)
    assert "共 3 个项目" in r["answer"], r["answer"][:300]


@pytest.mark.parametrize("q,said", [
    ("工业园区那边现在是谁在负责？", "项目负责人是王志强"),
    ("青浦-体育馆是谁负责的？", "项目负责人是周建国"),
])
def test_who_is_in_charge_of_a_project_is_its_head_not_its_staff(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"].split("\n1.")[0] and "共 4 人" not in r["answer"], r["answer"][:300]
