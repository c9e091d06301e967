"""App database contract: the same behaviour on SQLite (default) and PostgreSQL
(``ZHICE_DATABASE_URL``): named migrations recorded once, users and login sessions round-trip,
failed transactions lose nothing already stored, two app processes migrate and write safely."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime, timedelta, timezone

import pytest

from core.errors import AuthError, BadInputError, NotFoundError, StorageError
from core.security.principals import Role, Scenario, UserStore, _token_hash
from core.storage.db import AppDB, get_db, reset_db_cache
from core.storage.migrations import MIGRATIONS
from tests.contracts.backends import PYTHON, app_backend, child_env  # noqa: F401 - fixture
from tests.support.postgres import postgres_server_url, postgres_url  # noqa: F401 - fixtures

MIGRATION_NAMES = [name for name, _ in MIGRATIONS]


def test_migrations_recorded_once(app_backend):
    db = get_db()
    assert db.dialect == app_backend
    assert db.applied_migrations() == sorted(MIGRATION_NAMES)
    rows = db.query("SELECT name, applied_at FROM schema_migrations")
    assert all(r["applied_at"] for r in rows)
    # a second start (new connection) applies nothing and records nothing twice
    reset_db_cache()
    again = AppDB()
    assert again.migrate() == []
    assert len(again.query("SELECT name FROM schema_migrations")) == len(MIGRATION_NAMES)
    again.close()


def test_users_round_trip(app_backend):
    users = UserStore()
    added = users.add("张经理", "manager", "jingli-mima-2026!", tenants=["济南市商务局", "历下区"],
                      domains=["商务"], scenario="research")
    assert added.role is Role.manager and added.scenario is Scenario.research
    got = users.get("张经理")
    assert got.tenants == ("济南市商务局", "历下区") and got.domains == ("商务",)
    assert users.authenticate("张经理", "jingli-mima-2026!") == got
    with pytest.raises(AuthError):
        users.authenticate("张经理", "wrong-pass1")
    with pytest.raises(BadInputError):
        users.add("张经理", "staff", "another9x")
    with pytest.raises(BadInputError):
        users.add("李四", "superuser", "another9x")  # unknown role: nothing stored
    assert not users.exists("李四")
    updated = users.update("张经理", tenants=["历城区"])
    assert updated.tenants == ("历城区",) and updated.role is Role.manager
    assert users.ensure_admin(echo=lambda _m: None) is not None
    assert users.ensure_admin(echo=lambda _m: None) is None  # only once
    assert [p.name for p in users.list()] == sorted(["admin", "张经理"])
    with pytest.raises(NotFoundError):
        users.get("王五")


def test_sessions_round_trip_and_expiry(app_backend):
    users = UserStore()
    alice = users.add("alice", "staff", "alice-pass-1")
    token = users.open_session(alice)
    assert users.resolve_session(token) == alice
    assert users.resolve_session("not-a-token") is None
    users.close_session(token)
    assert users.resolve_session(token) is None

    stale = users.open_session(alice)
    past = (datetime.now(timezone.utc) - timedelta(minutes=1)).isoformat()
    users.db.execute("UPDATE sessions SET expires_at = ? WHERE token_hash = ?", (past, _token_hash(stale)))
    assert users.resolve_session(stale) is None
    assert users.db.one("SELECT * FROM sessions WHERE token_hash = ?", (_token_hash(stale),)) is None

    # changing the password ends every session of that user
    live = users.open_session(alice)
    users.change_password("alice", "alice-pass-1", "alice-pass-2")
    assert users.resolve_session(live) is None
    assert users.authenticate("alice", "alice-pass-2").name == "alice"


def test_failed_transaction_keeps_what_was_stored(app_backend):
    db = get_db()
    first = db.insert("INSERT INTO audit_log (user_name, action, outcome) VALUES (?, ?, ?)", ("a", "登录", "ok"))
    second = db.insert("INSERT INTO audit_log (user_name, action, outcome) VALUES (?, ?, ?)", ("a", "提问", "ok"))
    assert second > first
    with pytest.raises(StorageError):
        with db.transaction():
            db.insert("INSERT INTO audit_log (user_name, action, outcome) VALUES (?, ?, ?)", ("b", "导入", "ok"))
            db.execute("INSERT INTO audit_log (user_name, action) VALUES (?, ?)", ("b", "缺少结果"))  # NOT NULL
    rows = db.query("SELECT user_name, action FROM audit_log ORDER BY id")
    assert rows == [{"user_name": "a", "action": "登录"}, {"user_name": "a", "action": "提问"}]
    # percent signs and question marks inside values survive the placeholder rendering
    db.execute("INSERT INTO audit_log (user_name, action, outcome, detail) VALUES (?, ?, ?, ?)",
               ("c", "查询", "ok", "增长 15% 吗？"))
    assert db.one("SELECT detail FROM audit_log WHERE user_name = ?", ("c",))["detail"] == "增长 15% 吗？"


_CHILD = """
import json, sys
from core.security.principals import UserStore
from core.storage.db import get_db
db = get_db()
store = UserStore(db)
name = sys.argv[1]
store.add(name, "staff", "pass-" + name + "-9")
token = store.open_session(store.get(name))
print(json.dumps({"migrations": db.applied_migrations(), "token": token}))
"""


def test_two_processes_share_the_database(app_backend):
    env = child_env()
    procs = [subprocess.Popen([PYTHON, "-c", _CHILD, f"user{i}"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in (1, 2)]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err[-2000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    for r in results:
        assert r["migrations"] == sorted(MIGRATION_NAMES)
    users = UserStore()
    assert {p.name for p in users.list()} == {"user1", "user2"}
    # a session opened by one process is honoured by another
    assert users.resolve_session(results[0]["token"]).name == "user1"
    assert users.resolve_session(results[1]["token"]).name == "user2"
    assert len(get_db().query("SELECT name FROM schema_migrations")) == len(MIGRATION_NAMES)
