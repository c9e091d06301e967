"""API tokens (core.security.api_tokens) and their commands: ``users token NAME [--ttl-days N]``
prints ``{"user", "token", "expires_at"}`` once, only a hash is stored, ``users revoke-tokens``
revokes them all; admins only; audited."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from core.cli import main
from core.errors import BadInputError, NotFoundError, PermissionDenied
from core.security.api_tokens import ApiTokenStore, token_hash
from core.security.principals import Principal, Role
from core.services.users import add_user, issue_api_token, list_api_tokens, revoke_api_tokens
from core.storage.db import get_db

PASSWORD = "api-test-pass-9x"


def _json_out(capsys, argv) -> tuple[int, dict | None]:
    rc = main(argv)
    out = capsys.readouterr().out.strip()
    return rc, (json.loads(out) if out else None)


def test_users_token_cli_prints_the_token_once_and_stores_only_its_hash(capsys):
    add_user("alice", "staff", PASSWORD, tenants=["demo"])
    rc, out = _json_out(capsys, ["users", "token", "alice", "--ttl-days", "7", "--json"])
    assert rc == 0 and set(out) == {"user", "token", "expires_at"} and out["user"] == "alice"
    expires = datetime.fromisoformat(out["expires_at"])
    assert timedelta(days=6, hours=23) < expires - datetime.now(timezone.utc) <= timedelta(days=7)
    rows = get_db().query("SELECT * FROM api_tokens")
    assert len(rows) == 1 and rows[0]["token_hash"] == token_hash(out["token"])
    assert out["token"] not in json.dumps(rows, default=str)
    principal, _id = ApiTokenStore().resolve(out["token"])
    assert principal.name == "alice" and principal.tenants == ("demo",)
    events = get_db().query("SELECT action, target, detail FROM audit_log WHERE action = 'users.api_token'")
    assert events and events[0]["target"] == "alice" and out["token"] not in (events[0]["detail"] or "")

    rc, out2 = _json_out(capsys, ["users", "revoke-tokens", "alice", "--json"])
    assert rc == 0 and out2 == {"user": "alice", "revoked": 1}
    assert ApiTokenStore().resolve(out["token"]) is None
    assert [t["state"] for t in list_api_tokens(Principal("root", Role.admin), "alice")] == ["revoked"]


def test_token_commands_refuse_bad_input_unknown_users_and_non_admins(capsys):
    add_user("alice", "staff", PASSWORD)
    assert main(["users", "token", "alice", "--ttl-days", "0"]) == 2
    assert main(["users", "token", "alice", "--ttl-days", "400"]) == 2
    assert main(["users", "token", "nobody"]) == 2
    assert main(["users", "revoke-tokens", "nobody"]) == 2
    assert main(["users", "token", "alice", "--user", "alice"]) == 2  # a staff member is no admin
    assert "管理员" in capsys.readouterr().err
    with pytest.raises(PermissionDenied):
        issue_api_token("alice", actor=Principal("alice", Role.staff))
    with pytest.raises(PermissionDenied):
        revoke_api_tokens("alice", actor=Principal("alice", Role.manager))
    with pytest.raises(NotFoundError):
        issue_api_token("nobody")


def test_no_token_for_a_user_who_must_change_the_password_and_expired_tokens_resolve_to_nothing():
    add_user("newbie", "staff", PASSWORD, must_change_password=True)
    with pytest.raises(BadInputError, match="修改初始密码"):
        issue_api_token("newbie")
    add_user("alice", "staff", PASSWORD)
    token = issue_api_token("alice", ttl_days=1)["token"]
    store = ApiTokenStore()
    assert store.resolve(token) is not None
    for bogus in (None, "", "zc_", token + "x", token[3:], "zc_" + "a" * 500):
        assert store.resolve(bogus) is None
    get_db().execute("UPDATE api_tokens SET expires_at = ?", ("2000-01-01T00:00:00+00:00",))
    assert store.resolve(token) is None
    assert [t["state"] for t in store.list("alice")] == ["expired"]


def test_rate_window_counts_per_token(monkeypatch):
    from core.security import api_tokens

    add_user("alice", "staff", PASSWORD)
    now = [5000.0]
    monkeypatch.setattr(api_tokens, "_clock", lambda: now[0])
    store = ApiTokenStore()
    _p, tid = store.resolve(issue_api_token("alice")["token"])
    assert [store.hit(tid, 2).allowed for _ in range(3)] == [True, True, False]
    now[0] += 30
    refused = store.hit(tid, 2)
    assert not refused.allowed and 29 <= refused.retry_after_s <= 31 and "秒后再试" in refused.message
    now[0] += 31
    assert store.hit(tid, 2).allowed
    assert all(store.hit(tid, 0).allowed for _ in range(5))  # 0 = unlimited


ADMIN = Principal("root", Role.admin)


def test_admin_revokes_one_token_of_a_user_and_sees_when_each_was_last_used():
    from core.services.users import api_token_rows, revoke_api_token

    add_user("alice", "staff", PASSWORD)
    add_user("bob", "staff", PASSWORD)
    first, second = issue_api_token("alice", actor=ADMIN)["token"], issue_api_token("alice", actor=ADMIN)["token"]
    bobs = issue_api_token("bob", actor=ADMIN)["token"]
    store = ApiTokenStore()
    _p, first_id = store.resolve(first)
    assert [r["last_used"] for r in api_token_rows(ADMIN, "alice")] == ["从未使用", "从未使用"]
    store.hit(first_id, 0)  # one API request with the first token
    rows = api_token_rows(ADMIN, "alice")  # newest first
    assert [r["id"] for r in rows][-1] == first_id and rows[-1]["last_used"] != "从未使用"
    assert rows[0]["last_used"] == "从未使用" and rows[0]["created_by"] == "root"
    assert all(first not in str(r) and token_hash(first) not in str(r) for r in rows)

    with pytest.raises(NotFoundError):  # bob's token id is not one of alice's
        revoke_api_token(ADMIN, "alice", store.resolve(bobs)[1])
    assert revoke_api_token(ADMIN, "alice", first_id) == {"user": "alice", "revoked": 1}
    assert store.resolve(first) is None and store.resolve(second) is not None and store.resolve(bobs) is not None
    assert [r["state_label"] for r in api_token_rows(ADMIN, "alice")] == ["有效", "已吊销"]
    with pytest.raises(NotFoundError):  # already revoked
        revoke_api_token(ADMIN, "alice", first_id)
    events = get_db().query("SELECT user_name, detail FROM audit_log WHERE action = 'users.api_token_revoke'")
    assert len(events) == 1 and events[0]["user_name"] == "root" and str(first_id) in events[0]["detail"]


@pytest.mark.parametrize("actor", [Principal("alice", Role.staff), Principal("m", Role.manager),
                                   Principal("g", Role.guest), None])
def test_only_a_signed_in_admin_lists_or_revokes_tokens_from_the_admin_page(actor):
    from core.services.users import api_token_rows, revoke_api_token

    add_user("alice", "staff", PASSWORD)
    token = issue_api_token("alice")["token"]
    token_id = ApiTokenStore().resolve(token)[1]
    with pytest.raises(PermissionDenied):
        api_token_rows(actor, "alice")
    with pytest.raises(PermissionDenied):
        revoke_api_token(actor, "alice", token_id)
    if actor is not None:
        with pytest.raises(PermissionDenied):
            issue_api_token("alice", actor=actor)
    assert ApiTokenStore().resolve(token) is not None
