"""Users, passwords, sessions and the :class:`Principal` every core call acts as.

Passwords are hashed with scrypt (memory-hard, standard library). A session token is random;
only its SHA-256 is stored. The first start creates an administrator whose one-time password
is printed to the console and must be changed at first login.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import sys
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from enum import Enum

from core.config import get_settings
from core.errors import AuthError, BadInputError, NotFoundError, enum_error
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
DEFAULT_ADMIN = "admin"

# scrypt cost: n=2**14, r=8 → 16 MiB per hash, ~50 ms on these machines.
_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 1024 * 1024, "dklen": 32}


@dataclass(frozen=True)
class Principal:
    """Who is asking. Tenants/domains empty = no restriction only for admins."""

    name: str
    role: Role
    tenants: tuple[str, ...] = ()
    domains: tuple[str, ...] = ()
    scenario: Scenario = Scenario.window
    must_change_password: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def is_admin(self) -> bool:
        return self.role is Role.admin

    def with_scenario(self, scenario: str | Scenario | None) -> "Principal":
        if scenario is None:
            return self
        return Principal(self.name, self.role, self.tenants, self.domains, parse_scenario(scenario),
                         self.must_change_password)


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


def check_password_strength(password: str) -> None:
    if len(password) < 8:
        raise BadInputError("密码至少 8 位")
    if password.isdigit() or password.isalpha():
        raise BadInputError("密码需同时包含字母和数字（或符号）")


# ---- users ---------------------------------------------------------------------------
def _validate_name(name: str) -> str:
    name = (name or "").strip()
    if not name or len(name) > 64 or any(c.isspace() for c in name):
        raise BadInputError("用户名不能为空、不能含空白、最长 64 个字符")
    return name


def _row_to_principal(row: dict) -> Principal:
    return Principal(
        name=row["name"],
        role=Role(row["role"]),
        tenants=tuple(json.loads(row["tenants"] or "[]")),
        domains=tuple(json.loads(row["domains"] or "[]")),
        scenario=Scenario(row["scenario"]),
        must_change_password=bool(row["must_change_password"]),
    )


class UserStore:
    def __init__(self, db: AppDB | None = None):
        self.db = db or get_db()

    def add(self, name: str, role: str | Role, password: str, *, tenants=(), domains=(),
            scenario: str | Scenario = Scenario.window, must_change_password: bool = False) -> Principal:
        name = _validate_name(name)
        role = parse_role(role)
        scenario = parse_scenario(scenario)
        check_password_strength(password)
        if self.db.one("SELECT name FROM users WHERE name = ?", (name,)):
            raise BadInputError(f"用户 {name} 已存在")
        self.db.execute(
            "INSERT INTO users (name, password_hash, role, tenants, domains, scenario, must_change_password)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (name, hash_password(password), role.value, json.dumps(list(tenants), ensure_ascii=False),
             json.dumps(list(domains), ensure_ascii=False), scenario.value, int(must_change_password)),
        )
        return self.get(name)

    def get(self, name: str) -> Principal:
        row = self.db.one("SELECT * FROM users WHERE name = ? AND disabled = 0", ((name or "").strip(),))
        if row is None:
            raise NotFoundError(f"未知用户：{name}")
        return _row_to_principal(row)

    def exists(self, name: str) -> bool:
        return self.db.one("SELECT name FROM users WHERE name = ?", (name,)) is not None

    def list(self) -> list[Principal]:
        return [_row_to_principal(r) for r in self.db.query("SELECT * FROM users WHERE disabled = 0 ORDER BY name")]

    def update(self, name: str, *, role=None, tenants=None, domains=None, scenario=None) -> Principal:
        current = self.get(name)
        self.db.execute(
            "UPDATE users SET role = ?, tenants = ?, domains = ?, scenario = ? WHERE name = ?",
            (parse_role(role).value if role else current.role.value,
             json.dumps(list(current.tenants if tenants is None else tenants), ensure_ascii=False),
             json.dumps(list(current.domains if domains is None else domains), ensure_ascii=False),
             parse_scenario(scenario).value if scenario else current.scenario.value, name),
        )
        return self.get(name)

    def authenticate(self, name: str, password: str) -> Principal:
        row = self.db.one("SELECT * FROM users WHERE name = ? AND disabled = 0", ((name or "").strip(),))
        # Verify against a dummy hash for unknown users so timing does not reveal who exists.
        stored = row["password_hash"] if row else _DUMMY_HASH
        if not verify_password(password or "", stored) or row is None:
            raise AuthError()
        return _row_to_principal(row)

    def change_password(self, name: str, old: str, new: str) -> Principal:
        self.authenticate(name, old)
        if old == new:
            raise BadInputError("新密码不能与旧密码相同")
        check_password_strength(new)
        self.db.execute("UPDATE users SET password_hash = ?, must_change_password = 0 WHERE name = ?",
                        (hash_password(new), name))
        self.db.execute("DELETE FROM sessions WHERE user_name = ?", (name,))
        return self.get(name)

    def ensure_admin(self, echo=print) -> str | None:
        """Create the built-in administrator on first start. Returns the one-time password
        (also printed to the console) or None when an administrator already exists."""
        if self.db.one("SELECT name FROM users WHERE role = 'admin'"):
            return None
        password = secrets.token_urlsafe(12) + "9a"
        self.add(DEFAULT_ADMIN, Role.admin, password, scenario=Scenario.research, must_change_password=True)
        echo(f"[ZhiCe] 已创建管理员 {DEFAULT_ADMIN}，一次性密码：{password}（首次登录后必须修改）")
        return password

    # ---- sessions --------------------------------------------------------------------
    def open_session(self, principal: Principal) -> str:
        token = secrets.token_urlsafe(32)
        now = datetime.now(timezone.utc)
        expires = now + timedelta(minutes=get_settings().session_ttl_min)
        self.db.execute("INSERT INTO sessions (token_hash, user_name, created_at, expires_at) VALUES (?, ?, ?, ?)",
                        (_token_hash(token), principal.name, now.isoformat(), expires.isoformat()))
        return token

    def resolve_session(self, token: str | None) -> Principal | None:
        """The principal of a live session, or None when unknown/expired (expired ones are removed)."""
        if not token:
            return None
        row = self.db.one("SELECT user_name, expires_at FROM sessions WHERE token_hash = ?", (_token_hash(token),))
        if row is None:
            return None
        if datetime.fromisoformat(row["expires_at"]) <= datetime.now(timezone.utc):
            self.close_session(token)
            return None
        try:
            return self.get(row["user_name"])
        except NotFoundError:
            return None

    def close_session(self, token: str) -> None:
        self.db.execute("DELETE FROM sessions WHERE token_hash = ?", (_token_hash(token),))


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


_DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="


def resolve_user(name: str | None) -> Principal:
    """The principal for a CLI ``--user`` (default: the built-in administrator, created on
    first use)."""
    store = UserStore()
    if not name:
        store.ensure_admin(echo=lambda msg: print(msg, file=sys.stderr))
        return store.get(DEFAULT_ADMIN)
    return store.get(name)
