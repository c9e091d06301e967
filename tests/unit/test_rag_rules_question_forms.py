"""Question forms the rules path answers from the passage that answers them: questions that
compare two reports (淮安市2024年和洪泽区2023年分别…), a 文号 the question quotes that is one document's own and
another's citation, periods whose start answers "从哪天开始", "其中，…" sentences that say
what a package consists of, and colloquial words (外地户口, 哪段时间, 第一批, 同一个) the
documents write otherwise."""

from __future__ import annotations

from core.agents.rag import logic
from core.agents.rag.textutil import canonical_question, salient_nouns


def _chunk(n: int, text: str, **kw) -> dict:
    return {"chunk_id": f"{kw.get('doc_id', 'd')}-{n:04d}", "doc_id": kw.get("doc_id", "d"),
            "file_name": kw.get("file_name", "x.docx"), "title": kw.get("title", "济南市2025年下半年第二轮汽车消费补贴活动公告"),
            "doc_number": kw.get("doc_number", ""), "heading": kw.get("heading", ""), "path": [], "text": text,
            "body": text, "authority": "", "date": "", "evidence": {"bm25": [1], "dense": [1]}, "spans": [],
            "grade": {"score": 0.8}}


def test_parallel_sides_each_keep_their_own_year():
    parts = logic.split_compound("淮安市2024年和洪泽区2023年分别受理了多少件政府信息公开申请？")
    assert parts == ["淮安市2024年受理了多少件政府信息公开申请", "洪泽区2023年受理了多少件政府信息公开申请"]
    # context shared by both sides still goes to both
    assert logic.split_compound("泉城购零售消费券和餐饮消费券分别有哪些面额？") == [
        "泉城购零售消费券有哪些面额", "泉城购餐饮消费券有哪些面额"]


def test_subject_is_not_cut_inside_a_word():
    # 能 inside 新能源 does not end the subject: the follow-up part keeps 充电桩, so it is refused too
    parts = logic.split_compound("济南市买新能源汽车装充电桩有补贴吗，补贴多少？")
    assert len(parts) == 2 and "充电桩" in parts[1]


def test_a_later_part_naming_its_own_document_keeps_its_own_subject():
    """省家电方案每件上限又是多少 asks the 省 方案, not the 手机 细则 of the first part; 这个方案 / 需要哪些材料
    still lean on the first part's subject."""
    parts = logic.split_compound("手机、平板、智能手表购新补贴每件最高补多少？省家电方案每件上限又是多少？")
    assert parts[1] == "省家电方案每件上限又是多少"
    assert logic.split_compound("首保消费券的申报时间是什么时候？这个方案需要哪些材料？")[1].startswith("首保消费券")
    assert logic.split_compound("首保消费券的申报时间是什么时候？需要哪些材料？")[1] == "首保消费券需要哪些材料"


def test_own_docno_named_beats_a_citing_document():
    own = {"title": "山东省2025年家电以旧换新实施方案", "doc_number": "鲁商字〔2025〕1 号"}
    citing = {"title": "济南市2025年家电以旧换新补贴实施细则", "doc_number": "济商务字〔2025〕5号"}
    q = "鲁商字〔2025〕1号是关于什么的？"
    assert logic.doc_named_in(q, own) and not logic.doc_named_in(q, citing)


def test_start_of_a_period_answers_from_when():
    shape = logic.answer_shape("下半年第二轮汽车补贴的资料从哪天开始申报？")
    assert shape.search("补贴资料申报及修改时间：2025年8月6日10时至2025年9月5日24时；")
    assert not shape.search("不限户籍和上牌地区。")


def test_consists_of_question_quotes_the_detail_sentences():
    d = _chunk(1, "三、补贴金额与标准\n1.购买新车发票金额10（不含）万元以下，可申领1900元的汽车消费礼包。"
                  "其中，每辆可领取额度1000元的加油储值卡（价值1100元）及800元的新车商业保险补贴。\n"
                  "2.购买新车发票金额10（含）-15（不含）万元，可申领3200元的汽车消费礼包。"
                  "其中，每辆可领取额度2000元的加油储值卡（价值2200元）及1000元的新车商业保险补贴。")
    answer, claims = logic.extract_answer("下半年汽车补贴里说的汽车消费礼包具体包括什么？", [], [d])
    assert "加油储值卡" in answer and "商业保险补贴" in answer


