"""The plan describer (core/agents/kg/describe.py): every tool of the catalog has plain
wording, conditions and months read as Chinese, and the form edits write back into the plan."""

from __future__ import annotations

from core.agents.kg.describe import (
    apply_plan_form, condition_text, describe_plan, month_label, months_between, plan_form, rules,
)
from core.agents.kg.tools import TOOLS

PLAN = [
    {"id": 1, "tool": "attendance", "params": {"projects": ["XMSQ0102"], "months": ["2026-03"], "people": [],
                                               "conditions": ["出勤天数 > 0 or 上班天数 > 0"]}, "depends": []},
    {"id": 2, "tool": "aggregate", "params": {"of": 1, "op": "count", "field": "工号", "distinct": True},
     "depends": [1]},
]


def test_every_tool_has_wording():
    r = rules()
    assert set(TOOLS) == set(r["query_tools"]) | set(r["builtins"])


def test_describe_simple_plan():
    steps = describe_plan(PLAN)
    assert steps == ["① 取XMSQ0102 2026年3月的考勤记录，只保留出勤天数超过0 或 上班天数超过0的", "② 统计人数"]
    text = "".join(steps)
    for jargon in ("attendance", "aggregate", "group_by", "then", "having", "per_all", "{", "=="):
        assert jargon not in text


def test_describe_every_tool_without_jargon():
    for name in TOOLS:
        step = {"id": 1, "tool": name, "params": {"of": [1, 2], "op": "avg", "field": "加班小时", "group_by": "项目编号",
                                                  "then": "avg", "outer": "片区编号", "having": "值 > 50",
                                                  "months": ["2026-01", "2026-02"], "per_all": True}}
        text = describe_plan([step])[0]
        assert name not in text and "{" not in text and "_" not in text.replace("保安_", ""), (name, text)


def test_condition_and_month_wording():
    assert condition_text("加班小时 > 20") == "加班小时超过20"
    assert condition_text("年龄 >= 50 and 工龄 < 3") == "年龄不少于50 并且 工龄低于3"
    assert condition_text("岗位名称 in ['保安_普保', '保安_领班']") == "岗位名称为保安_普保、保安_领班"
    assert month_label(["2026-01", "2026-02", "2026-03"]) == "2026年1月至3月"
    assert month_label(["2025-12", "2026-01"]) == "2025年12月至2026年1月"
    assert month_label(["2026-01", "2026-03"]) == "2026年1月、2026年3月"
    assert months_between("2026-11", "2027-02") == ["2026-11", "2026-12", "2027-01", "2027-02"]


def test_aggregate_wording():
    avg = {"id": 2, "tool": "aggregate", "params": {"of": 1, "op": "count", "field": "工号", "group_by": "项目编号",
                                                    "then": "avg", "outer": "片区编号"}}
    assert describe_plan([avg]) == ["① 先按项目分组，统计人数，再求各组的平均值，各片区分别计算"]
    top = {"id": 2, "tool": "aggregate", "params": {"op": "sum", "field": "加班小时", "group_by": "工号", "top": 3,
                                                    "having": "值 > 50"}}
    assert describe_plan([top]) == ["① 按人员分组，合计加班小时，只保留结果超过50的组，取前 3 名"]


def test_form_round_trip():
    form = plan_form(PLAN)
    assert form == {"projects": ["XMSQ0102"], "months": ["2026-03"], "conditions": [], "group_by": ""}
    assert apply_plan_form(PLAN, form) == [{"id": s["id"], "tool": s["tool"], "params": s["params"],
                                            "depends": s["depends"]} for s in PLAN]
    form.update(projects=["XMSQ0103"], months=months_between("2026-01", "2026-03"), group_by="项目编号")
    new = apply_plan_form(PLAN, form)
    assert new[0]["params"]["projects"] == ["XMSQ0103"] and new[0]["params"]["months"] == ["2026-01", "2026-02",
                                                                                              "2026-03"]
    assert new[1]["params"]["group_by"] == "项目编号" and PLAN[1]["params"].get("group_by") is None


def test_form_condition_threshold():
    plan = [{"id": 1, "tool": "attendance", "params": {"months": ["2026-03"], "conditions": ["加班小时 > 20"]}}]
    form = plan_form(plan)
    assert form["conditions"] == [{"step": 1, "index": 0, "field": "加班小时", "op": ">", "value": 20.0}]
    form["conditions"][0].update(op=">=", value=30)
    assert apply_plan_form(plan, form)[0]["params"]["conditions"] == ["加班小时 >= 30"]
