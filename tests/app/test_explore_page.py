"""The 图谱浏览 page (Streamlit AppTest) on the demo tenant graph: search → open → the
neighbourhood with totals and bundles; expand a person to their months; filter by label;
detail panel with masked properties and the masked source row for a guest; an outsider finds
nothing; a reviewer is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.security.principals import Principal, Role
from tests.security.conftest import GUEST, MANAGER, OUTSIDER, demo, demo_home  # noqa: F401 - fixtures

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "7_图谱浏览.py")
PERSON = "人员:KWL2012006"


def _run(principal) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state["principal"] = principal
    return at.run()


def _open(at: AppTest, text: str, want: str) -> AppTest:
    at.text_input(key="gx_q").input(text).run()
    assert want in at.selectbox(key="gx_pick").options or at.selectbox(key="gx_pick").value == want
    at.selectbox(key="gx_pick").set_value(want).run()
    at.button(key="gx_open").click().run()
    assert not at.exception, at.exception
    return at


def _drawn(at: AppTest) -> list[str]:
    return list(at.selectbox(key="gx_selected").options)


def _cells(at: AppTest) -> str:
    return " ".join(df.value.to_string() for df in at.dataframe)


def test_empty_page_says_what_to_do(demo):
    at = _run(MANAGER)
    assert not at.exception and at.title[0].value == "图谱浏览"
    assert any("输入项目名称" in i.value for i in at.info)


def test_search_open_expand_and_filter(demo):
    at = _open(_run(MANAGER), "青浦区图书馆", "项目:XMSQ0102")
    drawn = _drawn(at)
    assert any("刘德明" in o for o in drawn) and any("青浦片区" in o for o in drawn)  # staff and 片区
    assert any("文体中心" in o for o in drawn)  # the parent project (包含)
    assert any("显示" in c.value and "/ 共" in c.value for c in at.caption)
    assert any("+20 条考勤记录" in o for o in drawn)  # monthly records bundled
    # expand a person: their attendance months appear
    at.selectbox(key="gx_selected").set_value(PERSON).run()
    at.button(key="gx_expand").click().run()
    assert not at.exception
    assert sum("考勤 刘德明 2026-0" in o for o in _drawn(at)) == 4
    # filter: only people
    at.sidebar.multiselect(key="gx_labels").set_value(["人员"]).run()
    assert not at.exception
    assert all("👤" in o or "区图书馆" in o for o in _drawn(at))
    # open a bundle
    at.sidebar.multiselect(key="gx_labels").set_value([]).run()
    at.selectbox(key="gx_selected").set_value("合并:项目:XMSQ0102:考勤").run()
    at.button(key="gx_open_bundle").click().run()
    assert sum(o.startswith("🕘") for o in _drawn(at)) == 20


@pytest.mark.parametrize("principal,masked", [(MANAGER, False), (GUEST, True)], ids=["manager", "guest"])
def test_detail_panel_masks_for_the_role(demo, principal, masked):
    at = _open(_run(principal), "刘德明", PERSON)
    cells = _cells(at)
    assert "保安_领班" in cells and "02_人员信息_a.xlsx" in " ".join(c.value for c in at.caption) + cells
    assert ("13985578925" in cells) is not masked  # 联系电话, in the properties and the source row
    assert ("（已隐藏）" in cells) is masked
    assert any("按您的权限已隐藏" in c.value for c in at.caption) is masked
    drawn = _drawn(at)
    assert sum("财务" in o for o in drawn) == 4  # the same graph for both roles …
    if masked:  # … but the finance records are shown without their values
        from core.services.explore import neighbors

        fin = next(n["id"] for n in neighbors(principal, PERSON)["nodes"] if n["label"] == "财务")
        at.selectbox(key="gx_selected").set_value(fin).run()
        assert not at.exception and any("只显示名称" in i.value for i in at.info)


def test_outsider_finds_nothing_and_reviewer_is_refused(demo):
    at = _run(OUTSIDER)
    at.text_input(key="gx_q").input("青浦区图书馆").run()
    assert not at.exception and any("没有找到" in w.value for w in at.warning)
    assert any("图谱还是空的" in i.value for i in at.info)
    at = _run(Principal("rev_a", Role.reviewer, tenants=("demo",)))
    at.text_input(key="gx_q").input("青浦区图书馆").run()
    assert any("不能浏览业务图谱" in e.value for e in at.error)


def test_schema_and_path_tabs(demo):
    at = _run(MANAGER)
    assert not at.exception
    assert "人员" in at.selectbox(key="gx_schema_label").options
    at.text_input(key="gx_pa_q").input("刘德明").run()
    at.text_input(key="gx_pb_q").input("北斗园区").run()
    at.button(key="gx_path").click().run()
    assert not at.exception
    assert any("最短路径：" in c.value for c in at.caption)
    assert any("→" in m.value and "青浦片区" in m.value for m in at.markdown)
