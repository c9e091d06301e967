"""Both chat pages per role (admin, manager, staff, guest, a user of tenant "other"): render
without exception with their empty state, the KG plan is confirmed in plain Chinese with at
most two clicks after asking, and the debug panel is for administrators only."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.security.principals import Principal, Role
from tests.integration.test_ask_kg_sample import _store_holder, kg, sample_graph_path  # noqa: F401

REPO = Path(__file__).resolve().parents[2]
PEOPLE = {
    "admin": Principal("admin", Role.admin),
    "manager": Principal("manager_a", Role.manager, tenants=("demo",)),
    "staff": Principal("staff_a", Role.staff, tenants=("demo",)),
    "guest": Principal("guest_a", Role.guest, tenants=("demo",)),
    "outsider": Principal("other_a", Role.manager, tenants=("other",)),
}
ENGLISH = ("attendance", "aggregate", "group_by", "Press Enter", "prose", "injection=", "pii_output")


def page(name: str, who: str) -> AppTest:
    at = AppTest.from_file(str(REPO / "pages" / name), default_timeout=120)
    at.session_state["principal"] = PEOPLE[who]
    return at


def shown_text(at: AppTest) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption] + [b.label for b in at.button])


def debug_panels(at: AppTest) -> list:
    return [e for e in at.expander if "调试" in e.label]


@pytest.mark.parametrize("who", list(PEOPLE))
def test_kg_page_per_role(kg, who):
    at = page("4_图谱问答.py", who).run()
    assert not at.exception
    if who == "outsider":
        assert any("还没有业务图谱数据" in i.value for i in at.info)
        return
    assert any("已载入的业务图谱" in m.value for m in at.markdown)
    examples = [b for b in at.button if "？" in b.label]
    assert 3 <= len(examples) <= 5
    examples[0].click().run()                                   # asking: one click on an example
    assert not at.exception and any("我理解您要查询" in m.value for m in at.markdown)
    next(b for b in at.button if b.label == "对，继续").click().run()          # click 1
    assert any("将按以下步骤查询" in m.value for m in at.markdown)
    steps = next(m.value for m in at.markdown if m.value.startswith("① 取"))
    assert not any(w in steps for w in ENGLISH)
    if who != "admin":  # the admin's debug panel holds the JSON; nobody else sees any
        assert not any(w in shown_text(at) for w in ENGLISH)
    next(b for b in at.button if b.label == "确认并查询").click().run()        # click 2
    assert not at.exception
    assert any("共 " in m.value or "数据中未找到" in m.value for m in at.markdown)
    assert any("查询步骤" in c.value for c in at.caption)       # the confirmed plan, in the same plain form
    assert bool(debug_panels(at)) is (who == "admin")


def test_kg_plan_widgets_produce_a_plan_the_service_runs(kg):
    at = page("4_图谱问答.py", "manager").run()
    at.chat_input[0].set_value("青浦-区图书馆2026年3月有多少人出勤？").run()
    next(b for b in at.button if b.label == "对，继续").click().run()
    slider = next(s for s in at.select_slider if s.label == "月份范围")
    slider.set_range("2026-04", "2026-04")
    next(b for b in at.button if b.label == "确认并查询").click().run()
    assert not at.exception
    assert any("共 5 人" in m.value and "2026年4月" in m.value for m in at.markdown)


def test_kg_auto_confirm_needs_no_click(kg):
    at = page("4_图谱问答.py", "guest").run()
    next(t for t in at.toggle if "自动确认" in t.label).set_value(True).run()
    at.chat_input[0].set_value("青浦-区图书馆2026年3月有多少人出勤？").run()
    assert not at.exception and any("共 5 人" in m.value for m in at.markdown)
    assert not debug_panels(at)


class _EmptyIndex:
    def search(self, query, principal, k=10, *, scenario=None, doc_ids=None):
        from core.retrieval.index import SearchResult

        return SearchResult([], ["没有可检索的文档"], 0.1, False)

    def list_docs(self):
        return []


@pytest.mark.parametrize("who", list(PEOPLE))
def test_docs_page_per_role(workspace, monkeypatch, who):
    import core.retrieval.index as index_module

    monkeypatch.setattr(index_module, "get_index", lambda: _EmptyIndex())
    at = page("1_政策问答.py", who).run()
    assert not at.exception
    assert any("还没有政策文件" in i.value for i in at.info)
    at.chat_input[0].set_value("北京市人才引进落户需要满足什么条件？").run()
    assert not at.exception and any("暂未查到" in w.value for w in at.warning)
    text = shown_text(at) + " ".join(e.label for e in at.expander)
    assert not any(w in text for w in ENGLISH)
    assert not debug_panels(at)
