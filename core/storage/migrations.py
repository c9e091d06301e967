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

# ---- policy RAG (issue 5): editable alias table for query rewriting ---------------------
MIGRATIONS.append(("0500_rag_aliases", [
    """CREATE TABLE rag_aliases (
        alias TEXT PRIMARY KEY,
        canonical TEXT NOT NULL,
        note TEXT,
        updated_at TEXT NOT NULL DEFAULT {now}
    )""",
    *[f"INSERT INTO rag_aliases (alias, canonical, note) VALUES ('{a}', '{c}', 'default')" for a, c in [
        ("高新区", "东湖高新区"),
        ("人社局", "人力资源和社会保障局"),
        ("人社厅", "人力资源和社会保障厅"),
        ("发改委", "发展和改革委员会"),
        ("市监局", "市场监督管理局"),
        ("市场监管局", "市场监督管理局"),
        ("工信局", "工业和信息化局"),
        ("住建局", "住房和城乡建设局"),
        ("医保局", "医疗保障局"),
        ("税务局", "税务部门"),
        ("个税", "个人所得税"),
        ("国补", "国家补贴"),
        ("车补", "汽车消费补贴"),
        ("购车补贴", "汽车消费补贴"),
        ("买车补贴", "汽车消费补贴"),
        ("家电补贴", "家电以旧换新补贴"),
        ("手机补贴", "手机、平板、智能手表（手环）购新补贴"),
        ("加油卡", "加油储值卡"),
        ("首保券", "新车首保消费券"),
        ("信息公开年报", "政府信息公开工作年度报告"),
    ]],
]))

# ---- documents (issue 4): document metadata + 废止 relations; chunks/vectors live in the index folder
MIGRATIONS.append(("0400_documents", [
    """CREATE TABLE documents (
        doc_id TEXT PRIMARY KEY,
        file_name TEXT NOT NULL,
        tenant TEXT NOT NULL,
        domain TEXT NOT NULL DEFAULT '',
        doc_number TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL,
        review_state TEXT NOT NULL,
        meta TEXT NOT NULL,
        stored_path TEXT,
        chunks INTEGER NOT NULL DEFAULT 0,
        ingested_by TEXT,
        ingested_at TEXT NOT NULL DEFAULT {now},
        updated_at TEXT
    )""",
    "CREATE INDEX documents_tenant_file ON documents (tenant, file_name)",
    """CREATE TABLE doc_relations (
        id {id},
        from_doc TEXT NOT NULL,
        kind TEXT NOT NULL,
        target TEXT NOT NULL,
        to_doc TEXT
    )""",
    "CREATE INDEX doc_relations_from ON doc_relations (from_doc)",
]))

# ---- sign-in and account hardening (issue 11): lockout state shared by every process,
# case/width-insensitive user name keys, scenarios as a permission, restricted sessions.
MIGRATIONS.append(("1100_signin_hardening", [
    """CREATE TABLE signin_throttle (
        throttle_key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        last_failure_at DOUBLE PRECISION NOT NULL
    )""",
    "ALTER TABLE users ADD COLUMN name_key TEXT",
    "CREATE UNIQUE INDEX users_name_key ON users (name_key)",
    "ALTER TABLE users ADD COLUMN scenarios TEXT NOT NULL DEFAULT '[]'",
    """UPDATE users SET scenarios = '["' || scenario || '"]'""",
    "ALTER TABLE sessions ADD COLUMN scope TEXT NOT NULL DEFAULT 'full'",
]))

# ---- audit trail (issue 11): the tenant of each event, lookups by user and kind, question traces
MIGRATIONS.append(("1110_audit_trail", [
    "ALTER TABLE audit_log ADD COLUMN tenant TEXT",
    "CREATE INDEX audit_log_user_at ON audit_log (user_name, at)",
    "CREATE INDEX audit_log_action_at ON audit_log (action, at)",
]))

# ---- document relations across tenants (issue 11): which issuers a tenant trusts to repeal,
# supersede or amend its documents (besides its own documents). authority '' = any authority
# of that issuer tenant.
MIGRATIONS.append(("1120_doc_trusted_issuers", [
    """CREATE TABLE doc_trusted_issuers (
        tenant TEXT NOT NULL,
        issuer_tenant TEXT NOT NULL,
        authority TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (tenant, issuer_tenant, authority)
    )""",
]))

