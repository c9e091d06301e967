"""On the real policy documents (data/samples/policies, parsed and chunked as ingestion does):
a duration, a count or a deadline asked in everyday words is found where the document states
it; the answer leads with the sentence that fills the asked slot; a price the question states
gets an amount computed from the cited rate rule; a subject the evidence never mentions
(充电桩, 企业所得税) is a gap to refuse on, not a reason to answer with the nearest passage."""

from __future__ import annotations

import pytest

from core.agents.rag.calc import rate_claim, verify_calculation
from core.agents.rag.gaps import uncovered_nouns
from core.agents.rag.slot_check import fill_asked_slot
from core.agents.rag.slots import event_predicate, slot_gaps
from core.agents.rag.textutil import display, norm, split_sentences
from tests.support.policy_samples import chunks

JANUARY = "2025年政府汽车消费补贴活动公告.docx"
TOP_UP = "关于追加2025年政府汽车消费补贴资金额度的公告.docx"
COUPONS = "2025年济南市“泉城购”零售、餐饮消费券发放活动公告.docx"
JINAN_APPLIANCES = "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知(1).pdf"
TAX_CREDIT = "发改办财金规〔2019〕860号.pdf"


def filling_sentence(question: str, file_name: str) -> str:
    explain: list = []
    assert slot_gaps(question, chunks(file_name), max_docs=50, explain=explain) == []
    return next(e["sentence"] for e in reversed(explain) if "sentence" in e)


def claim_of(file_name: str, needle: str) -> tuple[list[dict], list[dict]]:
    """(the document's chunks, one claim quoting its sentence that contains ``needle``)."""
    used = chunks(file_name)
    for n, d in enumerate(used, 1):
        for pos, s in enumerate(split_sentences(d["body"])):
            if needle in norm(display(s)):
                return used, [{"text": display(s), "cites": [n], "source": s, "n": n, "pos": pos}]
    raise AssertionError(needle)


@pytest.mark.parametrize("question, file_name, stated", [
    ("领了泉城购的政府消费券以后得在多长时间里用完？", COUPONS, "24小时"),
    ("济南家电补贴资格领取以后要在几天之内用？", JINAN_APPLIANCES, "2个自然日"),
    ("济南家电以旧换新服务平台最少派几个人驻点？", JINAN_APPLIANCES, "4名"),
    ("济南家电以旧换新一个品类总共有几次领取机会？", JINAN_APPLIANCES, "3次领取机会"),
])
def test_a_duration_or_count_asked_in_everyday_words_is_found_where_the_document_states_it(question, file_name, stated):
    assert stated in norm(filling_sentence(question, file_name))


def test_a_total_is_still_not_answered_by_a_per_person_count():
    # the notice says each user gets 1张 per batch, never how many are issued per batch
    assert slot_gaps("泉城购消费券每批次一共投放多少张？", chunks(COUPONS), max_docs=50) == ["数量"]


def test_a_deadline_is_the_deadline_of_the_event_asked_about():
    q = "1月那次汽车补贴，申请截止到几号？"
    assert event_predicate(q) == "申请"
    used, claims = claim_of(JANUARY, "2025年4月30日前完成修改")  # the 资料修改 deadline, not 申请's
    claims, used, answered = fill_asked_slot(q, claims, used)
    assert answered and "2025年4月15日" in norm(claims[0]["text"]) and "申报" in claims[0]["text"]


def test_the_answer_leads_with_the_sentence_that_fills_the_asked_date():
    q = "追加的汽车补贴资金几号几点开始申报？"
    used, claims = claim_of(TOP_UP, "目前补贴额度已全部申领完毕")  # a date (1月25日) of another event
    claims, used, answered = fill_asked_slot(q, claims, used)
    assert answered and "2月26日10时" in norm(claims[0]["text"])
    assert len(claims) == 2  # the sentence it had is kept after it


