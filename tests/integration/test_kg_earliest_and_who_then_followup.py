"""The earliest devices brought onto a project (进场) are ranked by 入项目日期, never listed whole; a
"最…的是哪" answered without a ranking is refused; "谁负责X？他现在有几个项目" answers both parts,
and a person "有几个项目" counts the projects they lead."""

from __future__ import annotations

import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401
from core.agents.kg.asked_slot import missing_slot


@pytest.mark.parametrize("q", ["最早进场到项目上的是哪几台设备？", "最早进场的设备是哪几台？"])
def test_the_earliest_devices_on_a_project_are_ranked_by_their_entry_date(kg, q):
    r = ask(q, auto=True)
    head = r["answer"].split("\n1.")[0]
    assert "入项目日期最早的是 2024-01-01" in head and "共 21 条记录" not in r["answer"], r["answer"][:300]


def test_a_superlative_answered_by_a_listing_is_refused():
    listing = "共 21 条记录，涉及 4 个项目：\n1. 青浦-区图书馆｜设备编号 SB-0102-001"
    assert missing_slot("最晚退场到项目外的是哪几台设备？", listing) is not None
    assert missing_slot("最早进场到项目上的是哪几台设备？", "入项目日期最早的是 2024-01-01：\n1. …") is None


def test_who_leads_a_project_then_how_many_projects_they_have(kg):
    r = ask("谁负责青浦-体育馆？他现在有几个项目？", auto=True)
    first, _, second = r["answer"].partition("【他现在有几个项目？】")
    assert "项目负责人是周建国" in first and "项目负责人：周建国" in second and "共 3 个项目" in second, r["answer"][:600]


@pytest.mark.parametrize("q,n", [("周建国现在有几个项目？", "共 3 个项目"), ("青浦片区有几个项目？", "共 12 个项目")])
def test_a_persons_projects_are_those_they_lead_and_an_areas_are_its_own(kg, q, n):
    r = ask(q, auto=True)
    assert n in r["answer"].split("依据")[0], r["answer"][:300]
