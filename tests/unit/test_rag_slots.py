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


SD_DELIVERY = "家电产品自销售之日起，应在15日内完成送货（安装）及消费者签收。"
SD_PRICE = ("对不履行价格承诺、“先涨价后打折”的，一经发现直接取消其参与活动资格，并追缴国家补贴资金，"
            "情节严重者将依法依规处理。")
SD = _chunk(1, SD_DELIVERY + "\n" + SD_PRICE, doc_id="sd", title="山东省2025年家电以旧换新实施方案")
QCG_PHONE = _chunk(2, "若用户对本活动规则有任何疑问，可拨打抖音客服：950525进行咨询，工作时间：09:00-23:00。")


def test_a_penalty_left_over_money_or_an_offline_point_must_be_written_in_a_sentence():
    # the 15-day delivery rule is no penalty; the price-commitment sentence names one (取消资格, 追缴)
    delivery_only = _chunk(1, SD_DELIVERY, doc_id="sd", title="山东省2025年家电以旧换新实施方案")
    assert logic.slot_gaps("山东方案对超过15日仍未完成送货的销售企业，规定了什么处罚？", [delivery_only]) == ["处罚"]
    assert logic.slot_gaps("山东方案对不履行价格承诺的企业规定了什么处罚？", [SD]) == []
    assert logic.slot_gaps("山东那个家电补贴，到年底钱要是没花完，剩下的咋处理？", [SD]) == ["余款"]
    # asked 有没有, an offline point is still a slot: a hotline is not one
    assert logic.slot_gaps("抖音客服电话老打不通，泉城购有没有线下服务点能去当面问？", [QCG_PHONE]) == ["线下"]


def test_where_something_is_published_needs_a_sentence_publishing_that_thing():
    # the page that announces rule changes is not where the fund's use is published
    changes = _chunk(3, "活动期间，市商务局、合作平台将实时监测活动情况，相关变动或调整将公布在活动页面上或以合适的方式及时通知。")
    assert logic.slot_gaps("泉城购活动结束后，会在哪里公布消费券资金的使用情况？", [changes]) == ["公布处"]


def test_a_multiple_asked_needs_a_multiple_not_two_amounts():
    amounts = _chunk(4, "现追加政府资金3000万元用于本次活动发放。本次活动资金补贴额度共计1200万元。", doc_id="car",
                     title="关于追加2025年政府汽车消费补贴资金额度的公告")
    assert logic.slot_gaps("追加之后的资金总盘子是下半年第一轮补贴额度的几倍？", [amounts]) == ["倍数"]


def test_a_table_row_figure_is_no_multiple_or_share():
    # a row's figure (本年处理决定数量: 4119) fills an amount or a count, not 几倍 / 百分之多少
    rows = _chunk(5, "信息内容: 行政许可；本年处理决定数量: 550。\n信息内容: 行政处罚；本年处理决定数量: 4119。",
                  doc_id="hz", title="洪泽区人民政府2023年政府信息公开工作年度报告")
    assert logic.slot_gaps("洪泽区2023年的行政处罚决定数是行政许可决定数的几倍？", [rows]) == ["倍数"]
    assert logic.slot_gaps("洪泽区2023年行政许可决定占行政处罚决定的百分之多少？", [rows]) == ["比例"]


def test_who_is_asking_and_how_precisely_are_not_what_the_document_must_mention():
    from core.agents.rag.textutil import canonical_question, key_terms

    q = "窗口上有群众问：帮领导算个账，1月那轮汽车补贴的参与对象是谁？"
    assert not {"群众", "窗口", "算个账"} & set(key_terms(q))
    assert "小数" not in canonical_question("行政处罚决定数是行政许可的几倍（保留一位小数）？")
