"""投标记录 carry a 年份 and a 中标日期, no bid date. A question for part of a year ("3月投了几次标")
must not be answered with the whole year's bids under a "查询范围：2026年3月" heading: it is refused
saying what the records hold, however the plan arrived. A month of the date the question names
("3月中标的") filters by that date; a whole year ("今年", "2025年") by 年份, as before."""

from __future__ import annotations

import pytest

from core.agents.kg.timeparse import whole_years
from tests.integration.test_ask_kg_sample import P, TODAY, _store_holder, ask, kg, sample_graph_path  # noqa: F401


@pytest.mark.parametrize("q,when", [
    ("3月投了几次标", "2026年3月"),
    ("一季度投了几个标？", "2026年1月至3月"),
    ("上个月的投标记录", "2026年10月"),
])
def test_months_of_year_dated_bids_are_refused_saying_what_the_records_hold(kg, q, when):
    r = ask(q, auto=True)
    assert r["answer"].startswith("投标记录只记到年份") and f"分不出{when}的投标记录" in r["answer"], r["answer"][:200]
    assert not r["rows"] and not r["provenance"]
    assert "查询范围" not in r["answer"] and "XMSQ" not in r["answer"]


def test_the_refusal_says_how_many_bids_the_year_holds(kg):
    r = ask("3月投了几次标", auto=True)
    assert "2026年共有 2 条投标记录" in r["answer"] and "2026年的投标记录" in r["answer"], r["answer"]


def test_a_month_of_the_award_date_filters_by_that_date(kg):
    r = ask("2025年3月中标的项目有哪些？", auto=True)
    assert "青浦-人民医院" in r["answer"] and "2025-03-08" in r["answer"], r["answer"][:300]
    for other in ("徐汇-科创大厦", "赵巷镇政府", "青浦-北斗园区"):  # won in 2025, not in March
        assert other not in r["answer"]


def test_a_whole_year_still_filters_by_its_year(kg):
    r = ask("2025年投了几次标？", auto=True)
    assert "共 4" in r["answer"] and "分不出" not in r["answer"], r["answer"][:200]


def test_an_edited_plan_asking_a_month_of_bids_is_refused_too(kg):
    r = ask("2026年的投标记录")
    while r["need_confirm"] and r["need_confirm"]["kind"] != "plan":
        r = ask("确认", thread_id=r["thread"])
    assert r["need_confirm"]["kind"] == "plan"
    r = ask({"plan": [{"id": 1, "tool": "bids", "params": {"months": ["2026-03"]}}]}, thread_id=r["thread"])
    while r["need_confirm"]:
        r = ask("确认", thread_id=r["thread"])
    assert r["answer"].startswith("投标记录只记到年份") and "分不出2026年3月的投标记录" in r["answer"], r["answer"][:200]
    assert not r["rows"] and not r["provenance"]


def test_whole_years_means_every_month_of_each_year():
    assert whole_years([f"2026-{m:02d}" for m in range(1, 13)])
    assert whole_years([f"{y}-{m:02d}" for y in (2025, 2026) for m in range(1, 13)])
    assert not whole_years(["2026-03"])
    assert not whole_years([f"2026-{m:02d}" for m in range(1, 12)])


@pytest.mark.parametrize("q,kind,dates", [
    ("3月的设备有几台", "设备", "出厂日期、启用日期、入项目日期、退项目日期"),
    ("3月的项目有哪些", "项目", "开始日期、结束日期"),
    ("3月的岗位编制", "岗位编制", ""),
    ("3月有哪些供应商", "供应商", ""),
])
def test_months_of_records_without_a_month_are_refused_naming_their_dates(kg, q, kind, dates):
    r = ask(q, auto=True)
    assert r["answer"].startswith(f"数据中未找到按“2026年3月”区分的{kind}记录"), r["answer"][:200]
    assert (f"日期有{dates}" in r["answer"]) if dates else ("记录没有日期" in r["answer"])
    assert not r["rows"] and not r["provenance"] and "共 " not in r["answer"]


def test_a_month_of_the_date_the_wording_names_filters_and_shows_it(kg):
    r = ask("2024年1月进场的设备有哪些", auto=True)
    assert "共 3 条记录" in r["answer"] and r["answer"].count("入项目日期 2024-01-01") == 3, r["answer"][:400]


def test_an_age_asked_this_year_is_not_a_month_filter(kg):
    r = ask("吴建华今年多大", auto=True)
    assert "41" in r["answer"] and "区分" not in r["answer"]
