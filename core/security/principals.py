"""Users, passwords, sessions and the :class:`Principal` every core call acts as.

Passwords are hashed with scrypt (memory-hard, standard library) and must pass the policy in
``core.security.passwords``; user names are normalised and checked for look-alikes in
``core.security.usernames``; every sign-in goes through :meth:`UserStore.authenticate`
(lockout in ``core.security.signin``, audit). A session token is random; only its SHA-256 is
stored. A user who must change the password only ever gets a password-change session. The
first start creates an administrator whose one-time password is printed to the console and
must be changed at first login.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import sys
import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from enum import Enum

from core.config import get_settings
from core.errors import AccountLocked, AuthError, BadInputError, NotFoundError, PermissionDenied, StorageError, enum_error
from core.security.audit import audit
from core.security.passwords import check_password_strength, normalise as normalise_password
from core.security.signin import SigninThrottle, address_key, user_key
from core.security.usernames import lookup_key, name_key, normalise_name, skeleton
from core.storage.db import AppDB, get_db


class Role(str, Enum):
    admin = "admin"
    manager = "manager"
    staff = "staff"
    guest = "guest"
    reviewer = "reviewer"  # 评测员: weekly bad-case review and evaluation reports


class Scenario(str, Enum):
    window = "window"      # 窗口咨询: documents in effect only
    research = "research"  # 政策研究: history (repealed) included


ROLE_LABELS = {"admin": "管理员", "manager": "部门经理", "staff": "员工", "guest": "访客", "reviewer": "评测员"}
SCENARIO_LABELS = {"window": "窗口咨询（仅现行有效）", "research": "政策研究（含历史文件）"}
SCENARIO_NAMES = {"window": "窗口咨询", "research": "政策研究"}
SCOPE_FULL = "full"
SCOPE_PASSWORD_CHANGE = "password_change"
DEFAULT_ADMIN = "admin"

# scrypt cost: n=2**14, r=8 → 16 MiB per hash, ~50 ms on these machines.
_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 1024 * 1024, "dklen": 32}


@dataclass(frozen=True)
class Principal:
    """Who is asking. Tenants/domains empty = no restriction only for admins.

    ``scenario`` is the default scenario; ``scenarios`` the ones the user may use (empty = the
    default one only). Administrators may use every scenario."""

    name: str
    role: Role
    tenants: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    scenario: Scenario = Scenario.window
    must_change_password: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False)
    scenarios: tuple[Scenario, ...] = ()

    @property
    def is_admin(self) -> bool:
        return self.role is Role.admin

    @property
    def allowed_scenarios(self) -> tuple[Scenario, ...]:
        if self.is_admin:
            return tuple(Scenario)
        return tuple(self.scenarios) or (self.scenario,)

    def check_scenario(self, scenario: str | Scenario | None) -> Scenario:
        """The scenario to use (None = the default); PermissionDenied when not permitted."""
        chosen = self.scenario if scenario is None else parse_scenario(scenario)
        if chosen not in self.allowed_scenarios:
            allowed = "、".join(SCENARIO_NAMES[s.value] for s in self.allowed_scenarios)
            raise PermissionDenied(f"当前账号无权使用“{SCENARIO_NAMES[chosen.value]}”场景（可用：{allowed}），"
                                   "如需开通请联系管理员")
        return chosen

    def with_scenario(self, scenario: str | Scenario | None) -> "Principal":
        if scenario is None:
            return self
        return replace(self, scenario=self.check_scenario(scenario))


def parse_role(value: str | Role) -> Role:
    try:
        return Role(value)
    except ValueError:
        raise enum_error("角色", value, Role) from None


def parse_scenario(value: str | Scenario) -> Scenario:
    try:
        return Scenario(value)
    except ValueError:
        raise enum_error("场景", value, Scenario) from None


def _scenario_list(scenario, scenarios) -> tuple[Scenario, list[Scenario]]:
    """(default, permitted) from a default and/or a list; the default is the first listed."""
    listed = [parse_scenario(s) for s in (scenarios or [])]
    if isinstance(scenario, (list, tuple)):
        listed = [parse_scenario(s) for s in scenario] + listed
        scenario = None
    default = parse_scenario(scenario) if scenario else (listed[0] if listed else Scenario.window)
    permitted = list(dict.fromkeys([default, *listed]))
    return default, permitted


# ---- passwords -----------------------------------------------------------------------
def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, **_SCRYPT)
    b64 = lambda b: base64.b64encode(b).decode("ascii")  # noqa: E731
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${b64(salt)}${b64(digest)}"


def verify_password(password: str, stored: str) -> bool:
    try:
        algo, n, r, p, salt, digest = stored.split("$")
        if algo != "scrypt":
            return False
        expected = base64.b64decode(digest)
        got = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt), n=int(n), r=int(r),
                             p=int(p), maxmem=_SCRYPT["maxmem"], dklen=len(expected))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected)


def random_password() -> str:
    """A one-time password that satisfies the policy (printed once, changed at first login)."""
    while True:
        password = secrets.token_urlsafe(12) + "9a"
        try:
            check_password_strength(password)
            return password
        except BadInputError:  # pragma: no cover - astronomically unlikely
            continue


# ---- users ---------------------------------------------------------------------------
def _row_to_principal(row: dict) -> Principal:
    scenario = Scenario(row["scenario"])
    permitted = tuple(Scenario(s) for s in json.loads(row.get("scenarios") or "[]")) or (scenario,)
    return Principal(
        name=row["name"],
        role=Role(row["role"]),
        tenants=tuple(json.loads(row["tenants"] or "[]")),
        domains=tuple(json.loads(row["domains"] or "[]")),
        scenario=scenario,
        must_change_password=bool(row["must_change_password"]),
        scenarios=permitted,
    )


class UserStore:
    def __init__(self, db: AppDB | None = None):
        self.db = db or get_db()
        self._backfill_keys()

    def _backfill_keys(self) -> None:
        """Users created before name keys existed get theirs (once per database handle); a
        legacy name whose key collides with another keeps none and is found by its exact name."""
        if getattr(self.db, "_zhice_name_keys_done", False):
            return
        for row in self.db.query("SELECT name FROM users WHERE name_key IS NULL"):
            try:
                self.db.execute("UPDATE users SET name_key = ? WHERE name = ?", (name_key(row["name"]), row["name"]))
            except StorageError:
                pass
        self.db._zhice_name_keys_done = True

    def _find(self, name: str, *, include_disabled: bool = False) -> dict | None:
        """The row of a user by exact stored name, or by its key (NFKC + case folding)."""
        typed = (name or "").strip()
        key = lookup_key(typed)
        sql = "SELECT * FROM users WHERE (name = ? OR name_key = ?)"
        if not include_disabled:
            sql += " AND disabled = 0"
        rows = self.db.query(sql, (typed, key if key is not None else ""))  # "" is never a key
        exact = [r for r in rows if r["name"] == typed]
        return (exact or rows or [None])[0]

    def add(self, name: str, role: str | Role, password: str, *, tenants=(), domains=(),
            scenario: str | Scenario | list = Scenario.window, scenarios=None,
            must_change_password: bool = False) -> Principal:
        name = normalise_name(name)
        role = parse_role(role)
        default, permitted = _scenario_list(scenario, scenarios)
        check_password_strength(password)
        key, skel = name_key(name), skeleton(name)
        for row in self.db.query("SELECT name, name_key FROM users"):
            if row["name"] == name or (row["name_key"] or name_key(row["name"])) == key:
                raise BadInputError(f"用户 {name} 已存在")
            if skeleton(row["name"]) == skel:
                raise BadInputError(f"用户名 {name} 与已有用户名过于相似，容易混淆，请换一个")
        try:
            self.db.execute(
                "INSERT INTO users (name, name_key, password_hash, role, tenants, domains, scenario, scenarios,"
                " must_change_password) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (name, key, hash_password(password), role.value, json.dumps(list(tenants), ensure_ascii=False),
                 json.dumps(list(domains), ensure_ascii=False), default.value,
                 json.dumps([s.value for s in permitted]), int(must_change_password)),
            )
        except StorageError as exc:  # another process created the same name a moment ago
            raise BadInputError(f"用户 {name} 已存在") from exc
        return self.get(name)

    def get(self, name: str) -> Principal:
        row = self._find(name)
        if row is None:
            raise NotFoundError(f"未知用户：{name}")
        return _row_to_principal(row)

    def exists(self, name: str) -> bool:
        return self._find(name, include_disabled=True) is not None

    def list(self, *, include_disabled: bool = False) -> list[Principal]:
        sql = "SELECT * FROM users" + ("" if include_disabled else " WHERE disabled = 0") + " ORDER BY name"
        return [_row_to_principal(r) for r in self.db.query(sql)]

    def disabled_names(self) -> set[str]:
        return {r["name"] for r in self.db.query("SELECT name FROM users WHERE disabled = 1")}

    def set_disabled(self, name: str, disabled: bool) -> None:
        """Disable (sign-in refused, sessions ended) or enable a user."""
        row = self._find(name, include_disabled=True)
        if row is None:
            raise NotFoundError(f"未知用户：{name}")
        self.db.execute("UPDATE users SET disabled = ? WHERE name = ?", (int(bool(disabled)), row["name"]))
        if disabled:
            self.db.execute("DELETE FROM sessions WHERE user_name = ?", (row["name"],))

    def update(self, name: str, *, role=None, tenants=None, domains=None, scenario=None, scenarios=None) -> Principal:
        current = self.get(name)
        if scenario is None and scenarios is None:
            default, permitted = current.scenario, list(current.allowed_scenarios if not current.is_admin
                                                        else current.scenarios or (current.scenario,))
        else:
            default, permitted = _scenario_list(scenario, scenarios)
        self.db.execute(
            "UPDATE users SET role = ?, tenants = ?, domains = ?, scenario = ?, scenarios = ? WHERE name = ?",
            (parse_role(role).value if role else current.role.value,
             json.dumps(list(current.tenants if tenants is None else tenants), ensure_ascii=False),
             json.dumps(list(current.domains if domains is None else domains), ensure_ascii=False),
             default.value, json.dumps([s.value for s in permitted]), current.name),
        )
        return self.get(current.name)

    def verify(self, name: str, password: str) -> Principal:
        """The bare password check (no throttling, no audit): for internal use only. Every
        sign-in goes through :meth:`authenticate`."""
        row = self._find(name) if lookup_key(name) is not None else None
        # Verify against a dummy hash for unknown users so timing does not reveal who exists.
        stored = row["password_hash"] if row else _DUMMY_HASH
        ok = len(password or "") <= _MAX_VERIFY_LEN and verify_password(password or "", stored)
        if not ok or row is None:
            raise AuthError()
        return _row_to_principal(row)

    def authenticate(self, name: str, password: str, *, address: str | None = None, via: str = "core",
                     purpose: str = "login") -> Principal:
        """Check a sign-in as the login page does: lockout first (per user and per client
        address), then the password; every outcome is audited. Raises AuthError with the same
        message for unknown users and wrong passwords, or AccountLocked with how long to wait."""
        typed = (name or "").strip()[:128]
        key = lookup_key(typed)
        typed = _printable(typed)  # what the log and the counter keep: no control characters
        address = _printable(address or "") or None
        ukey, akey = user_key(key, typed), address_key(address)
        throttle = SigninThrottle(self.db)
        detail = {"via": via, "purpose": purpose, **({"address": address[:64]} if address else {})}
        lock = throttle.locked(ukey, akey)
        if lock is not None:
            audit(typed, "login", outcome="locked", detail={**detail, "scope": lock.scope,
                                                            "retry_after_s": round(lock.retry_after_s)})
            raise AccountLocked(lock.message, retry_after_s=lock.retry_after_s)
        try:
            principal = self.verify(typed, password)
        except AuthError:
            lock = throttle.failure(ukey, akey)
            audit(typed, "login", outcome="denied", detail=detail)
            if lock is not None:
                raise AccountLocked(f"用户名或密码错误。{lock.message}", retry_after_s=lock.retry_after_s) from None
            raise
        throttle.success(ukey)
        audit(principal.name, "login", detail=detail)
        return principal

    def change_password(self, name: str, old: str, new: str, *, address: str | None = None) -> Principal:
        principal = self.authenticate(name, old, address=address, purpose="change_password")
        if normalise_password(old) == normalise_password(new):
            raise BadInputError("新密码不能与旧密码相同")
        check_password_strength(new)
        self.db.execute("UPDATE users SET password_hash = ?, must_change_password = 0 WHERE name = ?",
                        (hash_password(new), principal.name))
        self.db.execute("DELETE FROM sessions WHERE user_name = ?", (principal.name,))
        return self.get(principal.name)

    def set_password(self, name: str, new: str, *, must_change_password: bool = True) -> Principal:
        """An operator sets a user's password (admin reset, demo setup); ends the user's
        sessions and clears the user's sign-in lock."""
        principal = self.get(name)
        check_password_strength(new)
        self.db.execute("UPDATE users SET password_hash = ?, must_change_password = ? WHERE name = ?",
                        (hash_password(new), int(must_change_password), principal.name))
        self.db.execute("DELETE FROM sessions WHERE user_name = ?", (principal.name,))
        SigninThrottle(self.db).clear(user_key(name_key(principal.name), principal.name))
        return self.get(principal.name)

    def ensure_admin(self, echo=print) -> str | None:
        """Create the built-in administrator on first start. Returns the one-time password
        (also printed to the console) or None when an administrator already exists."""
        if self.db.one("SELECT name FROM users WHERE role = 'admin'"):
            return None
        password = random_password()
        self.add(DEFAULT_ADMIN, Role.admin, password, scenario=Scenario.research,
                 scenarios=[Scenario.research, Scenario.window], must_change_password=True)
        echo(f"[ZhiCe] 已创建管理员 {DEFAULT_ADMIN}，一次性密码：{password}（首次登录后必须修改）")
        return password

    # ---- sessions --------------------------------------------------------------------
    def open_session(self, principal: Principal, *, scope: str = SCOPE_FULL) -> str:
        """A new session token. A user who must change the password only ever gets a
        ``password_change`` session, which no page or service accepts as a sign-in."""
        if principal.must_change_password:
            scope = SCOPE_PASSWORD_CHANGE
        token = secrets.token_urlsafe(32)
        now = datetime.now(timezone.utc)
        ttl = get_settings().session_ttl_min if scope == SCOPE_FULL else min(15, get_settings().session_ttl_min)
        expires = now + timedelta(minutes=ttl)
        self.db.execute("INSERT INTO sessions (token_hash, user_name, created_at, expires_at, scope)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (_token_hash(token), principal.name, now.isoformat(), expires.isoformat(), scope))
        return token

    def _session_principal(self, token: str | None, scope: str) -> Principal | None:
        if not token:
            return None
        row = self.db.one("SELECT user_name, expires_at, scope FROM sessions WHERE token_hash = ?",
                          (_token_hash(token),))
        if row is None or row["scope"] != scope:
            return None
        if datetime.fromisoformat(row["expires_at"]) <= datetime.now(timezone.utc):
            self.close_session(token)
            return None
        try:
            return self.get(row["user_name"])
        except NotFoundError:
            return None

    def resolve_session(self, token: str | None) -> Principal | None:
        """The principal of a live full session, or None when unknown/expired (expired ones
        are removed), restricted to a password change, or its user must change the password."""
        principal = self._session_principal(token, SCOPE_FULL)
        if principal is not None and principal.must_change_password:
            return None
        return principal

    def resolve_password_change(self, token: str | None) -> str | None:
        """The user name of a live password-change-only session, else None."""
        principal = self._session_principal(token, SCOPE_PASSWORD_CHANGE)
        return principal.name if principal is not None and principal.must_change_password else None

    def session_state(self, token: str | None) -> dict:
        """Small UI state kept with a live session (current chat thread ids), {} when none."""
        if not token:
            return {}
        row = self.db.one("SELECT state FROM sessions WHERE token_hash = ?", (_token_hash(token),))
        try:
            value = json.loads(row["state"]) if row and row.get("state") else {}
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def save_session_state(self, token: str | None, state: dict) -> None:
        if token:
            self.db.execute("UPDATE sessions SET state = ? WHERE token_hash = ?",
                            (json.dumps(state, ensure_ascii=False)[:4000], _token_hash(token)))

    def close_session(self, token: str) -> None:
        self.db.execute("DELETE FROM sessions WHERE token_hash = ?", (_token_hash(token),))


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else "?" for c in text)


_MAX_VERIFY_LEN = 1024  # longer "passwords" are refused without hashing them

_DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="


def resolve_user(name: str | None) -> Principal:
    """The principal for a CLI ``--user`` (default: the built-in administrator, created on
    first use; on a workspace whose administrator has another name, the first administrator)."""
    store = UserStore()
    if not name:
        store.ensure_admin(echo=lambda msg: print(msg, file=sys.stderr))
        if store.exists(DEFAULT_ADMIN):
            return store.get(DEFAULT_ADMIN)
        row = store.db.one("SELECT name FROM users WHERE role = 'admin' ORDER BY name")
        return store.get(row["name"])
    return store.get(name)
