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
