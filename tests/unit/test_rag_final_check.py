"""The final check names what an answer's sentences leave unanswered: an amount the question
states that no sentence or tier covers, a difference that was not computed, a name not given."""

from core.agents.rag.final_check import final_gaps


def _claims(*texts: str) -> list[dict]:
    return [{"text": t, "cites": [1], "n": 1} for t in texts]


USED = [{"body": "餐饮消费券：满100元减25元、满200元减50元、满300元减75元。"}]


def test_an_amount_no_sentence_states_is_named():
    assert final_gaps("餐饮券满600元减多少", _claims("满300元减75元。"), USED) == ["600元"]


def test_an_amount_inside_a_stated_tier_is_covered():
    claims = _claims("购买新车发票金额为40（含）万元以上，可申领8500元的汽车消费礼包。")
    assert final_gaps("买45万的车能领多少", claims, USED) == []


def test_a_difference_asked_needs_a_subtraction_line():
    claims = _claims("每辆可领取额度5000元的加油储值卡（价值5500元）。")
    assert final_gaps("加油卡价值比额度多多少钱", claims, USED) == ["差额"]
    done = _claims("按所引标准相减：5500元−5000元＝500元。", "每辆可领取额度5000元的加油储值卡（价值5500元）。")
    assert final_gaps("加油卡价值比额度多多少钱", done, USED) == []


def test_a_name_asked_needs_a_proper_name():
    assert final_gaps("审核机构叫什么名字", _claims("由第三方机构进行审核。"), USED) == ["名称"]
    assert final_gaps("审核机构叫什么名字", _claims("由银联商务股份有限公司审核。"), USED) == []


def test_an_amount_asked_needs_a_sentence_with_one():
    assert final_gaps("交售旧家电每台给多少回收补贴", _claims("鼓励消费者交售12类废旧家电。"), USED) == ["金额"]
    assert final_gaps("交售旧家电每台给多少回收补贴", _claims("每台补贴50元。"), USED) == []


def test_an_address_asked_needs_a_street_and_number():
    staffed = _claims("活动期间，服务平台安排4名以上工作人员驻点办公，专门负责受理咨询、投诉处理。")
    assert final_gaps("济南家电以旧换新服务平台驻点办公的地址在哪", staffed, USED) == ["地址"]
    office = _claims("请与淮安市人民政府办公室联系（地址：淮安市翔宇南道1号，邮编：223001）。")
    assert final_gaps("淮安市人民政府办公室的地址在哪", office, USED) == []


def test_a_certificate_the_question_names_must_be_the_one_cited():
    # the documents ask for the 机动车登记证书's pages; a question about the 行驶证 is not answered by them
    pages = _claims("（4）所购乘用车机动车登记证书原件（第1、2页）照片；")
    assert "行驶证" in final_gaps("补贴要传行驶证照片，得拍哪几页", pages, [{"body": pages[0]["text"], "title": "公告"}])
    assert final_gaps("补贴要传登记证书照片，得拍哪几页", pages, [{"body": pages[0]["text"], "title": "公告"}]) == []


def test_an_article_the_question_names_must_be_the_cited_ones():
    used = [{"body": "每位消费者每类产品可补贴1件。", "heading": "第十条"}]
    claims = [{"text": "每位消费者每类产品可补贴1件。", "cites": [1], "n": 1}]
    assert final_gaps("家电补贴实施细则第二十二条规定了什么内容？", claims, used) == ["第二十二条"]
    assert final_gaps("家电补贴实施细则第十条规定了什么内容？", claims, used) == []


def test_a_person_asked_needs_a_name_not_the_office():
    claims = _claims("本报告由淮安市人民政府办公室根据条例规定编制。")
    assert final_gaps("淮安市人民政府办公室主任是谁？", claims, USED) == ["人员"]
    assert final_gaps("淮安市人民政府办公室主任是谁？", _claims("办公室主任：张明同志主持工作。"), USED) == []


def test_a_platform_asked_needs_its_name():
    asked = "山东的手机购新补贴在济南通过哪个平台申领？"
    assert final_gaps(asked, _claims("消费者可通过所在地指定购新补贴平台申领补贴资格。"), USED) == ["平台"]
    assert final_gaps(asked, _claims("消费者登录济南市“泉城购”服务平台申领。"), USED) == []
    assert final_gaps("个税信用信息库要和哪个平台共享数据？", _claims("实现与全国信用信息共享平台的数据共享。"), USED) == []


def test_a_choice_asked_needs_one_of_its_options():
    asked = "商业保险保费分期缴纳的，按首期金额还是全年保费确定领取档次？"
    assert final_gaps(asked, _claims("车辆商业保险金额在3000元（含）至4000元之间，可领取1000元。"), USED) == ["选项"]
    assert final_gaps(asked, _claims("以全年保费金额确定档次。"), USED) == []


def test_a_reason_asked_needs_a_reason():
    asked = "103件申请顺延到下年度答复，顺延的原因是什么？"
    assert final_gaps(asked, _claims("另有103件顺延到下年度答复。"), USED) == ["原因"]
    assert final_gaps(asked, _claims("由于涉及多个部门会商，103件顺延答复。"), USED) == []


def test_still_and_a_question_word_are_no_choice_and_a_purpose_is_a_reason():
    claims = _claims("将退回修改，逾期未修改的视为放弃。")
    assert final_gaps("资料被退回了，没改好，最后审核还是没过，会咋样？", claims, USED) == []
    assert final_gaps("济南家电补贴的钱是商家先垫还是怎么弄？", _claims("补贴资金由销售企业先行垫付。"), USED) == []
    assert final_gaps("首保为啥又出了个补充公告？", _claims("为进一步扩大汽车消费，发布新车首保消费券补充公告。"), USED) == []
    assert final_gaps("有偷税失信行为的人会被税务部门列为什么？", _claims("列入重点关注对象。"), USED) == []
