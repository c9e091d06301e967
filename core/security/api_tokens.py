"""Bearer tokens for the HTTP API (``core.api``), one or more per workspace user.

A token is 32 random bytes (``zc_`` + URL-safe base64), shown once when issued; only its
SHA-256 is stored (a token carries 256 bits of entropy, so a fast hash is enough — scrypt is
for passwords people choose). Each token has an expiry and can be revoked; revoking a user's
tokens revokes all of them at once.

A token only ever stands for its user *as the user is now*: the principal (role, tenants,
domains, scenarios) is read from the user record on every request, so a role change applies
at once; a disabled user, a deleted user or a user who must change the password gets no
principal at all.

Rate limit: each token may make ``ZHICE_API_RATE_PER_MIN`` requests per fixed one-minute window
(0 = unlimited). The window and its count live on the token's row in the app database and are
advanced by one atomic ``UPDATE … RETURNING``, so every API process serving the workspace
(several workers, several machines on one PostgreSQL) shares the same budget.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from core.errors import BadInputError, NotFoundError
from core.security.principals import Principal, UserStore
from core.storage.db import AppDB, get_db

TOKEN_PREFIX = "zc_"
DEFAULT_TTL_DAYS = 30
MAX_TTL_DAYS = 365
RATE_WINDOW_S = 60.0
_MAX_TOKEN_LEN = 200


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _clock() -> float:
    """Seconds for the rate window; tests replace this to move time without sleeping."""
    return time.time()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RateDecision:
    allowed: bool
    retry_after_s: float = 0.0

    @property
    def message(self) -> str:
        return f"请求过于频繁，请 {max(1, math.ceil(self.retry_after_s))} 秒后再试"


class ApiTokenStore:
    def __init__(self, db: AppDB | None = None):
        self.db = db or get_db()
        self.users = UserStore(self.db)

    def issue(self, name: str, *, ttl_days: int = DEFAULT_TTL_DAYS, created_by: str | None = None) -> dict:
        """A new token for user ``name``: ``{"user", "token", "expires_at"}`` (the token is
        never stored and cannot be shown again)."""
        try:
            ttl = int(ttl_days)
        except (TypeError, ValueError):
            raise BadInputError(f"令牌有效期应为 1–{MAX_TTL_DAYS} 天的整数") from None
        if not 1 <= ttl <= MAX_TTL_DAYS:
            raise BadInputError(f"令牌有效期应为 1–{MAX_TTL_DAYS} 天（收到 {ttl_days}）")
        principal = self.users.get(name)  # NotFoundError for unknown / disabled users
        if principal.must_change_password:
            raise BadInputError(f"用户 {principal.name} 须先修改初始密码，之后才能签发 API 令牌")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        now = _now()
        expires = now + timedelta(days=ttl)
        self.db.insert("INSERT INTO api_tokens (token_hash, user_name, created_at, created_by, expires_at)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (token_hash(token), principal.name, now.isoformat(timespec="seconds"), created_by,
                        expires.isoformat(timespec="seconds")))
        return {"user": principal.name, "token": token, "expires_at": expires.isoformat(timespec="seconds")}

    def revoke_all(self, name: str) -> int:
        """Revoke every live token of user ``name`` (disabled users included); returns how many."""
        row = self.users._find(name, include_disabled=True)
        if row is None:
            raise NotFoundError(f"未知用户：{name}")
        return self.db.execute("UPDATE api_tokens SET revoked_at = ? WHERE user_name = ? AND revoked_at IS NULL",
                               (_now().isoformat(timespec="seconds"), row["name"]))

    def revoke(self, name: str, token_id: int) -> None:
        """Revoke one live token of user ``name``; NotFoundError when ``name`` has no live
        token with that id (another user's token id included)."""
        n = self.db.execute("UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND user_name = ? AND revoked_at IS NULL",
                            (_now().isoformat(timespec="seconds"), int(token_id), name))
        if not n:
            raise NotFoundError(f"用户 {name} 没有编号为 {token_id} 的有效 API 令牌")

    def list(self, name: str | None = None) -> list[dict]:
        """Token metadata (never the token) for the admin page: id, user, dates, state."""
        sql = "SELECT id, user_name, created_at, created_by, expires_at, revoked_at, last_used_at FROM api_tokens"
        rows = self.db.query(sql + (" WHERE user_name = ?" if name else "") + " ORDER BY id",
                             (name,) if name else ())
        now = _now()
        for r in rows:
            r["state"] = ("revoked" if r["revoked_at"] else
                          "expired" if datetime.fromisoformat(r["expires_at"]) <= now else "active")
        return rows

    def _row(self, token: str | None) -> dict | None:
        if not token or len(token) > _MAX_TOKEN_LEN or not token.startswith(TOKEN_PREFIX):
            return None
        row = self.db.one("SELECT id, user_name, expires_at, revoked_at FROM api_tokens WHERE token_hash = ?",
                          (token_hash(token),))
        if row is None or row["revoked_at"] or datetime.fromisoformat(row["expires_at"]) <= _now():
            return None
        return row

    def resolve(self, token: str | None) -> tuple[Principal, int] | None:
        """(principal, token id) for a live token of an enabled user who need not change the
        password; None for anything else (unknown, expired, revoked, disabled, must change)."""
        row = self._row(token)
        if row is None:
            return None
        try:
            principal = self.users.get(row["user_name"])  # disabled users are not found
        except NotFoundError:
            return None
        if principal.must_change_password:
            return None
        return principal, int(row["id"])

    def hit(self, token_id: int, limit: int) -> RateDecision:
        """Count one request of token ``token_id`` in its current window (atomic across
        processes); refused once the window holds more than ``limit`` requests."""
        now = _clock()
        rows = self.db.query(
            "UPDATE api_tokens SET"
            " window_count = CASE WHEN window_start <= ? THEN 1 ELSE window_count + 1 END,"
            " window_start = CASE WHEN window_start <= ? THEN ? ELSE window_start END,"
            " last_used_at = ?"
            " WHERE id = ? RETURNING window_start, window_count",
            (now - RATE_WINDOW_S, now - RATE_WINDOW_S, now, _now().isoformat(timespec="seconds"), token_id))
        if not rows or limit <= 0:
            return RateDecision(True)
        count, start = int(rows[0]["window_count"]), float(rows[0]["window_start"])
        if count <= limit:
            return RateDecision(True)
        return RateDecision(False, retry_after_s=max(0.0, start + RATE_WINDOW_S - now))
