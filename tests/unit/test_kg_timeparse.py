from datetime import date

import pytest

from core.agents.kg.timeparse import coverage_note, parse_time

TODAY = date(2026, 11, 30)
COV = ("2026-01", "2026-04")


@pytest.mark.parametrize("text,start,end", [
    ("青浦-区图书馆2026年3月有多少人出勤", "2026-03", "2026-03"),
    ("3月份加班超过20小时的保安", "2026-03", "2026-03"),
    ("三月的排班", "2026-03", "2026-03"),
    ("上个月", "2026-10", "2026-10"),
    ("一季度开票", "2026-01", "2026-03"),
    ("2026年第二季度", "2026-04", "2026-06"),
    ("1-3月", "2026-01", "2026-03"),
    ("2026年1月至3月", "2026-01", "2026-03"),
    ("近三个月", "2026-09", "2026-11"),
    ("2025年上半年", "2025-01", "2025-06"),
    ("2026-02 的考勤", "2026-02", "2026-02"),
])
def test_phrases_resolve_against_injected_today(text, start, end):
    tr = parse_time(text, TODAY)
    assert (tr.start, tr.end) == (start, end)


def test_bare_month_after_today_means_last_year():
    tr = parse_time("12月", date(2026, 3, 15))
    assert tr.start == "2025-12"


def test_no_time_and_not_confused_by_durations():
    assert parse_time("50岁以下的项目经理", TODAY) is None
    assert parse_time("3个月内到期的项目", TODAY) is None
    assert parse_time("连续三个月都有加班", TODAY) is None


def test_coverage_notes():
    outside = coverage_note(parse_time("上个月", TODAY), COV)
    assert "超出" in outside and "2026年1月至2026年4月" in outside and "2026年10月" in outside
    partial = coverage_note(parse_time("2026年", TODAY), COV)
    assert "部分月份" in partial
    assert coverage_note(parse_time("2026年3月", TODAY), COV) is None


@pytest.mark.parametrize("text,months,label", [
    ("1月和3月开票合计", ["2026-01", "2026-03"], "2026年1月、2026年3月"),      # not February
    ("2025年1月和3月", ["2025-01", "2025-03"], "2025年1月、2025年3月"),       # the bare month in the named year
    ("1月、2月和4月的出勤", ["2026-01", "2026-02", "2026-04"], "2026年1月、2026年2月、2026年4月"),
    ("3月、4月的出勤", ["2026-03", "2026-04"], "2026年3月至2026年4月"),         # one run stays a range
    ("一季度和二季度的开票", [f"2026-{m:02d}" for m in range(1, 7)], "2026年1月至2026年6月"),  # not the first alone
])
def test_periods_listed_with_he_are_all_their_months_and_only_those(text, months, label):
    tr = parse_time(text, TODAY)
    assert tr.months == months and tr.label() == label


def test_a_partly_covered_list_of_months_says_which_months_it_uses():
    note = coverage_note(parse_time("1月和5月", TODAY), COV)
    assert "以下仅基于 2026年1月 的数据" in note, note
