"""Metadata extraction on the real policy documents (core.documents.metadata)."""

from __future__ import annotations

import json

import pytest

from core.documents.metadata import (
    extract_metadata,
    extract_query_entities,
    extract_repeals,
    level_of,
    missing_fields,
    parse_date,
)
from core.documents.doc_numbers import find_doc_numbers, normalize_doc_number
from core.documents.parse import parse_file, parse_text_content
from tests.unit.test_documents_parse import parsed_policy

# Read off the documents by hand: file -> (文号, title, authorities, 成文日期, 发布/印发日期, level, review)
EXPECTED = {
    "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知(1).pdf": (
        "济商务字〔2025〕5号", "济南市2025年家电以旧换新补贴实施细则",
        ["济南市商务局", "济南市发展和改革委员会", "济南市财政局", "济南市市场监督管理局"],
        "2025-01-20", "2025-01-20", "市", "approved"),
    "发改办财金规〔2019〕860号.pdf": (
        "发改办财金规〔2019〕860号", "关于加强个人所得税纳税信用建设的通知",
        ["国家发展改革委办公厅", "税务总局办公厅"], "2019-08-20", "", "国家", "approved"),
    # its 落款 page is a scan (page 2); without OCR the 印发 line still dates it
    "省商务厅等4部门关于印发《山东省2025年家电以旧换新实施方案》的通知.pdf": (
        "鲁商字〔2025〕1号", "山东省2025年家电以旧换新实施方案",
        ["山东省商务厅", "山东省发展和改革委员会", "山东省财政厅", "山东省市场监督管理局"],
        "", "2025-01-20", "省", "approved"),
    "洪泽区2023年政府信息公开工作年度报告.pdf": (
        "", "洪泽区人民政府2023年政府信息公开工作年度报告", ["洪泽区人民政府"], "", "", "区县", "pending"),
    "淮安市人民政府2024年政府信息公开工作年度报告.pdf": (
        "", "淮安市人民政府2024年政府信息公开工作年度报告", ["淮安市人民政府"], "", "", "市", "pending"),
    "关于追加2025年政府汽车消费补贴资金额度的公告.docx": (
        "", "关于追加2025年政府汽车消费补贴资金额度的公告", ["济南市商务局"], "2025-02-25", "", "市", "pending"),
    "2025年济南市“泉城购”零售、餐饮消费券发放活动公告.docx": (
        "", "2025年济南市“泉城购”零售、餐饮消费券发放活动公告", ["济南市商务局"], "", "", "市", "pending"),
    "济南市2025年下半年汽车消费补贴活动第一轮公告.docx": (
        "", "济南市2025年下半年第一轮汽车消费补贴活动公告", ["济南市商务局"], "", "", "市", "pending"),
    "济南市2025年下半年汽车消费补贴活动第二轮公告.docx": (
        "", "济南市2025年下半年第二轮汽车消费补贴活动公告", ["济南市商务局"], "", "", "市", "pending"),
    "济南市2025年新车首保消费券活动公告.docx": (
        "", "济南市2025年新车首保消费券活动公告", ["济南市商务局"], "", "", "市", "pending"),
    # no issuer named anywhere in these two notices ("市商务局" only): pending, no guessing
    "2025年政府汽车消费补贴活动公告.docx": (
        "", "2025年政府汽车消费补贴活动公告", [], "", "", "", "pending"),
    "济南市2025年新车首保消费券活动补充公告.docx": (
        "", "济南市2025年新车首保消费券活动补充公告", [], "", "", "", "pending"),
}


@pytest.fixture(scope="session")
def metas(shared_data) -> dict:
    out = {}
    for name in EXPECTED:
        doc = parsed_policy(str(shared_data / "policies" / name))
        out[name] = extract_metadata(doc)
    return out


@pytest.mark.parametrize("name", list(EXPECTED))
def test_metadata_of_every_real_document(metas, name):
    number, title, authorities, sign, publish, level, review = EXPECTED[name]
    m = metas[name]
    assert m.doc_number == number
    assert m.title == title
    assert sorted(m.authorities) == sorted(authorities)
    assert m.sign_date == sign
    assert m.publish_date == publish
    assert m.level == level
    assert m.review_state == review
    assert m.file_name == name and len(m.doc_id) == 16


def test_pending_documents_say_what_is_missing(metas):
    m = metas["洪泽区2023年政府信息公开工作年度报告.pdf"]
    assert missing_fields(m) == ["文号", "成文/发布日期"]
    assert missing_fields(metas["发改办财金规〔2019〕860号.pdf"]) == []


