"""On the real policy documents (data/samples/policies, parsed and chunked as ingestion does):
a colloquial question is not refused for a "missing term" that is only a cut of its wording —
an action glued to its object or classifier (买手机, 买辆), a numeral after 哪 (拿到哪两个证),
an everyday word the document says in its own words (换成现金 → 兑换现金, 手机 → 数码产品) —
while a subject the documents never mention is still one."""

from __future__ import annotations

import pytest

from core.agents.rag.gaps import how_verb_gap, question_gaps, uncovered_nouns
from core.agents.rag.textutil import salient_nouns
from tests.support.policy_samples import chunks

JANUARY = "2025年政府汽车消费补贴活动公告.docx"
COUPONS = "2025年济南市“泉城购”零售、餐饮消费券发放活动公告.docx"


@pytest.mark.parametrize("question, asked, not_asked", [
    ("泉城购的零售券能在超市买手机吗？", "手机", "买手机"),
    ("我买辆20万的燃油车，1月那轮能补多少？", None, "买辆"),
])
def test_an_action_glued_to_its_object_or_classifier_asks_about_the_object(question, asked, not_asked):
    nouns = salient_nouns(question)
    assert not_asked not in nouns
    if asked:
        assert asked in nouns


@pytest.mark.parametrize("question, file_name", [
    ("泉城购零售券能在超市买平板电脑吗？", COUPONS),
    ("泉城购的消费券可以换成现金吗？", COUPONS),
])
def test_an_everyday_word_the_document_says_in_its_own_words_is_covered(question, file_name):
    assert uncovered_nouns(question, chunks(file_name)) == []


def test_a_numeral_after_which_is_the_asked_object_not_an_action():
    question = "申请1月那轮的购车补贴，要先拿到哪几个证件？"
    assert how_verb_gap(question, chunks(JANUARY)) == []
    assert "两个" not in question_gaps("想领1月那轮的购车补贴，得先拿到哪两个证？", chunks(JANUARY))


def test_a_subject_the_document_never_mentions_is_still_missing():
    assert "充电桩" in uncovered_nouns("泉城购的零售券能买充电桩吗？", chunks(COUPONS))


TAX_CREDIT = "发改办财金规〔2019〕860号.pdf"


@pytest.mark.parametrize("question, filler", [
    ("860号文说个税纳税信用好的人能得到哪些便利？", "文说"),
    ("按规定济南家电补贴的产品要在几天内送到？", "按规定"),
    ("我老婆1月那轮买的车能领补贴吗？", "老婆"),
])
def test_a_quoting_phrase_or_the_askers_family_is_no_missing_subject(question, filler):
    assert filler not in salient_nouns(question)


def test_a_question_quoting_the_document_is_not_refused_for_the_quote():
    assert question_gaps("860号文说个税纳税信用好的人可以享受哪些便利？", chunks(TAX_CREDIT)) == []
