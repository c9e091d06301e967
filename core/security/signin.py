"""Sign-in throttling: per-user and per-address backoff with temporary lockout.

State lives in the app database (``signin_throttle``), so every process serving the same
workspace (several Streamlit workers, the CLI, the HTTP API) shares it. Each key counts
consecutive failures; from ``*_THRESHOLD`` failures on, the key is locked for a delay that
doubles with every further failure (``BASE_DELAY_S`` · 2^(n − threshold), at most
``MAX_DELAY_S``), counted from the last failure. A key whose last failure is older than
``FORGET_AFTER_S`` starts again from zero. A successful sign-in clears the user key (not the
address key, so one good account cannot reset an address that is guessing others).

Unknown user names are counted exactly like existing ones, so the answer (and its timing)
never tells whether a user exists. Attempts while locked are refused without checking the
password and are not counted (an attacker cannot extend a lock forever).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from core.storage.db import AppDB, get_db

USER_THRESHOLD = 5
ADDRESS_THRESHOLD = 20
BASE_DELAY_S = 30.0
MAX_DELAY_S = 15 * 60.0
FORGET_AFTER_S = 60 * 60.0


def _now() -> float:
    """Wall-clock seconds; tests replace this to move time without sleeping."""
    return time.time()


def user_key(key: str | None, typed: str) -> str:
    # a name that can never be a user (bad characters) is still counted, by what was typed
    return "user:" + (key if key is not None else "?" + (typed or "")[:128])


def address_key(address: str | None) -> str | None:
    address = (address or "").strip()
    return "addr:" + address[:64] if address else None


def delay_for(failures: int, threshold: int) -> float:
    if failures < threshold:
        return 0.0
    return min(BASE_DELAY_S * (2 ** (failures - threshold)), MAX_DELAY_S)


def wait_text(seconds: float) -> str:
    seconds = max(1, math.ceil(seconds))
    if seconds < 60:
        return f"{seconds} 秒"
    return f"{math.ceil(seconds / 60)} 分钟"


@dataclass
class Lock:
    scope: str          # "user" | "address"
    retry_after_s: float

    @property
    def message(self) -> str:
        return f"登录失败次数过多，请 {wait_text(self.retry_after_s)}后再试"


class SigninThrottle:
    def __init__(self, db: AppDB | None = None):
        self.db = db or get_db()

    def _row(self, key: str) -> dict | None:
        return self.db.one("SELECT failures, last_failure_at FROM signin_throttle WHERE throttle_key = ?", (key,))

    def _remaining(self, key: str | None, threshold: int, now: float) -> float:
        if key is None:
            return 0.0
        row = self._row(key)
        if row is None or now - float(row["last_failure_at"]) > FORGET_AFTER_S:
            return 0.0
        return max(0.0, float(row["last_failure_at"]) + delay_for(int(row["failures"]), threshold) - now)

    def locked(self, ukey: str, akey: str | None) -> Lock | None:
        """The lock that refuses this attempt now, if any (the longer one when both apply)."""
        now = _now()
        waits = [(self._remaining(ukey, USER_THRESHOLD, now), "user"),
                 (self._remaining(akey, ADDRESS_THRESHOLD, now), "address")]
        wait, scope = max(waits)
        return Lock(scope, wait) if wait > 0 else None

    def failure(self, ukey: str, akey: str | None) -> Lock | None:
        """Count one failed attempt; returns the lock it triggers (if any)."""
        now = _now()
        for key in (ukey, akey):
            if key is None:
                continue
            # one atomic upsert per key, so concurrent processes never lose a count
            self.db.execute(
                "INSERT INTO signin_throttle (throttle_key, failures, last_failure_at) VALUES (?, 1, ?)"
                " ON CONFLICT (throttle_key) DO UPDATE SET"
                " failures = CASE WHEN signin_throttle.last_failure_at < ? THEN 1"
                "                 ELSE signin_throttle.failures + 1 END,"
                " last_failure_at = excluded.last_failure_at",
                (key, now, now - FORGET_AFTER_S))
        return self.locked(ukey, akey)

    def success(self, ukey: str) -> None:
        self.db.execute("DELETE FROM signin_throttle WHERE throttle_key = ?", (ukey,))

    def clear(self, ukey: str) -> None:
        """An administrator unlocks a user (e.g. after setting a new password)."""
        self.success(ukey)
