"""ask-docs on the real policy documents answers each part of a two-part question from the document
that part names: 省家电方案每件上限又是多少 after a question about the 济南 细则 is the 省 方案's 2000元,
cited to the 方案, not the first part's document read again (blind batch 66 had the second part
answered from the first part's document and silently dropped)."""

from __future__ import annotations

import pytest

from core.agents.rag.textutil import norm
from tests.integration.conftest import ask_policy, assert_answered_with

pytestmark = pytest.mark.usefixtures("in_policy_home")


def test_a_later_part_naming_its_own_document_is_answered_from_it():
    res = ask_policy("济南家电以旧换新细则里一级能效的额外补贴是多少？省家电方案每件上限又是多少？")
    assert_answered_with(res, "5%", "每件补贴不超过2000元")
    cited = {norm(c["file_name"]) for c in res["citations"]}
    assert any("山东省2025年家电以旧换新实施方案" in f for f in cited), cited
    assert any("济南市2025年家电以旧换新补贴实施细则" in f for f in cited), cited
