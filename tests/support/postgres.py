"""PostgreSQL for tests.

``ZHICE_TEST_DATABASE_URL`` names a server (``.ci/services.sh`` starts Debian's PostgreSQL on
loopback and exports it). ``ZHICE_TEST_POSTGRES=1`` makes the suites mandatory: an unset URL or
an unreachable server fails them. Each test gets its own schema (``search_path`` in the URL),
dropped afterwards, so tests never see each other's tables.
"""

from __future__ import annotations

import os
import uuid
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

_TRUE = {"1", "true", "yes", "on"}


def postgres_required() -> bool:
    return os.environ.get("ZHICE_TEST_POSTGRES", "").strip().lower() in _TRUE


def with_search_path(url: str, schema: str) -> str:
    """``url`` with libpq ``options=-csearch_path=<schema>`` added (other query args kept)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "options"]
    query.append(("options", f"-csearch_path={schema}"))
    return urlunsplit(parts._replace(query=urlencode(query)))


def _unavailable(reason: str):
    if postgres_required():
        pytest.fail(f"ZHICE_TEST_POSTGRES=1 but PostgreSQL is not usable: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL not configured ({reason}); set ZHICE_TEST_DATABASE_URL or run .ci/services.sh")


@pytest.fixture(scope="session")
def postgres_server_url() -> str:
    """The server URL, checked with a real connection (session-scoped)."""
    url = os.environ.get("ZHICE_TEST_DATABASE_URL", "").strip()
    if not url:
        _unavailable("ZHICE_TEST_DATABASE_URL is not set")
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=10) as conn:
            version = conn.execute("SHOW server_version").fetchone()[0]
    except Exception as exc:  # noqa: BLE001 - any connection problem is reported as such
        _unavailable(f"cannot connect to {urlsplit(url).hostname}:{urlsplit(url).port}: {exc}")
    print(f"[postgres] server {version} at {urlsplit(url).hostname}:{urlsplit(url).port}")
    return url


def create_schema(server_url: str, prefix: str = "t") -> tuple[str, str]:
    """Create a fresh schema; returns (schema name, URL whose search_path is that schema)."""
    import psycopg

    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    return schema, with_search_path(server_url, schema)


def drop_schema(server_url: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def postgres_url(postgres_server_url) -> str:
    """A URL on a fresh, empty schema of the test server; dropped after the test."""
    schema, url = create_schema(postgres_server_url)
    yield url
    from core.storage.checkpoint import reset_checkpointers
    from core.storage.db import reset_db_cache

    reset_checkpointers()  # close connections before dropping their schema
    reset_db_cache()
    drop_schema(postgres_server_url, schema)