def test_a_stated_price_gets_the_amount_computed_from_the_cited_rate_rule():
    used, claims = claim_of(JINAN_APPLIANCES, "按最终销售价格的15%给予补贴")
    second_grade = rate_claim("我在济南买了台8000元的二级能效空调，补贴多少钱？", claims, used)
    assert "8000元×15%＝1200元" in second_grade["text"] and second_grade["cites"] == [claims[0]["n"]]
    first_grade = rate_claim("济南买台4000元的1级能效冰箱能补多少？", claims, used)
    assert "4000元×（15%+5%）＝800元" in first_grade["text"]  # 1级 also gets the extra 5%
    capped = rate_claim("济南买台15000元的1级能效冰箱能补多少？", claims, used)
    assert "按2000元补贴" in capped["text"]  # 每件补贴不超过2000元
    # no grade named: which rates apply is not known, nothing is computed
    assert rate_claim("济南买台8000元的空调能补多少？", claims, used) is None


def test_the_citation_check_redoes_the_arithmetic():
    rule = "按最终销售价格的15%给予补贴，额外再给予产品最终销售价格5%的补贴。每件补贴不超过2000元。"
    assert verify_calculation("按所引规定计算：6000元×15%＝900元（未超过每件2000元的上限）。", rule) == (True, "计算已核对")
    assert verify_calculation("按所引规定计算：6000元×15%＝1000元。", rule)[0] is False
    assert verify_calculation("按所引规定计算：6000元×12%＝720元。", rule)[0] is False  # 12% is no rate of the rule
    assert verify_calculation("每辆补贴4000元。", rule) is None  # not a computed line


@pytest.mark.parametrize("question, file_name, missing", [
    ("济南对新能源汽车充电桩有什么补贴？", JANUARY, "充电桩"),
    ("860号文关于企业所得税有什么要求？", TAX_CREDIT, "企业所得税"),
])
def test_a_subject_the_evidence_never_mentions_is_a_gap(question, file_name, missing):
    assert missing in uncovered_nouns(question, chunks(file_name))


def test_the_subject_the_evidence_does_mention_is_no_gap():
    assert uncovered_nouns("860号文关于个人所得税纳税信用有什么要求？", chunks(TAX_CREDIT)) == []


HUAIAN = "淮安市人民政府2024年政府信息公开工作年度报告.pdf"


def test_a_total_of_numbered_items_is_their_table_rows_summed():
    from core.agents.rag.calc import sum_claim

    used, claims = claim_of(HUAIAN, "不予公开")
    total = sum_claim("淮安市2024年不予公开的申请总共有多少件？", claims, used)
    assert "2+31+5+6+8+12+9+105＝178件" in total["text"]
    cited = used[total["cites"][0] - 1]
    assert verify_calculation(total["text"], cited["body"]) == (True, "合计已核对")
    # a total of the report's own subject (申请) is not a sum of some item's sub-rows
    assert sum_claim("淮安市2024年一共收到多少件政府信息公开申请？", claims, used) is None


def test_other_wordings_of_known_slots_are_data_rows():
    from core.agents.rag.answer_extraction import answer_shape
    from core.agents.rag.ruledata import meta_questions
    from core.agents.rag.slots import slot_kind

    assert slot_kind("济南以旧换新中谁管家电的质量监管？")[0] == "部门"  # not 金额 for 价格
    assert meta_questions()["doc_number"].search("山东家电以旧换新方案的发文字号是什么？")
    assert answer_shape("1月份汽车补贴的审核分哪几个阶段？").search("审核分为系统初审、第三方机构复审")


