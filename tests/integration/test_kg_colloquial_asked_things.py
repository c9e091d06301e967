"""Everyday wordings of the thing asked: who made a device (哪家做的, 哪家生产的) is its 制造厂商,
where a project is (项目在哪儿) is its 项目地址, the projects on someone's hands (手上/手里/名下的项目)
are the projects they lead, and who did an action the data does not record (谁审批的) is refused
saying it was not found, never answered with the person's records."""

from __future__ import annotations

import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401


@pytest.mark.parametrize("q,said", [
    ("工业园区的电梯是哪家做的？", "制造厂商是奥的斯"),
    ("青浦-工业园区的电梯是哪家生产的？", "制造厂商是奥的斯"),
    ("滨江公园的项目在哪儿？", "项目地址是上海市徐汇区滨江公园路99号"),
])
def test_the_colloquially_asked_column_is_stated(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"].split("\n1.")[0], r["answer"][:300]


@pytest.mark.parametrize("q", ["张丽娟手上的项目一年合同额一共多少？", "张丽娟名下的项目一年合同额一共多少？"])
def test_the_projects_on_someones_hands_are_the_projects_they_lead(kg, q):
    r = ask(q, auto=True)
    head = r["answer"].split("依据")[0]
    assert "2,510,000" in head and "21,120,000" not in head, r["answer"][:300]


@pytest.mark.parametrize("q", ["刘德明的加班是谁审批的？", "青浦-区图书馆的合同是谁签订的？"])
def test_who_did_an_unrecorded_action_is_refused_not_answered_with_records(kg, q):
    r = ask(q, auto=True)
    assert "未找到" in r["answer"].split("\n")[0] and "加班小时是" not in r["answer"], r["answer"][:300]


def test_who_leads_a_project_is_still_answered(kg):
    r = ask("青浦-体育馆是谁负责的？", auto=True)
    assert "项目负责人是周建国" in r["answer"], r["answer"][:300]


@pytest.mark.parametrize("q,said", [
    ("3月开的票一共多少钱？", "开票金额合计为 1,475,861.76元"),
    ("工业园区这四个月收回来多少钱？", "收款金额合计为 671,726.82元"),
    ("2月收的钱跟开的票一样多的项目有几个？", "共 7 个项目"),
])
def test_invoices_and_money_received_in_everyday_words_are_the_finance_figures(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"].split("依据")[0], r["answer"][:300]


def test_not_even_once_is_the_projects_without_it(kg):
    r = ask("客户投诉一次都没有的项目有哪些？", auto=True)
    assert "共 4 条记录" in r["answer"] and "客户投诉 3次" not in r["answer"], r["answer"][:300]


@pytest.mark.parametrize("q,said", [("有特种作业证书的有几个人？", "共 4 人"), ("有职称证书的有几个人？", "共 4 人")])
def test_a_certificate_category_named_with_a_certificate_filters_by_it(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"].split("依据")[0] and "共 14 人" not in r["answer"], r["answer"][:300]


# 12_采购与维保.xlsx with pandas: 耗材采购 dated 2026-03 sum 5,260 (2 rows), in 2026 13,720 (6 rows);
# 维保合同 dated 2026 137,000 (3 rows)
@pytest.mark.parametrize("q,total", [
    ("3月耗材采购花了多少钱？", "金额合计为 5,260元（基于 2 条记录）"),
    ("3月采购了多少钱的耗材？", "金额合计为 5,260元（基于 2 条记录）"),
    ("2026年买耗材花了多少钱", "金额合计为 13,720元（基于 6 条记录）"),
    ("今年维保花了多少钱", "金额合计为 137,000元（基于 3 条记录）"),
])
def test_how_much_was_spent_is_the_total_not_the_list(kg, q, total):
    r = ask(q, auto=True)
    assert total in r["answer"], r["answer"][:300]
