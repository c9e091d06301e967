"""Conversation records (administrators): every question leaves the agent's checkpoints (about
1 MB a question), so threads nobody has used for ``ZHICE_THREAD_RETENTION_DAYS`` are deleted
whole — 设置与状态 → 对话记录. A thread used within the period is kept with all its turns."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from core.config import get_settings
from core.errors import PermissionDenied
from core.security.audit import audit
from core.security.principals import Principal
from core.storage import checkpoint


def _require_admin(principal: Principal) -> None:
    if not principal.is_admin:
        raise PermissionDenied("只有管理员可以清理对话记录")


def _cutoff(now: datetime | None) -> tuple[int, datetime]:
    days = max(int(get_settings().thread_retention_days), 1)
    return days, (now or datetime.now(timezone.utc)) - timedelta(days=days)


def retention_state(principal: Principal, *, now: datetime | None = None) -> dict:
    """{"days", "threads", "expired"}: the retention period, how many conversations are kept and
    how many of them have not been used within it."""
    _require_admin(principal)
    days, cutoff = _cutoff(now)
    used = checkpoint.thread_last_used()
    return {"days": days, "threads": len(used), "expired": sum(at < cutoff for at in used.values())}


def purge_expired(principal: Principal, *, now: datetime | None = None) -> int:
    """Delete the conversations unused for longer than the retention period; returns how many."""
    _require_admin(principal)
    days, cutoff = _cutoff(now)
    n = checkpoint.delete_threads_unused_since(cutoff)
    audit(principal.name, "conversations.purge", outcome="ok",
          detail={"deleted": n, "retention_days": days, "summary": f"清理 {n} 段 {days} 天未用的对话"})
    return n
