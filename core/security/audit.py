"""Audit log: who did what, with which outcome. Written by core services, never by pages."""

from __future__ import annotations

import json
from typing import Any

from core.storage.db import get_db


def audit(user: str | None, action: str, *, target: str | None = None, outcome: str = "ok",
          detail: Any = None) -> None:
    """Record one event. ``detail`` is stored as JSON (keep it free of secrets)."""
    text = None if detail is None else json.dumps(detail, ensure_ascii=False, default=str)[:4000]
    get_db().execute("INSERT INTO audit_log (user_name, action, target, outcome, detail) VALUES (?, ?, ?, ?, ?)",
                     (user, action, target, outcome, text))


def recent(limit: int = 100, *, user: str | None = None, action: str | None = None) -> list[dict]:
    sql, params = "SELECT * FROM audit_log WHERE 1 = 1", []
    if user:
        sql += " AND user_name = ?"
        params.append(user)
    if action:
        sql += " AND action = ?"
        params.append(action)
    sql += " ORDER BY id DESC LIMIT ?"
    params.append(int(limit))
    return get_db().query(sql, params)
