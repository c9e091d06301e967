"""LangGraph checkpointer factory: ``SqliteSaver`` on the workspace file, or
``PostgresSaver`` on ``ZHICE_DATABASE_URL``. One saver per process and location; threads
unused for longer than the retention period are deleted whole (core.services.conversations)."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

from langgraph.checkpoint.base import BaseCheckpointSaver

from core.config import Settings, get_settings
from core.errors import StorageError
from core.storage.db import open_sqlite

_savers: dict[str, BaseCheckpointSaver] = {}
_lock = threading.Lock()


def get_checkpointer(settings: Settings | None = None) -> BaseCheckpointSaver:
    s = settings or get_settings()
    key = s.database_url or str(s.checkpoint_path)
    with _lock:
        saver = _savers.get(key)
        if saver is not None:
            return saver
        try:
            if s.database_url:
                from psycopg import Connection
                from psycopg.rows import dict_row
                from langgraph.checkpoint.postgres import PostgresSaver

                conn = Connection.connect(s.database_url, autocommit=True, prepare_threshold=0,
                                          row_factory=dict_row)
                saver = PostgresSaver(conn)
            else:
                from langgraph.checkpoint.sqlite import SqliteSaver

                conn = open_sqlite(s.checkpoint_path)
                saver = SqliteSaver(conn)
            saver.setup()
        except Exception as exc:  # noqa: BLE001
            raise StorageError("无法打开对话检查点存储", detail=str(exc)) from exc
        _savers[key] = saver
        return saver


def reset_checkpointers() -> None:
    with _lock:
        for saver in _savers.values():
            conn = getattr(saver, "conn", None)
            if conn is not None:
                try:
                    conn.close()
                except Exception:  # noqa: BLE001
                    pass
        _savers.clear()


_UUID_EPOCH = datetime(1582, 10, 15, tzinfo=timezone.utc)


def _time_of(checkpoint_id: str) -> datetime | None:
    """When a checkpoint was written, read from its id: LangGraph's checkpoint ids are UUIDv6,
    whose first 60 bits are the creation time in 100 ns steps since 1582-10-15 (RFC 9562), so
    a thread's age needs no deserialisation of its (often 1 MB) state."""
    h = str(checkpoint_id).replace("-", "")
    if len(h) != 32 or h[12] != "6":
        return None
    ticks = (int(h[:12], 16) << 12) | int(h[13:16], 16)
    return _UUID_EPOCH + timedelta(microseconds=ticks // 10)


def thread_last_used(saver: BaseCheckpointSaver | None = None) -> dict[str, datetime]:
    """Each thread's newest checkpoint time (UTC): when it was last asked in or resumed. Both
    savers keep LangGraph's ``checkpoints`` table; a thread whose ids carry no time is left out
    (never deleted on a guess)."""
    saver = saver or get_checkpointer()
    sql = "SELECT thread_id, MAX(checkpoint_id) AS newest FROM checkpoints GROUP BY thread_id"
    with getattr(saver, "lock", None) or threading.Lock():
        rows = saver.conn.execute(sql).fetchall()
    used = {}
    for row in rows:
        thread, newest = (row["thread_id"], row["newest"]) if isinstance(row, dict) else tuple(row)
        at = _time_of(newest)
        if at is not None:
            used[thread] = at
    return used


def delete_threads_unused_since(cutoff: datetime, saver: BaseCheckpointSaver | None = None) -> int:
    """Delete every checkpoint of the threads last used before ``cutoff``; returns how many
    threads. A thread used since is kept whole (its turns are rebuilt from its checkpoints)."""
    saver = saver or get_checkpointer()
    stale = [t for t, at in thread_last_used(saver).items() if at < cutoff]
    for thread in stale:
        saver.delete_thread(thread)
    return len(stale)
