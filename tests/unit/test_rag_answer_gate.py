"""The gate before an extractive answer is shown: the cited sentences must be about the place,
the time and the items the question names, or the answer is a refusal saying what was found.

- a district asked (XX区 / XX县) is not answered with the figures of the city of the same name;
- a total of two named items needs those two figures added, not all rows of a table;
- a campaign named by its month (1月那轮, 我1月底买的车) is the notice covering that month, not a
  follow-on notice issued later nor the 下半年 round;
- a share asked (占多少) needs a percentage;
- the attribute asked of something the first clause asks about (…券吗？面额多少？) is that thing's.
"""

from core.agents.rag.compound import leans_on_first
from core.agents.rag.final_check import final_gaps
from core.agents.rag.periods import asked_months, period_mismatch
from core.agents.rag.slots import slot_kind
from core.agents.rag.sums import asked_items

CITY_REPORT = [{"title": "淮安市人民政府2024年政府信息公开工作年度报告",
                "body": "2024年，全市共受理政府信息公开申请3119件。"}]


def _claims(*texts: str) -> list[dict]:
    return [{"text": t, "cites": [1], "n": 1} for t in texts]


def test_a_district_is_not_answered_with_the_city_of_the_same_name():
    claims = _claims("2024年，全市共受理政府信息公开申请3119件。")
    assert final_gaps("淮安区去年受理了多少件信息公开申请？", claims, CITY_REPORT) == ["淮安区"]
    assert final_gaps("清河县2024年受理了几件申请", claims,
                      [{"title": "清河市2024年年度报告", "body": "全市受理3119件"}]) == ["清河县"]


def test_the_city_itself_and_a_district_with_its_own_report_still_pass():
    claims = _claims("2024年，全市共受理政府信息公开申请3119件。")
    assert final_gaps("淮安市2024年受理了多少件申请？", claims, CITY_REPORT) == []
    district = [{"title": "洪泽区人民政府2023年政府信息公开工作年度报告", "body": "共受理申请120件。"}]
    assert final_gaps("洪泽区2023年受理了多少件申请？", _claims("共受理申请120件。"), district) == []
    assert final_gaps("全区受理了多少件申请？", claims, CITY_REPORT) == []


def test_two_named_items_added_need_their_own_sum_line():
    q = "不予公开里，属于国家秘密的和其他法律行政法规禁止公开的加起来多少件？"
    assert asked_items(q) == ("属于国家秘密", "其他法律行政法规禁止公开")
    all_rows = _claims("按所引表格合计：三、本年度办理结果(三)不予公开各项2+31+5+6+8+12+9+105＝178件。")
    assert final_gaps(q, all_rows, CITY_REPORT) == ["合计"]
    cells = _claims("行政复议/总计: 351；行政诉讼/复议后起诉/总计: 20。")
    assert final_gaps("行政复议和行政诉讼加起来一共多少件？", cells, CITY_REPORT) == ["合计"]
    done = _claims("按所引数字合计：属于国家秘密2件、其他法律行政法规禁止公开31件，2+31＝33件。")
    assert final_gaps(q, done, CITY_REPORT) == []


def test_taking_part_is_no_named_sum():
    assert final_gaps("汽车补贴活动的参与企业一共有多少家？", _claims("参与企业名单以活动页面公布为准。"), CITY_REPORT) == []


FIRST_ROUND = {"title": "2025年政府汽车消费补贴活动公告", "expiry_date": "2025-04-30"}
FOLLOW_ON = {"title": "关于追加2025年政府汽车消费补贴资金额度的公告", "date": "2025-02-25"}
SECOND_HALF = {"title": "济南市2025年下半年第一轮汽车消费补贴活动公告", "expiry_date": "2025-08-05"}


def test_a_month_of_purchase_names_the_campaign_of_that_month():
    assert asked_months("我1月底买了辆燃油车，那轮补贴能拿多少？") == {1}
    assert asked_months("10月份买的冰箱能补吗") == {10}
    q = "我1月底提车的，发票不含税32万，能补多少？"
    assert period_mismatch(q, SECOND_HALF) and not period_mismatch(q, FIRST_ROUND)


def test_a_follow_on_notice_covers_the_campaign_only_from_its_own_date():
    assert period_mismatch("1月那轮汽车补贴从哪天开始申报？", FOLLOW_ON)
    assert not period_mismatch("1月那轮汽车补贴从哪天开始申报？", FIRST_ROUND)
    assert not period_mismatch("1月那轮的补贴额度用完了没有？", FOLLOW_ON)
    assert not period_mismatch("3月份追加的额度从几点开始申报？", FOLLOW_ON)


def test_a_share_asked_is_a_percentage_slot_not_occupying_a_quota():
    assert slot_kind("申请人里女性占多少？")[0] == "比例"
    assert slot_kind("申请人中企业占比多少")[0] == "比例"
    assert slot_kind("有人交一堆无关资料占着额度，会怎么处理？")[0] != "比例"


