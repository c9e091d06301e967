"""Rules-mode understanding of realistic phrasing variety (no graph needed): colloquial time,
value words that name their own data, rankings, comparisons, follow-ups that change a field or
a threshold, pronouns, unknown names, and the built-in aggregate's top-N."""

from datetime import date

import pytest

from core.agents.kg.entity_index import EntityIndex
from core.agents.kg.grounding import ground_slots
from core.agents.kg.planner import build_plan
from core.agents.kg.timeparse import parse_time
from core.agents.kg.tools import aggregate
from core.agents.kg.understanding import extract_slots
from core.agents.kg.unknown_names import unknown_person

TODAY = date(2026, 11, 30)
PROJECTS = [
    {"项目编号": "XMSQ0102", "项目名称": "青浦-区图书馆", "项目简称": "区图书馆", "服务状态": "服务中", "市区": "青浦区"},
    {"项目编号": "XMSQ0103", "项目名称": "青浦-体育馆", "项目简称": "体育馆", "服务状态": "服务中", "市区": "青浦区"},
    {"项目编号": "XMSQ0105", "项目名称": "青浦-工业园区", "项目简称": "工业园区", "服务状态": "服务中", "市区": "青浦区"},
    {"项目编号": "XMSQ0112", "项目名称": "徐汇-科创大厦", "项目简称": "科创大厦", "服务状态": "服务中", "市区": "徐汇区"},
]
PEOPLE = [{"工号": "KWL2012006", "姓名": "刘德明", "岗位名称": "保安_领班"},
          {"工号": "KWL2105020", "姓名": "吕秀英", "岗位名称": "保洁员"}]
VALUES = {"岗位名称": ["保安_普保", "保安_领班", "项目经理", "保洁员"], "性别": ["男", "女"],
          "检查类型": ["消防安全检查", "月度品质检查"], "设备类型": ["消防", "电梯", "空调"],
          "证书名称": ["保安员（三级）", "高压电工作业", "消防设施操作员（四级）"], "专业类别": ["安保", "电工", "消防"],
          "记录类型": ["耗材采购", "固定资产"], "完好状况": ["完好", "待修", "报废"], "市区": ["青浦区", "徐汇区"],
          "服务状态": ["服务中", "已结束", "未开始"]}


@pytest.fixture(scope="module")
def idx():
    return EntityIndex.from_rows(PROJECTS, PEOPLE, [], VALUES, ("2026-01", "2026-04"), {})


def slots(q, idx, previous=None):
    return extract_slots(q, idx, TODAY, previous=previous)


@pytest.mark.parametrize("text,start,end", [
    ("今年一季度有旷工记录的员工", "2026-01", "2026-03"),
    ("Q1开票总额", "2026-01", "2026-03"),
    ("2026Q2", "2026-04", "2026-06"),
    ("去年12月", "2025-12", "2025-12"),
    ("3月和4月青浦-工业园区的加班小时分别是多少", "2026-03", "2026-04"),
    ("26年3月区图书馆出勤人数", "2026-03", "2026-03"),
    ("上个季度", "2026-07", "2026-09"),
    ("本季度", "2026-10", "2026-12"),
    ("下个月到期的项目", "2026-12", "2026-12"),
    ("明年到期的项目", "2027-01", "2027-12"),
])
def test_colloquial_time(text, start, end):
    tr = parse_time(text, TODAY)
    assert (tr.start, tr.end) == (start, end)


def test_company_wide_is_not_a_project(idx):
    s = slots("2026年3月全公司出勤人数是多少？", idx)
    assert s["projects"] == [] and s["intent"] == "考勤" and s["agg"]["field"] == "工号"


def test_grounded_values_pick_their_data(idx):
    s = slots("消防安全检查的平均分", idx)
    assert s["intent"] == "检查" and s["filters"] == {"检查类型": ["消防安全检查"]} and s["agg"]["op"] == "avg"
    s = slots("谁有保安员证？", idx)
    assert s["intent"] == "证书" and s["filters"]["证书名称"] == ["保安员（三级）"] and "岗位名称" not in s["filters"]
    s = slots("采购了哪些耗材", idx)
    assert s["filters"]["记录类型"] == ["耗材采购"]
    s = slots("完好状况为待修的设备有几台", idx)
    assert s["filters"]["完好状况"] == ["待修"]
    assert slots("哪些项目已经结束了", idx)["filters"]["服务状态"] == ["已结束"]
    assert slots("青浦那边的项目有哪些", idx)["filters"]["市区"] == ["青浦区"]
    assert "市区" not in slots("青浦区图书馆3月有多少人出勤", idx)["filters"]  # the project fixes the district
    assert slots("图书馆的保洁是谁", idx)["filters"]["岗位名称"] == ["保洁员"]
    assert slots("中共党员有几位", idx)["filters"]["政治面貌"] == ["中共党员"]


