"""The data-driven phrasing readers of the KG question side (data/rules/kg_*.json): each
pattern row's own example, negation of a state word, position values that name no data kind,
grouping by a field named in the question, shift kinds the 排班 records hold no count for."""

import re
from datetime import date

import pytest

from core.agents.kg import coverage, kgrules, phrasing
from core.agents.kg.entity_index import EntityIndex
from core.agents.kg.understanding import extract_slots

TODAY = date(2026, 11, 30)
PEOPLE = [{"工号": "KWL2010027", "姓名": "华国栋", "岗位名称": "工程维修"},
          {"工号": "KWL2005035", "姓名": "喻志华", "岗位名称": "采购专员"}]
VALUES = {"岗位名称": ["工程维修", "采购专员", "保安_领班"], "设备类型": ["电梯", "消防"]}


@pytest.fixture(scope="module")
def idx():
    return EntityIndex.from_rows([], PEOPLE, [], VALUES, ("2026-01", "2026-04"), {})


@pytest.mark.parametrize("row", kgrules.rules_file("kg_patterns")["rewrites"]["rows"], ids=lambda r: r["example"])
def test_every_rewrite_row_rewrites_its_example_into_a_known_field(row):
    out = phrasing.rewrite(row["example"])
    literal = [part for part in re.split(r"\\\d", row["replace"]) if part]  # 没有\1的: its fixed words
    assert out != row["example"] and all(part in out for part in literal)  # 上了几天班 → 上班天数, 休了几天 → 休息了


@pytest.mark.parametrize("q,state", [("目前在职（没有离职）的员工有多少人？", "employed"), ("未离职的员工有哪些", "employed"),
                                     ("已离职的员工有哪些", "left"), ("离职的保安有几个", "left"),
                                     ("在职员工有多少人", "employed"), ("不在职的人员", "left"), ("员工有多少人", None)])
def test_a_negated_state_word_means_the_opposite(q, state):
    assert phrasing.employment(q) == state


def test_a_position_value_is_not_read_as_the_data_kind_in_its_name(idx):
    s = extract_slots("采购专员是谁？", idx, TODAY)
    assert s["intent"] in ("", "人员") and s["filters"] == {"岗位名称": ["采购专员"]}


def test_owning_person_becomes_a_condition_on_the_records_person_field(idx):
    s = extract_slots("华国栋负责多少台设备？", idx, TODAY)
    assert s["intent"] == "设备"
    assert "设备责任人工号 in ['KWL2010027']" in [c["expr"] for c in s["conditions"]]


@pytest.mark.parametrize("q,field", [("按汇总业态统计各有多少个项目？", "汇总业态"), ("按市区统计项目数量", "市区"),
                                     ("按设备类型统计设备数量", "设备类型"), ("按计费方式分，各有多少个项目？", "计费方式")])
def test_grouping_by_a_field_the_records_hold(idx, q, field):
    assert extract_slots(q, idx, TODAY)["agg"]["group_by"] == field


@pytest.mark.parametrize("q,field", [("姜雨婷2026年1月排了几个晚班？", "晚班天数"), ("孙海涛2026年3月上了几个早班？", "早班天数"),
                                     ("华国栋2026年3月有几个全天班？", "全天班天数")])
def test_a_shift_kind_is_counted_on_its_own_not_as_night_shift(idx, q, field):
    s = extract_slots(q, idx, TODAY)
    assert s["intent"] == "排班" and "missing" not in s
    assert s["agg"] == {"op": "sum", "field": field, "explicit": True}


def test_night_shift_counts_stay_answerable(idx):
    s = extract_slots("华国栋3月上了几个夜班？", idx, TODAY)
    assert "missing" not in s and coverage.unknown_shift_counts("华国栋3月上了几个夜班？") == []


@pytest.mark.parametrize("name,example", sorted(kgrules.cue_examples().items()))
def test_every_named_cue_matches_its_example(name, example):
    assert kgrules.cue(name).search(example)


