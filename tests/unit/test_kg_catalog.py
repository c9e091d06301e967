"""The KG tool catalog is generated from core/graph/schema.py: a column added to a template's
schema entry reaches the tools' display fields, the numeric fields with their unit and the
question wording without an edit in the agent."""

from __future__ import annotations

from dataclasses import replace

import pytest

import core.graph.queries  # noqa: F401 - its query texts are built from the real schema, before any test edits it
from core.agents.kg import catalog
from core.agents.kg.formatting import fmt_field
from core.agents.kg.planner import build_plan
from core.graph import schema as S


def _clear():
    """Forget everything the KG agent derived from the schema (every cached function of its
    modules), so neither the edited schema nor the real one leaks into another test."""
    import importlib
    import pkgutil
    import sys

    import core.agents.kg as kg

    for info in pkgutil.walk_packages(kg.__path__, kg.__name__ + "."):
        module = sys.modules.get(info.name) or importlib.import_module(info.name)
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", "") == info.name:
                value.cache_clear()


@pytest.fixture
def extra_column(monkeypatch):
    """岗位编制 gets a new numeric column 夜间值守人数 (unit 人, shown after 在岗人数) and a sensitive
    one, exactly as a schema edit would add them (template + generated node table)."""
    tpl = S.TEMPLATE_BY_NAME["岗位编制"]
    new = (S.C("夜间值守人数", "int", unit="人", show=9), S.C("值守补贴", "number", unit="元", sensitive=True, show=10))
    tpl2 = replace(tpl, columns=tpl.columns + new)
    nt = S.NODE_BY_LABEL["岗位编制"]
    nt2 = replace(nt, properties=S._props([(S.SYNTHETIC_KEY, "text")], tpl2.columns, S._TAIL))
    monkeypatch.setitem(S.TEMPLATE_BY_NAME, "岗位编制", tpl2)
    monkeypatch.setitem(S.NODE_BY_LABEL, "岗位编制", nt2)
    monkeypatch.setattr(S, "TEMPLATES", tuple(tpl2 if t.name == "岗位编制" else t for t in S.TEMPLATES))
    _clear()
    yield
    _clear()


def test_a_new_template_column_reaches_display_and_numeric_fields(extra_column):
    from core.agents.kg.concepts import _numeric_fields

    fields = catalog.tool_fields("staffing")
    assert fields[-1] == "夜间值守人数" and "值守补贴" not in fields  # shown by rank, never a sensitive one
    assert catalog.unit("夜间值守人数") == "人" and "夜间值守人数" in catalog.numeric_fields()
    assert ("夜间值守人数", "夜间值守人数", "人") in _numeric_fields()  # the question side matches it by name
    plan = build_plan({"intent": "编制", "question": "青浦-区图书馆的岗位编制"}, {"projects": []}, [])
    assert "夜间值守人数" in plan[0]["fields"]
    from core.graph.queries import record_columns

    assert {"夜间值守人数", "值守补贴"} <= set(record_columns("岗位编制"))  # the query returns it (masked later)


def test_display_fields_follow_the_schema_ranks():
    assert catalog.tool_fields("attendance") == ["姓名", "工号", "岗位名称", "项目名称", "项目编号", "年月", "上班天数",
                                                 "出勤天数", "加班小时", "请假天数", "旷工天数"]
    assert catalog.tool_fields("procurement")[:3] == ["项目编号", "记录类型", "名称"]
    assert "记录类型" not in catalog.tool_fields("maintenance") and "合同年限" in catalog.tool_fields("maintenance")
    assert not set(catalog.tool_fields("staff")) & S.SENSITIVE_FIELDS


def test_filters_a_tool_takes_and_the_intents_it_answers_come_from_its_parameters():
    assert catalog.consumed_filters("equipment") == {"设备类型"}
    assert catalog.consumed_filters("certificates") == {"岗位名称", "证书名称", "专业类别"}
    assert catalog.consumed_filters("finance") == set()
    assert catalog.intent_tool()["工资"] == "attendance"
    assert catalog.column_params()["检查类型"] == "types" and catalog.column_params()["项目编号"] == "projects"


def test_a_percentage_threshold_compares_with_the_stored_fraction():
    cond = {"field": "实际毛利率", "op": "<", "value": 10.0, "text": "毛利率低于10", "expr": "实际毛利率 < 10"}
    plan = build_plan({"intent": "项目", "question": "实际毛利率低于10%的项目", "conditions": [cond]},
                      {"projects": []}, [])
    assert plan[0]["params"]["conditions"] == ["实际毛利率 < 0.1"]
    assert fmt_field("实际毛利率", 0.097) == "9.7%" and fmt_field("开票金额", 74807.45) == "74,807.45元"
