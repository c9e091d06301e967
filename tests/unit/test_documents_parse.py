"""Parsing the real policy documents (core.documents.parse) and every kind of bad input."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from core.documents.errors import (
    CorruptDocumentError,
    DocumentError,
    EmptyDocumentError,
    EncryptedDocumentError,
    OversizedDocumentError,
    UnreadableTextError,
    UnsupportedDocumentType,
)
from core.documents.parse import doc_id_for, parse_file
from core.errors import BadInputError, UnsupportedFileError

REPO = Path(__file__).resolve().parents[2]
SCANNED = "山东省商务厅等5部门关于印发《山东省手机、平板、智能手表（手环）购新补贴实施细则》的通知.pdf"
JINAN = "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知(1).pdf"
SHANDONG = "省商务厅等4部门关于印发《山东省2025年家电以旧换新实施方案》的通知.pdf"
HONGZE = "洪泽区2023年政府信息公开工作年度报告.pdf"
PAGE_NO = re.compile(r"^[-—–\s]*\d{1,3}[-—–\s]*$")


@functools.lru_cache(maxsize=None)
def parsed_policy(path: str):
    """One real document parsed without OCR, shared by the documents test modules (parsing the
    annual reports' tables costs seconds)."""
    return parse_file(Path(path), ocr=False, max_bytes=50 * 1024 * 1024)


@pytest.fixture(scope="session")
def policy_dir(shared_data) -> Path:
    return shared_data / "policies"


@pytest.fixture(scope="session")
def parsed_text_docs(policy_dir) -> dict:
    """Every PDF/DOCX with a text layer, parsed once without OCR."""
    out = {}
    for f in sorted(policy_dir.iterdir()):
        if f.suffix.lower() in (".pdf", ".docx") and f.name != SCANNED:
            out[f.name] = parsed_policy(str(f))
    return out


def test_every_policy_document_parses(parsed_text_docs, policy_dir):
    names = {f.name for f in policy_dir.iterdir() if f.suffix.lower() in (".pdf", ".docx")}
    assert set(parsed_text_docs) == names - {SCANNED}
    for name, doc in parsed_text_docs.items():
        assert doc.blocks, name
        assert len(doc.doc_id) == 16 and re.fullmatch(r"[0-9a-f]{16}", doc.doc_id)
        assert sum(len(b.text) for b in doc.blocks) > 100, name
        if doc.source_type == "pdf":
            for b in doc.blocks:
                assert 1 <= b.page <= doc.pages
                assert b.bbox is not None and b.bbox[0] < b.bbox[2] and b.bbox[1] < b.bbox[3]
        else:
            assert all(b.para is not None and b.bbox is None for b in doc.blocks)
    assert parsed_text_docs[JINAN].pages == 10
    assert parsed_text_docs[HONGZE].pages == 5


def test_page_numbers_are_stripped(parsed_text_docs):
    for name, doc in parsed_text_docs.items():
        for b in doc.blocks:
            for line in b.text.split("\n"):
                assert not PAGE_NO.match(line), (name, line)
    jinan = parsed_text_docs[JINAN].text
    assert "— 3 —" not in jinan and "—3—" not in jinan


def test_text_is_normalised(parsed_text_docs):
    jinan = parsed_text_docs[JINAN]
    assert any(b.text == "济商务字〔2025〕5号" for b in jinan.blocks)
    assert "2025年1月20日" in jinan.text
    assert "2025 年" not in jinan.text


def test_vertical_red_head_issuers_are_joined(parsed_text_docs):
    jinan = parsed_text_docs[JINAN]
    first = jinan.blocks[0]
    assert first.page == 1
    assert first.text.split("\n") == ["济南市商务局", "济南市发展和改革委员会", "济南市财政局", "济南市市场监督管理局"]
    shandong_lines = [ln for b in parsed_text_docs[SHANDONG].blocks if b.page == 1 for ln in b.text.split("\n")]
    assert "山东省商务厅" in shandong_lines and "山东省财政厅" in shandong_lines
    # no one-character lines left over from the letter-spaced 红头
    assert not [ln for ln in shandong_lines[:8] if len(ln) == 1]
    # two issuers printed side by side in the 落款 stay two names
    p2 = [ln for b in jinan.blocks if b.page == 2 for ln in b.text.split("\n")]
    assert "济南市商务局" in p2 and "济南市发展和改革委员会" in p2


def test_statistics_tables_are_table_blocks_and_excluded_from_text(parsed_text_docs):
    doc = parsed_text_docs[HONGZE]
    tables = [b for b in doc.blocks if b.kind == "table"]
    assert len(tables) >= 4
    t = next(b for b in tables if any("申请人情况" in c for r in b.rows for c in r))
    assert t.page == 3
    assert any(r[3:] == ["21", "0", "0", "0", "0", "0", "21"] for r in t.rows)
    # merged header cells are repeated under every column they span
    assert t.rows[0].count("申请人情况") == 7
    # the same cells are not also emitted as one-cell-per-line text blocks
    texts = [b.text for b in doc.blocks if b.kind == "text" and b.page == 3]
    assert not any("21\n0\n0" in x for x in texts)
    assert not any(x.strip() == "行政处罚" for x in texts)


def test_docx_numbering_and_tables(parsed_text_docs):
    doc = parsed_text_docs["济南市2025年下半年汽车消费补贴活动第一轮公告.docx"]
    texts = [b.text for b in doc.blocks]
    assert any(t.startswith("（1）购车人身份证原件") for t in texts)
    assert any(t.startswith("（2）所购乘用车") for t in texts)
    assert "（三）补贴审核" in texts
    coupons = parsed_text_docs["2025年济南市“泉城购”零售、餐饮消费券发放活动公告.docx"]
    table = next(b for b in coupons.blocks if b.kind == "table")
    assert table.rows[0] == ["轮次", "批次", "发放时间"]
    assert len(table.rows) == 15
    # a DOCX whose relationships point at a missing part ("../NULL") still opens
    assert parsed_text_docs["2025年政府汽车消费补贴活动公告.docx"].blocks[0].text == "2025年政府汽车消费补贴活动公告"


def test_doc_id_is_content_hash(policy_dir, tmp_path):
    src = policy_dir / "发改办财金规〔2019〕860号.pdf"
    copy = tmp_path / "renamed.pdf"
    copy.write_bytes(src.read_bytes())
    assert doc_id_for(src) == doc_id_for(copy) == parse_file(copy).doc_id


def test_scanned_pdf_without_ocr_is_an_error_not_an_empty_document(policy_dir):
    with pytest.raises(UnreadableTextError) as exc:
        parse_file(policy_dir / SCANNED, ocr=False)
    assert SCANNED in exc.value.user_message and "OCR" in exc.value.user_message


@pytest.mark.slow
def test_scanned_pdf_is_ocrd_with_boxes(policy_dir, real_ocr_cache):
    """OCR of the screenshot PDF, first page only, run this session (``real_ocr_cache``)."""
    doc = parse_file(policy_dir / SCANNED, ocr_cache_dir=real_ocr_cache, ocr_max_pages=1)
    assert doc.ocr_pages == [1]
    assert any("未进行 OCR" in w for w in doc.warnings)  # pages 2-4 reported, not silently dropped
    ocr = [b for b in doc.blocks if b.kind == "ocr"]
    assert len(ocr) > 10
    text = doc.text
    assert "购新补贴实施细则" in text
    assert "山东省商务厅" in text
    assert "〔2025〕7号" in text and "【2025】" not in text  # correction dictionary applied
    for b in ocr:
        x0, y0, x1, y1 = b.bbox
        assert 0 <= x0 < x1 <= 596 and 0 <= y0 < y1 <= 842  # PDF points, not pixels
    line = next(b for b in ocr if "各市商务主管部门" in b.text)
    assert 20 < line.bbox[0] < 80 and 330 < line.bbox[1] < 420
    # the screenshot's browser header/footer (timestamp, URL, "1/4") are dropped
    assert not any(re.match(r"^(https?://|commerce\.)", b.text) or b.text == "1/4" for b in ocr)
    from core.documents.metadata import extract_metadata

    meta = extract_metadata(doc)
    assert meta.title == "山东省手机、平板、智能手表（手环）购新补贴实施细则"
    assert "山东省商务厅" in meta.authorities and meta.level == "省"
    assert meta.publish_date == "2025-01-21"  # "发布日期：2025-01-21" on the web page
    assert meta.review_state == "pending"  # the screenshot shows no 文号 of its own
    # a second parse is served from the cache and gives the same document
    again = parse_file(policy_dir / SCANNED, ocr_cache_dir=real_ocr_cache, ocr_max_pages=1)
    assert [b.text for b in again.blocks] == [b.text for b in doc.blocks]


@pytest.mark.slow
def test_scanned_page_inside_text_pdf_is_ocrd(policy_dir, real_ocr_cache):
    doc = parse_file(policy_dir / SHANDONG, ocr_cache_dir=real_ocr_cache)
    assert doc.ocr_pages == [2]
    p2 = " ".join(b.text for b in doc.blocks if b.page == 2)
    assert "山东省2025年家电以旧换新实施方案" in p2
    assert "2025年1月20日" in p2


# ------------------------------------------------------------------ bad input

def _pdf_with_text(path: Path, text: str = "测试文本 hello", **save) -> Path:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), text)
    doc.save(str(path), **save)
    return path


