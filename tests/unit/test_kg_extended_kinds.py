"""Rules mode for the question kinds added on top of lookups and plain aggregates: grouping by
片区, nested averages (平均每个项目…), computed ratios (出勤率, 占比) with both operands and a
zero denominator said rather than divided, earliest / latest records; and the per-turn LLM
budget in LLM mode (a BudgetExceeded falls back to rules with a visible notice)."""

from datetime import date

import pytest

from core import config
from core.agents.kg.answering import compose
from core.agents.kg.entity_index import EntityIndex
from core.agents.kg.grounding import ground_slots
from core.agents.kg.planner import build_plan
from core.agents.kg.tools import aggregate, attach_areas, pick, ratio
from core.agents.kg.understanding import extract_slots
from core.llm.client import set_llm_override
from core.llm.fake import FakeLLM
from core.security.principals import Principal, Role
from core.services.ask_kg import ask_kg
from tests.unit.test_kg_graph import store  # noqa: F401 - fixture
from tests.unit.test_kg_phrasing import PEOPLE, PROJECTS, VALUES

TODAY = date(2026, 11, 30)
AREAS = [{"片区编号": "PQ01", "片区名称": "青浦片区", "项目编号列表": ["XMSQ0102", "XMSQ0103", "XMSQ0105"]},
         {"片区编号": "PQ02", "片区名称": "徐汇片区", "项目编号列表": ["XMSQ0112"]}]
PROV = {"来源模板": "考勤与人员财务", "来源文件": "att.xlsx"}


@pytest.fixture(scope="module")
def idx():
    return EntityIndex.from_rows(PROJECTS, PEOPLE, AREAS, VALUES, ("2026-01", "2026-04"), {})


def slots(q, idx):
    return extract_slots(q, idx, TODAY)


def plan(q, idx):
    s = slots(q, idx)
    return s, build_plan(s, ground_slots(s, idx), [])


# ---- understanding + plan -----------------------------------------------------------------
def test_group_by_area_for_counts_and_sums(idx):
    s, p = plan("各片区有多少个服务中的项目？", idx)
    assert s["intent"] == "项目" and s["agg"]["group_by"] == "片区编号" and s["agg"]["field"] == "项目编号"
    assert p[-1]["tool"] == "aggregate" and p[-1]["params"]["group_by"] == "片区编号"
    assert slots("按片区统计3月的开票金额", idx)["agg"] == {"op": "sum", "field": "开票金额", "explicit": True,
                                                     "group_by": "片区编号"}


def test_nested_average_counts_per_group_then_averages(idx):
    s, p = plan("平均每个项目有多少名员工？", idx)
    assert s["intent"] == "人员"
    assert p[-1]["params"] == {"of": 1, "op": "count", "field": "工号", "distinct": True, "group_by": "项目编号",
                               "then": "avg", "per_all": True}  # every project in service is a group
    s = slots("3月平均每个项目出勤多少人？", idx)
    assert s["intent"] == "考勤" and s["agg"]["then"] == "avg" and any(c["text"] == "出勤" for c in s["conditions"])
    assert slots("平均每个项目每月开票金额是多少", idx)["agg"]["group_by"] == "项目编号+年月"


def test_field_ratio_is_one_step_and_a_ratio(idx):
    s, p = plan("青浦-区图书馆3月的出勤率是多少", idx)
    assert s["ratio"]["name"] == "出勤率" and s["unsupported"] == []
    assert [x["tool"] for x in p] == ["attendance", "ratio"]
    assert p[1]["params"]["den"] == ["出勤天数", "请假天数", "旷工天数"]


def test_share_ratio_has_a_denominator_step_without_the_filter(idx):
    s, p = plan("保安占全部员工的比例是多少", idx)
    assert [x["tool"] for x in p] == ["staff", "staff", "ratio"]
    assert p[0]["params"]["positions"] == ["保安_普保", "保安_领班"] and p[1]["params"]["positions"] == []
    assert p[2]["params"] == {"of": [1, 2], "op": "count", "field": "工号", "name": "占比"}
    s, p = plan("3月出勤率最低的是谁", idx)
    assert p[-1]["params"]["group_by"] == "工号" and p[-1]["params"]["order"] == "asc" and p[-1]["params"]["top"] == 1


def test_share_of_the_whole_and_rankings(idx):
    s, p = plan("青浦片区的项目占全部项目的比例", idx)
    assert s["ratio"]["whole"] and [x["tool"] for x in p] == ["projects", "projects", "ratio"]
    assert p[0]["params"]["projects"] and p[1]["params"]["projects"] == []  # the whole: no area filter
    s = slots("4月各项目出勤率排名", idx)
    assert s["ratio"]["group_by"] == "项目编号" and s["ratio"]["order"] == "desc" and s["ratio"]["top"] > 100
    assert slots("出勤率最高的项目是哪个", idx)["ratio"]["group_by"] == "项目编号"
    s, p = plan("下一个到期的项目是哪个", idx)
    assert p[-1]["params"]["order"] == "asc" and "结束日期 >= '2026-11-30'" in p[0]["params"]["conditions"]


def test_earliest_and_latest(idx):
    s, p = plan("哪个项目最早到期？", idx)
    assert s["intent"] == "项目" and p[-1]["tool"] == "pick"
    assert p[-1]["params"] == {"of": 1, "field": "结束日期", "order": "asc", "top": 1}
    assert plan("合同最先结束的3个项目", idx)[1][-1]["params"]["top"] == 3
    s, p = plan("最晚入职的员工是谁", idx)
    assert s["intent"] == "人员" and p[-1]["params"]["field"] == "入职日期" and p[-1]["params"]["order"] == "desc"
    assert plan("最近一次检查是什么时候", idx)[1][-1]["params"]["field"] == "检查日期"
    assert slots("最近三个月加班多少小时", idx)["agg"]["op"] == "sum"  # a time range, not "the latest"


