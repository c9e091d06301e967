"""A refusal suggests only documents and issuers plausibly about the asked topic, or none
(core.agents.rag.logic.related_documents, nodes/fallback.py)."""

from __future__ import annotations

from core.agents.rag.logic import related_documents, topic_terms
from core.agents.rag.nodes.fallback import fallback

APPLIANCE = {"doc_id": "a", "title": "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知", "authorities": ["济南市商务局"],
             "text": "个人消费者购买家电产品，按照产品销售价格的15%给予补贴，每件补贴最高不超过2000元。申请条件如下。"}
CAR = {"doc_id": "c", "title": "济南市2025年下半年汽车消费补贴活动第一轮公告", "authorities": ["济南市商务局"],
       "text": "申请补贴需要满足以下条件：在济南市购买新车并上牌。"}
REPORT = {"doc_id": "r", "title": "淮安市人民政府2024年政府信息公开工作年度报告", "authorities": ["淮安市人民政府办公室"],
          "text": "本年度共受理政府信息公开申请。"}
DOCS = [APPLIANCE, CAR, REPORT]


def test_unrelated_question_gets_no_documents():
    assert related_documents("北京市人才引进落户需要满足什么条件？", DOCS) == []
    assert related_documents("上海市二手房交易的契税税率是多少？", DOCS) == []


def test_related_documents_by_title_topic():
    assert [d["doc_id"] for d in related_documents("家电以旧换新的补贴怎么发放到银行卡", DOCS)] == ["a"]
    assert [d["doc_id"] for d in related_documents("汽车消费补贴的二手车能参加吗", DOCS)] == ["c"]


def test_generic_words_are_not_a_topic():
    assert not set(topic_terms("补贴申请需要什么条件和材料？")) & {"补贴", "申请", "条件", "材料"}


def _refuse(question):
    state = {"question": question, "documents": DOCS, "trace": []}
    return fallback(state, config={})["generation"]


def test_refusal_text_names_no_unrelated_agency():
    msg = _refuse("北京市人才引进落户需要满足什么条件？")
    assert "暂未查到" in msg and "可能相关的文件" not in msg
    assert "济南市商务局" not in msg and "淮安" not in msg and "12345" in msg


def test_refusal_text_names_the_related_document_and_its_issuer():
    msg = _refuse("家电以旧换新的补贴怎么发放到银行卡")
    assert "家电以旧换新补贴实施细则" in msg and "济南市商务局" in msg and "淮安" not in msg


def test_a_missing_subject_is_named_with_what_was_found_instead():
    state = {"question": "济南对新能源汽车充电桩有什么补贴？", "documents": DOCS, "trace": [],
             "uncovered_terms": ["充电桩"], "relevant_pool": [CAR]}
    msg = fallback(state, config={})["generation"]
    assert "未涉及：充电桩" in msg
    assert "检索到的是《济南市2025年下半年汽车消费补贴活动第一轮公告》，其中没有关于“充电桩”的规定" in msg
    assert "可能相关的文件" not in msg and "济南市商务局" in msg


def test_an_unfilled_slot_is_said_as_not_stated_not_as_a_missing_word():
    state = {"question": "家电补贴资格领到以后多久失效？", "documents": DOCS, "trace": [],
             "uncovered_terms": ["期限"], "relevant_pool": [APPLIANCE]}
    msg = fallback(state, config={})["generation"]
    assert "没有写明所问的期限（多长时间）" in msg and "未涉及：期限" not in msg
    assert "可能相关的文件：《关于印发《济南市2025年家电以旧换新补贴实施细则》的通知》" in msg
