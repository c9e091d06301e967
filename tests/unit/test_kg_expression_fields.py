"""A figure can be an arithmetic expression over the rows' fields ("项目编制 - 在岗人数"):
computed per row with the whitelisted evaluator, summed like a field, said in words with the
operands' common unit, and checked against hidden fields like any field a plan computes with."""

import pytest

from core.agents.kg.authorization import plan_refusal
from core.agents.kg.catalog import unit
from core.agents.kg.expr import ExprError
from core.agents.kg.formatting import field_label
from core.agents.kg.tools import aggregate, is_expression
from core.security.principals import Principal, Role

ROWS = [{"项目编号": "A", "项目编制": 3, "在岗人数": 2}, {"项目编号": "A", "项目编制": 5, "在岗人数": 5},
        {"项目编号": "B", "项目编制": 4, "在岗人数": None}]


def test_an_expression_is_summed_per_row_and_skips_rows_missing_an_operand():
    assert aggregate(ROWS, "sum", "项目编制 - 在岗人数")[0]["值"] == 1
    by = {r["项目编号"]: r["值"] for r in aggregate(ROWS, "sum", "项目编制 - 在岗人数", group_by="项目编号")}
    assert by == {"A": 1, "B": None}
    assert is_expression("开票金额 - 收款金额") and not is_expression("项目编号+年月") and not is_expression("开票金额")


def test_only_arithmetic_over_fields_is_evaluated():
    with pytest.raises(ExprError):
        aggregate(ROWS, "sum", "__import__('os').getcwd() - 1")


def test_the_figure_is_named_in_words_with_the_operands_unit():
    assert field_label("开票金额 - 收款金额") == "开票金额与收款金额之差" and unit("开票金额 - 收款金额") == "元"
    assert unit("项目编制 - 在岗人数") == "人" and unit("开票金额 - 在岗人数") == ""


def test_a_hidden_field_inside_an_expression_is_refused():
    plan = [{"id": 1, "tool": "attendance", "params": {}, "depends": [], "fields": []},
            {"id": 2, "tool": "aggregate", "params": {"of": 1, "op": "sum", "field": "税后工资 - 餐费"}, "depends": [1],
             "fields": []}]
    staff = Principal("staff_a", Role.staff, tenants=("demo",))
    assert "税后工资" in plan_refusal(staff, plan)