def test_encrypted_pdf(tmp_path):
    import pymupdf

    f = _pdf_with_text(tmp_path / "加密文件.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u1", owner_pw="o1")
    with pytest.raises(EncryptedDocumentError) as exc:
        parse_file(f)
    assert "加密文件.pdf" in exc.value.user_message and "加密" in exc.value.user_message
    assert isinstance(exc.value, BadInputError) and exc.value.exit_code == 2


def test_corrupt_pdf(tmp_path, shared_data):
    f = tmp_path / "坏文件.pdf"
    f.write_bytes(b"this is not a pdf at all" * 50)
    with pytest.raises(CorruptDocumentError) as exc:
        parse_file(f)
    assert "坏文件.pdf" in exc.value.user_message and "损坏" in exc.value.user_message
    truncated = tmp_path / "截断.pdf"
    truncated.write_bytes((shared_data / "policies" / "发改办财金规〔2019〕860号.pdf").read_bytes()[:3000])
    with pytest.raises(CorruptDocumentError):
        parse_file(truncated)


def test_corrupt_and_encrypted_docx(tmp_path):
    bad = tmp_path / "坏.docx"
    bad.write_bytes(b"PK-not-really-a-zip")
    with pytest.raises(CorruptDocumentError) as exc:
        parse_file(bad)
    assert "坏.docx" in exc.value.user_message
    enc = tmp_path / "密.docx"
    enc.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100 + "EncryptedPackage".encode("utf-16-le"))
    with pytest.raises(EncryptedDocumentError):
        parse_file(enc)


