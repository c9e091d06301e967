"""Structure-aware chunking on the real documents and the Markdown law fast path."""

from __future__ import annotations

import json
import re

import pytest

from core.documents.chunk import (
    MAX_TOKENS,
    canonical_law_name,
    chunk_document,
    chunk_markdown_law,
    law_article_name,
)
from core.documents.metadata import extract_metadata
from core.documents.normalize import count_tokens
from core.documents.parse import parse_file, parse_text_content
from tests.unit.test_documents_parse import parsed_policy

JINAN = "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知(1).pdf"
HONGZE = "洪泽区2023年政府信息公开工作年度报告.pdf"
HUAIAN = "淮安市人民政府2024年政府信息公开工作年度报告.pdf"
NOTICE_860 = "发改办财金规〔2019〕860号.pdf"
CAR = "济南市2025年下半年汽车消费补贴活动第一轮公告.docx"
COUPON = "2025年济南市“泉城购”零售、餐饮消费券发放活动公告.docx"


@pytest.fixture(scope="session")
def chunked(shared_data) -> dict:
    out = {}
    for name in (JINAN, HONGZE, HUAIAN, NOTICE_860, CAR, COUPON):
        doc = parsed_policy(str(shared_data / "policies" / name))
        meta = extract_metadata(doc)
        out[name] = (doc, meta, chunk_document(doc, meta))
    return out


def test_articles_are_chunks_with_header_path(chunked):
    doc, meta, chunks = chunked[JINAN]
    arts = [c for c in chunks if c.kind == "article"]
    headings = list(dict.fromkeys(c.heading for c in arts))
    assert len(headings) == 19
    assert headings[0] == "第一条 补贴范围" and headings[-1] == "第十九条 其他事项"
    c2 = next(c for c in arts if c.heading == "第二条 补贴标准")
    assert c2.text.split("\n")[0] == "济南市2025年家电以旧换新补贴实施细则 > 第一章 补贴范围和标准 > 第二条 补贴标准"
    assert c2.path == ["济南市2025年家电以旧换新补贴实施细则", "第一章 补贴范围和标准", "第二条 补贴标准"]
    assert "按最终销售价格的15%给予补贴" in c2.body and "每件补贴不超过2000元" in c2.body
    assert c2.body.startswith("对个人消费者购买2级及以上能效")
    assert c2.page_start == c2.page_end == 4
    assert c2.chunk_id == f"{doc.doc_id}-{c2.ord:04d}"
    for s in c2.spans:  # one span per source line, on the page, in PDF points
        assert s.page == 4 and 0 <= s.bbox[0] < s.bbox[2] <= 596 and 0 <= s.bbox[1] < s.bbox[3] <= 842
    # an article that runs over a page break keeps both pages
    c1 = next(c for c in arts if c.heading == "第一条 补贴范围")
    assert (c1.page_start, c1.page_end) == (3, 4)
    assert "动态调整参与补贴的产品品种" in c1.body  # the sentence broken across pages is rejoined
    c11 = next(c for c in arts if c.heading.startswith("第十一条"))
    assert c11.path[1] == "第三章 组织实施"
    # the cover letter and 红头 are the preamble; the 版记 line is not glued onto 第十九条
    assert chunks[0].kind == "preamble" and "济商务字〔2025〕5号" in chunks[0].body
    last_art = [c for c in arts if c.heading.startswith("第十九条")][-1]
    assert "印发" not in last_art.body


def test_long_article_is_split_at_paragraphs_with_same_header(chunked):
    _, _, chunks = chunked[JINAN]
    parts = [c for c in chunks if c.heading == "第七条 销售企业参与流程"]
    assert len(parts) == 2
    assert all(c.text.startswith("济南市2025年家电以旧换新补贴实施细则 > 第二章 补贴规则及流程 > 第七条") for c in parts)
    assert parts[0].body.startswith("1.自愿报名")
    assert parts[1].body.startswith("（")  # cut at a 款/项 boundary, not inside a sentence
    for c in parts:
        assert count_tokens(c.body) <= MAX_TOKENS


def test_statistics_table_chunks_carry_headers(chunked):
    _, _, chunks = chunked[HONGZE]
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) >= 3
    first = tables[0]
    assert "【第二十条第（一）项】" in first.body
    assert "表头：信息内容 | 本年制发件数 | 本年废止件数 | 现行有效件数" in first.body
    assert "信息内容: 行政规范性文件；本年制发件数: 0；本年废止件数: 5；现行有效件数: 5" in first.body
    assert "信息内容: 行政事业性收费；本年收费金额（单位：万元）: 7730.28" in first.body
    # the application table runs from page 3 onto page 4 and is stitched before chunking
    apps = [c for c in tables if "申请人情况/自然人" in c.body]
    assert apps[0].page_start == 3 and apps[-1].page_end == 4
    body = "\n".join(c.body for c in apps)
    assert "项目: 一、本年新收政府信息公开申请数量；申请人情况/自然人: 21；" in body
    assert "项目: 三、本年度办理结果 （五）不予处理 1.信访举报投诉类申请；申请人情况/自然人: 1；" in body
    assert "申请人情况/总计: 21" in body
    for c in apps:  # at most 25 rows per chunk, each chunk repeats the header line
        rows = [ln for ln in c.body.split("\n") if not ln.startswith(("表头：", "【"))]
        assert 0 < len(rows) <= 25
        assert c.body.startswith("表头：项目 | 申请人情况/自然人")
    assert all(c.path[-1] == "三、收到和处理政府信息公开申请情况" for c in apps)
    _, _, huaian = chunked[HUAIAN]
    assert any("【第二十条第（一）项】" in c.body and c.kind == "table" for c in huaian)
    assert not any(c.body.strip() == "第二十条第（一）项" for c in huaian)


