"""The typed question model (issue #15): one question parsed once into QuestionFeatures, JSON-able
for the checkpointer, carrying entities, time, the asked nouns, the operation, conditions,
grouping, comparison, follow-up reference and what the data lacks."""

import json
from datetime import date

import pytest

from core.agents.kg.entity_index import EntityIndex
from core.agents.kg.features import QuestionFeatures
from core.agents.kg.understanding import extract_slots

TODAY = date(2026, 11, 30)
PROJECTS = [{"项目编号": "XMSQ0102", "项目名称": "青浦-区图书馆", "项目简称": "区图书馆", "服务状态": "服务中"}]
PEOPLE = [{"工号": "KWL1801001", "姓名": "周建国", "岗位名称": "项目经理"}]


@pytest.fixture(scope="module")
def idx():
    return EntityIndex.from_rows(PROJECTS, PEOPLE, [], {"岗位名称": ["项目经理"]}, ("2026-01", "2026-04"), {})


def features(q, idx, previous=None):
    return QuestionFeatures.from_slots(extract_slots(q, idx, TODAY, previous))


def test_a_count_question(idx):
    f = features("青浦-区图书馆2026年3月有多少人出勤？", idx)
    assert f.intent == "考勤" and f.projects == ("青浦-区图书馆",) and f.time["months"] == ["2026-03"]
    assert f.operation == "count" and not f.unknown and not f.followup


def test_an_unknown_field_is_carried(idx):
    f = features("周建国的学历是什么？", idx)
    assert f.people == ("周建国",) and f.asked == ("学历",) and f.unknown == {"fields": ["学历"]}


def test_grouping_comparison_and_follow_up(idx):
    f = features("2026年3月比2月开票增长多少", idx)
    assert f.operation == "growth" and f.comparison["base"] == "2026-02" and f.comparison["current"] == "2026-03"
    prev = extract_slots("青浦-区图书馆2026年3月有多少人出勤？", idx, TODAY)
    assert features("那4月呢", idx, prev).followup is True
    assert features("按汇总业态统计各有多少个项目？", idx).grouping == "汇总业态"


def test_round_trips_through_json(idx):
    f = features("周建国的学历是什么？", idx)
    assert QuestionFeatures.from_dict(json.loads(json.dumps(f.to_dict(), ensure_ascii=False))) == f