def test_colloquial_words_as_documents_write_them():
    assert canonical_question("泉城购第四轮第一批消费券什么时候开始领？") == "泉城购第四轮批次1消费券什么时候开始领？"
    assert "什么时间" in canonical_question("首保消费券要求的购车时间是哪段时间？")
    assert "外地人" in canonical_question("我是外地户口，能参加吗？")
    assert "同一用户" in canonical_question("怎么认定是同一个用户？")
    # a 文号's tail glued to the verb after it is not a subject the corpus must mention
    assert "号指" not in salient_nouns("年度报告里提到的国令第711号指的是什么？")
    assert "段时间" not in salient_nouns(canonical_question("首保消费券要求的购车时间是哪段时间？"))


def test_period_question_quotes_the_period_under_its_heading():
    d = _chunk(1, "一、消费券发放时间\n2025年7月19日至2025年11月15日\n二、参与对象\n活动期间手机定位在济南市的用户均可参与领券。",
               title="2025年济南市“泉城购”零售、餐饮消费券发放活动公告")
    q = "泉城购消费券发放从什么时候开始到什么时候结束？"
    answer, _ = logic.extract_answer(q, [], [d])
    assert "7月19日" in answer and "11月15日" in answer
    # and the period answers the date slot: not a refusal for want of 开始 / 结束
    assert logic.slot_gaps(q, [d]) == []


def test_issuing_notice_cover_is_no_answer_to_a_how_question():
    cover = _chunk(1, "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知各区县（功能区）商务主管部门、发展改革委、财政局、市场监管局：\n"
                      "第四条补贴资格领取\n个人消费者通过济南市“泉城购”服务平台，完成实名认证，根据需求领取补贴资格。",
                   title="济南市2025年家电以旧换新补贴实施细则", heading="第四条补贴资格领取")
    answer, _ = logic.extract_answer("济南家电以旧换新补贴怎么领取？", [], [cover])
    assert "实名认证" in answer and "各区县" not in answer
    # …but a question about what the notice implements still gets it
    assert logic.BASIS_Q.search("细则是根据什么文件制定的？")


def test_where_one_is_asks_who_may_take_part():
    d = _chunk(1, "二、参与对象\n参与用户：活动期间手机定位在济南市的用户（不限户籍，在活动平台已绑定手机号且已完成实名认证）均可参与领券。\n"
                  "五、消费券领取及使用规则\n用户注册登录“抖音”APP，搜索2025年济南市“泉城购”零售、餐饮消费券，进入活动主会场页面领取。\n"
                  "发票备注中需注明2025年济南市“泉城购”零售、餐饮消费券活动字样。",
               title="2025年济南市“泉城购”零售、餐饮消费券发放活动公告")
    answer, _ = logic.extract_answer("人不在济南的话，能领泉城购的消费券吗？", [], [d])
    assert "定位在济南" in answer


def test_where_a_car_is_registered_is_covered_by_the_registration_area():
    from core.agents.rag.logic import uncovered_nouns

    d = _chunk(1, "参加对象：活动时间内，在济南市参加活动的车企购置非营运乘用车新车的个人消费者，不限户籍和车辆挂牌地区。",
               title="济南市2025年新车首保消费券活动公告")
    assert uncovered_nouns("在济南买的新车在外地挂牌，还能领首保消费券吗？", [d]) == []
    # where one *uses* a coupon is not its registration area: still not covered
    q = _chunk(2, "参与用户：活动期间手机定位在济南市的用户（不限户籍）均可参与领券。", title="泉城购消费券发放活动公告")
    assert "外地" in uncovered_nouns("泉城购消费券可以在外地使用吗？", [q])
