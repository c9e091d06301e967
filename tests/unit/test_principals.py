from datetime import datetime, timedelta, timezone

import pytest

from core.errors import AuthError, BadInputError, NotFoundError, PermissionDenied
from core.security.principals import Role, Scenario, UserStore, hash_password, resolve_user, verify_password
from core.services import users
from core.storage.db import get_db


def test_password_hash_is_salted_scrypt():
    a, b = hash_password("secret-123"), hash_password("secret-123")
    assert a != b and a.startswith("scrypt$")
    assert verify_password("secret-123", a) and not verify_password("secret-124", a)
    assert not verify_password("x", "garbage")


def test_add_and_authenticate_with_role_tenants_scenario():
    store = UserStore()
    store.add("li", "manager", "pass-word-1", tenants=["济南"], domains=["商务"], scenario="research")
    p = store.authenticate("li", "pass-word-1")
    assert p.role is Role.manager and p.tenants == ("济南",) and p.domains == ("商务",)
    assert p.scenario is Scenario.research
    with pytest.raises(AuthError):
        store.authenticate("li", "wrong-pass-1")
    with pytest.raises(AuthError):
        store.authenticate("nobody", "pass-word-1")


def test_bad_user_input_is_explained():
    store = UserStore()
    with pytest.raises(BadInputError, match="admin、manager、staff、guest"):
        store.add("x", "boss", "pass-word-1")
    with pytest.raises(BadInputError, match="至少 10 个字符"):
        store.add("x", "staff", "short1")
    store.add("x", "staff", "pass-word-1")
    with pytest.raises(BadInputError, match="已存在"):
        store.add("x", "guest", "pass-word-2")
    assert store.get("x").role is Role.staff  # the existing user is untouched


def test_first_admin_gets_one_time_password_that_must_change():
    printed = []
    password = users.ensure_admin(echo=printed.append)
    assert password and password in printed[0]
    assert users.ensure_admin(echo=printed.append) is None  # only once
    principal, token = users.login("admin", password)
    assert principal.must_change_password
    after = users.change_password("admin", password, "new-pass-2026")
    assert not after.must_change_password
    assert users.resume_session(token) is None  # sessions closed on password change
    with pytest.raises(AuthError):
        users.login("admin", password)


def test_sessions_expire():
    store = UserStore()
    p = store.add("s", "guest", "pass-word-1")
    token = store.open_session(p)
    assert store.resolve_session(token).name == "s"
    past = (datetime.now(timezone.utc) - timedelta(seconds=1)).isoformat()
    get_db().execute("UPDATE sessions SET expires_at = ?", (past,))
    assert store.resolve_session(token) is None
    assert store.resolve_session("forged") is None


def test_only_admins_manage_users():
    store = UserStore()
    staff = store.add("worker", "staff", "pass-word-1")
    with pytest.raises(PermissionDenied):
        users.add_user("evil", "admin", "pass-word-1", actor=staff)
    assert not store.exists("evil")


def test_cli_user_resolution():
    assert resolve_user(None).is_admin
    with pytest.raises(NotFoundError, match="未知用户"):
        resolve_user("ghost")