# ---- reviewers' workspace (issue 12): the weekly bad-case queue, eval runs with their
# configuration and per-case judgements, one pinned baseline per golden set
MIGRATIONS.append(("1200_review", [
    "ALTER TABLE bad_cases ADD COLUMN ref TEXT",
    "ALTER TABLE bad_cases ADD COLUMN source TEXT",
    "ALTER TABLE bad_cases ADD COLUMN sources TEXT",
    "ALTER TABLE bad_cases ADD COLUMN kind TEXT",
    "ALTER TABLE bad_cases ADD COLUMN event_id INTEGER",
    "ALTER TABLE bad_cases ADD COLUMN user_name TEXT",
    "ALTER TABLE bad_cases ADD COLUMN tenant TEXT",
    "ALTER TABLE bad_cases ADD COLUMN thread_id TEXT",
    "ALTER TABLE bad_cases ADD COLUMN asked_at TEXT",
    "ALTER TABLE bad_cases ADD COLUMN expected TEXT",
    "ALTER TABLE bad_cases ADD COLUMN evidence TEXT",
    "ALTER TABLE bad_cases ADD COLUMN assignee TEXT",
    "ALTER TABLE bad_cases ADD COLUMN golden_set TEXT",
    "ALTER TABLE bad_cases ADD COLUMN updated_by TEXT",
    "ALTER TABLE bad_cases ADD COLUMN updated_at TEXT",
    "CREATE UNIQUE INDEX bad_cases_week_ref ON bad_cases (week, ref)",
    "ALTER TABLE eval_runs ADD COLUMN golden_set TEXT",
    "ALTER TABLE eval_runs ADD COLUMN config TEXT",
    "ALTER TABLE eval_runs ADD COLUMN per_case TEXT",
    "ALTER TABLE eval_runs ADD COLUMN status TEXT NOT NULL DEFAULT 'done'",
    "ALTER TABLE eval_runs ADD COLUMN started_by TEXT",
    "ALTER TABLE eval_runs ADD COLUMN done INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE eval_runs ADD COLUMN total INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX eval_runs_set ON eval_runs (golden_set, id)",
    """CREATE TABLE eval_baselines (
        golden_set TEXT PRIMARY KEY,
        run_id INTEGER NOT NULL,
        pinned_by TEXT,
        pinned_at TEXT NOT NULL DEFAULT {now}
    )""",
    "CREATE INDEX feedback_at ON feedback (at)",
]))

# ---- HTTP API (issue 19): bearer tokens per workspace user, stored as SHA-256 of a random
# token, with expiry and revocation; a fixed one-minute request window per token (rate limit
# shared by every API process of the workspace).
MIGRATIONS.append(("1300_api_tokens", [
    """CREATE TABLE api_tokens (
        id {id},
        token_hash TEXT NOT NULL UNIQUE,
        user_name TEXT NOT NULL REFERENCES users(name) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        created_by TEXT,
        expires_at TEXT NOT NULL,
        revoked_at TEXT,
        last_used_at TEXT,
        window_start DOUBLE PRECISION NOT NULL DEFAULT 0,
        window_count INTEGER NOT NULL DEFAULT 0
    )""",
    "CREATE INDEX api_tokens_user ON api_tokens (user_name)",
]))

# ---- the dashboard as people use it (issue 13): sessions survive a refresh and remember the
# current chat threads; document review decisions (approve / reject with a reason) are kept so
# an uploader can follow what became of their file.
MIGRATIONS.append(("1310_ui_sessions_reviews", [
    "ALTER TABLE sessions ADD COLUMN state TEXT",
    """CREATE TABLE doc_reviews (
        id {id},
        at TEXT NOT NULL DEFAULT {now},
        doc_id TEXT NOT NULL,
        file_name TEXT NOT NULL,
        tenant TEXT NOT NULL,
        uploaded_by TEXT,
        decision TEXT NOT NULL,
        reason TEXT,
        decided_by TEXT NOT NULL
    )""",
    "CREATE INDEX doc_reviews_uploader ON doc_reviews (uploaded_by, id)",
]))

# ---- evaluation runs per tenant (issue 12): a run is stored with the tenants of the user who
# ran it ('' = an administrator without tenants) and is seen only by users of those tenants and
# administrators; each tenant scope pins its own baseline per golden set (existing baselines
# become the administrators' ones).
MIGRATIONS.append(("1320_eval_run_tenants", [
    "ALTER TABLE eval_runs ADD COLUMN tenant TEXT NOT NULL DEFAULT ''",
    """CREATE TABLE eval_scope_baselines (
        golden_set TEXT NOT NULL,
        tenant TEXT NOT NULL DEFAULT '',
        run_id INTEGER NOT NULL,
        pinned_by TEXT,
        pinned_at TEXT NOT NULL DEFAULT {now},
        PRIMARY KEY (golden_set, tenant)
    )""",
    "INSERT INTO eval_scope_baselines (golden_set, tenant, run_id, pinned_by, pinned_at)"
    " SELECT golden_set, '', run_id, pinned_by, pinned_at FROM eval_baselines",
    "DROP TABLE eval_baselines",
]))
