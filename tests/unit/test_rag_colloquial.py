"""Rules-path robustness to how citizens actually ask: colloquial amounts and units (2500块,
20万, 几台), words the documents say differently (公司 → 企业, 退回来 → 返还), search-mode
artefacts (车能 / 能领) that must not decide a refusal, follow-ups too short to name their
subject, and the unanswerables that sit next to a matching sentence (the name of an
organisation of one kind, a how-to step the documents never describe, a yes/no action no
sentence speaks of)."""

from __future__ import annotations

from core.agents.rag import logic
from core.agents.rag.aliases import apply_aliases
from core.agents.rag.textutil import canonical_question, key_terms, salient_nouns, split_sentences, yesno_predicates


def _chunk(n: int, text: str, **kw) -> dict:
    return {"chunk_id": f"{kw.get('doc_id', 'd')}-{n:04d}", "doc_id": kw.get("doc_id", "d"),
            "file_name": kw.get("file_name", "x.docx"), "title": kw.get("title", "2025年政府汽车消费补贴活动公告"),
            "doc_number": "", "heading": kw.get("heading", ""), "path": [], "text": text, "body": text,
            "authority": "", "date": "", "evidence": {"bm25": [1], "dense": [1]}, "spans": [],
            "grade": {"score": 0.8}}


CAR = _chunk(1, "三、补贴金额与标准\n新能源汽车：\n1.新车购车发票金额为10万元（含）至30万元（不含）的，每辆补贴4000元。\n"
                "2.新车购车发票金额在30万元（含）以上的，每辆补贴5000元。\n燃油车：\n"
                "1.新车购车发票金额为10万元（含）至30万元（不含）的，每辆补贴3000元。")
JN = _chunk(2, "第三章组织实施\n市商务局委托第三方机构审核相关信息及材料并出具审核报告，采取滚动兑付方式对企业兑付资金。\n"
               "省商务厅将联合省财政厅聘请第三方专业机构对各市家电以旧换新工作进行重点核查。\n"
               "每位消费者每类产品可补贴1件（空调类产品最多补贴3件），每件补贴不超过2000元。",
            doc_id="jn", title="济南市2025年家电以旧换新补贴实施细则")
QCG = _chunk(3, "五、消费券领取及使用规则\n此次消费券通过“抖音”APP发放，先到先得，领完即止。\n"
                "用户注册登录“抖音”APP，搜索关键词“泉城购”，进入活动主会场页面领取。\n"
                "用户在“抖音”APP单笔订单中使用消费券不可购买2个或以上团购套餐。\n"
                "在消费券有效期内，使用券的订单发生退款时，该张消费券将返还到用户账户中。",
             doc_id="qcg", title="2025年济南市“泉城购”零售、餐饮消费券发放活动公告")


def test_colloquial_amounts_units_and_dates_are_written_as_documents_write_them():
    assert canonical_question("商业险交了2500块能领多少") == "商业保险交了2500元能领多少"
    assert canonical_question("新能源车20万能补多少钱") == "新能源车20万元能补贴多少钱"
    assert canonical_question("1月份开始的那次") == "1月开始的那次"
    assert canonical_question("20万人参加") == "20万人参加"  # a count of people is no amount
    assert logic.question_amounts(canonical_question("30万的车")) == [300000.0]
    # 几台 is answered by "最多补贴3件": one family of counting units
    assert logic.slot_gaps("济南家电以旧换新空调能补贴几台？", [JN]) == []


def test_search_artefacts_and_frame_words_are_not_subjects():
    assert "车能" not in key_terms("下半年汽车补贴买一辆30万元的车能拿多少礼包")
    assert "能领" not in salient_nouns("外地人能领吗")
    assert "月份" not in salient_nouns("1月份开始的那次政府汽车消费补贴要在哪里申报")
    # the aspect asked about (用途 / 分类 / 方式) and very common nouns (企业) are no subject
    assert not {"用途", "分类"} & set(salient_nouns("房改售房款的支取用途有哪些分类？"))
    assert "企业" not in salient_nouns("企业职工如何申领基本养老保险遗属待遇？")
    # ...but the noun a which-question asks for is (哪几个等级)
    assert "等级" in salient_nouns("个人所得税纳税信用评价分为哪几个等级？")


def test_colloquial_words_are_covered_by_the_documents_wording():
    pool = [QCG]
    assert logic.uncovered_nouns("用泉城购的券买的套餐退款了，券还能退回来吗？", pool) == []
    assert logic.question_gaps("泉城购消费券在哪个平台领？", pool) == []


