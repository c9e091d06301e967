"""Issue #13 on the sample graph: a new question in an existing thread is understood afresh
(only a question that refers back — 那/其中/这些/他/…呢 — may reuse the previous rows), and the
plain-language plan form produces a plan the service runs."""

from __future__ import annotations

import pytest

from core.agents.kg.describe import apply_plan_form, describe_plan, plan_form
from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401

REUSED = "（基于前序对话推导"


@pytest.mark.parametrize("first,second", [
    ("青浦-区图书馆2026年3月有多少人出勤？", "合同金额最高的项目是哪个"),
    ("青浦-区图书馆2026年3月有多少人出勤？", "30岁以下的员工有哪些"),
    ("2026年1-3月的考勤明细", "每个片区的项目数量是多少"),
    ("3月份加班超过20小时的保安有哪些？", "合同金额最大的项目是哪个"),
])
def test_new_question_in_a_thread_is_not_a_follow_up(kg, first, second):
    tid = ask(first, auto=True)["thread"]
    fresh = ask(second, auto=True)
    again = ask(second, thread_id=tid, auto=True)
    assert not again["answer"].startswith(REUSED), again["answer"][:120]
    assert again["answer"] == fresh["answer"] and len(again["rows"]) == len(fresh["rows"])


def test_new_question_in_a_thread_is_confirmed_again(kg):
    tid = ask("青浦-区图书馆2026年3月有多少人出勤？", auto=True)["thread"]
    r = ask("合同金额最高的项目是哪个", thread_id=tid)
    assert r["need_confirm"] and r["need_confirm"]["kind"] == "slots"


@pytest.mark.parametrize("first,follow,expect", [
    ("2026年1-3月的考勤明细", "其中连续三个月都有加班的保安有哪些", "刘德明"),
    ("青浦-区图书馆3月有多少人出勤？", "其中女性有几位？", "共 2 人"),
])
def test_referring_follow_up_still_reuses(kg, first, follow, expect):
    tid = ask(first, auto=True)["thread"]
    r = ask(follow, thread_id=tid, auto=True)
    assert expect in r["answer"]


def test_plain_plan_and_form_run_through_the_service(kg):
    r = ask("青浦-区图书馆2026年3月有多少人出勤？", principal=P("manager_a"))
    r = ask("确认", thread_id=r["thread"], principal=P("manager_a"))
    need = r["need_confirm"]
    assert need["kind"] == "plan"
    assert need["steps"][0].startswith("① 取青浦-区图书馆") and "2026年3月的考勤记录" in need["steps"][0]
    assert need["steps"][1] == "② 统计人数"
    assert not any(w in "".join(need["steps"]) for w in ("attendance", "aggregate", "{", "group_by"))
    form = plan_form(need["plan"])
    assert form["projects"] == ["XMSQ0102"] and form["months"] == ["2026-03"]
    form["months"] = ["2026-04"]
    edited = apply_plan_form(need["plan"], form)
    done = ask({"plan": edited}, thread_id=r["thread"], principal=P("manager_a"))
    assert done["need_confirm"] is None and "共 5 人" in done["answer"] and "2026年4月" in done["answer"]


def test_plan_form_condition_threshold(kg):
    r = ask("3月份加班超过20小时的保安有哪些？")
    r = ask("确认", thread_id=r["thread"])
    form = plan_form(r["need_confirm"]["plan"])
    assert form["conditions"][0]["field"] == "加班小时" and form["conditions"][0]["value"] == 20
    form["conditions"][0]["value"] = 30
    done = ask({"plan": apply_plan_form(r["need_confirm"]["plan"], form)}, thread_id=r["thread"])
    assert done["rows"] and all(row["加班小时"] > 30 for row in done["rows"])


def test_describe_plan_uses_names_from_the_index(kg):
    from core.agents.kg.entity_index import get_entity_index

    plan = [{"id": 1, "tool": "attendance", "params": {"projects": ["XMSQ0102"], "months": ["2026-03"]}}]
    assert describe_plan(plan, get_entity_index(kg)) == ["① 取青浦-区图书馆（XMSQ0102）2026年3月的考勤记录"]