# ---- built-ins -----------------------------------------------------------------------------
def test_ratio_zero_denominator_is_not_divided():
    rows = [{"出勤天数": 0, "请假天数": 0, "旷工天数": 0, **PROV, "行号": 2}]
    out = ratio(rows, None, num=["出勤天数"], den=["出勤天数", "请假天数", "旷工天数"], name="出勤率")[0]
    assert out["分母为零"] and out["比率"] is None
    out = ratio([{"工号": "a"}], [{"工号": "a"}, {"工号": "b"}, {"工号": "c"}], "count", "工号")[0]
    assert (out["分子"], out["分母"], out["比率"]) == (1, 3, 33.33)
    assert ratio([], [], "count", "工号")[0]["分母为零"]


def test_ratio_per_group_keeps_ties_at_the_cut():
    rows = [{"工号": k, "出勤天数": a, "请假天数": b, "旷工天数": 0} for k, a, b in
            (("a", 21, 2), ("b", 21, 2), ("c", 22, 0))]
    out = ratio(rows, None, num=["出勤天数"], den=["出勤天数", "请假天数", "旷工天数"], group_by="工号", top=1,
                order="asc")
    assert [r["工号"] for r in out] == ["a", "b"] and out[0]["比率"] == 91.3


def test_pick_and_nested_average():
    rows = [{"项目编号": c, "结束日期": d} for c, d in (("A", "2027-01-31"), ("B", "2026-08-31"), ("C", None),
                                                         ("D", "2026-08-31"))]
    assert [r["项目编号"] for r in pick(rows, "结束日期", "asc", 1)] == ["B", "D"]  # tie kept, undated left out
    assert [r["项目编号"] for r in pick(rows, "结束日期", "desc", 1)] == ["A"]
    staff = [{"工号": str(i), "项目编号": p} for i, p in enumerate(["A", "A", "A", "B", None])]
    res = aggregate(staff, "count", "工号", True, "项目编号", then="avg")[0]
    assert (res["合计"], res["组数"], res["值"]) == (4, 2, 2.0)  # the person without a project is no group


class _AreaStore:
    def run_named(self, name, params=None):
        assert name == "kg_project_areas"
        return [{"项目编号": "A", "片区编号": "PQ01", "片区名称": "青浦片区"},
                {"项目编号": "B", "片区编号": "PQ01", "片区名称": "青浦片区"},
                {"项目编号": "B", "片区编号": "PQ02", "片区名称": "徐汇片区"}]


def test_attach_areas_counts_a_two_area_project_in_both():
    rows = attach_areas(_AreaStore(), [{"项目编号": "A", "金额": 1}, {"项目编号": "B", "金额": 2}])
    out = {r["片区编号"]: r["值"] for r in aggregate(rows, "sum", "金额", group_by="片区编号")}
    assert out == {"PQ01": 3, "PQ02": 2}


def test_zero_denominator_answer_says_so():
    src = {"id": 1, "tool": "attendance", "rows": [{"出勤天数": 0, "请假天数": 0, "旷工天数": 0, **PROV, "行号": 2}],
           "fields": []}
    res = ratio(src["rows"], None, num=["出勤天数"], den=["出勤天数", "请假天数", "旷工天数"], name="出勤率")
    last = {"id": 2, "tool": "ratio", "rows": res, "executed_params": {"of": [1], "num": ["出勤天数"],
                                                                       "den": ["出勤天数", "请假天数", "旷工天数"]}}
    text, prov = compose({"question": "出勤率"}, {}, [src, last])
    assert "分母为 0" in text and "无法计算出勤率" in text and "%" not in text
    assert prov == [{"template": "考勤与人员财务", "file": "att.xlsx", "row": 2}]


# ---- LLM budget ----------------------------------------------------------------------------
@pytest.fixture
def fake():
    llm = FakeLLM(tokens_per_call=10)
    set_llm_override(llm)
    yield llm
    set_llm_override(None)


@pytest.fixture
def budget_env(monkeypatch):
    def set_(**env):
        for k, v in env.items():
            monkeypatch.setenv(k, str(v))
        config.set_settings(None)
    yield set_
    monkeypatch.undo()
    config.set_settings(None)


def test_token_budget_overrun_falls_back_to_rules_with_a_notice(store, fake, budget_env):  # noqa: F811
    budget_env(ZHICE_AGENT_MAX_TOKENS=15)
    fake.enqueue({"kind": "graph", "intent": "考勤"}, {"answer": "polished 〔x〕"})
    r = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=Principal("admin", Role.admin), today=TODAY, auto=True)
    assert "共 1 人" in r["answer"] and "polished" not in r["answer"]  # 2nd call (10+10 > 15 tokens) refused
    assert "Token预算" in r["answer"] and "规则模式" in r["answer"]


def test_step_budget_stops_llm_calls_before_they_are_made(store, fake, budget_env):  # noqa: F811
    budget_env(ZHICE_AGENT_MAX_STEPS=0)
    fake.enqueue({"kind": "graph", "intent": "考勤"})
    r = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=Principal("admin", Role.admin), today=TODAY, auto=True)
    assert fake.history == [] and "共 1 人" in r["answer"] and "步数预算" in r["answer"]
