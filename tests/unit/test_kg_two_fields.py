"""Question understanding for figures computed from two fields (data/rules/kg_patterns.json
``two_fields`` / ``group_rank``, kg_vocabulary.json ``two_field_words``): a difference becomes a
summed expression, a field compared with another a condition, "累计…最高的项目" a ranking of
per-project totals."""

from datetime import date

import pytest

from core.agents.kg import kgrules, twofield
from core.agents.kg.entity_index import EntityIndex
from core.agents.kg.understanding import extract_slots

TODAY = date(2026, 5, 1)


@pytest.fixture(scope="module")
def idx():
    return EntityIndex.from_rows([], [], [], {}, ("2026-01", "2026-04"), {})


@pytest.mark.parametrize("row", kgrules.rules_file("kg_patterns")["two_fields"]["rows"], ids=lambda r: r["example"])
def test_every_two_field_row_reads_its_own_example(row):
    hit = twofield.two_field_slot(row["example"])
    assert hit is not None and hit["kind"] == row["kind"], hit
    if row["kind"] == "compare":
        assert f" {row['op']} " in hit["expr"]


@pytest.mark.parametrize("q,expr,intent", [
    ("赵巷镇政府XMSQ0131项目2026年4月开票和收款差了多少？", "开票金额 - 收款金额", "收费"),
    ("XMSQ0118 2026年4月收款比开票少了多少钱？", "开票金额 - 收款金额", "收费"),      # A比B少 = B − A
    ("北斗园区XMSQ0152的保安_普保缺编几人（项目编制减在岗人数）？", "项目编制 - 在岗人数", "编制"),
    ("XMSQ0125 的项目编制比在岗人数多几个人？", "项目编制 - 在岗人数", "编制"),        # A比B多 = A − B
])
def test_a_difference_is_the_sum_of_an_expression(idx, q, expr, intent):
    s = extract_slots(q, idx, TODAY)
    assert s["intent"] == intent and s["agg"] == {"op": "sum", "field": expr, "explicit": True}, s["agg"]
    assert s["granularity"] == "汇总"


@pytest.mark.parametrize("q,expr", [
    ("2026年3月收款金额少于开票金额的项目有哪些？", "收款金额 < 开票金额"),
    ("2026年4月哪些项目开票的钱全部收回来了（收款等于开票）？", "收款金额 == 开票金额"),
    ("2026年3月开票比收款多的项目有哪些？", "开票金额 > 收款金额"),   # no 多少: a condition, not a figure
])
def test_a_field_compared_with_another_is_a_condition(idx, q, expr):
    s = extract_slots(q, idx, TODAY)
    assert s["intent"] == "收费" and s["agg"] is None
    assert [c["expr"] for c in s["conditions"]] == [expr]


@pytest.mark.parametrize("q,field,order", [
    ("2026年1到4月累计开票金额最高的项目是哪个？", "开票金额", None),
    ("2026年1到4月累计收款最多的项目是哪个？", "收款金额", None),
    ("2026年1到4月累计收款最少的项目是哪个？", "收款金额", "asc"),
])
def test_the_top_project_after_summing(idx, q, field, order):
    agg = extract_slots(q, idx, TODAY)["agg"]
    assert (agg["op"], agg["field"], agg["group_by"], agg["top"], agg.get("order")) == \
        ("sum", field, "项目编号", 1, order)


@pytest.mark.parametrize("q,op", [("按项目负责人统计服务中项目的合同金额合计", "sum"),
                                  ("每个项目负责人手上各有几个服务中的项目？", "count")])
def test_grouped_by_project_manager_not_by_project(idx, q, op):
    agg = extract_slots(q, idx, TODAY)["agg"]
    assert agg["op"] == op and agg["group_by"] == "项目负责人"


@pytest.mark.parametrize("q", ["2026年4月开票金额是多少", "3月比2月多几个人出勤", "各项目开票金额合计"])
def test_questions_about_one_field_get_no_two_field_slot(q):
    assert twofield.two_field_slot(q) is None
