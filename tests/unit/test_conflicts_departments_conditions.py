"""Department and condition slots of the conflict check, on passages of the real documents
(济商务字〔2025〕5号 articles, 鲁商字〔2025〕1号, the 下半年 car-subsidy rounds, the 洪泽/淮安
annual reports). Where the shared documents never disagree on a department, the disagreeing
side is a real article with its department changed — the only invented text here, and named so."""

from __future__ import annotations

from core.agents.rag.conflicts import detect_conflicts, reconcile_answer

CITY_RULES = "济南市2025年家电以旧换新补贴实施细则"
PROVINCE_PLAN = "山东省2025年家电以旧换新实施方案"


def _chunk(doc_id: str, title: str, body: str, heading: str = "", **meta) -> dict:
    return {"doc_id": doc_id, "chunk_id": f"{doc_id}-1", "title": title, "file_name": f"{title}.pdf", "body": body,
            "text": body, "heading": heading, "path": [], "status": "in_effect", "tenant": "demo", **meta}


# 第十三条 市发展改革委 / 负责加强统筹协调…: the article's heading read into its sentence
CITY = _chunk("city", CITY_RULES, "市发展改革委负责加强统筹协调，推进家电以旧换新补贴政策实施。",
              heading="第三章组织实施 > 第十三条市发展改革委", level="市", date="2025-01-20")
PROVINCE = _chunk("prov", PROVINCE_PLAN, "各市发展改革委负责加强统筹协调，推进政策实施。各市商务主管部门负责组织实施家电以旧换新"
                  "工作，会同有关部门做好补贴资金审核、兑付，提高资金使用效益。", level="省", date="2025-01-20")
ASK = "家电以旧换新由哪个部门负责加强统筹协调？"


def _answer(chunk: dict, text: str) -> str:
    return f"依据《{chunk['title']}》：\n- {text}[1]"


def test_same_department_spelled_differently_is_no_conflict():
    # 第十三条 市发展改革委 (the city's rules) and 各市发展改革委 (the province's plan): one department
    answer = _answer(CITY, "市发展改革委：负责加强统筹协调，推进家电以旧换新补贴政策实施。")
    assert detect_conflicts(ASK, answer, [CITY], [PROVINCE], {"tenant": "demo", "places": []}) == []


def test_role_word_names_the_same_bureau():
    city = _chunk("city", CITY_RULES, "负责组织实施家电以旧换新工作，会同有关部门做好补贴资金审核、兑付；",
                  heading="第三章组织实施 > 第十一条市商务局", level="市", date="2025-01-20")
    answer = _answer(city, "市商务局：负责组织实施家电以旧换新工作，会同有关部门做好补贴资金审核、兑付；")
    ask = "家电以旧换新工作由哪个部门负责组织实施？"
    assert detect_conflicts(ask, answer, [city], [PROVINCE], {"tenant": "demo", "places": []}) == []
    # both passages were compared: the plan naming another city department would be a conflict (invented)
    other = dict(PROVINCE, body=PROVINCE["body"].replace("各市商务主管部门", "各市发展改革委"))
    other["text"] = other["body"]
    [c] = detect_conflicts(ask, answer, [city], [other], {"tenant": "demo", "places": ["济南"]})
    assert c["units"] == ["市"] and c["decision"]["rule"] == "place"  # the city's rules are more specific


def test_another_department_for_the_same_duty_is_noted_and_decided():
    # invented: the city's article 13 as a later city notice would have it, naming the 商务局
    later = _chunk("later", "济南市2025年家电以旧换新补贴实施细则补充通知", "市商务局负责加强统筹协调，推进家电以旧换新补贴政策实施。",
                   level="市", date="2025-03-01")
    answer = _answer(CITY, "市发展改革委：负责加强统筹协调，推进家电以旧换新补贴政策实施。")
    [c] = detect_conflicts(ASK, answer, [CITY], [later], {"tenant": "demo", "places": []})
    assert c["slot"] == "部门" and c["units"] == ["市"]
    assert c["decision"]["winner"] == "b" and c["decision"]["rule"] == "relation"  # 补充 amends the rules
    text, used, roles = reconcile_answer(answer, [CITY], [later], [c])
    assert roles == {"later-1": "采用", "city-1": "另有规定"}
    assert "以《济南市2025年家电以旧换新补贴实施细则补充通知》为准" in text
    note = next(line for line in text.splitlines() if line.startswith("另有规定"))
    assert "市发展改革委" in note and "[1]" in note


def test_departments_of_two_levels_are_not_a_conflict():
    hz = _chunk("hz", "洪泽区人民政府2023年政府信息公开工作年度报告",
                "本报告由淮安市洪泽区人民政府办公室根据《中华人民共和国政府信息公开条例》要求编制此报告。", level="区")
    ha = _chunk("ha", "淮安市人民政府2024年政府信息公开工作年度报告",
                "本报告由淮安市人民政府办公室根据《中华人民共和国政府信息公开条例》规定编制此报告。", level="市")
    answer = _answer(hz, "本报告由淮安市洪泽区人民政府办公室根据《中华人民共和国政府信息公开条例》要求编制此报告。")
    assert detect_conflicts("洪泽区政府信息公开年度报告由哪个部门编制？", answer, [hz], [ha], {"places": ["洪泽区"]}) == []


ROUND1 = _chunk("r1", "济南市2025年下半年第一轮汽车消费补贴活动公告",
                "活动期限内，个人（限购1辆）和企业（单位）（行政、事业单位除外，限购3辆）在济南市参加活动的车企购置非营运乘用车新车，"
                "不限户籍和上牌地区。", date="2025-06-25")
ROUND2 = _chunk("r2", "济南市2025年下半年第二轮汽车消费补贴活动公告",
                "活动时间内，在济南市参加活动的车企购置非营运乘用车新车的个人（限购1辆）和企业（单位）（行政、事业单位除外，限购3辆），"
                "不限户籍和上牌地区。", date="2025-07-28")


def test_conditions_that_agree_are_no_conflict():
    answer = _answer(ROUND1, ROUND1["body"])
    assert detect_conflicts("济南下半年汽车消费补贴对户籍有什么要求？", answer, [ROUND1], [ROUND2], {"places": ["济南"]}) == []


def test_a_condition_stated_differently_is_noted_only_for_the_facet_asked():
    # invented: round 2 as if it had been limited to people from the city
    local = dict(ROUND2, body=ROUND2["body"].replace("不限户籍和上牌地区", "限本市户籍"),
                 text=ROUND2["body"].replace("不限户籍和上牌地区", "限本市户籍"))
    answer = _answer(ROUND1, ROUND1["body"])
    [c] = detect_conflicts("济南下半年汽车消费补贴对户籍有什么要求？", answer, [ROUND1], [local], {"places": ["济南"]})
    assert c["slot"] == "条件" and c["units"] == ["户籍"] and c["decision"]["rule"] == "relation"  # 第二轮 is later
    # asked about something else (the 申领主体 agree): the 户籍 difference is not this answer's note
    assert detect_conflicts("济南下半年汽车消费补贴哪些企业可以申请？", answer, [ROUND1], [local], {"places": ["济南"]}) == []
