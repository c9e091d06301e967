"""The column a question asks for in everyday words (哪家厂 → 制造厂商, 到手 → 税后工资, 负责人工号)
is said in the answer's statement, for the record asked; a field's value asked with 是多少 is not
a count of records, and "那几台" refers to records, it does not ask how many."""

from __future__ import annotations

import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401
from core.agents.kg.answer_rows import _asked_attributes


@pytest.mark.parametrize("q,said", [
    ("工业园区那几台电梯是哪家厂的？", "制造厂商是奥的斯"),
    ("徐汇-滨江公园的项目负责人工号是多少？", "项目负责人工号是KWL2209005"),
    ("孙海涛2026年4月到手多少钱？", "税后工资是5,670元"),
])
def test_the_asked_column_is_stated(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"].split("\n1.")[0], r["answer"][:300]


def test_a_device_row_is_named_by_the_device():
    rows = [{"项目名称": "青浦-工业园区", "项目编号": "XMSQ0105", "设备编号": "SB-0105-001", "设备名称": "1号客梯",
             "制造厂商": "奥的斯"}]
    assert "1号客梯（SB-0105-001）的制造厂商是奥的斯" in _asked_attributes("那台电梯是哪家厂的", rows)


def test_how_many_devices_is_still_a_count(kg):
    r = ask("青浦-工业园区有多少台设备？", auto=True)
    assert "台设备" in r["answer"].split("依据")[0] and "共" in r["answer"], r["answer"][:200]


def test_rested_how_many_days_is_the_rest_days(kg):
    r = ask("施桂兰2026年3月休了几天？", auto=True)
    assert "休息天数是9天" in r["answer"], r["answer"][:300]


def test_a_number_of_months_is_not_answered_with_a_count_of_projects(kg):
    r = ask("夏阳社区中心开过几个月的票？", auto=True)
    assert "未找到" in r["answer"] and "共 1 个项目" not in r["answer"].split("：", 1)[0], r["answer"][:300]


def test_who_a_maintenance_contract_was_signed_with_is_the_contract_not_the_device(kg):
    r = ask("医院那个中央空调维保是跟哪家签的？", auto=True)
    assert "上海冷暖通设备工程有限公司" in r["answer"] and "设备编号" not in r["answer"], r["answer"][:300]
