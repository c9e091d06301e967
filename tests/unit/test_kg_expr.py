from datetime import date

import pytest

from core.agents.kg import expr as X
from core.agents.kg.expr import ExprError

TODAY = date(2026, 11, 30)


def test_age_and_seniority_and_remaining_months():
    assert X.evaluate("years_between(出生日期, today())", {"出生日期": "1976-12-01"}, TODAY) == 49
    assert X.evaluate("years_between(出生日期, today())", {"出生日期": "1976-11-30"}, TODAY) == 50
    assert X.evaluate("years_between(入职日期, today()) >= 10", {"入职日期": "2016-11-30"}, TODAY) is True
    assert X.evaluate("months_between(today(), 结束日期)", {"结束日期": "2027-02-28"}, TODAY) == 2


def test_arithmetic_comparisons_and_missing_values():
    env = {"加班小时": "24", "上班天数": None}
    assert X.evaluate("to_number(加班小时) * 2 > 40", env, TODAY) is True
    assert X.evaluate("上班天数 > 0", env, TODAY) is None
    assert X.evaluate("加班小时 > 0 or 上班天数 > 0", {"加班小时": 0, "上班天数": 3}, TODAY) is True
    assert X.evaluate("replace(名称, '-', '') == '青浦区图书馆'", {"名称": "青浦-区图书馆"}, TODAY) is True


@pytest.mark.parametrize("bad", [
    "__import__('os').system('ls')", "出生日期.__class__", "[x for x in 出生日期]", "open('/etc/passwd')",
    "lambda: 1", "出生日期[0]", "", "a" * 600,
])
def test_whitelist_rejects_everything_else(bad):
    with pytest.raises(ExprError):
        X.evaluate(bad, {"出生日期": "1980-01-01", "a": 1}, TODAY)


def test_check_names_against_source_fields():
    X.check("years_between(出生日期, today())", names={"出生日期"})
    with pytest.raises(ExprError, match="未知字段"):
        X.check("years_between(生日, today())", names={"出生日期"})
