"""Every condition a question states is applied or said, never dropped: a grouping column named
by its header words, 有X / 没有X on a numeric field, a year bound on a date column, a person
named through the records' person columns (名下 / 经办 / a 片区's head), an organisation named by
the tail of its value, and which projects rose or fell between two months. Each expected figure
is computed here from the sample spreadsheets with pandas, not copied from the engine."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401

BIZ = Path(__file__).resolve().parents[2] / "data" / "samples" / "business"


def _sheet(name: str) -> pd.DataFrame:
    return pd.concat([pd.read_excel(f) for f in sorted(BIZ.glob(f"{name}*.xlsx"))], ignore_index=True)


def _head(answer: str) -> str:
    return answer.split("依据")[0]


def test_a_grouping_column_named_by_its_header_words_groups_the_count(kg):
    want = _sheet("01_项目信息")["计费方式"].value_counts()
    r = ask("按计费方式分，各有多少个项目？", auto=True)
    for value, n in want.items():
        assert f"{value}：{n}个" in r["answer"], r["answer"]


def test_having_a_pay_item_means_above_zero(kg):
    att = _sheet("07_考勤与人员财务_2026-03")
    n = att[att["值班费"].fillna(0) > 0]["工号"].nunique()
    r = ask("2026年3月有值班费的员工有几个人？", auto=True)
    assert f"共 {n} 人" in _head(r["answer"]) and n < att["工号"].nunique(), r["answer"][:300]


def test_no_complaint_means_zero_complaints(kg):
    j = _sheet("01_项目信息")
    want = j[(j["服务状态"] == "已结束") & (j["客户投诉"] == 0)]["项目名称"].tolist()
    others = j[(j["服务状态"] == "已结束") & (j["客户投诉"] > 0)]["项目名称"].tolist()
    r = ask("哪些已结束的项目没有投诉？", auto=True)
    assert want and all(w in r["answer"] for w in want), r["answer"][:300]
    assert not any(o in r["answer"] for o in others if o not in want), r["answer"][:300]


@pytest.mark.parametrize("q,sheet,col,bound,op", [
    ("2015年以前出厂的设备有几台？", "11_设备信息", "出厂日期", "2015-01-01", "<"),
    ("2021年及以后启用的设备一共有几台？", "11_设备信息", "启用日期", "2021-01-01", ">="),
])
def test_a_year_bound_applies_to_the_date_column_its_verb_names(kg, q, sheet, col, bound, op):
    d = pd.to_datetime(_sheet(sheet)[col])
    n = int(((d < bound) if op == "<" else (d >= bound)).sum())
    r = ask(q, auto=True)
    assert f"共 {n} 台" in _head(r["answer"]) and "数据中未找到" not in r["answer"], r["answer"][:300]


def test_a_persons_projects_are_the_projects_they_lead(kg):
    j = _sheet("01_项目信息")
    n = int((j["项目负责人"] == "李晓峰").sum())
    r = ask("李晓峰名下有几个项目？", auto=True)
    assert f"共 {n} 个项目" in _head(r["answer"]), r["answer"][:300]


def test_an_area_head_named_through_the_area_owns_their_projects(kg):
    head = _sheet("04_片区信息").set_index("片区名称").loc["徐汇片区", "片区负责人工号"]
    j = _sheet("01_项目信息")
    n = int((j["项目负责人工号"] == head).sum())
    r = ask("徐汇片区负责人名下一共有几个项目？", auto=True)
    assert f"共 {n} 个项目" in _head(r["answer"]) and "片区信息" not in r["answer"], r["answer"][:300]


def test_records_a_person_handled_are_filtered_by_the_handler_column(kg):
    people = _sheet("02_人员信息")
    pid = people.set_index("姓名").loc["喻志华", "工号"]
    p = _sheet("12_采购与维保")
    n = int(((p["记录类型"] == "耗材采购") & (p["经办人工号"] == pid)).sum())
    r = ask("喻志华经办的耗材采购有几条记录？", auto=True)
    assert f"共 {n} 条记录" in _head(r["answer"]), r["answer"][:300]


def test_an_organisation_named_by_its_tail_filters_and_an_unknown_one_is_said(kg):
    people = _sheet("02_人员信息")
    n = int((people["组织名称"].astype(str).str.endswith("青浦管理处") & people["离职日期"].isna()).sum())
    r = ask("青浦管理处目前在职的员工有几个？", auto=True)
    assert f"共 {n} 人" in _head(r["answer"]), r["answer"][:300]
    r = ask("浦东管理处有多少在职员工？", auto=True)
    assert r["refused"] is True and "未找到“浦东管理处”" in r["answer"] and not r["rows"], r["answer"][:300]


@pytest.mark.parametrize("q,cmp", [("哪些项目2月收款比1月少？", "lt"), ("3月开票金额比2月多的项目有哪些？", "gt")])
def test_which_projects_rose_or_fell_between_two_months(kg, q, cmp):
    f = _sheet("06_项目月度财务")
    col, (base, cur) = ("收款金额", ("2026-01", "2026-02")) if "收款" in q else ("开票金额", ("2026-02", "2026-03"))
    t = f.pivot_table(index="项目编号", columns="年月", values=col, aggfunc="sum").dropna(subset=[base, cur])
    delta = t[cur] - t[base]
    want = set(delta[delta < 0].index if cmp == "lt" else delta[delta > 0].index)
    r = ask(q, auto=True)
    head = _head(r["answer"])
    listed = {code for code in t.index if code in head}
    assert want and listed == want, (sorted(want), r["answer"][:600])


def test_a_staff_column_filters_equipment_through_its_responsible_person(kg):
    """性别 is a column of the staff, not of the equipment: it applies through 设备责任人工号
    (field_joins), never dropped — the count of all equipment would answer a different question."""
    dev, staff = _sheet("11_设备信息"), _sheet("02_人员信息")
    want = int(dev["设备责任人工号"].isin(set(staff.loc[staff["性别"] == "女", "工号"])).sum())
    r = ask("女性员工负责的设备有几台？", auto=True)
    assert "性别" in r["answer"] and f"共 {len(dev)}" not in r["answer"], r["answer"][:300]
    assert (f"共 {want} 台" in r["answer"]) if want else ("未找到" in r["answer"] and not r["rows"]), r["answer"][:300]


def test_a_supplier_after_a_preposition_is_the_supplier_not_an_unknown_project(kg):
    p = _sheet("12_采购与维保")
    total = p[(p["记录类型"] == "维保合同") & (p["供应商名称"] == "上海迅达电梯有限公司")]["金额"].sum()
    r = ask("从上海迅达电梯有限公司签的维保合同一共多少钱？", auto=True)
    assert f"{total:,.0f}元" in _head(r["answer"]) and r["refused"] is False, r["answer"][:300]


def test_projects_whose_parent_is_named_are_its_children(kg):
    j = _sheet("01_项目信息")
    kids = j[j["上级项目编号"] == "XMSQ0100"]["项目名称"].tolist()
    r = ask("父项目为青浦-文体中心的项目有几个？", auto=True)
    assert f"共 {len(kids)} 个项目" in _head(r["answer"]) and all(k in r["answer"] for k in kids), r["answer"][:300]


def test_who_left_lists_the_people_with_a_leaving_date(kg):
    people = _sheet("02_人员信息")
    left = people[people["离职日期"].notna()]["姓名"].tolist()
    r = ask("有谁离职了？", auto=True)
    assert left and all(n in r["answer"] for n in left) and f"共 {len(left)} 人" in r["answer"], r["answer"][:300]


def test_a_quoted_phrase_is_a_stored_value_found_in_its_column(kg):
    """“公共区域地面有污渍” is a 问题描述 of the inspections; its words (区域, 地面) name no data kind."""
    ins = _sheet("13_检查记录")
    j = _sheet("01_项目信息").drop_duplicates("项目编号").set_index("项目编号")["项目名称"]
    codes = set(ins[ins["问题描述"] == "公共区域地面有污渍"]["项目编号"])
    r = ask("哪些项目的检查发现了“公共区域地面有污渍”？", auto=True)
    head = _head(r["answer"]) + r["answer"]
    assert codes and all(c in head and j[c] in head for c in codes), r["answer"][:400]
    assert f"共 {len(codes)} 条记录" in r["answer"], r["answer"][:300]
    r = ask("哪些项目的检查发现了“屋顶漏水”？", auto=True)
    assert r["refused"] is True and "未找到“屋顶漏水”" in r["answer"] and not r["rows"], r["answer"][:300]


def test_a_column_asked_with_what_is_answered_not_filtered_by_the_question_word(kg):
    """“委托方式是什么” asks for the column (not 委托方式 = 什么, and not 委托方 = 甲方名称)."""
    j = _sheet("01_项目信息").set_index("项目名称")
    r = ask("徐汇-滨江公园的委托方式是什么？", auto=True)
    head = _head(r["answer"])
    assert f"委托方式是{j.loc['徐汇-滨江公园', '委托方式']}" in head and "甲方名称是" not in head, r["answer"][:300]


def test_a_certificate_kind_filters_the_certificates(kg):
    c = _sheet("14_人员证书")
    n = int((c["证书类别"] == "职称").sum())
    r = ask("证书类别为职称的证书一共有几条？", auto=True)
    assert f"共 {n} 条记录" in _head(r["answer"]) and "数据中未找到" not in r["answer"], r["answer"][:300]


def test_a_field_named_with_its_value_is_a_filter_not_a_project_name(kg):
    r = ask("细分业态是办公楼的项目有哪些？", auto=True)
    head = r["answer"].split("\n1.")[0]
    assert "未找到项目" not in r["answer"] and "徐汇-环境监测中心" in head and "徐汇-科创大厦" in head, r["answer"][:300]


@pytest.mark.parametrize("q,said", [
    ("2026年4月哪些项目收款和开票正好一样多？", "共 7 条记录"),
    ("收款金额正好等于开票金额的月度记录有几条？", "共 28 条记录"),
])
def test_two_fields_said_to_be_equal_filter_the_rows(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"] and "没能理解" not in r["answer"], r["answer"][:300]


def test_worked_fewer_than_n_days_is_a_condition_on_the_days_worked(kg):
    r = ask("2026年4月上班不到21天的员工有几个？", auto=True)
    assert "共 6 人" in r["answer"] and "没能理解" not in r["answer"], r["answer"][:300]


@pytest.mark.parametrize("q,said", [
    ("服务中的青浦-北斗园区保安普保在岗几个人？", "在岗人数为 2人"),       # 岗位编制 holds the post as 岗位
    ("采购专员经办的那些维保合同加起来多少钱？", "173,000"),            # through 经办人工号
])
def test_a_post_filters_records_that_store_it_another_way(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"].split("依据")[0], r["answer"][:300]


def test_staff_on_duty_at_a_project_are_still_people(kg):
    r = ask("青浦-北斗园区在岗的员工有哪些？", auto=True)
    assert "陈慧敏" in r["answer"] and "岗位编制" not in r["answer"], r["answer"][:300]


def test_bids_won_said_as_zhong_le_count_only_the_won(kg):
    r = ask("陈慧敏经办的投标中了几次？", auto=True)
    assert "共 3 条记录" in r["answer"] and "未中标" not in r["answer"], r["answer"][:300]


def test_a_suppliers_maintenance_contracts_are_contracts_not_devices(kg):
    r = ask("迅达电梯的维保合同一共多少钱？", auto=True)
    assert "72,000" in r["answer"].split("依据")[0], r["answer"][:300]


@pytest.mark.parametrize("q,said", [
    ("夏阳社区中心现在一共还缺几个人？", "之差合计为 5人"),
    ("北斗园区保安_普保缺编几人？", "之差为 1人"),
])
def test_how_many_people_short_is_the_posts_minus_those_on_duty(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"] and "共 0 人" not in r["answer"], r["answer"][:300]


def test_summed_then_ranked_per_person_names_the_person(kg):
    r = ask("2026年1到4月税后工资加起来最多的员工是谁？", auto=True)
    assert "排名前 1" in r["answer"] and "张丽娟" in r["answer"].split("注")[0], r["answer"][:300]
