"""Issue #15, misses of fresh blind batch 61 (stop 34): a single day of a month asked of the 考勤 and
排班 records is answered from their 1日…31日 codes (who was on the night shift on the 13th, what a
person's attendance says on the 25th) and, asked which day, the days a code was kept (几号休的年假;
stop 35, batch 64), checked against the spreadsheets with pandas; an amount of one day (hours, money),
which no code holds, is still refused."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from core.agents.kg.day_codes import asked_day, statement
from tests.integration.test_ask_kg_sample import _store_holder, ask, kg, sample_graph_path  # noqa: F401

MAY = date(2026, 5, 1)  # 上个月 = 2026-04
BUSINESS = Path(__file__).resolve().parents[2] / "data" / "samples" / "business"


def _names(sheet: str, project: str, month: str, day: int, codes: set[str]) -> list[str]:
    rows = pd.read_excel(BUSINESS / sheet, dtype=str)
    rows = rows[(rows["项目编号"] == project) & (rows["年月"] == month) & rows[f"{day}日"].isin(codes)]
    return sorted(rows["姓名"])


def test_who_was_on_a_shift_that_day_is_read_from_the_days_codes(kg):
    r = ask("帮我看看科创那边上个月13号夜班是哪俩人？", auto=True, today=MAY)
    head = r["answer"].splitlines()[0]
    expected = _names("08_排班月报.xlsx", "XMSQ0112", "2026-04", 13, {"夜"})
    assert head.startswith("2026-04-13（13日）记为夜班的：") and f"共 {len(expected)} 人" in head, head
    assert sorted(n for n in ("吴建华", "何宇航", "陶明亮") if n in head) == expected  # 陶明亮 was on 全 (24小时班)


def test_who_worked_a_rest_day_that_day_is_read_from_the_attendance_codes(kg):
    r = ask("工业园上个月2号谁来加的班？", auto=True, today=MAY)
    head = r["answer"].splitlines()[0]
    month = pd.concat(pd.read_excel(f, dtype=str) for f in sorted(BUSINESS.glob("07_考勤与人员财务_*.xlsx")))
    expected = sorted(month[(month["项目编号"] == "XMSQ0105") & (month["年月"] == "2026-04") & (month["2日"] == "加")]["姓名"])
    assert head.startswith("2026-04-02（2日）记为休息日加班的：") and all(n in head for n in expected), head
    assert expected == ["孙海涛", "蒋文斌"]


@pytest.mark.parametrize("q,said", [
    ("北斗的郑晓东上个月25号没来，考勤上记的是啥？", "2026-04-25（25日）的记录：郑晓东（KWL2307024） 年（年假）"),
    ("图书馆钱国庆上个月10号排的什么班？", "2026-04-10（10日）的记录：钱国庆（KWL2208011） 夜（夜班）"),
])
def test_a_persons_code_that_day_is_said_with_its_meaning(kg, q, said):
    r = ask(q, auto=True, today=MAY)
    assert r["answer"].startswith(said), r["answer"][:300]


def _days(name: str, month: str, code: str) -> list[str]:
    rows = pd.read_excel(BUSINESS / f"07_考勤与人员财务_{month}.xlsx", dtype=str)
    row = rows[rows["姓名"] == name].iloc[0]
    return [f"{month}-{int(c[:-1]):02d}" for c in rows.columns if c.endswith("日") and c[:-1].isdigit() and row[c] == code]


@pytest.mark.parametrize("q,name,month,code,meaning", [
    ("张凤英4月调休是几号？", "张凤英", "2026-04", "调", "调休"),
    ("魏大勇1月几号休的年假？", "魏大勇", "2026-01", "年", "年假"),
    ("滨江公园的许建军4月几号来加的班？", "许建军", "2026-04", "加", "休息日加班"),
    ("2月哪几天全公司有人旷工？", "杨振华", "2026-02", "旷", "旷工"),  # the only 旷 codes of 2月
])
def test_which_day_a_code_was_kept_is_read_from_the_persons_codes(kg, q, name, month, code, meaning):
    days = _days(name, month, code)
    r = ask(q, auto=True, today=MAY)
    head = r["answer"].splitlines()[0]
    assert head.startswith(f"{month} 记为{meaning}的日子：{name}") and days and all(d in head for d in days), head


def test_a_persons_own_day_off_is_said_even_when_asked_with_a_negation(kg):
    r = ask("郑晓东4月28号没来上班，请的是什么假？", auto=True, today=MAY)
    assert r["answer"].startswith("2026-04-28（28日）的记录：郑晓东（KWL2307024） 病（病假）"), r["answer"][:300]
    r = ask("谁4月28号没来上班？", auto=True, today=MAY)  # who lacks a code: not read from the codes
    assert r["answer"].startswith("没能按“"), r["answer"][:300]


def test_an_amount_of_one_day_is_no_code_and_stays_refused(kg):
    assert asked_day("刘德明3月2日那天加班了几个小时？") is None
    r = ask("刘德明3月2日那天加班了几个小时？", auto=True, today=MAY)
    assert r["answer"].startswith("没能按“"), r["answer"][:300]


def test_rows_of_two_months_or_two_templates_say_nothing_of_a_day():
    assert asked_day("上个月13号夜班是谁") == 13 and asked_day("4月32日夜班是谁") is None
    night = {"姓名": "吴建华", "工号": "KWL2302009", "年月": "2026-04", "13日": "夜", "来源模板": "排班月报"}
    assert statement("4月13日夜班是谁", [{"rows": [night]}]).startswith("2026-04-13（13日）记为夜班的：吴建华")
    assert statement("4月13日夜班是谁", [{"rows": [night, {**night, "年月": "2026-03"}]}]) is None
    assert statement("4月13日夜班是谁", [{"rows": [night, {**night, "来源模板": "考勤与人员财务"}]}]) is None
    assert statement("4月13日夜班是谁", [{"rows": [{**night, "13日": "早"}]}]).startswith("2026-04-13（13日）没有人记为夜班")


def test_the_result_table_carries_the_day_codes_only_when_a_day_is_asked(kg):
    month = ask("科创大厦4月夜班天数各是多少？", auto=True, today=MAY)
    day = ask("科创大厦4月13日夜班是谁？", auto=True, today=MAY)
    assert month["rows"] and not any("13日" in r for r in month["rows"])  # 31 code columns are noise here
    assert day["rows"] and all(r.get("13日") in {"夜", "全", "早", "中", "晚", "白", "休", None} for r in day["rows"])
    assert any(r.get("13日") == "夜" for r in day["rows"])