def test_an_amount_in_a_tier_answers_the_amount_slot():
    q = canonical_question("上半年那个政府汽车消费补贴，新能源车20万能补多少钱")
    assert logic.slot_gaps(q, [CAR]) == []
    answer, _ = logic.extract_answer(q, [], [CAR])
    assert "4000元" in answer and "5000元" not in answer


def test_name_of_an_organisation_of_one_kind_must_be_named():
    # "委托第三方机构" / "聘请第三方专业机构" name no 机构: the question is unanswered
    assert logic.slot_gaps("济南家电以旧换新委托的第三方审核机构叫什么名字？", [JN]) == ["部门"]
    assert logic.slot_kind("买新车首保消费券指定了哪几家保险公司？")[0] == "部门"
    shape = logic.slot_kind("由哪家银行负责发放")[1]
    assert logic._names_org("登录齐鲁银行权益平台进行申报", "由哪家银行负责发放", shape)
    assert not logic._names_org("发放补贴至消费者提交的银行卡中", "哪家银行", logic.slot_kind("哪家银行")[1])


def test_how_question_needs_the_step_it_asks_about():
    assert logic.how_verb_gap("泉城购消费券的商家要怎么报名参加活动？", [QCG]) == ["报名"]
    assert logic.how_verb_gap("泉城购消费券怎么领取？", [QCG]) == []


def test_yes_no_action_is_the_one_nearest_the_question_mark():
    assert yesno_predicates("下半年汽车消费补贴能不能和上半年的政府汽车消费补贴叠加享受？") == ("叠加",)
    assert yesno_predicates("首保消费券上传的材料照片有大小限制吗？") != ("上传",)
    assert yesno_predicates("泉城购消费券怎么领取？") == ()


def test_a_colloquial_yes_no_question_asks_its_action():
    # "…能补办不？" / "…让不让？" are yes/no questions; the action asked must be covered by a document
    assert yesno_predicates("下半年汽车补贴送的加油卡要是弄丢了，能补办不？") == ("补办",)
    assert yesno_predicates("商家先把价抬上去再给补贴，这让不让？") == ()


def test_short_question_after_a_turn_is_a_followup_unless_it_names_a_document():
    history = [{"question": "济南家电以旧换新的补贴标准是多少？", "doc_ids": ["jn"], "titles": ["济南市2025年家电以旧换新补贴实施细则"]}]
    titles = ["济南市2025年家电以旧换新补贴实施细则", "2025年济南市“泉城购”零售、餐饮消费券发放活动公告"]
    assert logic.is_followup("空调能补几台？", history, titles=titles)
    assert logic.is_followup("要交哪些材料？", history, titles=titles)
    assert not logic.is_followup("泉城购消费券有哪些面额？", history, titles=titles)


def test_compound_part_with_qizhong_keeps_the_first_part_as_context():
    parts = logic.split_compound("下半年汽车补贴买一辆30万元的车能拿多少礼包？其中加油卡额度是多少？")
    assert len(parts) == 2 and parts[1].startswith("下半年汽车补贴买一辆30万元的车") and parts[1].endswith("其中加油卡额度是多少")
    parts = logic.split_compound("下半年汽车补贴的加油储值卡去哪里领，有效期多长？")
    assert parts[1].startswith("下半年汽车补贴的加油储值卡")


def test_alias_inside_a_longer_word_is_not_doubled():
    out, applied = apply_aliases("下半年汽车补贴买一辆车", {"车补": "汽车消费补贴"})
    assert out == "下半年汽车补贴买一辆车" and applied == []
    assert apply_aliases("车补怎么领", {"车补": "汽车消费补贴"})[0] == "汽车消费补贴怎么领"


def test_email_cut_after_its_label_stays_in_the_sentence():
    text = ("如对本报告有疑问，请与淮安市洪泽区人民政府办公室联系（电话：0517-87222589，电子邮箱：\n"
            "hzzwgk@126.com）。")
    assert any("hzzwgk@126.com" in s and "电子邮箱" in s for s in split_sentences(text))


def test_another_subsidy_after_another_is_its_own_part():
    # "…能领多少，另外有多少补贴？" asks for something extra, not the same amount again
    parts = logic.split_compound("新车首保消费券商业保险8000元以上能领多少，另外有多少补贴？")
    assert len(parts) == 2 and logic.slot_kind(parts[1])[0] == "额外"
    # a plain second question after 另外 is not turned into one about extras
    parts = logic.split_compound("补贴标准是多少，另外需要哪些材料？")
    assert len(parts) == 2 and logic.slot_kind(parts[1])[0] == "材料"
