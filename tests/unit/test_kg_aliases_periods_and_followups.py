"""Field aliases (field_aliases.py), two named periods and the percentage-point gap
(two_periods.py), per-all denominators (population.py), compound questions and pronoun chains
(compound.py)."""

from __future__ import annotations

from datetime import date

from core.agents.kg import compound, field_aliases, population, two_periods
from core.agents.kg.tools import change

TODAY = date(2026, 11, 30)


def test_missing_fee_field_is_read_as_the_fee_columns_not_hours():
    q, alias = field_aliases.field_alias("3月加班费一共多少")
    assert q == "3月加班超时费一共多少" and alias["also"] == ["国定加班费"]
    assert "数据中没有“加班费”" in field_aliases.alias_note(alias) and "国定加班费" in field_aliases.alias_note(alias)
    assert field_aliases.field_alias("3月国定加班费合计") == ("3月国定加班费合计", None)  # an existing column stays


def test_two_named_periods_on_both_sides_of_bi():
    two = two_periods.two_periods("一季度开票比去年四季度多多少", TODAY)
    assert two["current_months"] == ["2026-01", "2026-02", "2026-03"]
    assert two["base_months"] == ["2025-10", "2025-11", "2025-12"] and not two["base_avg"]
    two = two_periods.two_periods("4月开票比1-3月平均高多少", TODAY)
    assert two["current_months"] == ["2026-04"] and two["base_avg"] and len(two["base_months"]) == 3
    assert two_periods.two_periods("3月开票多少", TODAY) is None


def test_change_against_a_monthly_average_base():
    rows = [{"年月": m, "值": v, "行数": 1} for m, v in (("2026-01", 100), ("2026-02", 200), ("2026-03", 300),
                                                          ("2026-04", 260))]
    r = change(rows, "年月", ["2026-01", "2026-02", "2026-03"], ["2026-04"], base_avg=True)[0]
    assert r["基期值"] == 200 and r["本期值"] == 260 and r["变化量"] == 60 and r["基期口径"] == "月均"
    r = change(rows, "年月", ["2025-10", "2025-11"], ["2026-01"])[0]
    assert r["基期值"] is None and r["变化量"] is None and r["缺失期"] == ["2025-10", "2025-11"]


def test_percentage_point_gap_between_two_months():
    rows = [{"年月": "2026-02", "比率": 97.7}, {"年月": "2026-03", "比率": 98.08}]
    text = two_periods.pp_sentence(rows, "2026-02", "2026-03", "出勤率")
    assert "2026年3月出勤率比2026年2月高 0.38 个百分点" in text
    assert "低 0.38 个百分点" in two_periods.pp_sentence(rows, "2026-03", "2026-02", "出勤率")
    assert "数据中未找到2026年4月" in two_periods.pp_sentence(rows, "2026-03", "2026-04", "出勤率")


def test_per_all_average_divides_by_every_group_and_says_so():
    assert population.per_all("平均每个员工有几张证书", "证书", {"op": "count", "group_by": "工号", "then": "avg"})
    assert not population.per_all("4月人均加班多少小时", "考勤", {"op": "sum", "group_by": "工号", "then": "avg"})
    res = {"值": 1.14, "合计": 16, "组数": 14, "分组": "工号",
           "各组": [{"工号": f"K{i}", "值": 1} for i in range(14)]}
    wide = population.widen_avg(res, [f"K{i}" for i in range(33)])
    assert wide["值"] == 0.48 and wide["组数"] == 33 and wide["无记录组数"] == 19 and wide["全员口径"]


def test_compound_question_splits_and_the_pronoun_takes_the_answer():
    assert compound.split_who_then_followup("青浦-区图书馆的项目负责人是谁，他负责几个项目") == \
        ("青浦-区图书馆的项目负责人是谁", "他负责几个项目？")
    assert compound.split_who_then_followup("青浦-区图书馆3月有多少人出勤？") is None
    assert compound.split_who_then_followup("3月加班最多的是谁，有哪些证书") == ("3月加班最多的是谁", "他有哪些证书？")
    steps = [{"id": 1, "tool": "projects", "rows": [{"项目编号": "XMSQ0102", "项目名称": "青浦-区图书馆",
                                                     "项目负责人": "周建国"}]}]
    prev = {"people": [], "projects": ["青浦-区图书馆"], "subjects": compound.answer_subjects(steps)}
    assert compound.resolve_pronoun("他负责几个项目？", prev) == "周建国负责几个项目？"
    top = [{"id": 1, "tool": "attendance", "rows": [{"工号": "K1", "姓名": "刘德明", "加班小时": 36},
                                                    {"工号": "K2", "姓名": "钱国庆", "加班小时": 12}]},
           {"id": 2, "tool": "aggregate", "executed_params": {"of": 1, "group_by": "工号", "top": 1},
            "rows": [{"工号": "K1", "值": 36}]}]
    prev = {"people": [], "projects": [], "subjects": compound.answer_subjects(top)}
    assert compound.resolve_pronoun("他在哪个项目", prev) == "刘德明在哪个项目"
    assert compound.resolve_pronoun("他在哪个项目", {"people": ["钱国庆"], "subjects": prev["subjects"]}) is None
