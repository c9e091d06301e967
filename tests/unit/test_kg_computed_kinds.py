"""Rules mode for figures computed per group before they answer the question: two-level
averages (各片区平均每个项目…, 平均每个保安每月…), conditions on a computed total or ratio
(人数超过5人的项目, 出勤率低于95%的员工), two-period comparisons (环比, 同比, 3月比2月) that name a
period outside the data instead of reading it as 0; plus split verbs (请过假) and negated values
(不是完好)."""

import pytest

from core.agents.kg.answering import compose
from core.agents.kg.entity_index import EntityIndex
from core.agents.kg.grounding import ground_slots
from core.agents.kg.planner import build_plan
from core.agents.kg.tools import aggregate, change, ratio
from core.agents.kg.understanding import extract_slots, normalize_question
from core.errors import BadInputError
from tests.unit.test_kg_extended_kinds import AREAS, PROV, TODAY, idx  # noqa: F401 - the shared index fixture
from tests.unit.test_kg_phrasing import PEOPLE, PROJECTS, VALUES


def plan(q, idx):
    s = extract_slots(q, idx, TODAY)
    g = ground_slots(s, idx)
    return s, g, build_plan(s, g, [])


def _att(wh, ym, proj, ot, n=20, leave=0, row=2):
    return {"工号": wh, "姓名": wh, "项目编号": proj, "年月": ym, "加班小时": ot, "出勤天数": n, "请假天数": leave,
            "旷工天数": 0, **PROV, "行号": row}


# ---- two-level averages ------------------------------------------------------------------
def test_outer_group_then_nested_average(idx):
    s, _g, p = plan("各片区平均每个项目多少人", idx)
    assert s["agg"]["group_by"] == "项目编号" and s["agg"]["outer"] == "片区编号" and s["agg"]["then"] == "avg"
    assert p[-1]["params"]["outer"] == "片区编号"
    s = extract_slots("各项目平均每月加班多少小时", idx, TODAY)
    assert (s["agg"]["group_by"], s["agg"].get("outer"), s["agg"]["field"]) == ("年月", "项目编号", "加班小时")
    rows = [{**_att("A", "2026-01", "P1", 10), "片区编号": "Q1"}, {**_att("B", "2026-01", "P1", 6), "片区编号": "Q1"},
            {**_att("C", "2026-01", "P2", 3), "片区编号": "Q1"}, {**_att("D", "2026-01", "P3", 8), "片区编号": "Q2"}]
    out = {r["片区编号"]: r for r in aggregate(rows, "count", "工号", True, "项目编号", then="avg", outer="片区编号")}
    assert out["Q1"]["值"] == 1.5 and out["Q1"]["组数"] == 2 and out["Q2"]["值"] == 1.0  # (2 + 1) ÷ 2 projects


def test_per_person_per_month_average(idx):
    s = extract_slots("平均每个保安每月加班多少小时", idx, TODAY)
    assert s["agg"]["group_by"] == "工号+年月" and s["agg"]["field"] == "加班小时" and s["agg"]["op"] == "sum"
    assert s["filters"]["岗位名称"]
    assert extract_slots("一季度平均每人加班多少小时", idx, TODAY)["agg"]["group_by"] == "工号"
    assert extract_slots("月均开票金额是多少", idx, TODAY)["agg"]["group_by"] == "年月"
    # two rows of one person in one month (two projects) are one person-month
    rows = [_att("A", "2026-01", "P1", 10), _att("A", "2026-01", "P2", 2), _att("B", "2026-01", "P1", 0)]
    res = aggregate(rows, "sum", "加班小时", group_by="工号+年月", then="avg")[0]
    assert (res["值"], res["组数"], res["合计"]) == (6.0, 2, 12.0)


# ---- conditions on a computed figure -------------------------------------------------------
def test_having_on_a_total_a_count_and_a_ratio(idx):
    s, _g, p = plan("加班总时长超过50小时的人有哪些", idx)
    assert s["agg"]["having"] == "值 > 50" and s["agg"]["group_by"] == "工号" and not s["conditions"]
    assert p[0]["tool"] == "attendance" and p[-1]["params"]["having"] == "值 > 50"
    s = extract_slots("人数超过5人的项目有哪些", idx, TODAY)
    assert s["intent"] == "人员" and s["agg"]["op"] == "count" and s["agg"]["group_by"] == "项目编号"
    s = extract_slots("出勤率低于95%的员工有哪些", idx, TODAY)
    assert s["ratio"]["having"] == "比率 < 95" and s["ratio"]["group_by"] == "工号"
    assert not any(c["field"] == "出勤天数" and c["op"] == "<" for c in s["conditions"])
    rows = [_att("A", "2026-01", "P1", 30), _att("A", "2026-02", "P1", 30), _att("B", "2026-01", "P1", 40)]
    assert [r["工号"] for r in aggregate(rows, "sum", "加班小时", group_by="工号", having="值 > 50")] == ["A"]
    rr = ratio([_att("A", "2026-01", "P1", 0, 18, 2), _att("B", "2026-01", "P1", 0, 20, 0)], None,
               num=["出勤天数"], den=["出勤天数", "请假天数", "旷工天数"], name="出勤率", group_by="工号",
               having="比率 < 95", order="asc")
    assert [(r["工号"], r["比率"]) for r in rr] == [("A", 90.0)]
    with pytest.raises(BadInputError):
        aggregate(rows, "sum", "加班小时", group_by="工号", having="__import__('os')")