def test_the_attribute_asked_after_an_existence_question_is_that_things():
    assert leans_on_first("济南今年发放图书消费券吗？面额多少？") == [False, True]
    assert leans_on_first("济南有客房消费券吗？面额多少？") == [False, True]


CAR_NOTICE = [{"title": "2025年政府汽车消费补贴活动公告"}]


def test_a_yes_no_question_needs_a_sentence_about_its_case():
    from core.agents.rag.case_gate import undecided_case

    q = "1月那轮汽车补贴，我和老婆用同一个手机号申请，算一个人吗？"
    procedure = _claims("申请人在完成车辆上牌的全部流程后，即可通过移动端申请购车补贴。")
    assert "手机号" in undecided_case(q, procedure, CAR_NOTICE)
    deciding = _claims("同一身份证号、同一银行卡号、同一手机号码，满足以上任一条件均视为同一用户。")
    assert undecided_case(q, deciding, CAR_NOTICE) == []


def test_a_question_that_is_no_yes_no_question_has_no_case():
    from core.agents.rag.case_gate import case_terms

    assert case_terms("济南家电细则中市财政局负责什么？", CAR_NOTICE) == []
    assert case_terms("买二手车能领汽车补贴吗？", CAR_NOTICE) == ["二手车"]


def test_the_sentence_naming_the_case_decides_it_and_a_refusal_names_the_case():
    from core.agents.rag.case_gate import case_phrase, case_terms, deciding_claims

    q = "1月那轮汽车补贴，我和老婆用同一个手机号申请，算一个人吗？"
    used = [{"body": "1.申领人应认真核对信息。同一身份证号、同一银行卡号、同一手机号码，满足以上任一条件均视为同一用户。"}]
    assert [c["text"] for c in deciding_claims(q, used)] == ["同一身份证号、同一银行卡号、同一手机号码，满足以上任一条件均视为同一用户。"]
    assert deciding_claims(q, [{"body": "申请人完成上牌后即可申请。"}]) == []
    q2 = "我和老婆用同一个手机号申请，能领1月那轮的汽车补贴吗？"
    assert case_phrase(q2, case_terms(q2, CAR_NOTICE)) == "我和老婆用同一个手机号申请"


def test_who_asked_needs_a_person_or_body_not_table_counts():
    rows = _claims("行政复议/结果维持: 10；行政复议/总计: 0；行政诉讼/复议后起诉/总计: 0。")
    assert final_gaps("洪泽区2023年行政复议的申请人是谁？", rows, CITY_REPORT) == ["主体"]
    named = _claims("市场监管部门负责换新家电的价格和质量监管。")
    assert final_gaps("谁管换新家电的价格和质量？", named, CITY_REPORT) == []


def test_a_modal_before_a_one_character_verb_is_not_part_of_the_event_asked():
    from core.agents.rag.slots import event_predicate

    assert event_predicate("申领资料最晚什么时候能改？") == "改"
    assert event_predicate("多长时间内要用掉？") == "用掉"
    assert event_predicate("补贴什么时候能到账？") == "到账"


def test_an_ask_word_is_no_subject_of_the_question():
    from core.agents.rag.textutil import salient_nouns

    assert "由谁来" not in salient_nouns("方案里，对各市的重点核查由谁来做？")


def test_a_share_asked_needs_a_percentage_in_the_answer():
    rows = _claims("项目: 一、本年新收政府信息公开申请数量；申请人情况/总计: 3119。")
    assert final_gaps("申请人里女性占多少？", rows, CITY_REPORT) == ["比例"]
    assert final_gaps("补贴比例是多少？", _claims("按产品销售价格的15%给予补贴。"), CITY_REPORT) == []


def test_a_cut_across_words_names_no_case():
    from core.agents.rag.case_gate import case_terms

    coupon = [{"title": "2025年济南市“泉城购”零售、餐饮消费券发放活动公告"}]
    assert case_terms("用泉城购券下的单退款了，券还能退回来吗？", coupon) == []
    assert case_terms("去年买过洗衣机领了补贴，今年再买还能补吗？", coupon) == ["洗衣机"]


def test_a_bought_thing_is_the_case_not_the_buying():
    from core.agents.rag.case_gate import undecided_case

    coupon = [{"title": "2025年济南市“泉城购”零售、餐饮消费券发放活动公告", "body": "零售类：商超（不含数码产品、家电）"}]
    rule = _claims("零售类：商超（不含数码产品、家电、家居等按国家和省规定实施消费品以旧换新政策涉及的各品类）、便利店。")
    assert undecided_case("泉城购的零售券能在商超买手机吗？", rule, coupon) == []


def test_a_which_department_question_needs_a_named_department_as_many_as_asked():
    q = "这份通知是哪两个单位联合发布的？"
    one = _claims("国家发展改革委办公厅。", "相关部门应提供更多服务便利。")
    assert final_gaps(q, one, CITY_REPORT) == ["部门"]
    two = _claims("国家发展改革委办公厅、税务总局办公厅联合印发。")
    assert final_gaps(q, two, CITY_REPORT) == []
    counts = _claims("项目: 三、本年度办理结果 （三）不予公开 5.属于三类内部事务信息；申请人情况/总计: 0。")
    assert final_gaps("申请最多的是哪个部门？", counts, CITY_REPORT) == ["部门"]
    assert final_gaps("申请最多的是哪个部门？", _claims("市自然资源和规划局收到的申请最多。"), CITY_REPORT) == []


