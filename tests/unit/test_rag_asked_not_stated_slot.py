"""On the real policy documents (data/samples/policies, parsed and chunked as ingestion does): the
slot a question asks is told apart from what it only states — "过了期限没交会怎样" asks for the
consequence, not a 期限; "最多能买几辆享受补贴" counts cars, not "享受补贴"; "有哪几档" asks for the
tiers themselves, so the answer quotes them, not how to claim the coupons."""

from __future__ import annotations

import pytest

from core.agents.rag.answer_extraction import extract_answer
from core.agents.rag.slots import slot_gaps, slot_kind
from core.agents.rag.textutil import key_terms
from tests.support.policy_samples import chunks

FIRST_INSURANCE = "济南市2025年新车首保消费券活动公告.docx"
COUPONS = "2025年济南市“泉城购”零售、餐饮消费券发放活动公告.docx"
SECOND_ROUND = "济南市2025年下半年汽车消费补贴活动第二轮公告.docx"


def answer(question: str, file_name: str) -> str:
    draft, _ = extract_answer(question, list(key_terms(question)), chunks(file_name))
    return draft


@pytest.mark.parametrize("question", ["首保消费券申报资料过了期限还没提交会怎样？", "资料超过期限没交会怎么样？"])
def test_a_missed_deadline_asks_for_the_consequence_not_a_period(question):
    assert slot_kind(question)[0] != "期限"
    assert slot_kind("首保消费券的申报期限是多久？")[0] == "期限"


def test_the_consequence_of_a_missed_deadline_is_the_sentence_that_rules_on_it():
    assert "不予补发" in answer("新车首保消费券的资料过了期限没交会怎样？", FIRST_INSURANCE)


def test_a_count_of_things_that_get_a_subsidy_counts_the_things():
    assert slot_gaps("下半年第二轮汽车补贴，企业最多能买几辆享受补贴？", chunks(SECOND_ROUND), max_docs=50) == []


def test_asked_tiers_are_quoted_as_tiers():
    assert "满100元减20元" in answer("泉城购的零售券有哪几档优惠？", COUPONS)