def test_state_council_records(shared_data):
    """60 国务院 documents with their official 文号 / title / office: extraction from the body text."""
    rows = [json.loads(line) for line in (shared_data / "policies" / "govcn_policies_2019.jsonl").open(encoding="utf-8")]
    good_number = good_office = good_title = 0
    for r in rows:
        m = extract_metadata(parse_text_content(r["text"], r["title"] + ".txt"))
        expected_number = normalize_doc_number(r["release_number"])
        good_number += m.doc_number == expected_number
        office_parts = [p for p in r["release_office"].replace("、", " ").split() if p]
        good_office += all(any(p in a for a in m.authorities) for p in office_parts)
        t = r["title"].replace(" ", "")
        good_title += m.title == t or (f"《{m.title}》" in t)
    assert len(rows) == 60
    assert good_number >= 58   # the two 国令 (国务院令第707号) have no 〔year〕 number
    assert good_office >= 56
    assert good_title >= 54


def test_doc_number_normalisation():
    assert normalize_doc_number("济商务字〔2025〕6 号") == "济商务字〔2025〕6号"
    assert normalize_doc_number("济商务字[2025]6号") == "济商务字〔2025〕6号"
    assert normalize_doc_number("鲁商字【2025】1号") == "鲁商字〔2025〕1号"
    assert normalize_doc_number("国办发（2019）35号") == "国办发〔2019〕35号"
    assert normalize_doc_number("发改办财金规〔2019〕第860号") == "发改办财金规〔2019〕860号"
    assert find_doc_numbers("根据《通知》（国发〔2018〕41 号）和（鲁商字[2025]1号）") == ["国发〔2018〕41号", "鲁商字〔2025〕1号"]


def test_dates_effective_expiry_and_repeals():
    assert parse_date("2025 年1 月20 日") == "2025-01-20"
    assert parse_date("二〇二五年一月二十日") == "2025-01-20"
    assert parse_date("发布日期：2025-01-21") == "2025-01-21"
    text = ("济南市商务局文件\n济商务字〔2025〕9号\n关于印发《济南市某某补贴办法》的通知\n各区县：\n"
            "现印发给你们。\n第一条 为规范补贴，制定本办法。\n第二条 本办法自2025年3月1日起施行，有效期至2026年12月31日。"
            "《济南市家电补贴暂行办法》（济商务字〔2024〕3号）同时废止。\n济南市商务局\n2025年2月10日")
    m = extract_metadata(parse_text_content(text, "x.txt"))
    assert m.doc_number == "济商务字〔2025〕9号"
    assert m.title == "济南市某某补贴办法"
    assert m.authorities == ["济南市商务局"]
    assert m.sign_date == "2025-02-10"
    assert m.effective_date == "2025-03-01"
    assert m.expiry_date == "2026-12-31"
    assert m.repeals == ["《济南市家电补贴暂行办法》", "济商务字〔2024〕3号"]
    assert m.review_state == "approved"
    on_issue = extract_metadata(parse_text_content(text.replace("本办法自2025年3月1日起施行", "本办法自印发之日起施行"), "y.txt"))
    assert on_issue.effective_date == "2025-02-10"
    draft = extract_metadata(parse_text_content("关于某某管理办法（征求意见稿）的公告\n内容。", "z.txt"))
    assert draft.status == "draft"
    assert extract_repeals("本年废止件数为5件。") == []


def test_levels():
    assert level_of("国家发展改革委办公厅") == "国家"
    assert level_of("国务院") == "国家"
    assert level_of("山东省商务厅") == "省"
    assert level_of("济南市市场监督管理局") == "市"
    assert level_of("洪泽区人民政府") == "区县"
    assert level_of("国家市场监督管理总局") == "国家"


def test_query_entities():
    e = extract_query_entities("济南市商务局《济南市2025年家电以旧换新补贴实施细则》第二条规定的补贴标准是多少？跟济商务字〔2025〕5 号有关吗")
    assert e["titles"] == ["济南市2025年家电以旧换新补贴实施细则"]
    assert e["doc_numbers"] == ["济商务字〔2025〕5号"]
    assert "济南市商务局" in e["agencies"]
    assert e["articles"] == [{"ref": "第二条", "law": "济南市2025年家电以旧换新补贴实施细则"}]
    e2 = extract_query_entities("民法典第五十四条说的个体工商户是什么")
    assert e2["articles"] == [{"ref": "第五十四条", "law": "民法典"}]
    assert extract_query_entities("")["titles"] == []


def test_markdown_law_metadata(shared_data):
    m = extract_metadata(parse_file(shared_data / "laws" / "民法典" / "合同编.md"))
    assert m.title == "中华人民共和国民法典"
    assert m.authorities == ["全国人民代表大会"] and m.level == "国家"
    assert (m.sign_date, m.effective_date) == ("2020-05-28", "2021-01-01")
