"""LangGraph checkpointer factory: ``SqliteSaver`` on the workspace file, or
``PostgresSaver`` on ``ZHICE_DATABASE_URL``. One saver per process and location; threads
unused for longer than the retention period are deleted whole (core.services.conversations)."""

from __future__ import annotations

import threading
from datetime import datetime, timezone

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


def _thread_ids(saver: BaseCheckpointSaver) -> list[str]:
    """Every thread the saver holds (both savers keep LangGraph's ``checkpoints`` table)."""
    with getattr(saver, "lock", None) or threading.Lock():
        rows = saver.conn.execute("SELECT DISTINCT thread_id FROM checkpoints").fetchall()
    return [r["thread_id"] if isinstance(r, dict) else r[0] for r in rows]


def thread_last_used(saver: BaseCheckpointSaver | None = None) -> dict[str, datetime]:
    """Each thread's newest checkpoint time (UTC): when it was last asked in or resumed."""
    saver = saver or get_checkpointer()
    used: dict[str, datetime] = {}
    for thread in _thread_ids(saver):
        latest = saver.get_tuple({"configurable": {"thread_id": thread, "checkpoint_ns": ""}})
        if latest is None:
            continue
        try:
            at = datetime.fromisoformat(str(latest.checkpoint.get("ts")))
        except ValueError:
            continue  # no readable time: kept (never deleted on a guess)
        used[thread] = at if at.tzinfo else at.replace(tzinfo=timezone.utc)
    return used


def delete_threads_unused_since(cutoff: datetime, saver: BaseCheckpointSaver | None = None) -> int:
    """Delete every checkpoint of the threads last used before ``cutoff``; returns how many
    threads. A thread used since is kept whole (its turns are rebuilt from its checkpoints)."""
    saver = saver or get_checkpointer()
    stale = [t for t, at in thread_last_used(saver).items() if at < cutoff]
    for thread in stale:
        saver.delete_thread(thread)
    return len(stale)
