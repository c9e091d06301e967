"""Audit trail: who did what, when, for which tenant, with which outcome. Written by core
services, never by pages; read by administrators (page 审计日志, ``audit`` on the command line).

- :func:`audit` records one event (login, upload, approval, build, status change, user
  change, export …). ``detail`` is JSON, kept free of secrets.
- :func:`record_question` records one question of either agent with its full trace (rewrites
  or slots / plan / queries, retrieved and cited chunks or provenance rows, checks, fuses,
  latency). The answer is stored as the asker saw it, with the values of sensitive fields
  replaced, so the log never holds an unmasked salary, ID number or phone number.
- The log is append-only: no service updates an event; only :func:`purge_expired`
  (administrators) deletes events older than ``ZHICE_AUDIT_RETENTION_DAYS``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any, Iterable

from core.storage.db import get_db

MAX_DETAIL_CHARS = 4000
MAX_TRACE_CHARS = 200_000
QUESTION_KINDS = ("question.docs", "question.kg", "question.task")
MASK = "***"


def now_utc() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _json(detail: Any, limit: int) -> str | None:
    if detail is None:
        return None
    text = json.dumps(detail, ensure_ascii=False, default=str)
    if len(text) > limit:  # never a broken JSON document: keep a marker instead
        text = json.dumps({"truncated": True, "chars": len(text), "head": text[: limit // 2]}, ensure_ascii=False)
    return text


def audit(user: str | None, action: str, *, target: str | None = None, outcome: str = "ok",
          detail: Any = None, tenant: str | None = None) -> int:
    """Record one event and return its id. ``detail`` is stored as JSON (keep it free of secrets)."""
    return get_db().insert(
        "INSERT INTO audit_log (at, user_name, action, target, outcome, detail, tenant) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (now_utc(), user, action, target, outcome, _json(detail, MAX_DETAIL_CHARS), tenant))


def mask_values(text: str, values: Iterable[Any]) -> str:
    """``text`` with every written form of ``values`` (12345.6 → 12,345.60 / 12345.60 / 12345.6)
    replaced by ***."""
    forms: set[str] = set()
    for v in values:
        if v is None or v == "" or isinstance(v, bool):
            continue
        if isinstance(v, (int, float)):
            f = float(v)
            forms |= {f"{f:,.2f}", f"{f:.2f}", f"{f:,.1f}", f"{f:.1f}", str(v)}
            if f.is_integer():
                forms |= {f"{int(f):,}", str(int(f))}
        else:
            forms.add(str(v))
    for form in sorted((f for f in forms if len(f) >= 2), key=len, reverse=True):
        text = text.replace(form, MASK)
    return text


def record_question(principal, kind: str, *, thread: str, question: str, answer: str, refused: bool,
                    tenant: str | None, latency_ms: float, trace: dict, outcome: str = "answered") -> int:
    """One question of ``kind`` ("docs" | "kg" | "task") with its trace (JSON-able, already masked)."""
    from core.security.injection import mask_pii

    detail = {"thread": thread, "question": mask_pii(question or ""), "answer": mask_pii(answer or ""),
              "refused": bool(refused), "latency_ms": latency_ms, "role": principal.role.value, **trace}
    return get_db().insert(
        "INSERT INTO audit_log (at, user_name, action, target, outcome, detail, tenant) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (now_utc(), principal.name, f"question.{kind}", thread, "refused" if refused else outcome,
         _json(detail, MAX_TRACE_CHARS), tenant))


# ---- reading (administrators) ------------------------------------------------------------
def _require_admin(principal) -> None:
    from core.errors import PermissionDenied

    if principal is None or not getattr(principal, "is_admin", False):
        raise PermissionDenied("只有管理员可以查看审计日志")


def events(principal, *, of: str | None = None, kind: str | None = None, since: str | None = None,
           until: str | None = None, limit: int = 200) -> list[dict]:
    """Events newest first, filtered by user (``of``), kind (an action or its prefix:
    "question", "login", "doc"), and ISO date range. Administrators only."""
    _require_admin(principal)
    sql, params = "SELECT id, at, action, user_name, tenant, target, outcome, detail FROM audit_log WHERE 1 = 1", []
    if of:
        sql += " AND user_name = ?"
        params.append(of)
    if kind:
        sql += " AND (action = ? OR action LIKE ?)"
        params += [kind, f"{kind}%"]
    if since:
        sql += " AND at >= ?"
        params.append(str(since))
    if until:
        sql += " AND at < ?"
        params.append(str(until))
    sql += " ORDER BY id DESC LIMIT ?"
    params.append(max(1, min(int(limit), 10_000)))
    return [_event(r) for r in get_db().query(sql, params)]


def event(principal, event_id: int) -> dict:
    """One event with its full detail (a question's trace)."""
    from core.errors import NotFoundError

    _require_admin(principal)
    row = get_db().one("SELECT id, at, action, user_name, tenant, target, outcome, detail FROM audit_log WHERE id = ?",
                       (int(event_id),))
    if row is None:
        raise NotFoundError(f"审计事件 {event_id} 不存在")
    return _event(row)


def _event(row: dict) -> dict:
    try:
        detail = json.loads(row["detail"]) if row.get("detail") else None
    except ValueError:
        detail = row["detail"]
    return {"id": row["id"], "at": row["at"], "kind": row["action"], "user": row["user_name"],
            "tenant": row.get("tenant"), "target": row.get("target"), "outcome": row["outcome"], "detail": detail}


def purge_expired(principal, *, days: int | None = None) -> int:
    """Delete events older than the retention period (administrators); returns how many."""
    from core.config import get_settings

    _require_admin(principal)
    keep = int(days if days is not None else get_settings().audit_retention_days)
    cutoff = (datetime.now(timezone.utc) - timedelta(days=max(keep, 1))).isoformat(timespec="seconds")
    n = get_db().execute("DELETE FROM audit_log WHERE at < ?", (cutoff,))
    audit(principal.name, "audit.purge", outcome="ok", detail={"deleted": n, "retention_days": keep})
    return n


def recent(limit: int = 100, *, user: str | None = None, action: str | None = None) -> list[dict]:
    """Raw rows, newest first (tests and internal checks; the pages use :func:`events`)."""
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
