"""On the real policy documents (data/samples/policies, parsed and chunked as ingestion does):
a question for what only a document's header states (its 发布日期, 文号) or for a named person
(签发人) is refused as not stated when the document states none — a sentence that merely
mentions "公告发布前" or a list of addressees does not answer it — and answered from the header
when it does."""

from __future__ import annotations

import pytest

from core.agents.rag.slots import slot_gaps, slot_kind
from tests.support.policy_samples import chunks

FIRST_INSURANCE = "济南市2025年新车首保消费券活动公告.docx"
FIRST_INSURANCE_MORE = "济南市2025年新车首保消费券活动补充公告.docx"
COUPONS = "2025年济南市“泉城购”零售、餐饮消费券发放活动公告.docx"
JINAN_APPLIANCES = "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知(1).pdf"
TAX_CREDIT = "发改办财金规〔2019〕860号.pdf"


@pytest.mark.parametrize("question, files, gap", [
    ("新车首保消费券活动的公告是什么时候发布的？", (FIRST_INSURANCE, FIRST_INSURANCE_MORE), "日期"),
    ("泉城购消费券发放活动公告的文号是多少？", (COUPONS,), "文号"),
])
def test_a_header_field_the_document_does_not_state_is_refused_as_not_stated(question, files, gap):
    assert slot_gaps(question, chunks(*files), max_docs=50) == [gap]


def test_a_header_field_the_document_states_is_answered_from_it():
    assert slot_gaps("济南家电以旧换新补贴实施细则是哪天印发的？", chunks(JINAN_APPLIANCES), max_docs=50) == []


@pytest.mark.parametrize("question", ["860号文件是谁签发的？", "860号通知的签发人是哪位？"])
def test_a_signer_the_document_never_names_is_refused_as_not_stated(question):
    assert slot_kind(question)[0] == "人员"
    assert slot_gaps(question, chunks(TAX_CREDIT), max_docs=50) == ["人员"]


def test_who_may_apply_is_still_a_condition_not_a_person():
    assert slot_kind("1月那轮汽车补贴谁可以申请？")[0] != "人员"