def test_bids_and_parents_are_intents(idx):
    s = slots("2025年中标了哪些项目？", idx)
    assert s["intent"] == "投标" and s["filters"]["中标结果"] == ["中标"]
    g = ground_slots(s, idx)
    assert g["months"][0] == "2025-01" and not g["time_outside"]  # bid years are not monthly facts
    assert build_plan(s, g, [])[0]["tool"] == "bids"
    assert slots("哪些投标没中标？", idx)["filters"]["中标结果"] == ["未中标"]
    s = slots("区图书馆的上级项目是哪个", idx)
    assert build_plan(s, ground_slots(s, idx), [])[0]["tool"] == "project_parent"


def test_ranking_and_comparison(idx):
    s = slots("一季度加班时长排名前三的员工", idx)
    assert s["agg"] == {"op": "sum", "field": "加班小时", "group_by": "工号", "top": 3, "explicit": True}
    s = slots("一季度青浦-区图书馆和青浦-体育馆谁的开票多", idx)
    assert s["agg"]["field"] == "开票金额" and s["agg"]["group_by"] == "项目编号"
    s = slots("3月和4月青浦-工业园区的加班小时分别是多少", idx)
    assert s["agg"]["group_by"] == "年月"


def test_top_n_keeps_ties():
    rows = [{"工号": k, "加班小时": v} for k, v in (("a", 52), ("b", 48), ("c", 40), ("d", 40), ("e", 8))]
    out = aggregate(rows, "sum", "加班小时", group_by="工号", top=3)
    assert [r["工号"] for r in out] == ["a", "b", "c", "d"]


def test_conditions_from_wording(idx):
    assert [c["expr"] for c in slots("哪些项目岗位缺编", idx)["conditions"]] == ["在岗人数 < 项目编制"]
    assert slots("青浦-区图书馆3月谁上夜班了", idx)["conditions"][0]["expr"] == "夜班天数 > 0"
    assert slots("3月份请病假的有哪些人", idx)["conditions"][0]["expr"] == "病假天数 > 0"
    assert "整改情况 != '已整改'" in slots("哪些检查发现的问题还没整改", idx)["conditions"][0]["expr"]
    assert slots("有哪些员工已经离职了", idx)["conditions"][0]["expr"] == "离职日期 != None"


def test_follow_ups_change_field_threshold_and_keep_the_person(idx):
    first = slots("工业园区一季度开票多少", idx)
    assert first["agg"]["field"] == "开票金额"
    assert slots("那收款呢？", idx, previous=first)["agg"]["field"] == "收款金额"
    first = slots("3月份加班超过20小时的保安有哪些？", idx)
    again = slots("超过30小时的呢", idx, previous=first)
    assert [c["expr"] for c in again["conditions"]] == ["加班小时 > 30"]
    first = slots("刘德明3月加班了多少小时？", idx)
    s = slots("他有哪些证书", idx, previous=first)
    assert s["intent"] == "证书" and s["people"] == ["刘德明"]


def test_unknown_names_are_reported_not_ignored(idx):
    s = slots("张三3月出勤几天", idx)
    assert s["people"] == ["张三"]
    g = ground_slots(s, idx)
    assert g["ungrounded"] == [{"kind": "person", "text": "张三", "nearest": []}] and build_plan(s, g, []) == []
    for q in ("司龄满5年的员工有几位？", "保安一共有多少人", "周末加班的人", "单价最高的", "刘德明3月加班"):
        assert unknown_person(q, idx.find_mentions(q), idx) is None, q


def test_projects_without_records_is_an_anti_join(idx):
    s = slots("哪些服务中的项目没有设备", idx)
    assert s["intent"] == "项目无" and s["without"] == "设备"
    plan = build_plan(s, ground_slots(s, idx), [])
    assert [p["tool"] for p in plan] == ["projects", "equipment", "anti_join"]
    assert plan[0]["params"]["statuses"] == ["服务中"]
    s = slots("哪些项目没有维保合同", idx)
    assert [p["tool"] for p in build_plan(s, ground_slots(s, idx), [])][1] == "maintenance"


def test_known_ratios_are_computed_unknown_ones_flagged(idx):
    s = slots("青浦-区图书馆一季度回款率", idx)
    assert s["unsupported"] == [] and s["ratio"]["name"] == "回款率" and s["intent"] == "收费"
    assert s["ratio"]["num"] == ["收款金额"] and s["ratio"]["den"] == ["开票金额"]
    assert slots("一季度开票的增长率", idx)["unsupported"] == ["增长率"]  # no two periods: flagged, not invented
    s = slots("3月开票的环比增长率", idx)  # month against the month before: computed
    assert s["unsupported"] == [] and s["growth"] == {"base": "2026-02", "current": "2026-03", "kind": "环比"}
    s = slots("3月开票比2月增长了多少", idx)
    assert s["time"]["months"] == ["2026-02", "2026-03"] and s["growth"]["current"] == "2026-03"
    assert [p["tool"] for p in build_plan(s, ground_slots(s, idx), [])] == ["finance", "aggregate", "change"]


def test_a_bare_month_for_expiry_looks_ahead(idx):
    assert slots("12月到期的项目", idx)["time"]["months"] == ["2026-12"]
    assert slots("12月的考勤", idx)["time"]["months"] == ["2025-12"]  # facts look back