def test_the_rates_that_apply_to_the_asked_grade_are_summed():
    from core.agents.rag.calc import total_rate_claim

    used, claims = claim_of(JINAN_APPLIANCES, "按最终销售价格的15%给予补贴")
    assert "15%+5%＝20%" in total_rate_claim("济南一级能效的冰箱一共补贴售价的几成比例？", claims, used)["text"]
    assert total_rate_claim("济南2级能效的冰箱补贴比例是多少？", claims, used) is None  # one rate: quoted, not summed
    assert slot_gaps("济南买1级能效的家电合计按售价的多大比例补贴？", chunks(JINAN_APPLIANCES), max_docs=50) == []


def test_the_department_an_article_is_headed_by_answers_who_oversees():
    # "谁管换新家电…": 管换 is the word cutter's guess, no predicate the sentence must repeat
    article = [c for c in chunks(JINAN_APPLIANCES) if "市市场监管局" in (c["heading"] or "")]
    assert article and slot_gaps("济南以旧换新活动中谁管换新家电的质量监管？", article) == []


def test_a_particle_glued_to_a_department_is_no_place_name():
    from core.agents.rag.textutil import entities

    assert entities("济南家电以旧换新里市财政局管什么？") == []  # not 里市


def test_a_fee_asked_is_an_amount_the_quoted_sentence_must_state():
    """多少手续费 / 多少平台服务费 ask an amount: a sentence naming the platform (“抖音”APP) is no answer."""
    from core.agents.rag.final_check import final_gaps
    from core.agents.rag.slots import slot_kind

    q = "商户用抖音核销泉城购的券，要交多少手续费？"
    assert slot_kind(q)[0] == "金额"
    used, claims = claim_of(COUPONS, "进入活动主会场页面领取")
    assert final_gaps(q, claims, used) == ["金额"]


def test_a_date_belongs_to_the_event_its_clause_names():
    """申报资料如有修改，需在7月30日24时前完成提交 mentions 申报 but dates the 修改: the 申报 deadline is the
    other sentence (补贴申报时间：…至2025年7月15日24时); a time line naming both events dates both."""
    q = "首保消费券申报截止到哪天？"
    used, claims = claim_of("济南市2025年新车首保消费券活动公告.docx", "申报资料如有修改")
    claims, used, answered = fill_asked_slot(q, claims, used)
    assert answered and "2025年7月15日24时" in norm(claims[0]["text"]), claims[0]["text"]
    q = "下半年第一轮汽车补贴的资料申报截止到哪天？"
    used, claims = claim_of("济南市2025年下半年汽车消费补贴活动第一轮公告.docx", "补贴资料申报及修改时间")
    claims, used, answered = fill_asked_slot(q, claims, used)
    assert answered and "2025年8月5日24时" in norm(claims[0]["text"]), claims[0]["text"]


def test_a_claim_asked_about_needs_a_verdict_not_a_table_cell():
    """听说…是真的吗 asks whether a claim holds: one table cell (行政处罚 4119) neither confirms nor
    refutes that 行政强制 outnumbers it, so the answer is refused; a sentence with a verdict answers."""
    from core.agents.rag.final_check import unfilled_slots

    q = "听说洪泽区2023年行政强制的数量比行政处罚还多，是真的吗？"
    assert unfilled_slots(q, [{"text": "信息内容: 行政处罚；本年处理决定数量: 4119。"}]) == ["这一说法是否属实"]
    assert unfilled_slots(q, [{"text": "不是，行政处罚4119件，行政强制195件。"}]) == []
    assert unfilled_slots("行政处罚有多少件？", [{"text": "信息内容: 行政处罚；本年处理决定数量: 4119。"}]) == []


