"""Issue #15: a question that names a document by its short name (省家电方案, 济南家电细则, 860号文,
泉城购公告) is not answered from another document's sentences (the 济南 细则 quoted for the 省 方案)."""

from __future__ import annotations

from core.agents.rag.final_check import document_references, unmet_documents

PROVINCE = {"title": "山东省2025年家电以旧换新实施方案", "file_name": "省商务厅等4部门关于印发《山东省2025年家电以旧换新实施方案》的通知.pdf",
            "doc_number": "鲁商字〔2025〕1号"}
CITY = {"title": "济南市2025年家电以旧换新补贴实施细则", "file_name": "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知(1).pdf",
        "doc_number": "济商务字〔2025〕5号"}
CREDIT = {"title": "关于加强个人所得税纳税信用建设的通知", "file_name": "发改办财金规〔2019〕860号.pdf",
          "doc_number": "发改办财金规〔2019〕860号"}
COUPONS = {"title": "2025年济南市“泉城购”零售、餐饮消费券发放活动公告", "file_name": "", "doc_number": ""}
POOL = [PROVINCE, CITY, CREDIT, COUPONS]


def test_a_short_name_names_the_document_whose_title_holds_every_character_of_it():
    assert document_references("省家电方案在组织领导部分，要求各市统筹处理好哪两者的关系？", POOL) == ["省家电方案"]
    assert document_references("按济南家电细则，一张销售发票可以对应几件产品？", POOL) == ["济南家电细则"]
    assert document_references("860号文的有效期到什么时候？", POOL) == ["860号文"]
    assert document_references("我想问一下省里的家电方案说的回收", POOL) == ["省里的家电方案"]


def test_words_before_a_kind_word_that_name_no_document_are_no_reference():
    assert document_references("新车首保消费券申报时，每个文件资料最大不能超过多少？", POOL) == []
    assert document_references("山东家电方案要求各市的家电以旧换新工作方案报哪里备案？", POOL) == ["山东家电方案"]
    assert document_references("999号文说了什么", POOL) == []


def test_an_answer_citing_only_another_document_leaves_the_named_one_unmet():
    claims = [{"text": "负责加强统筹协调，推进家电以旧换新补贴政策实施。", "cites": [1]}]
    asked = "省家电方案在组织领导部分，要求各市统筹处理好哪两者的关系？"
    assert unmet_documents(asked, claims, [CITY], POOL) == ["省家电方案"]
    assert unmet_documents(asked, claims, [PROVINCE], POOL) == []
    assert unmet_documents("泉城购公告列举了哪些不正当方式？", claims, [CITY], POOL) == ["泉城购公告"]
    assert unmet_documents("家电补贴怎么领？", claims, [CITY], POOL) == []


def test_a_question_naming_two_documents_is_answered_from_either():
    claims = [{"text": "市市场监管局：负责依法查处价格欺诈、虚假宣传等违法行为。", "cites": [1]}]
    asked = "济南家电细则与省家电方案对市场监管部门依法查处的违法行为表述不同：济南细则明确多列了哪一项？"
    assert unmet_documents(asked, claims, [CITY], POOL) == []
    assert unmet_documents(asked, claims, [CREDIT], POOL) != []
