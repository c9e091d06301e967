"""The app database: SQLite under the workspace, or PostgreSQL when ``ZHICE_DATABASE_URL``
is set. SQL is written once with ``?`` placeholders and portable types; the few dialect
differences are tokens replaced here ({id} for an auto-increment key, {now} for the time).

Migrations are named, applied in order, and recorded in ``schema_migrations``.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from core.config import Settings, get_settings
from core.errors import StorageError
from core.storage.migrations import MIGRATIONS

_DIALECT = {
    "sqlite": {"{id}": "INTEGER PRIMARY KEY AUTOINCREMENT", "{now}": "CURRENT_TIMESTAMP", "{blob}": "BLOB"},
    "postgres": {"{id}": "BIGSERIAL PRIMARY KEY", "{now}": "CURRENT_TIMESTAMP", "{blob}": "BYTEA"},
}


def _render(sql: str, dialect: str) -> str:
    for token, value in _DIALECT[dialect].items():
        sql = sql.replace(token, value)
    if dialect == "postgres":
        sql = sql.replace("%", "%%").replace("?", "%s")
    return sql


def open_sqlite(path, timeout: float = 30.0) -> sqlite3.Connection:
    """A SQLite connection in WAL mode, shareable across threads. Changing the journal mode
    needs an exclusive lock, and SQLite answers "database is locked" at once (its busy handler
    is not consulted) while another process holds the file, e.g. during a migration; so the
    switch is retried with a short backoff for up to ``timeout`` seconds."""
    conn = sqlite3.connect(str(path), timeout=timeout, check_same_thread=False)
    deadline = time.monotonic() + timeout
    delay = 0.02
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return conn
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                conn.close()
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


class AppDB:
    """A small DB-API wrapper: ``execute``, ``query`` (list of dicts), ``transaction``."""

    def __init__(self, settings: Settings | None = None):
        self.settings = settings or get_settings()
        self.dialect = self.settings.app_db_backend
        self._local = threading.local()
        self._lock = threading.RLock()
        self.migrate()

    # ---- connections ---------------------------------------------------------------
    def _connect(self):
        try:
            if self.dialect == "postgres":
                import psycopg

                return psycopg.connect(self.settings.database_url, autocommit=False)
            conn = open_sqlite(self.settings.sqlite_path)
            conn.execute("PRAGMA foreign_keys=ON")
            return conn
        except Exception as exc:  # noqa: BLE001 - any driver error becomes a StorageError
            raise StorageError("无法连接应用数据库", detail=str(exc)) from exc

    @property
    def conn(self):
        c = getattr(self._local, "conn", None)
        if c is None:
            c = self._local.conn = self._connect()
        return c

    def close(self) -> None:
        c = getattr(self._local, "conn", None)
        if c is not None:
            c.close()
            self._local.conn = None

    @contextmanager
    def transaction(self) -> Iterator["AppDB"]:
        with self._lock:
            depth = getattr(self._local, "depth", 0)
            self._local.depth = depth + 1
            try:
                yield self
                if depth == 0:
                    self.conn.commit()
            except BaseException:
                if depth == 0:
                    self.conn.rollback()
                raise
            finally:
                self._local.depth = depth

    def _run(self, sql: str, params: Sequence[Any] = ()):
        cur = self.conn.cursor()
        try:
            cur.execute(_render(sql, self.dialect), tuple(params))
        except Exception as exc:  # noqa: BLE001
            if getattr(self._local, "depth", 0) == 0:
                self.conn.rollback()
            raise StorageError("应用数据库操作失败", detail=f"{exc} :: {sql}") from exc
        return cur

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a write; commits unless inside ``transaction()``. Returns rowcount."""
        with self._lock:
            cur = self._run(sql, params)
            if getattr(self._local, "depth", 0) == 0:
                self.conn.commit()
            return cur.rowcount

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an INSERT into a table with an ``{id}`` key and return the new id."""
        with self._lock:
            if self.dialect == "postgres":
                cur = self._run(sql.rstrip().rstrip(";") + " RETURNING id", params)
                new_id = cur.fetchone()[0]
            else:
                cur = self._run(sql, params)
                new_id = cur.lastrowid
            if getattr(self._local, "depth", 0) == 0:
                self.conn.commit()
            return int(new_id)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict]:
        with self._lock:
            cur = self._run(sql, params)
            cols = [d[0] for d in cur.description or []]
            rows = [dict(zip(cols, r)) for r in cur.fetchall()]
            if getattr(self._local, "depth", 0) == 0:
                self.conn.commit()  # end the read transaction (postgres)
            return rows

    def one(self, sql: str, params: Sequence[Any] = ()) -> dict | None:
        rows = self.query(sql, params)
        return rows[0] if rows else None

    # ---- migrations ----------------------------------------------------------------
    def migrate(self) -> list[str]:
        """Apply pending named migrations in one transaction; returns the names applied now.

        Concurrent migrators (two app processes starting on a new database) are serialised
        before anything is created: PostgreSQL by an advisory transaction lock, SQLite by taking
        the write lock up front (``BEGIN IMMEDIATE``)."""
        applied_now: list[str] = []
        with self._lock, self.transaction():
            if self.dialect == "postgres":
                self._run("SELECT pg_advisory_xact_lock(74201)")
            else:
                self._run("BEGIN IMMEDIATE")
            self._run("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
            done = {row[0] for row in self._run("SELECT name FROM schema_migrations").fetchall()}
            for name, statements in MIGRATIONS:
                if name in done:
                    continue
                for stmt in statements:
                    self._run(stmt)
                self._run("INSERT INTO schema_migrations (name, applied_at) VALUES (?, {now})", (name,))
                applied_now.append(name)
        return applied_now

    def applied_migrations(self) -> list[str]:
        return [r["name"] for r in self.query("SELECT name FROM schema_migrations ORDER BY name")]


_instances: dict[tuple, AppDB] = {}
_instances_lock = threading.Lock()


def get_db(settings: Settings | None = None) -> AppDB:
    """One AppDB per (backend, location) per process."""
    s = settings or get_settings()
    key = (s.app_db_backend, s.database_url or str(s.sqlite_path))
    with _instances_lock:
        db = _instances.get(key)
        if db is None:
            db = _instances[key] = AppDB(s)
        return db


def reset_db_cache() -> None:
    with _instances_lock:
        for db in _instances.values():
            db.close()
        _instances.clear()
