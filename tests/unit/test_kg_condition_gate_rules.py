"""The condition gate's rules on their own: what counts as a figure not understood, and when a
question asking 谁 must get a person's name."""

from __future__ import annotations

from core.agents.kg import condition_gate as gate
from core.agents.kg import count_per_subject


def test_a_figure_no_slot_carries_is_not_understood_but_times_and_codes_are_not_figures():
    assert gate.unconsumed_figures("合同面积在1万平方米上下的项目有哪些？", {}) == ["在1万平方米"]
    assert gate.unconsumed_figures("SB-0105-001 在2026年3月1到4日的记录", {}) == []
    assert gate.unconsumed_figures("上班天数超过20天的员工", {"conditions": [{"expr": "上班天数 > 20"}]}) == []


def test_choosing_between_named_people_needs_no_other_name_but_asking_who_handled_does():
    assert gate.missing_asked("郑晓东和朱俊杰谁加班多", "郑晓东：52小时", ["郑晓东", "朱俊杰"]) is None
    assert gate.missing_asked("采购和维保的记录都是谁经办的？", "共 4 条记录：电梯年度维保", ["喻志华"]) == "人员"
    assert gate.missing_asked("维保合同都是谁经办的？", "经办人：喻志华", ["喻志华"]) is None


def test_a_bound_on_a_shift_count_is_no_per_person_record_count():
    rows = [{"工号": "K1", "姓名": "甲"}, {"工号": "K1", "姓名": "甲"}, {"工号": "K2", "姓名": "乙"}]
    assert count_per_subject.qualifying("4月夜班排了8个及以上的员工有哪些？", rows) is None
    assert count_per_subject.qualifying("有2张以上证书的员工是谁", rows)[1] == ["甲（K1）"]


def test_a_range_of_months_is_no_range_on_the_amount():
    from core.agents.kg.concepts import NUMERIC_FIELDS
    from core.agents.kg.field_figures import figure_conditions

    assert figure_conditions("4月开票比1-3月平均高多少", NUMERIC_FIELDS, set()) == []
    got = figure_conditions("合同金额在200万至450万之间的项目", NUMERIC_FIELDS, set())
    assert [c["expr"] for c in got] == ["合同金额 >= 2000000", "合同金额 <= 4500000"]
