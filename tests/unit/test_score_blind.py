"""The blind-batch scorer's classification (scripts/score_blind.py), on synthetic results."""
import importlib.util
import os

_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "score_blind.py")
_spec = importlib.util.spec_from_file_location("score_blind", _PATH)
sb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sb)


def test_policy_classes():
    rec = {"id": "p1", "expected": "2000元", "accept": ["两千元"]}
    assert sb.classify("policy", rec, {"answer": "每件补贴不超过2,000 元[1]", "refused": False}) == "correct"
    assert sb.classify("policy", rec, {"answer": "暂未查到", "refused": True}) == "refused_wrongly"
    assert sb.classify("policy", rec, {"answer": "每件补贴不超过12000元", "refused": False}) == "wrong_but_confident"
    none = {"id": "p2", "expected": None}
    assert sb.classify("policy", none, {"answer": "暂未查到相关规定", "refused": True}) == "refused_correctly"
    assert sb.classify("policy", none, {"answer": "补贴4000元[1]", "refused": False}) == "wrong_but_confident"


def test_numbers_do_not_match_inside_longer_numbers_and_dates_normalise():
    assert not sb.contains("按售价的15%补贴", "5%")
    assert sb.contains("额外再给予5%的补贴", "5%")
    assert sb.contains("印发日期：2025 年1 月20 日", "2025-01-20")
    assert sb.contains("合计 1,442,333.310 元", "1442333.31")
    assert sb.contains("文号济商务字〔2025〕5 号", "济商务字[2025]5号")


def test_kg_all_of_and_refusal_heuristics():
    rec = {"id": "k1", "expected": "华国栋、金建平", "all_of": ["华国栋", "金建平|KWL2207028"]}
    assert sb.classify("kg", rec, {"answer": "持证人：华国栋（行 12）；KWL2207028（行 14）"}) == "correct"
    assert sb.classify("kg", rec, {"answer": "持证人：华国栋"}) == "wrong_but_confident"
    none = {"id": "k2", "expected": None}
    assert sb.classify("kg", none, {"answer": "图谱中没有学历相关的数据。"}) == "refused_correctly"
    assert sb.classify("kg", none, {"answer": "", "need_confirm": {"kind": "slots"}}) == "refused_correctly"
    assert sb.classify("kg", none, {"answer": "周建国：本科"}) == "wrong_but_confident"
    assert sb.classify("kg", {"id": "k3", "expected": "3"}, {"error": "boom"}) == "refused_wrongly"


def test_kg_numbers_must_be_stated_and_dumps_do_not_count():
    count = {"id": "k4", "expected": "8"}
    dump = "查询范围：华国栋。\n共 21 台设备。\n依据：\n1. SB-0105-008｜第8行\n2. …"
    assert sb.classify("kg", count, {"answer": dump}) == "wrong_but_confident"
    assert sb.classify("kg", count, {"answer": "共 8 台设备。\n依据：\n1. …"}) == "correct"
    one_row = "查询范围：青浦-工业园区。\n共 1 条记录：\n1. 消防安全检查｜检查得分 8分"
    assert sb.classify("kg", count, {"answer": one_row}) == "correct"
    name = {"id": "k5", "expected": "青浦-北斗园区"}
    assert sb.classify("kg", name, {"answer": "共 16 条记录：\n1. 青浦-北斗园区\n2. …"}) == "wrong_but_confident"
    soft = "数据中未找到“单价”：所查的项目记录中没有这一字段，以下是查到的记录。\n共 1 条\n1. …"
    assert sb.classify("kg", {"id": "k6", "expected": None}, {"answer": soft}) == "refused_correctly"


def test_dates_with_and_without_year():
    said = "购车时间：自2025年1月25日0时至2025年3月31日24时"
    assert sb.contains(said, "1月25日") and sb.contains(said, "2025-01-25") and sb.contains(said, "2025年3月31日")
    assert sb.contains("开始 2024-03｜结束", "2024年3月") and sb.contains("2024年3月起", "2024-03")
    assert not sb.contains("2024-031", "2024-03")


def test_long_numbers_match_without_their_unit_short_ones_do_not():
    rec = {"id": "p3", "expected": "3001件"}
    assert sb.classify("policy", rec, {"answer": "自然人: 3001。[1]", "refused": False}) == "correct"
    short = {"id": "p4", "expected": "3件"}
    assert sb.classify("policy", short, {"answer": "空调类产品最多补贴3台[3]", "refused": False}) == "wrong_but_confident"


def test_a_list_number_before_a_month_is_not_a_decimal_point():
    answer = "收款最少的月份：\n1. 2026-01 收款 10元\n2. 2026-02 收款 20元"
    assert sb.contains(answer, "2026-02") and sb.contains(answer, "2026年2月")
    assert sb.contains("合计 2.5 万元", "2.5万元") and not sb.contains("合计 12.5 万元", "2.5万元")


def test_a_bare_number_is_not_found_inside_a_date():
    answer = "没有项目在 2026年4月 比 2026年3月 增加。"
    assert not sb.contains(answer, "4") and not sb.contains(answer, "3")
    assert sb.contains(answer, "4月") and sb.contains("共 4 个项目", "4")
