import sqlite3
import threading

import pytest

from core.config import get_settings
from core.errors import StorageError
from core.storage.db import AppDB
from core.storage.migrations import MIGRATIONS


def test_migrations_are_recorded_and_applied_once():
    db = AppDB()
    names = [name for name, _ in MIGRATIONS]
    assert db.applied_migrations() == sorted(names)
    assert db.migrate() == []  # second run applies nothing
    assert AppDB().migrate() == []  # a second process/connection neither


def test_names_unique():
    names = [name for name, _ in MIGRATIONS]
    assert len(names) == len(set(names))


def test_transaction_rolls_back_on_error():
    db = AppDB()
    with pytest.raises(RuntimeError):
        with db.transaction():
            db.execute("INSERT INTO audit_log (action, outcome) VALUES (?, ?)", ("a", "ok"))
            raise RuntimeError("boom")
    assert db.query("SELECT * FROM audit_log") == []


def test_bad_sql_is_a_storage_error_and_keeps_data():
    db = AppDB()
    db.insert("INSERT INTO audit_log (action, outcome) VALUES (?, ?)", ("kept", "ok"))
    with pytest.raises(StorageError):
        db.execute("INSERT INTO no_such_table VALUES (1)")
    assert [r["action"] for r in db.query("SELECT action FROM audit_log")] == ["kept"]


def test_insert_returns_ids_and_threads_share_the_file():
    db = AppDB()
    ids = []

    def work():
        for _ in range(5):
            ids.append(db.insert("INSERT INTO audit_log (action, outcome) VALUES (?, ?)", ("t", "ok")))

    threads = [threading.Thread(target=work) for _ in range(3)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert len(set(ids)) == 15
    raw = sqlite3.connect(get_settings().sqlite_path).execute("SELECT COUNT(*) FROM audit_log").fetchone()[0]
    assert raw == 15


def test_opening_waits_for_another_writer_instead_of_failing(tmp_path):
    """A second process starting while the first one migrates must wait, not crash: switching
    to WAL needs an exclusive lock, and while another connection holds a write transaction
    SQLite refuses at once, busy timeout or not."""
    from core.storage.db import open_sqlite

    path = tmp_path / "app.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO t VALUES (1)")
    plain = sqlite3.connect(path, timeout=30)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        plain.execute("PRAGMA journal_mode=WAL")  # fails immediately, not after 30 s
    plain.close()
    release = threading.Timer(0.5, lambda: holder.execute("COMMIT"))
    release.start()
    conn = open_sqlite(path, timeout=10)
    release.join()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 1


def test_opening_gives_up_after_its_timeout(tmp_path):
    from core.storage.db import open_sqlite

    path = tmp_path / "app.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        open_sqlite(path, timeout=0.3)
    holder.execute("COMMIT")
