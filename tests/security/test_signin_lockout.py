"""Brute force: 30 wrong passwords then the right one must not sign in. Lockout per user and
per client address, state in the app DB (shared by processes), the same answer for unknown
users, an audit event for every success and failure."""

import subprocess
import sys
from pathlib import Path

import pytest

from core.errors import AccountLocked, AuthError
from core.security import audit, principals, signin
from core.security.principals import UserStore
from core.services import users

REPO = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self, t: float = 1_900_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(signin, "_now", c)
    return c


@pytest.fixture
def store():
    s = UserStore()
    s.add("alice", "staff", "alice-pass-2026", tenants=["demo"])
    s.add("bob", "staff", "bob-pass-2026", tenants=["demo"])
    return s


def test_thirty_wrong_passwords_then_the_right_one_is_refused(store, clock):
    for i in range(30):
        with pytest.raises(AuthError):
            users.login("alice", f"wrong-guess-{i}")
    with pytest.raises(AccountLocked) as exc:
        users.login("alice", "alice-pass-2026")
    assert "登录失败次数过多" in exc.value.user_message and "后再试" in exc.value.user_message
    assert exc.value.retry_after_s > 0


def test_lock_starts_at_the_threshold_says_how_long_and_backs_off(store, clock):
    for _ in range(signin.USER_THRESHOLD - 1):
        with pytest.raises(AuthError) as exc:
            users.login("alice", "wrong-guess-1")
        assert not isinstance(exc.value, AccountLocked)
    with pytest.raises(AccountLocked) as exc:  # the attempt that reaches the threshold says so
        users.login("alice", "wrong-guess-1")
    assert "30 秒" in exc.value.user_message
    clock.t += 31  # the first lock is over: one more failure doubles the wait
    with pytest.raises(AccountLocked) as exc:
        users.login("alice", "wrong-guess-1")
    assert "1 分钟" in exc.value.user_message
    clock.t += 61
    principal, token = users.login("alice", "alice-pass-2026")  # after the wait the right password works
    assert principal.name == "alice" and users.resume_session(token) == principal
    with pytest.raises(AuthError) as exc:  # success cleared the user's counter
        users.login("alice", "wrong-guess-1")
    assert not isinstance(exc.value, AccountLocked)


def test_attempts_while_locked_do_not_check_the_password_or_extend_the_lock(store, clock, monkeypatch):
    for _ in range(signin.USER_THRESHOLD):
        with pytest.raises(AuthError):
            users.login("alice", "wrong-guess-1")
    calls = []
    monkeypatch.setattr(principals, "verify_password", lambda *a: calls.append(a) or True)
    for _ in range(10):
        with pytest.raises(AccountLocked):
            users.login("alice", "alice-pass-2026")
    assert calls == []
    clock.t += signin.BASE_DELAY_S + 1
    monkeypatch.undo()
    monkeypatch.setattr(signin, "_now", clock)
    assert users.login("alice", "alice-pass-2026")[0].name == "alice"


def test_unknown_users_get_the_same_answer_and_the_same_work(store, clock, monkeypatch):
    calls = []
    real = principals.verify_password
    monkeypatch.setattr(principals, "verify_password", lambda pw, stored: calls.append(stored) or real(pw, stored))
    messages = {}
    for name in ("alice", "nobody-here"):
        for _ in range(signin.USER_THRESHOLD + 2):
            with pytest.raises(AuthError) as exc:
                users.login(name, "wrong-guess-1")
            messages.setdefault(name, []).append(exc.value.user_message)
    assert messages["alice"] == messages["nobody-here"]  # same words, same lock, same moment
    # an unknown user costs one scrypt verification too (against a dummy hash)
    assert len(calls) == 2 * signin.USER_THRESHOLD


def test_per_address_lockout_across_user_names(store, clock):
    address = "203.0.113.7"
    for i in range(signin.ADDRESS_THRESHOLD):
        with pytest.raises(AuthError):
            users.login(f"guess{i}", "wrong-guess-1", address=address)
    with pytest.raises(AccountLocked):  # bob's right password, but from the guessing address
        users.login("bob", "bob-pass-2026", address=address)
    assert users.login("bob", "bob-pass-2026", address="198.51.100.2")[0].name == "bob"
    assert users.login("bob", "bob-pass-2026")[0].name == "bob"  # the CLI has no address


def test_change_password_counts_toward_the_lock(store, clock):
    for _ in range(signin.USER_THRESHOLD):
        with pytest.raises(AuthError):
            users.change_password("alice", "wrong-guess-1", "alice-new-pass-2026")
    with pytest.raises(AccountLocked):
        users.change_password("alice", "alice-pass-2026", "alice-new-pass-2026")


def test_every_sign_in_success_and_failure_is_audited(store, clock):
    with pytest.raises(AuthError):
        users.login("alice", "wrong-guess-1", address="192.0.2.1")
    with pytest.raises(AuthError):
        users.login("nobody-here", "wrong-guess-1")
    users.login("alice", "alice-pass-2026", address="192.0.2.1")
    events = [(e["user_name"], e["outcome"]) for e in reversed(audit.recent(action="login"))]
    assert events == [("alice", "denied"), ("nobody-here", "denied"), ("alice", "ok")]
    assert "192.0.2.1" in audit.recent(action="login", user="alice")[0]["detail"]
    for _ in range(signin.USER_THRESHOLD):
        with pytest.raises(AuthError):
            users.login("alice", "wrong-guess-1")
    with pytest.raises(AccountLocked):
        users.login("alice", "alice-pass-2026")
    assert audit.recent(action="login", user="alice")[0]["outcome"] == "locked"
    assert "alice-pass-2026" not in str(audit.recent(limit=1000))  # never a password in the log


def test_lock_state_is_in_the_app_db_and_shared_with_another_process(store, workspace):
    for _ in range(signin.USER_THRESHOLD):
        with pytest.raises(AuthError):
            users.login("alice", "wrong-guess-1")
    out = subprocess.run([sys.executable, "-m", "core.cli", "users", "check", "alice", "--password-stdin"],
                         input="alice-pass-2026\n", capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 2 and "登录失败次数过多" in out.stderr, out.stderr


def test_hostile_sign_in_names_are_just_unknown_users(store, clock):
    for name in ("alice\x00", "\u202ealice", "<script>alert(1)</script>", "x" * 10_000, ""):
        with pytest.raises(AuthError) as exc:
            users.login(name, "alice-pass-2026", address="192.0.2.9\x00")
        assert exc.value.user_message == "用户名或密码错误"
    assert "alice?" in [e["user_name"] for e in audit.recent(action="login")]
    assert all("\x00" not in (e["user_name"] or "") + (e["detail"] or "") for e in audit.recent(action="login"))
