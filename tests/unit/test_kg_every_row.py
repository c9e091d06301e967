"""“每个月…都…”: a condition held on every row of a group (kg_patterns.every_row → every(分组, 条件))."""

from datetime import date

from core.agents.kg import quantifier
from core.agents.kg.tools import apply_conditions

ROWS = [{"项目编号": "A", "年月": "2026-01", "收款金额": 5, "开票金额": 5},
        {"项目编号": "A", "年月": "2026-02", "收款金额": 4, "开票金额": 5},
        {"项目编号": "B", "年月": "2026-01", "收款金额": 3, "开票金额": 3},
        {"项目编号": "B", "年月": "2026-02", "收款金额": 7, "开票金额": 7}]


def test_one_failing_month_excludes_the_whole_project():
    out, applied, skipped = apply_conditions(ROWS, ["every(项目编号, 收款金额 == 开票金额)"], date(2026, 5, 1))
    assert {r["项目编号"] for r in out} == {"B"} and len(out) == 2 and not skipped


def test_without_the_quantifier_some_month_is_enough():
    out, _a, _s = apply_conditions(ROWS, ["收款金额 == 开票金额"], date(2026, 5, 1))
    assert {r["项目编号"] for r in out} == {"A", "B"}


def test_the_every_month_cue_wraps_the_row_conditions_by_the_asked_group():
    slots = {"kind": "graph", "question": "1到4月每个月收款都等于开票的项目是哪个？",
             "conditions": [{"field": "收款金额", "op": "==", "expr": "收款金额 == 开票金额", "derived": None}],
             "agg": {"op": "sum", "field": "开票金额", "group_by": "年月"}}
    out = quantifier.apply(slots)
    assert out["conditions"][0]["expr"] == "every(项目编号, 收款金额 == 开票金额)" and out["agg"] is None
    assert quantifier.every_group_field("1到4月每个月加班都超过5小时的人有哪些？") == "工号"
    assert quantifier.every_group_field("3月收款等于开票的项目有哪些？") is None
