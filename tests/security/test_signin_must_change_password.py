"""A user who must change the password gets no session from core: login returns a
password-change-only result whose token no page or service accepts as a sign-in."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.errors import AuthError
from core.security.principals import UserStore
from core.services import users

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh():
    return UserStore().add("fresh", "manager", "temp-pass-2026", tenants=["demo"], must_change_password=True)


def test_login_returns_a_restricted_result_not_a_principal(fresh):
    result, token = users.login("fresh", "temp-pass-2026")
    assert isinstance(result, users.PasswordChangeOnly) and result.must_change_password
    assert not hasattr(result, "role")  # nothing a service would accept as a principal
    assert users.resume_session(token) is None  # the token is not a sign-in
    assert users.resume_password_change(token) == users.PasswordChangeOnly("fresh")
    with pytest.raises(AuthError):  # and the restricted token changes only with the old password
        users.change_password_with_token(token, "wrong-guess-1", "fresh-new-pass-2026")
    principal = users.change_password_with_token(token, "temp-pass-2026", "fresh-new-pass-2026")
    assert not principal.must_change_password
    assert users.resume_password_change(token) is None  # used up
    result, token = users.login("fresh", "fresh-new-pass-2026")
    assert users.resume_session(token) == result and result.name == "fresh"


def test_a_full_session_opened_before_a_reset_stops_working(fresh):
    users.change_password("fresh", "temp-pass-2026", "fresh-new-pass-2026")
    principal, token = users.login("fresh", "fresh-new-pass-2026")
    assert users.resume_session(token) == principal
    users.reset_password("fresh", "reset-pass-2026")  # an administrator's reset: must change again
    assert users.resume_session(token) is None
    result, token = users.login("fresh", "reset-pass-2026")
    assert isinstance(result, users.PasswordChangeOnly) and users.resume_session(token) is None


def test_page_shows_only_the_password_change_then_the_dashboard(fresh):
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120).run()
    at.text_input[0].input("fresh")
    at.text_input[1].input("temp-pass-2026")
    at.button[0].click()
    at.run()
    assert not at.exception
    assert [t.value for t in at.title] == ["修改密码"]
    assert "session_token" not in at.session_state and "principal" not in at.session_state
    with pytest.raises(ValueError, match="navigation page"):
        at.switch_page("pages/1_政策问答.py")
    at.text_input[0].input("temp-pass-2026")
    at.text_input[1].input("fresh-new-pass-2026")
    at.text_input[2].input("fresh-new-pass-2026")
    at.button[0].click()
    at.run()
    assert not at.exception
    assert not UserStore().get("fresh").must_change_password
    at.text_input[0].input("fresh")
    at.text_input[1].input("fresh-new-pass-2026")
    at.button[0].click()
    at.run()
    assert "首页" in [t.value for t in at.title]  # the dashboard (managers land on 首页)
