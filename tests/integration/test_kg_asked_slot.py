"""The asked-slot gate on the sample data: a question asking a number of events, a field the
records lack, or the holder of a maximum gets that, or a refusal saying what was not found —
never a count of another noun, a record list or a grand total in its place. An unknown person
name is not found, with a one-character look-alike offered only as a suggestion."""

from __future__ import annotations

import pytest

from tests.integration.test_ask_kg_sample import P, _store_holder, ask, kg, sample_graph_path  # noqa: F401


@pytest.mark.parametrize("q,said", [
    ("设备SB-0105-003被修过多少次？", "次数"),              # only a device record: 共 1 台设备 is no repair count
    ("刘德明的体检结果好不好？", "未找到“体检结果”"),        # no health-check field
    ("王志强的劳动合同什么时候到期？", "未找到“劳动合同”"),  # no labour-contract field
])
def test_a_figure_the_data_does_not_hold_is_not_found(kg, q, said):
    r = ask(q, auto=True)
    assert r["answer"].startswith("数据中未找到") and said in r["answer"], r["answer"][:200]
    assert "依据" not in r["answer"] and "共 16" not in r["answer"]
    assert not r["rows"] and not r["provenance"]


@pytest.mark.parametrize("q", [
    "耗材采购中采购数量最大的是什么东西？",           # asked the item: never the 6 records listed
    "1到4月份加班超时费加起来最高的员工是谁？",       # asked the person: never the grand total of all
])
def test_asking_who_or_what_is_highest_never_gets_a_list_or_a_total(kg, q):
    r = ask(q, auto=True)
    a = r["answer"]
    assert "合计为 17,730元" not in a and "共 6 条记录" not in a, a[:200]
    assert a.startswith("没能找出所问的") or "排名前 1" in a, a[:200]


def test_an_unknown_person_is_not_found_and_a_look_alike_is_only_suggested(kg):
    r = ask("周建明手上负责哪几个项目？", auto=True)
    assert r["answer"].startswith("数据中未找到人员“周建明”"), r["answer"][:200]
    assert "最接近的是：周建国" in r["answer"]
    assert not r["rows"] and "共 16" not in r["answer"]


def test_a_weekday_is_not_taken_for_an_unknown_person(kg):
    r = ask("周一到周五的排班有哪些？", auto=True)
    assert "未找到人员" not in r["answer"], r["answer"][:200]


@pytest.mark.parametrize("q,said", [
    ("徐汇-文化馆合同是从哪一天开始的？", "2026-07-01"),     # 合同 is a word the engine knows: the record answers
    ("徐汇区的那些项目客户一共投诉过几次？", "客户投诉 3次"),  # the records carry the complaints in 次
])
def test_a_question_the_records_do_answer_is_not_refused(kg, q, said):
    r = ask(q, auto=True)
    assert said in r["answer"] and not r["answer"].startswith("数据中未找到"), r["answer"][:200]