def test_group_words_and_project_attributes_come_from_the_data_file():
    from core.agents.kg import cues

    assert [f for _rx, f in cues.GROUP_RE] == ["项目负责人", "投标经办人工号", "检查人工号", "设备责任人工号", "片区编号",
                                                "项目编号", "年月", "岗位名称", "工号"]
    assert cues.PROJECT_ATTRS["甲方"] == "甲方名称" and cues.PROJECT_ATTRS["负责人"] == "项目负责人"
    for row in kgrules.rules_file("kg_patterns")["group_words"]["rows"]:
        assert any(rx.search(row["example"]) and f == row["field"] for rx, f in cues.GROUP_RE)


@pytest.mark.parametrize("row", kgrules.rules_file("kg_patterns")["date_fields"]["rows"], ids=lambda r: r["field"])
def test_every_date_field_row_is_picked_for_its_example(row):
    from core.agents.kg.computed import DATE_FIELDS

    first = next(f for rx, f, _i in DATE_FIELDS if rx.search(row["example"]))
    assert first == row["field"]


def test_split_verbs_rejoin_from_the_data_row():
    from core.agents.kg.understanding import normalize_question

    spec = kgrules.rules_file("kg_patterns")["split_verbs"]
    assert normalize_question(spec["example"]) == "3月份请假的人有哪些"
    assert normalize_question("投了几次标") == "投标几次"


@pytest.mark.parametrize("q", kgrules.examples("field_existence"))
def test_every_existence_row_turns_its_example_into_a_zero_condition(q):
    from core.agents.kg.concepts import NUMERIC_FIELDS
    from core.agents.kg.field_conditions import existence_conditions

    got = existence_conditions(q, NUMERIC_FIELDS, set())
    assert len(got) == 1 and got[0]["expr"] in ("值班费 > 0", "客户投诉 == 0", "早班天数 > 0"), got


def test_asking_how_many_is_no_existence_condition():
    from core.agents.kg.concepts import NUMERIC_FIELDS
    from core.agents.kg.field_conditions import existence_conditions

    assert existence_conditions("青浦-区图书馆有多少投诉？", NUMERIC_FIELDS, set()) == []


def test_a_year_bound_names_the_date_column_by_its_verb_and_is_no_period(idx):
    ex = kgrules.rules_file("kg_patterns")["date_threshold"]["example"]
    s = extract_slots(ex, idx, TODAY)
    assert [c["expr"] for c in s["conditions"]] == ["date(入职日期) >= date('2019-01-01')"] and s["time"] is None
    s = extract_slots("2016年之前出厂的设备有哪些", idx, TODAY)
    assert [c["expr"] for c in s["conditions"]] == ["date(出厂日期) < date('2016-01-01')"]


@pytest.mark.parametrize("q", kgrules.examples("change_select"))
def test_every_change_select_row_compares_per_project_and_keeps_one_sign(idx, q):
    g = extract_slots(q, idx, TODAY)["growth"]
    assert g["by"] == "项目编号" and g["select"] == ("<" if "少" in q else ">"), g


@pytest.mark.parametrize("q, field, value", [
    ("落标的投标有几次", "中标结果", "未中标"), ("中标的投标有几次", "中标结果", "中标"),
    ("已经结束的项目有哪些", "服务状态", "已结束"), ("在服项目有几个", "服务状态", "服务中"),
    ("党员有几个", "政治面貌", "中共党员"), ("女员工有几个", "性别", "女")])
def test_a_value_said_in_words_comes_from_the_worded_values_rows(q, field, value):
    from core.agents.kg.value_words import worded_values

    assert worded_values(q, ["女", "男"])[field] == [value]
    assert "性别" not in worded_values("女员工有几个", ["男"])  # a gender only when the data holds it
    spec = kgrules.rules_file("kg_vocabulary")["worded_values"]
    assert any(f["field"] == field for f in spec["fields"])  # the row is data, not code


@pytest.mark.parametrize("word,field,intent", kgrules.rules_file("kg_vocabulary")["counted_things"]["rows"])
def test_the_thing_counted_per_group_comes_from_the_counted_things_rows(word, field, intent):
    from core.agents.kg.computed import _which_group_most

    group = "片区" if field == "项目编号" else "项目"
    got_intent, agg = _which_group_most(f"哪个{group}的{word}最少", "", None, None)
    assert agg["op"] == "count" and agg["field"] == field and agg["order"] == "asc", agg
    assert got_intent == intent and agg["group_by"] != field
