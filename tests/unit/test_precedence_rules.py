"""Precedence of two documents that fill the asked slot differently (data/rules/precedence.json
read by core.documents.precedence.decide), on the titles and dates of the real documents: each
rule in its order, the explanation it gives, and no winner when no rule decides."""

from __future__ import annotations

from core.documents.precedence import decide, precedence_rules

NOTICE = {"doc_id": "n", "title": "济南市2025年新车首保消费券活动公告", "status": "in_effect", "tenant": "demo",
          "authorities": ["济南市商务局"], "level": "市", "expiry_date": "2025-07-15"}
SUPPLEMENT = {"doc_id": "s", "title": "济南市2025年新车首保消费券活动补充公告", "status": "in_effect", "tenant": "demo"}
CAMPAIGN = {"doc_id": "c", "title": "2025年政府汽车消费补贴活动公告", "status": "in_effect", "tenant": "demo",
            "authorities": ["济南市商务局"], "level": "市"}
TOP_UP = {"doc_id": "t", "title": "关于追加2025年政府汽车消费补贴资金额度的公告", "status": "in_effect", "tenant": "demo",
          "authorities": ["济南市商务局"], "level": "市", "date": "2025-02-25"}
PROVINCE = {"doc_id": "p", "title": "山东省2025年家电以旧换新实施方案", "status": "in_effect", "tenant": "demo",
            "authorities": ["山东省商务厅"], "level": "省", "date": "2025-01-20"}
CITY = {"doc_id": "j", "title": "济南市2025年家电以旧换新补贴实施细则", "status": "in_effect", "tenant": "demo",
        "authorities": ["济南市商务局"], "level": "市", "date": "2025-01-20"}


def test_rules_are_tried_in_the_documented_order():
    assert [r["id"] for r in precedence_rules()["rules"]] == ["validity", "tenant", "place", "relation", "date"]


def test_in_effect_prevails_over_expired_with_its_end_date():
    expired = {**NOTICE, "status": "expired"}
    v = decide(expired, SUPPLEMENT)
    assert (v["winner"], v["rule"]) == ("b", "validity")
    assert v["reason"] == "《济南市2025年新车首保消费券活动公告》已于2025-07-15到期"


def test_the_askers_own_tenant_prevails():
    v = decide({**CITY, "tenant": "other"}, CITY, {"tenant": "demo"})
    assert (v["winner"], v["rule"]) == ("b", "tenant")


def test_the_document_naming_the_asked_place_prevails():
    v = decide(PROVINCE, CITY, {"places": ["济南"]})
    assert (v["winner"], v["rule"]) == ("b", "place") and v["reason"].startswith("市级文件对济南更具体")


def test_a_supplement_and_a_top_up_prevail_over_the_notice_they_amend():
    v = decide(NOTICE, SUPPLEMENT)
    assert (v["winner"], v["rule"]) == ("b", "relation") and "作出了补充或调整" in v["reason"]
    assert decide(TOP_UP, CAMPAIGN)["winner"] == "a"


def test_an_explicit_repeal_relation_decides():
    v = decide(PROVINCE, {**PROVINCE, "doc_id": "p2", "title": "山东省家电以旧换新办法"}, {"relations": [("p2", "repeals", "p")]})
    assert (v["winner"], v["rule"]) == ("b", "relation") and "已明确废止" in v["reason"]


def test_then_the_later_publish_date_and_otherwise_no_winner():
    older = {**PROVINCE, "doc_id": "x", "title": "山东省家电以旧换新工作要点", "date": "2024-03-01"}
    v = decide(older, PROVINCE)
    assert (v["winner"], v["rule"]) == ("b", "date") and "2025-01-20" in v["reason"]
    undated = {**older, "date": ""}
    v = decide(undated, {**PROVINCE, "date": ""})
    assert v["winner"] is None and v["rule"] == "undecided" and "请向发文机关核实" in v["reason"]
