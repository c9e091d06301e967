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
    assert [e.label for e in at.expander if e.label.startswith("已按确认的")] == ["已按确认的 2 步查询"]
    assert sum("① 取" in c.value for c in at.caption) == 1      # the answer does not repeat the steps
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


def _to_plan(at: AppTest) -> AppTest:
    at.chat_input[0].set_value("青浦-区图书馆2026年3月有多少人出勤？").run()
    next(b for b in at.button if b.label == "对，继续").click().run()
    assert any("将按以下步骤查询" in m.value for m in at.markdown)
    return at


def test_kg_plan_card_cancel_runs_nothing(kg):
    at = _to_plan(page("4_图谱问答.py", "manager").run())
    assert [b.label for b in at.main.button][-3:] == ["确认并查询", "按这个修改", "取消"]  # 修改 opens a popover
    next(b for b in at.button if b.label == "取消").click().run()
    assert not at.exception and any("已取消本次查询" in m.value for m in at.markdown)
    assert not at.dataframe and not any(e.label.startswith("已按确认的") for e in at.expander)


def test_kg_free_text_change_is_understood_afresh(kg):
    at = _to_plan(page("4_图谱问答.py", "manager").run())
    next(t for t in at.text_input if t.label == "换一种说法修改").input("改成4月")
    next(b for b in at.button if b.label == "按这个修改").click().run()
    assert not at.exception
    assert any("修改：改成4月" in m.value for m in at.markdown)          # the user's turn
    assert any("2026年4月" in m.value for m in at.markdown if "时间" in m.value)  # the slots, changed


def test_kg_answer_keeps_its_line_breaks(kg):
    at = page("4_图谱问答.py", "manager").run()
    next(t for t in at.toggle if "自动确认" in t.label).set_value(True).run()
    at.chat_input[0].set_value("青浦-区图书馆2026年3月有多少人出勤？").run()
    answer = next(m.value for m in at.markdown if "共 5 人" in m.value)
    assert "共 5 人。  \n依据：  \n1\\. " in answer   # one line each, the numbers not turned into a list


def test_kg_transcript_comes_back_after_a_reload_for_its_owner_only(kg):
    from core.services.ask_kg import ask_kg

    first = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=PEOPLE["manager"], auto=True)
    reloaded = page("4_图谱问答.py", "manager")
    reloaded.session_state["kg_thread"] = first["thread"]  # restored with the session, as after F5
    reloaded.run()
    assert not reloaded.exception
    assert [m.value for m in reloaded.chat_message[0].markdown] == ["青浦-区图书馆2026年3月有多少人出勤？"]
    assert any("共 5 人" in m.value for m in reloaded.markdown)
    assert any(e.label == "已按确认的 2 步查询" for e in reloaded.expander)
    assert reloaded.dataframe                                   # the provenance table is back too
    other = page("4_图谱问答.py", "staff")
    other.session_state["kg_thread"] = first["thread"]          # someone else's thread id: nothing of it
    other.run()
    assert not other.exception and not other.chat_message
    assert any("已载入的业务图谱" in m.value for m in other.markdown)


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


def test_docs_transcript_comes_back_after_a_reload(workspace, monkeypatch):
    import core.retrieval.index as index_module

    monkeypatch.setattr(index_module, "get_index", lambda: _EmptyIndex())
    at = page("1_政策问答.py", "manager").run()
    at.chat_input[0].set_value("北京市人才引进落户需要满足什么条件？").run()
    reloaded = page("1_政策问答.py", "manager")
    reloaded.session_state["docs_thread"] = at.session_state["docs_thread"]
    reloaded.run()
    assert not reloaded.exception
    assert reloaded.chat_message[0].markdown[0].value == "北京市人才引进落户需要满足什么条件？"
    assert any("暂未查到" in w.value for w in reloaded.warning)
    assert not any("还没有政策文件" in i.value for i in reloaded.info)  # the transcript, not the empty state
