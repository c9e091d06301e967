"""Blind-batch failures of the policy rules engine, as behaviour: a question that names a time
(1月份 / 下半年 / 第一轮) is answered from the document whose period covers it; a department
named by its article heading fills a 哪个部门 slot; an enumeration's count answers 一共有几类;
a word the word-cutter guessed (价算 in 不含税价算) never refuses an answer nor shows as 未涉及."""

from __future__ import annotations

from core.agents.rag.gaps import guessed_terms
from core.agents.rag.periods import asked_months, doc_months, period_mismatch
from core.agents.rag.ruledata import weight
from core.agents.rag.scoring import score_chunk
from core.agents.rag.slots import slot_gaps
from core.agents.rag.textutil import real_word

# the two 济南 car-subsidy notices as the index hands them over (metadata of data/samples/policies)
TIER = ("新能源汽车：新车购车发票金额为10万元（含）至30万元（不含）的，每辆补贴4000元，"
        "购车发票金额以机动车销售统一发票上不含税价为准。")
JANUARY = {"chunk_id": "jan-1", "doc_id": "jan", "title": "2025年政府汽车消费补贴活动公告",
           "file_name": "2025年政府汽车消费补贴活动公告.docx", "expiry_date": "2025-04-30",
           "heading": "三、补贴金额与标准", "text": TIER, "evidence": {"bm25": 2, "dense": 2}}
JULY = {"chunk_id": "jul-1", "doc_id": "jul", "title": "济南市2025年下半年第一轮汽车消费补贴活动公告",
        "file_name": "济南市2025年下半年汽车消费补贴活动第一轮公告.docx", "expiry_date": "2025-08-05",
        "heading": "三、补贴金额与标准", "text": TIER.replace("4000元", "4800元"), "evidence": {"bm25": 1, "dense": 1}}
AUGUST = {**JULY, "chunk_id": "aug-1", "doc_id": "aug", "title": "济南市2025年下半年第二轮汽车消费补贴活动公告",
          "file_name": "济南市2025年下半年汽车消费补贴活动第二轮公告.docx"}


def test_the_months_a_question_names():
    assert asked_months("1月份开始的济南政府汽车消费补贴补多少？") == {1}
    assert asked_months("下半年的汽车消费礼包有多少？") == set(range(7, 13))
    assert asked_months("三季度发了哪些消费券？") == {7, 8, 9}
    assert asked_months("5月1日买的车能申请吗？") == set()  # a day, not a time frame
    assert asked_months("汽车消费补贴怎么申请？") == set()


def test_a_documents_period_comes_from_its_title_else_its_dates():
    assert doc_months(JULY) == set(range(7, 13))  # 下半年 in the title
    assert doc_months(JANUARY) == {1, 2, 3, 4}    # valid until 2025-04-30
    assert doc_months({"title": "关于加强个人所得税纳税信用建设的通知"}) == set()  # nothing says: never penalised


def test_a_question_about_january_is_not_answered_from_the_july_notice():
    q = "1月份开始的济南政府汽车消费补贴，买一辆不含税20万元的新能源车补贴多少？"
    assert period_mismatch(q, JULY) and not period_mismatch(q, JANUARY)
    jan, jul = score_chunk(q, JANUARY), score_chunk(q, JULY)
    assert jul["score"] <= weight("uncovered_period_cap") < jan["score"]
    assert not jul["relevant"] and jan["relevant"]
    assert "文件时段为7—12月" in jul["reason"]
    # "1月份开始的" picks the document; it is no term a sentence has to contain
    assert "开始" not in jan["missing"] and "1" not in jan["missing"]


def test_the_round_a_question_names_picks_that_rounds_notice():
    q = "下半年第一轮8500元的汽车消费礼包里，加油储值卡额度是多少？"
    assert not period_mismatch(q, JULY)
    assert period_mismatch(q, AUGUST) == "文件为第2轮"


def test_a_department_named_by_the_article_heading_fills_the_slot():
    art = {"chunk_id": "c13", "doc_id": "jn", "title": "济南市2025年家电以旧换新补贴实施细则",
           "heading": "第十三条 市发展改革委", "path": ["济南市2025年家电以旧换新补贴实施细则", "第三章 组织实施"],
           "text": "负责加强统筹协调，推进家电以旧换新补贴政策实施。"}
    assert slot_gaps("济南市家电以旧换新由哪个部门负责统筹协调", [art]) == []
    assert slot_gaps("济南市家电以旧换新由哪个部门负责统筹协调", [{**art, "heading": "第十三条 工作要求"}]) == ["部门"]


def test_an_enumerations_count_answers_how_many_kinds_in_all():
    scope = {"chunk_id": "c1", "doc_id": "jn", "title": "济南市2025年家电以旧换新补贴实施细则",
             "heading": "第二条 补贴范围",
             "text": "电冰箱（含冰吧、冰柜、冷柜）、洗衣机、电视机、空调、电脑、热水器、家用灶具、吸油烟机、"
                     "净水器、洗碗机、微波炉、电饭煲（含电饭锅）12类家电产品。"}
    assert slot_gaps("济南2025年家电以旧换新补贴范围一共有几类家电？", [scope]) == []


def test_a_guessed_word_is_no_gap_to_refuse_on():
    assert not real_word("价算") and not real_word("天前")  # jieba's guesses across a word boundary
    assert real_word("不含税") and real_word("档次") and real_word("2025")
    assert guessed_terms(["价算", "档次"]) == ["价算"]
    assert guessed_terms(["购新"], ["山东省手机、平板、智能手表（手环）购新补贴实施细则"]) == []  # a title's word is real


def test_a_count_must_be_of_the_thing_counted():
    report = {"chunk_id": "r3", "doc_id": "hz", "title": "洪泽区人民政府2023年政府信息公开工作年度报告",
              "heading": "三、收到和处理政府信息公开申请情况",
              "text": "项目: 三、本年度办理结果 （四）无法提供 2.没有现成信息需要另行制作；申请人情况/总计: 3"}
    # 3 requests were refused as needing new work (另行制作): that is no count of 政策解读
    assert slot_gaps("洪泽区2023年制作了多少篇政策解读？", [report]) == ["数量"]
    assert slot_gaps("洪泽区2023年没有现成信息需要另行制作的申请有几件？", [report]) == []


def test_asking_for_a_date_leaves_no_fragment_terms():
    from core.agents.rag.textutil import key_terms, yesno_predicates

    terms = key_terms("2025年泉城购消费券的发放时间是哪天到哪天？")
    assert "天到" not in terms and "泉城购" in terms
    assert "天前" not in key_terms("汽车消费补贴资料被退回的，最晚要在哪天前修改完？")
    # 在商超买家电用: 超买 is a guess across 商超 | 买, no action a yes/no answer must speak of
    assert "超买" not in yesno_predicates("泉城购零售消费券能不能在商超买家电用？")
    assert yesno_predicates("家电以旧换新补贴能不能和其他优惠叠加？") == ("叠加",)


def test_taking_two_offers_together_is_the_action_asked():
    from core.agents.rag.textutil import yesno_predicates

    # the answer must speak of taking both (同时 / 叠加), not merely describe one of them
    assert yesno_predicates("新车首保消费券可以和下半年的汽车消费礼包同时领吗？") == ("同时",)
    assert yesno_predicates("泉城购一单可以同时用两张券吗") != ("同时",)  # one offer, no second one named
