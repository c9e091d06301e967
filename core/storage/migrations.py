"""Named migrations of the app database, applied in order and recorded.

Append new migrations at the end with a new name; never edit one that has shipped.
Tokens: {id} auto-increment primary key, {now} current timestamp, {blob} binary.
"""

from __future__ import annotations

MIGRATIONS: list[tuple[str, list[str]]] = [
    ("0001_users", [
        """CREATE TABLE users (
            name TEXT PRIMARY KEY,
            password_hash TEXT NOT NULL,
            role TEXT NOT NULL,
            tenants TEXT NOT NULL DEFAULT '[]',
            domains TEXT NOT NULL DEFAULT '[]',
            scenario TEXT NOT NULL DEFAULT 'window',
            must_change_password INTEGER NOT NULL DEFAULT 0,
            disabled INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL DEFAULT {now}
        )""",
        """CREATE TABLE sessions (
            token_hash TEXT PRIMARY KEY,
            user_name TEXT NOT NULL REFERENCES users(name) ON DELETE CASCADE,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL
        )""",
    ]),
    ("0002_audit", [
        """CREATE TABLE audit_log (
            id {id},
            at TEXT NOT NULL DEFAULT {now},
            user_name TEXT,
            action TEXT NOT NULL,
            target TEXT,
            outcome TEXT NOT NULL,
            detail TEXT
        )""",
        "CREATE INDEX audit_log_at ON audit_log (at)",
    ]),
    ("0003_feedback_review_eval", [
        """CREATE TABLE feedback (
            id {id},
            at TEXT NOT NULL DEFAULT {now},
            user_name TEXT,
            kind TEXT NOT NULL,
            thread_id TEXT,
            question TEXT NOT NULL,
            answer TEXT NOT NULL,
            rating INTEGER NOT NULL,
            reason TEXT,
            payload TEXT
        )""",
        """CREATE TABLE bad_cases (
            id {id},
            feedback_id INTEGER,
            week TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'open',
            category TEXT,
            note TEXT,
            golden_id TEXT
        )""",
        """CREATE TABLE eval_runs (
            id {id},
            at TEXT NOT NULL DEFAULT {now},
            dataset TEXT NOT NULL,
            metrics TEXT NOT NULL,
            report_path TEXT
        )""",
    ]),
]
