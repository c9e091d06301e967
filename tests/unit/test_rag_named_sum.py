"""On the real annual reports (data/samples/policies, parsed and chunked as ingestion does): a
question asking for two named figures added up ("A和B一共多少件") gets both figures read where the
report states them — the table row labelled with each, or the clause about the asked context
(行政复议, not 行政诉讼) — added and cited; the answer is not some other item's rows summed."""

from __future__ import annotations

import pytest

from core.agents.rag.calc import sum_claim, verify_calculation
from core.agents.rag.slots import slot_gaps
from core.agents.rag.sums import named_sum_claim
from tests.support.policy_samples import chunks

HONGZE = "洪泽区2023年政府信息公开工作年度报告.pdf"
HUAIAN = "淮安市人民政府2024年政府信息公开工作年度报告.pdf"


@pytest.mark.parametrize("question, file_name, total", [
    ("洪泽区2023年行政许可和行政强制的处理决定加起来有多少件？", HONGZE, "550+195＝745件"),
    ("淮安市2024年政府信息公开行政复议中，结果维持和结果纠正一共多少件？", HUAIAN, "72+64＝136件"),
    ("淮安市2024年政府信息公开行政诉讼中，结果维持和结果纠正一共多少件？", HUAIAN, "25+5＝30件"),
    ("淮安市2024年依申请公开的办理结果里，予以公开和部分公开合计有几件？", HUAIAN, "1362+454＝1816件"),
])
def test_two_named_figures_are_added_from_where_the_report_states_them(question, file_name, total):
    used = chunks(file_name)
    claim = named_sum_claim(question, used)
    assert claim is not None and total in claim["text"]
    cited = "\n".join(used[n - 1]["body"] for n in claim["cites"])
    assert verify_calculation(claim["text"], cited) == (True, "合计已核对")
    assert slot_gaps(question, used, max_docs=50) == []  # not refused for "没有写明所问的数量"


def test_a_named_sum_is_not_answered_by_another_items_rows():
    question = "淮安市2024年依申请公开办理结果中，予以公开和部分公开一共多少件？"
    used = chunks(HUAIAN)
    claims = [{"text": "申请人情况/总计: 1362", "cites": [1], "n": 1, "pos": 0}]
    assert sum_claim(question, claims, used) is None  # never 不予公开 2+31+…＝178件


def test_a_sum_whose_figure_is_not_in_the_cited_text_fails_the_check():
    assert verify_calculation("按所引数字合计：结果维持70件、结果纠正64件，70+64＝134件。",
                              "其中结果维持72件，结果纠正64件")[0] is False


def test_a_figure_the_report_does_not_state_gives_no_sum():
    assert named_sum_claim("洪泽区2023年行政许可和行政复议申请人一共多少人？", chunks(HONGZE)) is None


COUPONS = "2025年济南市“泉城购”零售、餐饮消费券发放活动公告.docx"


@pytest.mark.parametrize("question", [
    "泉城购零售券满100减20，买了150元的东西最后实际付多少？",
    "泉城购的餐饮券满300减75，吃了320块实际要付多少钱？",
])
def test_what_is_left_to_pay_after_a_stated_coupon_tier_is_not_refused_as_unstated(question):
    assert slot_gaps(question, chunks(COUPONS), max_docs=50) == []


JANUARY = "2025年政府汽车消费补贴活动公告.docx"
FIRST_ROUND = "济南市2025年下半年汽车消费补贴活动第一轮公告.docx"


@pytest.mark.parametrize("question, file_name, total", [
    ("1月那轮汽车补贴，三个人各买一辆不含税12万的燃油车，总共能领多少？", JANUARY, "3000元×3＝9000元"),
    ("下半年第一轮，单位买了3辆20万的车，一共能领多少礼包？", FIRST_ROUND, "4800元×3＝14400元"),
])
def test_a_count_of_bought_items_times_the_amount_of_their_tier_is_computed(question, file_name, total):
    from core.agents.rag.answer_extraction import extract_answer
    from core.agents.rag.sums import product_claim
    from core.agents.rag.textutil import key_terms

    used = chunks(file_name)
    assert slot_gaps(question, used, max_docs=50) == []  # not refused for "没有写明所问的金额"
    _, claims = extract_answer(question, list(key_terms(question)), used)
    claim = product_claim(question, claims, used)
    assert claim is not None and total in claim["text"]
    assert verify_calculation(claim["text"], claim["source"]) == (True, "计算已核对")


def test_one_bought_item_is_no_product():
    from core.agents.rag.sums import items_counted

    assert items_counted("1月那轮买一辆不含税12万的燃油车能领多少？") == (0, "")


def test_a_tier_amount_of_another_subsidy_is_never_multiplied():
    from core.agents.rag.sums import product_claim

    used = chunks(FIRST_ROUND)
    claims = [{"text": "补贴标准为：1.购买新车发票金额10（不含）万元以下，可申领1900元的汽车消费礼包。",
               "cites": [n], "n": n} for n in range(1, len(used) + 1)]
    assert product_claim("两个人各买一台3000元的冰箱，济南一共能补多少？", claims, used) is None


def test_items_at_different_prices_are_each_at_their_own_tier():
    from core.agents.rag.answer_extraction import extract_answer
    from core.agents.rag.sums import product_claim
    from core.agents.rag.textutil import key_terms

    used = chunks(FIRST_ROUND)
    q = "一家公司在下半年第一轮买了3辆车，发票不含税分别是9万、20万和45万，这家公司一共能申领多少汽车消费礼包？"
    _, claims = extract_answer(q, list(key_terms(q)), used)
    claim = product_claim(q, claims, used)
    assert claim is not None and "1900元＋4800元＋8500元＝15200元" in claim["text"]  # not 1900元×3
    assert verify_calculation(claim["text"], claim["source"]) == (True, "计算已核对")
    # a part of each package (the fuel card) is not the package's total
    part = "一家公司买了3辆车，发票不含税分别是9万、20万和45万，三辆车可领的加油储值卡额度合计多少元？"
    _, claims = extract_answer(part, list(key_terms(part)), used)
    assert product_claim(part, claims, used) is None


def test_the_rows_summed_are_those_of_the_item_the_question_names_in_any_cited_chunk():
    used = chunks(HUAIAN)
    q = "淮安市2024年政府信息公开申请的办理结果里，“不予处理”的一共多少件？"
    claim = sum_claim(q, [{"text": "", "cites": [1], "n": 1}], used)
    assert claim is not None and "不予处理各项62+25+0+0+1＝88件" in claim["text"]  # not 不予公开's 178