def test_a_which_leader_or_which_county_question_needs_one_named():
    talk = _claims("全年组织召开新闻发布会12场，回应舆论关切。")
    assert final_gaps("发布会上哪位副市长讲得最多？", talk, CITY_REPORT) == ["领导"]
    assert final_gaps("发布会上哪位副市长讲得最多？", _claims("王某某副市长出席3场。"), CITY_REPORT) == []
    whole = _claims("出具各县区、各部门政务公开评估分报告。", "全市共受理政府信息公开申请3119件。")
    assert final_gaps("哪个区县的申请最少？", whole, CITY_REPORT) == ["县区"]
    assert final_gaps("哪个区县的申请最少？", _claims("涟水县受理申请12件，为各县区最少。"), CITY_REPORT) == []


def test_a_when_question_in_any_wording_needs_a_date_not_a_year_in_a_name():
    how = _claims("搜索2025年济南市“泉城购”消费券，进入活动主会场页面领取。")
    for q in ("消费券啥时候开始领？", "消费券哪天开始领？", "消费券何时发放？"):
        assert final_gaps(q, how, CITY_REPORT) == ["日期"], q
    assert final_gaps("消费券啥时候开始领？", _claims("首批消费券于7月19日10点开始发放。"), CITY_REPORT) == []
    assert final_gaps("什么时候之前要申请？", _claims("购车后30日内提交申请。"), CITY_REPORT) == []


def test_a_negated_item_asked_must_be_named_as_such():
    lost = _claims("按所引表格合计：三、本年度办理结果法提供各项11+1＝12件。")
    assert final_gaps("2024年无法提供的一共几件？", lost, CITY_REPORT) == ["无法提供"]
    kept = _claims("项目: 三、本年度办理结果 （四）无法提供 1.本机关不掌握相关政府信息；申请人情况/总计: 769。")
    assert final_gaps("2024年无法提供的有几件？", kept, CITY_REPORT) == []
    synonym = _claims("行政复议/尚未审结: 37。")
    assert final_gaps("行政复议还没审结的有几件？", synonym, CITY_REPORT) == []


def test_a_named_item_is_read_by_its_name_not_by_a_two_character_tail():
    from core.agents.rag.sums import named_sum_claim

    used = [{"doc_id": "r", "title": "淮安市人民政府2024年政府信息公开工作年度报告",
             "body": "全市共受理申请3119件，其中信访举报投诉类62件，重复申请25件。"}]
    claim = named_sum_claim("不予处理的申请中，信访举报投诉类和重复申请加起来一共多少件？", used)
    assert claim and "62+25＝87件" in claim["text"], claim


def test_a_case_term_inside_another_things_name_does_not_decide_the_case():
    from core.agents.rag.case_gate import undecided_case

    fuel = _claims("新能源乘用车包含纯电动汽车、燃料电池汽车三类。")
    assert "电池" in undecided_case("电动车换了电池还能领汽车补贴吗？", fuel, CAR_NOTICE)
    own = _claims("更换动力电池的费用不在补贴范围。")
    assert undecided_case("电动车换了电池还能领汽车补贴吗？", own, CAR_NOTICE) == []


def test_a_bare_figure_after_paying_is_yuan():
    from core.agents.rag.amounts import question_amounts
    from core.agents.rag.textutil import canonical_question as colloquial

    assert question_amounts(colloquial("商业险交了4500，能领多少？")) == [4500.0]
    assert question_amounts(colloquial("付了12期还剩多少？")) == []


def test_what_most_requests_were_about_needs_their_subject_not_their_count():
    counts = _claims("2023年全区受理政府信息公开申请21件，均在法定期限答复。")
    assert final_gaps("去年那些申请大部分是问什么的？", counts, CITY_REPORT) == ["内容"]
    topics = _claims("申请内容主要集中在征地拆迁、社会保障方面。")
    assert final_gaps("去年那些申请大部分是问什么的？", topics, CITY_REPORT) == []


def test_the_price_left_to_pay_after_a_rate_subsidy_is_computed_with_its_cap():
    from core.agents.rag.calc import rate_claim

    rule = "对个人消费者购买2级及以上能效的补贴产品，按最终销售价格的15%给予补贴，每件补贴不超过2000元。"
    used = [{"doc_id": "jn", "title": "济南市2025年家电以旧换新补贴实施细则", "body": rule}]
    claims = [{"text": rule, "cites": [1], "n": 1}]
    claim = rate_claim("买了台4000元的2级能效冰箱，补完实际花多少？", claims, used)
    assert claim and "4000元−600元＝3400元" in claim["text"], claim
    capped = rate_claim("买了台20000元的2级能效空调，补贴后自己还要掏多少？", claims, used)
    assert capped and "20000元−2000元＝18000元" in capped["text"], capped
