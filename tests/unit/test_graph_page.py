"""The 数据导入与建图 page: admins get the import UI, everyone else is refused."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.security.principals import Principal, Role

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "3_数据导入与建图.py")


def _run(principal):
    at = AppTest.from_file(PAGE, default_timeout=60)
    if principal is not None:
        at.session_state["principal"] = principal
    return at.run()


def test_admin_sees_uploaders_for_every_template():
    at = _run(Principal("admin", Role.admin))
    assert not at.exception and not at.error
    assert [b.label for b in at.button] == ["仅校验", "校验并构建"]
    assert all(b.disabled for b in at.button)  # nothing uploaded yet


def test_non_admin_is_refused():
    for p in (Principal("u", Role.staff), None):
        at = _run(p)
        assert [e.value for e in at.error] == ["只有管理员可以导入数据和构建图谱。"]
        assert not at.button


def test_clear_needs_confirmation():
    at = _run(Principal("admin", Role.admin))
    at.checkbox[0].check().run()
    assert at.text_input and at.button[1].disabled
