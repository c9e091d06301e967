"""ask-docs on the real policy documents answers a question about one member of a category
(a 冰箱, a 电视, a 洗衣机) with the rule written for the category (家电产品…应在15日内完成送货,
不含数码产品、家电、家居), and colloquial or negated verbs after a deadline word (几天内**没改好**就没资格,
得**送到装好**) still find the ruling sentence, and an amount asked colloquially (发票开多少钱)
is answered by the rule that fixes it (开具发票金额为实付金额) — no bogus "未涉及：冰箱" or missing-deadline refusal.

Paraphrases of the classes refused wrongly on blind batches 19–21, not their questions."""

from __future__ import annotations

import pytest

from tests.integration.conftest import ask_policy, assert_answered_with


pytestmark = pytest.mark.usefixtures("in_policy_home")


def _answered_with(res: dict, *needles: str) -> None:
    assert "未涉及" not in res["answer"]
    assert_answered_with(res, *needles)


def test_a_member_of_the_category_gets_the_delivery_rule_of_the_category():
    _answered_with(ask_policy("济南国补买的洗衣机，商家一般几天内要送到装好？"), "15日内")


def test_a_member_of_the_category_gets_the_coupon_exclusion_of_the_category():
    _answered_with(ask_policy("泉城购零售券可以在商超买冰箱吗？"), "家电")


def test_a_negated_verb_after_the_deadline_word_finds_the_correction_deadline():
    _answered_with(ask_policy("下半年第二轮汽车补贴，系统让我补资料，几天内没改完就不能领了？"), "5日")


def test_a_consequence_question_naming_a_quota_gets_the_ruling_not_a_missing_amount():
    res = ask_policy("下半年第二轮的汽车补贴，要是上传无关资料占着额度，会怎么处理？")
    _answered_with(res, "直接驳回")
    assert "没有写明所问的金额" not in res["answer"]


def test_an_amount_asked_colloquially_is_answered_by_the_rule_that_fixes_the_amount():
    _answered_with(ask_policy("用泉城购的券买了东西，发票上开多少钱？"), "实付金额")
