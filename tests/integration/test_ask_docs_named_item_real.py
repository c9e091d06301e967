"""ask-docs on the real policy documents gives a name or a list of names only when the cited
sentence writes them out (《…》, “…”, 名单：…) next to the thing asked about; a sentence that only
says such things exist (新增公开市政府规章1件, 可在中石油或中石化领取, 交予有资质的拆解企业) is no
answer, and the question is refused saying the name is not stated.

Paraphrases of the class missed on blind batches 19–21, not their questions."""

from __future__ import annotations

import pytest

from core.agents.rag.textutil import norm
from tests.integration.conftest import ask_policy


pytestmark = pytest.mark.usefixtures("in_policy_home")


def _refused_as_unnamed(res: dict) -> None:
    assert res["refused"], res["answer"]
    assert "具体名称" in res["answer"], res["answer"]


def test_the_name_of_a_counted_regulation_is_refused_not_answered_with_another_title():
    res = ask_policy("淮安市2024年公开的那1件政府规章，名称是什么？")
    _refused_as_unnamed(res)
    assert "人民政府公报" not in res["answer"]


def test_a_list_of_named_stations_is_refused_when_only_the_brands_are_said():
    _refused_as_unnamed(ask_policy("下半年第二轮汽车补贴的加油卡，能去领的中石油加油站都有哪些？"))


def test_a_list_of_named_recyclers_is_refused_when_only_their_kind_is_said():
    _refused_as_unnamed(ask_policy("山东家电以旧换新里，废旧家电回收企业的名单有哪些？"))


def test_a_name_the_sentence_writes_next_to_the_asked_thing_is_answered():
    res = ask_policy("淮安市2024年制作的政府公报叫什么名字？")
    assert not res["refused"], res["answer"]
    assert norm("《淮安市人民政府公报》") in norm(res["answer"])