def test_a_documents_chapters_are_asked_of_its_outline_not_of_its_sentences():
    """分为哪四章 / 保障措施包括哪五项 / 讲…的是哪一部分 ask for section titles, which no quoted rule
    sentence is: refused until the answer is read off the document's outline; a question about what
    a part says (对原公告的哪一部分内容作了补充) is not one of them."""
    from core.agents.rag.final_check import unfilled_slots

    rule = [{"text": "各政策参与主体对补贴资金安全负直接责任，要加强自律，做到诚信守法经营。"}]
    for q in ("济南市2025年家电以旧换新补贴实施细则分为哪四章？", "山东省2025年家电以旧换新实施方案的保障措施部分包括哪五项？",
              "泉城购消费券公告里，讲仅限本人核销这些内容的是哪一部分？"):
        assert unfilled_slots(q, rule) == ["文件的章节"], q
    assert unfilled_slots("首保补充公告对原公告的哪一部分内容作了补充？", rule) == []
    outline = [{"text": "按文件目录，《济南市2025年家电以旧换新补贴实施细则》分为：第一章 补贴范围和标准；第二章 补贴规则及流程。"}]
    assert unfilled_slots("济南市2025年家电以旧换新补贴实施细则分为哪四章？", outline) == []
    for q in ("济南家电细则第五条的标题是什么？", "“先涨价后打折”这段属于哪一项任务？", "这句话出自哪一条？"):
        assert unfilled_slots(q, rule) == ["文件的章节"], q


def test_a_validity_or_a_most_asked_needs_a_sentence_stating_it():
    """有效期多长 answered with a 保单's 保障期限, 哪一场…最多 with the number of sessions held: neither
    says what was asked, so both are refused naming the slot."""
    from core.agents.rag.final_check import unfilled_slots

    policy = [{"text": "3.机动车商业保险保险单（电子保单）（保单生效日期须在活动期内，保障期限为1年）；"}]
    assert unfilled_slots("首保消费券领到手以后有效期多长？", policy) == ["有效期"]
    coupon = [{"text": "用户需在每批次发放时间内领取消费券，在消费券有效期内核销使用。"}]
    assert unfilled_slots("泉城购消费券的有效期是多久？", coupon) == []
    held = [{"text": "组织召开了……等新闻发布会12场，努力传递政府声音。"}]
    assert unfilled_slots("2024年召开的新闻发布会中，哪一场的参会媒体最多？", held) == ["最多的一项"]
    assert unfilled_slots("哪一场的参会媒体最多？", [{"text": "其中第三场参会媒体最多，共20家。"}]) == []


def test_an_age_group_the_documents_never_name_is_a_gap():
    """老年手机: jieba tags 老年 a time word, yet it is who the subsidy would be for; the phone rules
    never mention it, so there is nothing to answer (not the general 15% / 500元 rule)."""
    phones = "山东省商务厅等5部门关于印发《山东省手机、平板、智能手表（手环）购新补贴实施细则》的通知.pdf"
    assert "老年" in uncovered_nouns("省手机购新补贴对老年手机有没有单独的补贴标准？", chunks(phones))


def test_the_askers_own_words_are_no_subject_the_documents_must_name():
    """我是卖场经理 / 顾客: who is asking and everyday names of what the documents call 销售企业 and
    消费者 leave nothing uncovered; a subject the documents lack still does (按摩椅)."""
    assert uncovered_nouns("我是卖场经理，济南家电细则里以旧换新补贴的投放是由哪一方负责的？", chunks(JINAN_APPLIANCES)) == []
    assert uncovered_nouns("我们卖场卖出一台1级能效的洗碗机，顾客能立减多少补贴？", chunks(JINAN_APPLIANCES)) == []
    assert "按摩椅" in uncovered_nouns("我们卖场卖按摩椅，顾客能立减多少补贴？", chunks(JINAN_APPLIANCES))


def test_a_word_whose_meaning_is_asked_must_be_in_the_quoted_sentence():
    from core.agents.rag.final_check import unmet_terms

    q = "洪泽那份年报，申请情况那张表底下写的勾稽关系是啥意思？"
    assert unmet_terms(q, [{"text": "如依申请公开工作规范性还有待提高。"}]) == ["勾稽关系"]
    assert unmet_terms(q, [{"text": "勾稽关系：第一项加第二项之和，等于第三项加第四项之和。"}]) == []