def test_prose_chunks_sizes_and_sections(chunked):
    _, meta, chunks = chunked[NOTICE_860]
    assert all(c.kind == "prose" for c in chunks)
    assert [c.heading for c in chunks[1:]] == ["一、总体要求", "二、建立个人所得税纳税信用管理机制", "三、完善守信联合激励和失信联合惩戒机制",
                                              "四、加强信息安全和权益维护", "五、强化组织实施"]
    for c in chunks:
        assert count_tokens(c.body) <= MAX_TOKENS
        assert c.text.startswith(meta.title)
    # docx prose: paragraph spans, numbering kept
    _, _, car = chunked[CAR]
    assert all(s.para is not None and s.bbox is None for c in car for s in c.spans)
    assert any("（2）所购乘用车的《机动车销售统一发票》" in c.body for c in car)


def test_docx_table_rows_are_rendered_with_headers(chunked):
    _, _, chunks = chunked[COUPON]
    t = next(c for c in chunks if c.kind == "table")
    assert t.heading == "四、消费券发放轮次"
    assert "轮次: 第一轮；批次: 批次1；发放时间: 7月19日10:00-7月27日23:59" in t.body
    assert len([ln for ln in t.body.split("\n") if ln.startswith("轮次:")]) == 14


def test_long_prose_has_overlap_and_sentence_boundaries():
    sentences = [f"第{i}句话讲的是补贴政策的第{i}项具体要求和申报材料的审核流程。" for i in range(1, 121)]
    doc = parse_text_content("\n".join(["一、总体要求"] + sentences), "长文.txt")
    chunks = chunk_document(doc, extract_metadata(doc))
    assert len(chunks) >= 4
    for c in chunks:
        assert 300 <= count_tokens(c.body) <= MAX_TOKENS or c is chunks[-1]
        assert c.body.endswith("。")  # cut at sentence boundaries
    for a, b in zip(chunks, chunks[1:]):
        last = a.body.split("\n")[-1].split("。")[-2] + "。"
        assert b.body.startswith(last.split("。")[0]) or last in b.body  # ~15% overlap
        overlap = len(set(re.findall(r"第\d+句", a.body)) & set(re.findall(r"第\d+句", b.body)))
        assert 1 <= overlap <= 4


def test_chunk_ids_are_stable_across_parses(shared_data, chunked):
    doc, meta, chunks = chunked[JINAN]
    doc2 = parse_file(shared_data / "policies" / JINAN, ocr=False)
    again = chunk_document(doc2, extract_metadata(doc2))
    assert [c.chunk_id for c in again] == [c.chunk_id for c in chunks]
    assert [c.text for c in again] == [c.text for c in chunks]
    assert len({c.chunk_id for c in chunks}) == len(chunks)
    assert [c.ord for c in chunks] == list(range(len(chunks)))


def test_markdown_law_fast_path(shared_data):
    law_dir = shared_data / "laws" / "民法典"
    names = set()
    for f in sorted(law_dir.glob("*.md")):
        if f.name == "_index.md":
            continue
        chunks = chunk_markdown_law(f.read_text(encoding="utf-8"))
        for c in chunks:
            if c.kind == "article":
                names.add(canonical_law_name(law_article_name(c.path[0], c.heading)))
    total = chunk_markdown_law((law_dir / "总则.md").read_text(encoding="utf-8"), doc_id="mfd-zongze")
    c54 = next(c for c in total if c.heading == "第五十四条")
    assert c54.path[0] == "中华人民共和国民法典" and c54.path[1] == "总则"
    assert c54.body == "自然人从事工商业经营，经依法登记，为个体工商户。个体工商户可以起字号。"
    assert c54.text.startswith("中华人民共和国民法典 > 总则 > 第二章 自然人 > ")
    assert c54.chunk_id.startswith("mfd-zongze-")
    assert "中华人民共和国民法典第五十四条" == law_article_name(c54.path[0], c54.heading)
    # every LeCoQA gold article of the civil code is among the chunks
    gold = []
    for line in (shared_data / "qa" / "lecoqa-train.jsonl").open(encoding="utf-8"):
        for g in json.loads(line)["gold_articles"]:
            if canonical_law_name(g["name"]).startswith("民法典第"):
                gold.append(canonical_law_name(g["name"]))
    assert len(gold) > 100
    assert [g for g in gold if g not in names] == []
    assert len(names) > 1200  # 1,260 articles in the code