def test_empty_files(tmp_path):
    zero = tmp_path / "空.pdf"
    zero.write_bytes(b"")
    with pytest.raises(EmptyDocumentError) as exc:
        parse_file(zero)
    assert "空.pdf" in exc.value.user_message and "空文件" in exc.value.user_message
    import pymupdf

    blank = tmp_path / "空白页.pdf"
    d = pymupdf.open()
    d.new_page()
    d.save(str(blank))
    with pytest.raises(DocumentError) as exc2:  # no text and nothing to OCR: never an empty document
        parse_file(blank, ocr_cache_dir=tmp_path)
    assert "空白页.pdf" in exc2.value.user_message
    spaces = tmp_path / "空白.txt"
    spaces.write_text("  \n\n \t\n", encoding="utf-8")
    with pytest.raises(EmptyDocumentError):
        parse_file(spaces)


def test_unsupported_and_oversized(tmp_path, shared_data):
    x = tmp_path / "报表.xlsx"
    x.write_bytes(b"PK\x03\x04 whatever")
    with pytest.raises(UnsupportedDocumentType) as exc:
        parse_file(x)
    assert isinstance(exc.value, UnsupportedFileError)
    assert "报表.xlsx" in exc.value.user_message and ".xlsx" in exc.value.user_message
    src = shared_data / "policies" / "发改办财金规〔2019〕860号.pdf"
    with pytest.raises(OversizedDocumentError) as exc2:
        parse_file(src, max_bytes=100_000)
    assert "超过上限" in exc2.value.user_message and src.name in exc2.value.user_message


def test_text_and_markdown_encodings(tmp_path):
    gbk = tmp_path / "通知.txt"
    gbk.write_bytes("关于做好2025年工作的通知\n\n第一条 为了规范管理，制定本办法。".encode("gb18030"))
    doc = parse_file(gbk)
    assert doc.source_type == "txt"
    assert doc.blocks[0].text == "关于做好2025年工作的通知"
    md = tmp_path / "law.md"
    md.write_text("# 某某条例\n\n## 第一章 总则\n\n第一条 为了规范管理，制定本条例。\n", encoding="utf-8")
    mdoc = parse_file(md)
    # heading markers dropped; spaces next to CJK removed by the normalisation policy
    assert [b.text for b in mdoc.blocks] == ["某某条例", "第一章总则", "第一条为了规范管理，制定本条例。"]
    assert [b.para for b in mdoc.blocks] == [0, 1, 2]
    # a heading right above its text, and a plain-text file's title line, stay blocks of their own
    md.write_text("# 某某条例\n## 第一章 总则\n第一条 为了规范管理，制定本条例。\n", encoding="utf-8")
    assert [b.text for b in parse_file(md).blocks] == ["某某条例", "第一章总则", "第一条为了规范管理，制定本条例。"]
    qa = tmp_path / "问答.txt"
    qa.write_text("问答资料1970\n您好，您反映的问题已收悉。\n经核实，相关补贴已于3月发放。\n", encoding="utf-8")
    assert [b.text for b in parse_file(qa).blocks][0] == "问答资料1970"
    wrapped = tmp_path / "续行.txt"  # a sentence wrapped over lines is not split
    wrapped.write_text("根据有关规定，现将补贴申领事项通知如下，\n请各单位认真遵照执行。\n", encoding="utf-8")
    assert len(parse_file(wrapped).blocks) == 1
    binary = tmp_path / "二进制.txt"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    with pytest.raises(CorruptDocumentError):
        parse_file(binary)


@pytest.mark.slow
def test_text_bearing_images_become_figure_blocks(policy_dir, real_ocr_cache):
    doc = parse_file(policy_dir / JINAN, ocr_cache_dir=real_ocr_cache)
    figures = [b for b in doc.blocks if b.kind == "figure"]
    assert figures and all(b.page == 2 for b in figures)  # the seals over the 落款
    for b in figures:
        x0, y0, x1, y1 = b.bbox
        assert 100 < x1 - x0 < 160 and 100 < y1 - y0 < 160  # the image's own box, in points
    assert any("2025年1月" in b.text for b in figures)
    assert doc.ocr_pages == []  # figures are not whole-page OCR
