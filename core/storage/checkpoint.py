"""LangGraph checkpointer factory: ``SqliteSaver`` on the workspace file, or
``PostgresSaver`` on ``ZHICE_DATABASE_URL``. One saver per process and location."""

from __future__ import annotations

import threading

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
