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