def test_having_nothing_matches_says_not_found():
    src = {"id": 1, "tool": "attendance", "rows": [_att("A", "2026-01", "P1", 4)], "fields": []}
    last = {"id": 2, "tool": "aggregate", "rows": aggregate(src["rows"], "sum", "加班小时", group_by="工号",
                                                            having="值 > 50"),
            "executed_params": {"of": 1, "op": "sum", "field": "加班小时", "group_by": "工号", "having": "值 > 50"}}
    text, prov = compose({"question": "加班总时长超过50小时的人"}, {}, [src, last])
    assert "数据中未找到加班小时合计超过 50小时的人员" in text and "共比较了 1 个人员" in text
    assert prov == [{"template": "考勤与人员财务", "file": "att.xlsx", "row": 2}]


# ---- two-period comparisons ---------------------------------------------------------------
def test_growth_slots_months_and_plan(idx):
    s, g, p = plan("3月比2月出勤人数增加了多少", idx)
    assert s["growth"] == {"base": "2026-02", "current": "2026-03", "kind": "环比"}
    assert [x["tool"] for x in p] == ["attendance", "aggregate", "change"]
    assert p[0]["params"]["months"] == ["2026-02", "2026-03"] and p[1]["params"]["op"] == "count"
    s, g, p = plan("4月开票金额同比增长多少", idx)
    assert s["growth"]["base"] == "2025-04" and s["unsupported"] == []
    assert p[0]["params"]["months"] == ["2026-04"] and p[-1]["params"]["outside"] == ["2025-04"]
    s = extract_slots("4月开票金额环比增长多少", idx, TODAY)
    assert s["growth"]["base"] == "2026-03" and s["agg"]["field"] == "开票金额"


def test_change_computes_and_names_a_missing_period():
    per = [{"年月": "2026-03", "统计": "sum", "字段": "开票金额", "值": 200.0, "行数": 2},
           {"年月": "2026-04", "统计": "sum", "字段": "开票金额", "值": 150.0, "行数": 2}]
    r = change(per, "年月", "2026-03", "2026-04", "环比")[0]
    assert (r["变化量"], r["变化率"], r["缺失期"]) == (-50.0, -25.0, [])
    r = change(per[1:], "年月", "2025-04", "2026-04", "同比", ["2025-04"])[0]
    assert r["变化量"] is None and r["缺失期"] == ["2025-04"] and r["超出覆盖"] == ["2025-04"]
    src = {"id": 1, "tool": "finance", "rows": [{"项目编号": "P1", "年月": "2026-04", "开票金额": 150.0,
                                                 "来源模板": "项目月度财务", "来源文件": "fin.xlsx", "行号": 5}],
           "fields": []}
    agg = {"id": 2, "tool": "aggregate", "rows": per[1:], "executed_params": {"of": 1, "op": "sum", "field": "开票金额"}}
    last = {"id": 3, "tool": "change", "rows": [r], "executed_params": {"of": 2, "base": "2025-04",
                                                                         "current": "2026-04", "kind": "同比",
                                                                         "outside": ["2025-04"]}}
    text, prov = compose({"question": "4月开票同比"}, {"coverage_label": "2026年1月至2026年4月"}, [src, agg, last])
    assert "数据中未找到2025年4月的数据" in text and "无法计算同比" in text and "150" in text
    assert prov and prov[0]["row"] == 5


# ---- wording ------------------------------------------------------------------------------
def test_split_verbs_and_negated_values(idx):
    assert normalize_question("2月请过假的员工") == "2月请假的员工"
    assert normalize_question("2025年投了几次标") == "2025年投标几次"
    assert normalize_question("加了多少小时班") == "加班多少小时"
    s = extract_slots("哪些设备不是完好状态？", idx, TODAY)
    assert "完好状况" not in s["filters"] and any(c["expr"] == "完好状况 not in ['完好']" for c in s["conditions"])


def test_named_values_become_groups_and_repair_words(idx):
    s = extract_slots("男员工和女员工各有多少人", idx, TODAY)
    assert s["agg"]["group_by"] == "性别" and "性别" not in s["filters"]
    s = extract_slots("电梯和空调分别有几台", idx, TODAY)
    assert s["agg"]["op"] == "count" and s["agg"]["group_by"] == "设备类型"
    assert extract_slots("有多少设备需要维修", idx, TODAY)["filters"]["完好状况"] == ["待修"]
    s = extract_slots("4月加班时长比上个月增加了多少", idx, TODAY)  # the base is the month before April
    assert s["growth"] == {"base": "2026-03", "current": "2026-04", "kind": "环比"}


