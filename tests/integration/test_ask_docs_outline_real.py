"""ask-docs on the real policy documents answers a question about a document's headings from the
document's own outline — which chapters it has, what a section or chapter holds, in which part a
passage lies — each heading cited to the chunk it opens; and refuses when the outline would miss a
part (the scanned 手机 细则 lost its 二、 heading to OCR) or hold another count than the question
states, or when the asker may not read the document."""

from __future__ import annotations

import pytest

from core.security.principals import Principal, Role
from core.services.ask_docs import ask_docs
from tests.integration.conftest import ask_policy, assert_answered_with, assert_refused_saying

pytestmark = pytest.mark.usefixtures("in_policy_home")


def test_the_chapters_of_a_document_are_listed_from_its_outline_in_order():
    res = ask_policy("济南家电以旧换新补贴实施细则分为哪四章？")
    assert_answered_with(res, "按文件目录", "第一章 补贴范围和标准；第二章 补贴规则及流程；第三章 组织实施；第四章 其他事项")
    assert len(res["citations"]) == 4  # one opening chunk per chapter


def test_a_named_section_lists_its_items_across_the_chunks_that_hold_them():
    """三、保障措施 is cut into two chunks, the second carrying （三） in its heading path: all five
    （一）…（五） are listed once, in order."""
    res = ask_policy("山东省家电以旧换新实施方案的保障措施部分包括哪几项？")
    assert_answered_with(res, "三、保障措施", "（一）完善组织领导；（二）严格审核把关；（三）加强风险防范；"
                                             "（四）加强补贴资金管理；（五）开展重点核查")


def test_a_chapter_named_by_its_number_lists_its_articles():
    res = ask_policy("济南家电细则第三章包括哪几条？")
    assert_answered_with(res, "第三章 组织实施", "第十一条 市商务局", "第十六条 第三方机构")
    assert "第十七条" not in res["answer"]


def test_the_part_a_passage_lies_in_is_its_heading_path_beside_the_passage():
    res = ask_policy("讲补贴资格核销的是细则的哪一部分？")
    assert_answered_with(res, "第二章 补贴规则及流程 > 第五条 补贴资格核销", "每个补贴资格仅限购买1件产品")


def test_another_count_than_the_document_has_is_refused_saying_what_was_not_found():
    res = ask_policy("济南家电以旧换新补贴实施细则分为哪五章？")  # four chapters, not five
    assert_refused_saying(res, "文件的章节")
    assert "按文件目录" not in res["answer"]


def test_numbered_headings_that_skip_one_are_no_outline():
    """The scanned 手机 细则 as OCR reads it: 一、三、四、五、六 (its 二、 lost) would list a document
    without one of its parts; chapters start at 第一章, items at （一）, articles anywhere."""
    from core.agents.rag.outline import _consecutive

    assert not _consecutive(["一、补贴品种和补贴标准", "三、审核流程", "四、加强资金管理"])
    assert not _consecutive(["（三）加强风险防范"])
    assert _consecutive(["第一章 补贴范围和标准", "第二章 补贴规则及流程"])
    assert _consecutive(["第十一条 市商务局", "第十二条 市财政局"])


def test_an_asker_of_another_tenant_gets_no_heading_of_the_document():
    outsider = Principal("outsider_t", Role.manager, tenants=("elsewhere",))
    res = ask_docs("济南家电以旧换新补贴实施细则分为哪四章？", outsider)
    assert res["refused"]
    assert "补贴规则及流程" not in res["answer"] and "按文件目录" not in res["answer"]
