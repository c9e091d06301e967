"""Rules-path answerability and compound questions: a question whose asked-for slot (金额 /
日期 / 部门 …) or year no evidence sentence fills is refused; compound questions are split
into self-contained parts, answered part by part, and the part left open is named."""

from __future__ import annotations

from core.agents.rag import logic
from core.agents.rag.nodes.finalize import finalize
from core.agents.rag.nodes.generate import _compound_claims


def _chunk(n: int, text: str, **kw) -> dict:
    return {"chunk_id": f"{kw.get('doc_id', 'd')}-{n:04d}", "doc_id": kw.get("doc_id", "d"),
            "file_name": kw.get("file_name", "x.docx"), "title": kw.get("title", "2025年济南市“泉城购”零售、餐饮消费券发放活动公告"),
            "doc_number": "", "heading": kw.get("heading", ""), "path": [], "text": text, "body": text,
            "authority": "", "date": kw.get("date", ""), "evidence": {"bm25": [1], "dense": [1]}, "spans": [],
            "grade": {"score": 0.8}}


QCG = _chunk(1, "一、消费券发放时间\n2025年7月19日至2025年11月15日\n三、消费券面额设置\n"
                "1.零售消费券：满100元减20元、满200元减40元、满300元减60元。\n"
                "2.餐饮消费券：满100元减25元、满200元减50元、满300元减75元。\n"
                "对于因恶意套取财政补贴等非法因素造成财政资金面临较大损失风险时，市商务局有权提前终止活动。\n"
                "本次消费券发放分为5轮，共计14批次。此次消费券通过“抖音”APP发放，先到先得，领完即止。")
CAR = _chunk(1, "三、补贴金额与标准\n燃油车：\n1.新车购车发票金额为10万元（含）至30万元（不含）的，每辆补贴3000元。\n"
                "2.新车购车发票金额在30万元（含）以上的，每辆补贴4000元。\n六、客服电话\n4006096588\n"
                "活动期间，市商务局、齐鲁银行将实时监测补贴活动情况，对于因恶意套取财政补贴等非正常因素造成活动补贴资金异常增长、"
                "财政资金面临较大损失风险时有权提前终止活动。",
             doc_id="car", title="2025年政府汽车消费补贴活动公告")


def test_slot_kinds_and_predicates():
    assert logic.slot_kind("补贴资金由哪个财政部门拨付？")[0] == "部门"
    assert logic.slot_predicate("补贴资金由哪个财政部门拨付？") == "拨付"
    assert logic.slot_kind("泉城购消费券每批次每人可以领几张？")[0] == "数量"
    assert logic.slot_kind("审核分为哪几个环节？")[0] == ""  # 哪几个 lists, it does not count
    assert logic.event_predicate("补贴资金什么时候到账？") == "到账"
    assert logic.event_predicate("发放时间是从哪天到哪天？") == ""


def test_unfilled_slot_is_a_gap_filled_slot_is_not():
    # an amount is asked, the document states amounts — but none of 财政资金总额
    assert logic.slot_gaps("泉城购零售、餐饮消费券活动的财政资金总额是多少？", [QCG]) == ["金额"]
    assert logic.slot_gaps("泉城购零售消费券满200元减多少？", [QCG]) == []
    # a department that monitors is not one that disburses
    assert logic.slot_gaps("2025年政府汽车消费补贴的补贴资金由哪个部门拨付？", [CAR]) == ["部门"]
    # a year the document is not about (its title says 2025)
    assert logic.slot_gaps("泉城购消费券2024年发放了多少轮？", [QCG]) == ["2024年"]
    assert logic.slot_gaps("泉城购消费券一共发放多少轮？", [QCG]) == []
    # a date asked for an event no dated sentence mentions
    assert logic.slot_gaps("2025年政府汽车消费补贴的补贴资金什么时候到账？", [CAR]) == ["日期"]


def test_question_naming_a_tier_amount_gets_its_tier():
    answer, _ = logic.extract_answer("2025年政府汽车消费补贴活动中买一辆15万元的燃油车能补贴多少钱？", [], [CAR])
    assert "3000元" in answer.split("\n")[1]
    assert logic.amount_fits([150000.0], "发票金额10（含）-15（不含）万元，可申领3200元") is False
    assert logic.amount_fits([150000.0], "发票金额为15（含）万元-25（不含）万元，可申领4800元") is True
    assert logic.amount_fits([150000.0], "每件补贴不超过2000元") is None


def test_value_line_under_the_named_heading_is_the_answer():
    answer, _ = logic.extract_answer("泉城购消费券的发放时间是从哪天到哪天？", [], [QCG])
    assert "2025年7月19日至2025年11月15日" in answer


def test_compound_questions_split_into_self_contained_parts():
    parts = logic.split_compound("新车首保消费券的补贴申报时间是什么时候，需要提交哪些资料？")
    assert len(parts) == 2 and all("新车首保消费券" in p for p in parts) and "资料" in parts[1]
    parts = logic.split_compound("泉城购零售消费券和餐饮消费券分别有哪些面额？")
    assert parts == ["泉城购零售消费券有哪些面额", "泉城购餐饮消费券有哪些面额"]
    parts = logic.split_compound("下半年第一轮和第二轮汽车消费补贴的活动时间分别是什么时候？")
    assert [("第一轮" in p, "第二轮" in p) for p in parts] == [(True, False), (False, True)]
    assert all("活动时间" in p for p in parts)
    # a clause that only refines the previous one's slot is not a second question
    assert logic.split_compound("补贴资金什么时候到账？具体日期是哪天？") == []
    assert logic.split_compound("济南市家电以旧换新的补贴标准是多少？") == []
    subs = logic.split_subquestions("首保消费券的领取标准是多少？需要哪些材料？")
    assert subs[0] == "首保消费券的领取标准是多少？需要哪些材料？" and len(subs) == 3


def test_compound_answer_merges_parts_with_citations_and_names_the_open_part():
    parts = ["泉城购消费券在哪个APP领取", "泉城购零售消费券满200元减多少"]
    used, claims = _compound_claims(parts, [QCG])
    text = logic.render_claims(claims, used)
    assert "抖音" in text and "满200元减40元" in text
    assert logic.check_citations(text, used)["ok"]
    state = {"generation": text, "used_documents": used, "refused": False, "checks": {}, "notices": [],
             "unanswered_parts": ["消费券的财政预算总额是多少"], "history": [], "trace": []}
    out = finalize(state, config={})
    assert "另：关于“消费券的财政预算总额是多少”，暂未查到相关规定" in out["generation"]
    assert out["citations"] and out["checks"]["partial_refusal"]