def test_a_purchased_item_name_grounds_to_procurement():
    idx = EntityIndex.from_rows(PROJECTS, PEOPLE, AREAS, {**VALUES, "名称": ["洗地机", "垃圾袋（大号）"]},
                                ("2026-01", "2026-04"), {})
    s = extract_slots("洗地机多少钱", idx, TODAY)
    assert s["intent"] == "采购" and s["filters"]["名称"] == ["洗地机"]
    assert extract_slots("垃圾袋买了多少", idx, TODAY)["filters"]["名称"] == ["垃圾袋（大号）"]


def test_period_comparisons(idx):
    s, _g, p = plan("一季度开票比去年同期增长多少", idx)
    assert s["growth"]["kind"] == "同比" and s["growth"]["base_months"] == ["2025-01", "2025-02", "2025-03"]
    assert p[-1]["params"]["outside"] == ["2025-01", "2025-02", "2025-03"]
    s = extract_slots("青浦-区图书馆3月出勤人数与2月相比", idx, TODAY)  # two months and 相比: a comparison
    assert (s["growth"]["base"], s["growth"]["current"]) == ("2026-02", "2026-03")
    per = [{"年月": m, "统计": "sum", "字段": "开票金额", "值": v, "行数": 1}
           for m, v in (("2026-01", 10.0), ("2026-02", 20.0), ("2026-03", 15.0), ("2026-04", 30.0))]
    r = change(per, "年月", ["2026-01", "2026-02"], ["2026-03", "2026-04"], "环比")[0]
    assert (r["基期值"], r["本期值"], r["变化量"], r["变化率"]) == (30.0, 45.0, 15.0, 50.0)


def test_above_or_below_the_average(idx):
    s = extract_slots("加班时长高于平均水平的员工有哪些", idx, TODAY)
    assert s["agg"]["having"] == "值 > 平均值" and s["agg"]["group_by"] == "工号"
    assert extract_slots("出勤率低于平均水平的员工有哪些", idx, TODAY)["ratio"]["having"] == "比率 < 平均值"
    rows = [_att("A", "2026-01", "P1", 30), _att("B", "2026-01", "P1", 10), _att("C", "2026-01", "P1", 5)]
    out = aggregate(rows, "sum", "加班小时", group_by="工号", having="值 > 平均值")
    assert [(r["工号"], r["比较基准"]) for r in out] == [("A", 15.0)]


def test_which_group_has_the_most_and_year_end_expiry(idx):
    s = extract_slots("哪个片区的项目最多", idx, TODAY)
    assert (s["agg"]["op"], s["agg"]["field"], s["agg"]["group_by"], s["agg"]["top"]) == ("count", "项目编号",
                                                                                        "片区编号", 1)
    assert extract_slots("哪个项目的人最多", idx, TODAY)["agg"]["field"] == "工号"
    s = extract_slots("哪些合同年底前到期", idx, TODAY)
    assert s["intent"] == "项目" and any("结束日期 <= '2026-12-31'" in c["expr"] for c in s["conditions"])
    s = extract_slots("人均税后工资是多少", idx, TODAY)  # pay is monthly: per person per month
    assert s["agg"]["group_by"] == "工号+年月" and s["agg"]["then"] == "avg"


def test_named_people_or_projects_compared_side_by_side(idx):
    s = extract_slots("青浦-区图书馆和青浦-体育馆哪个开票多", idx, TODAY)
    assert s["agg"]["group_by"] == "项目编号" and s["agg"]["field"] == "开票金额"
    s = extract_slots("保安平均每月加班多少小时", idx, TODAY)  # the average guard's month
    assert s["agg"]["group_by"] == "工号+年月"


def test_shares_of_people_monthly_deltas_and_ratio_comparisons(idx):
    s = extract_slots("3月加班的人占比多少", idx, TODAY)
    assert s["ratio"]["name"] == "占比" and s["ratio"]["field"] is None
    assert any(c["expr"] == "加班小时 > 0" for c in s["conditions"])
    s, _g, p = plan("各月开票金额环比变化", idx)
    assert p[-1]["params"]["group_by"] == "年月" and p[-1]["params"]["delta"] is True
    s = extract_slots("3月出勤率比2月高还是低", idx, TODAY)  # both months' ratio, not a sum of days
    assert s["ratio"]["group_by"] == "年月" and s["growth"] is None and s["time"]["months"] == ["2026-02", "2026-03"]
    assert extract_slots("平均每个员工有几张证书", idx, TODAY)["agg"]["field"] == ""


def test_per_group_comparison():
    per = [{"片区编号+年月": ("Q1", "2026-02"), "值": 100.0, "行数": 2, "统计": "sum", "字段": "开票金额"},
           {"片区编号+年月": ("Q1", "2026-03"), "值": 110.0, "行数": 2, "统计": "sum", "字段": "开票金额"},
           {"片区编号+年月": ("Q2", "2026-03"), "值": 50.0, "行数": 1, "统计": "sum", "字段": "开票金额"}]
    out = {r["片区编号"]: r for r in change(per, "年月", "2026-02", "2026-03", "环比", by="片区编号")}
    assert (out["Q1"]["变化量"], out["Q1"]["变化率"]) == (10.0, 10.0)
    assert out["Q2"]["变化量"] is None and out["Q2"]["缺失期"] == ["2026-02"]  # never read as 0
