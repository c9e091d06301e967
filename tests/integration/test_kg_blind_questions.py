"""Issue #15 on the sample graph: the blind questions' failures on the question side. A field
or 片区 the data does not hold is answered with what is missing (never the whole record or
table)."""

from __future__ import annotations

import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401


@pytest.mark.parametrize("q,said", [
    ("周建国的学历是什么？", "数据中没有“学历”这一字段"),
    ("李晓峰的年终奖是多少？", "数据中没有“年终奖”这一字段"),
    ("张丽娟的银行卡号是多少？", "数据中没有“银行卡号”这一字段"),
    ("周建国的家庭住址是哪里？", "数据中没有“家庭住址”这一字段"),
    ("魏大勇的社保缴纳基数是多少？", "数据中没有“社保缴纳基数”这一字段"),
    ("徐汇-科创大厦有多少个停车位？", "数据中没有“停车位”这一字段"),
    ("青浦-人民医院有多少张床位？", "数据中没有“床位”这一字段"),
    ("哪个员工的绩效考核分最高？", "数据中没有“绩效考核分”这一字段"),
    ("设备的保修期到什么时候？", "数据中没有“保修期”这一字段"),
    ("2026年1月各项目的水费合计是多少？", "数据中没有“水费”这一字段"),
    ("2026年各项目的预算成本是多少？", "数据中没有“预算成本”这一字段"),
    ("哪个项目的用电量最高？", "数据中没有“用电量”这一字段"),
    ("北京片区有哪些项目？", "未找到该片区"),
    ("苏州片区的负责人是谁？", "未找到该片区"),
    ("杭州片区有几个项目？", "未找到该片区"),
])
def test_missing_field_or_area_is_said_not_answered_with_a_record(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"], r["answer"][:200]
    assert r["refused"] is True and not r["rows"] and not r["provenance"]
    assert "KWL" not in r["answer"] and "XMSQ" not in r["answer"]
