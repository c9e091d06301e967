"""Rules-path pieces behind answering the asked slot: subtraction answers checked by redoing
them, a table total summed from its parts only when the item's own total is missing, an
attribute clause that belongs to the first clause's object, and question-word fragments that
are never an action to look for."""

from __future__ import annotations

from core.agents.rag.arith import cell_sum_claim, difference_claim, net_pay_claim, verify_difference
from core.agents.rag.compound import leans_on_first, split_compound
from core.agents.rag.gaps import how_verb_gap
from core.agents.rag.slots import event_predicate


def _claim(n: int, text: str) -> dict:
    return {"text": text, "cites": [n], "n": n, "pos": 0, "source": text}


TIERS = [_claim(1, "新能源汽车：1.新车购车发票金额为10万元（含）至30万元（不含）的，每辆补贴4000元。"),
         _claim(1, "燃油车：1.新车购车发票金额为10万元（含）至30万元（不含）的，每辆补贴3000元。")]
COUPONS = [_claim(1, "1.零售消费券：满100元减20元、满200元减40元、满300元减60元。"),
           _claim(1, "2.餐饮消费券：满100元减25元、满200元减50元、满300元减75元。")]
LAWSUITS = [_claim(1, "行政复议/结果维持: 72；行政复议/总计: 351；行政诉讼/未经复议直接起诉/总计: 26；"
                      "行政诉讼/复议后起诉/总计: 20。")]


def test_how_much_more_subtracts_the_two_amounts_stated():
    c = difference_claim("不含税25万元的新能源车比同价燃油车多补贴多少？", TIERS)
    assert c["text"] == "按所引标准相减：4000元−3000元＝1000元。"
    assert verify_difference(c["text"], " ".join(x["text"] for x in TIERS)) == (True, "计算已核对")
    assert difference_claim("新能源车补贴多少？", TIERS) is None  # no comparison asked
    assert difference_claim("比燃油车多补多少？", TIERS[:1]) is None  # one amount: nothing to subtract


def test_what_is_paid_after_a_coupon_uses_the_highest_tier_reached_of_the_named_coupon():
    assert net_pay_claim("在饭店吃了300元，用餐饮券实际要付多少？", COUPONS)["text"].endswith("300元−75元＝225元。")
    assert net_pay_claim("买了250元的东西，用零售券要付多少钱？", COUPONS)["text"].endswith("250元−40元＝210元。")
    assert net_pay_claim("用餐饮券实际要付多少？", COUPONS) is None  # no spend stated


def test_a_subtraction_whose_amount_is_not_in_the_cited_text_fails_the_check():
    assert verify_difference("按所引标准相减：300元−80元＝220元。", COUPONS[1]["text"])[0] is False
    assert verify_difference("按所引标准相减：300元−75元＝215元。", COUPONS[1]["text"])[0] is False
    assert verify_difference("补贴4000元。", "补贴4000元") is None


def test_a_table_total_is_summed_from_its_parts_only_when_not_stated():
    assert cell_sum_claim("行政诉讼一共多少件？", LAWSUITS)["text"] == "按所引表格合计：行政诉讼各项26+20＝46件。"
    assert cell_sum_claim("行政复议一共多少件？", LAWSUITS) is None  # 行政复议/总计: 351 is quoted


def test_an_attribute_clause_after_an_existence_clause_is_about_that_object():
    q = "泉城购有酒店住宿（客房）消费券吗，面额多少？"
    assert len(split_compound(q)) == 2 and leans_on_first(q) == [False, True]
    assert leans_on_first("首保消费券可以在哪些保险公司买，名单有哪些？") == [False, True]
    # a second question with its own action is independent of the first
    assert leans_on_first("补贴标准是多少，申请需要哪些材料？") == []


def test_which_day_is_no_action_and_until_when_names_the_event_before_it():
    pool = [{"chunk_id": "c", "doc_id": "d", "title": "2025年政府汽车消费补贴活动公告", "text": "购车时间：…", "body": ""}]
    assert how_verb_gap("购车发票最晚要在哪天开？", pool) == []
    assert event_predicate("1月那轮汽车补贴，补贴申报到哪天截止？") == "申报"
    assert event_predicate("资料修改到什么时候截止？") == "修改"
