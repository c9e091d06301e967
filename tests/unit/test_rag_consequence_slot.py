"""A question asking what happens (会怎样, 怎么处理) asks for no value slot, even when it names
a quota or a deadline in passing; one that also asks 多少 / 几 / 哪天 still does."""

from core.agents.rag.slots import slot_kind


def test_a_consequence_question_asks_no_amount_for_the_quota_it_names():
    assert slot_kind("第二轮汽车补贴，传了无关资料占额度会怎样？")[0] == ""
    assert slot_kind("首保消费券过了期限还没补资料，会怎么处理？")[0] == ""


def test_a_consequence_question_that_asks_a_figure_keeps_its_slot():
    assert slot_kind("超过额度会怎样，最多能补多少钱？")[0] == "金额"
    assert slot_kind("没按时提交会怎样，几天内必须补交？")[0] == "期限"
