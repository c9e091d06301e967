"""The 审计日志 page: administrators see the events and can export them; anyone else gets the
refusal from core, not the table."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.security.audit import audit
from core.security.principals import Principal, Role

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "8_审计日志.py")


def _run(principal) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.session_state["principal"] = principal
    return at.run()


def test_admin_sees_filters_events_and_exports():
    audit("manager_a", "doc_approve", target="d1", tenant="demo")
    audit("guest_a", "login", outcome="denied")
    at = _run(Principal("admin", Role.admin))
    assert not at.exception and at.title[0].value == "审计日志"
    table = at.dataframe[0].value
    assert list(table["用户"]) == ["guest_a", "manager_a"] and list(table["结果"]) == ["拒绝", "成功"]
    at.text_input[0].input("manager_a").run()
    assert list(at.dataframe[0].value["用户"]) == ["manager_a"]
    next(b for b in at.button if b.label == "导出 CSV").click().run()
    assert not at.exception


def test_empty_range_says_what_to_do():
    at = _run(Principal("admin", Role.admin))
    assert any("没有审计事件" in i.value for i in at.info)


def test_non_admin_is_refused_by_core():
    at = _run(Principal("manager_a", Role.manager, tenants=("demo",)))
    assert [e.value for e in at.error] == ["只有管理员可以查看审计日志"] and not at.dataframe
