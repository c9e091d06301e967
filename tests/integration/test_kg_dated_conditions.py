"""A year or month written right before a date column's verb (2022年8月出厂, 2013年启用) puts that
column inside the period; it is not the asked time range, so the records are filtered by it, never
all listed. "拿了值班费" is a condition like "有值班费"."""

from __future__ import annotations

import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401


@pytest.mark.parametrize("q,said,absent", [
    ("2022年8月出厂的设备是哪几台？", "共 2 条记录", "SB-0102-001"),
    ("2013年启用的设备有几台？", "共 3 台设备", "共 21"),
])
def test_a_period_before_a_date_verb_filters_that_date_column(kg, q, said, absent):
    r = ask(q, auto=True)
    assert said in r["answer"] and absent not in r["answer"], r["answer"][:300]


def test_took_a_pay_item_means_it_is_above_zero(kg):
    r = ask("2026年3月拿了值班费的员工有哪些？", auto=True)
    assert "共 8 人" in r["answer"] and "值班费 0元" not in r["answer"], r["answer"][:300]


def test_never_took_a_pay_item_means_it_is_zero(kg):
    r = ask("2026年3月没拿过值班费的员工有几个？", auto=True)
    assert "值班费 200元" not in r["answer"] and "共 22 人" in r["answer"], r["answer"][:300]
