"""LadybugDB (embedded, Kuzu-compatible) backend of :class:`~core.graph.store.protocol.GraphStore`.

- DDL generated from :mod:`core.graph.schema` (one primary key per node table, typed properties,
  multi-pair rel tables).
- One write transaction at a time: a process-wide lock; every upsert call is one transaction.
- ``read_only=True`` opens a committed generation (core/graph/store/tenancy.py): only a
  read-only ``Database``, every write refused.
- Read path: the Cypher is checked read-only in code first, then run on a second ``Database``
  opened with ``read_only=True`` on the same file (ladybug allows it next to the writer; it sees
  the data as of its opening, so it is reopened after each write). In-memory stores have no
  file to reopen and read through the writer's database after the same check.
"""

from __future__ import annotations

import datetime as _dt
import logging
import threading
from pathlib import Path
from typing import Any, Iterable

import ladybug

from core.config import get_settings
from core.errors import GraphStoreError, OutdatedGraphLayout
from core.graph import queries as Q
from core.graph.schema import (LABELS, NODE_BY_LABEL, NODE_TABLES, REL_BY_TYPE, REL_TABLES, ladybug_ddl, q)
from core.graph.store.dialect import LADYBUG

#: One write transaction at a time in this process (ladybug allows a single writer).
WRITE_LOCK = threading.RLock()
_log = logging.getLogger(__name__)

_MAX_DB_SIZE = 1 << 36  # 64 GiB of address space per database instead of the 8 TiB default


class _BufferPoolFull(RuntimeError):
    """LadybugDB could not allocate query memory from the database's buffer pool."""


class _RWGate:
    """Readers share, a writer excludes readers (so the read-only database can be reopened)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0

    def acquire_read(self) -> None:
        with self._cond:
            self._readers += 1

    def release_read(self) -> None:
        with self._cond:
            self._readers -= 1
            self._cond.notify_all()

    def wait_no_readers(self) -> None:
        with self._cond:
            while self._readers:
                self._cond.wait()


def _plain(v: Any) -> Any:
    if isinstance(v, (_dt.date, _dt.datetime)):
        return v.isoformat()
    return v


def dedup_last_wins(rows: Iterable[dict], key) -> list[dict]:
    """De-duplicate by ``key(row)``; the last row wins but keeps the first row's position."""
    out: dict[Any, dict] = {}
    for r in rows:
        out[key(r)] = r
    return list(out.values())


class LadybugStore:
    """One LadybugDB database file (a tenant's generation is one such file; see tenancy.py)."""

    backend = "ladybug"
    dialect = LADYBUG
    #: a bare database file belongs to no tenant; tenancy.py wraps the files of tenants
    tenant: str | None = None
    generation: int = 0

    def __init__(self, path: str | Path | None = None, *, read_only_path: bool = True, read_only: bool = False):
        self.path = str(path) if path else ":memory:"
        self._file = self.path != ":memory:"
        #: True for a committed generation: the file is opened read-only and never written.
        self.read_only = read_only and self._file
        #: True when another process holds the write lock (or the store is read-only): query only.
        self.query_only = self.read_only
        # The agent's usual mix of queries on the sample graph needs 128–256 MB of pool in a read
        # database (measured: 128 MB fails within ~90 queries, 256 MB ran 4,650 without growth).
        self._pool = get_settings().graph_buffer_mb * 1024 * 1024
        self._ro_db: ladybug.Database | None = None
        self._ro_conn: ladybug.Connection | None = None
        self._ro_lock = threading.Lock()
        self._gate = _RWGate()
        self._generation = 0
        self._ro_generation = -1
        self._schema_error: GraphStoreError | None = None
        if self.read_only:
            if not Path(self.path).is_file():
                raise GraphStoreError("图数据库文件不存在", detail=self.path)
            self._db = self._conn = None
            self._use_ro = True
            self.closed = False
            self._schema_error = self._layout_error(self._read_conn())  # open now: a missing or damaged file
            return                                                        # fails here, not in a query
        if self._file:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = ladybug.Database(self.path, buffer_pool_size=self._pool, max_db_size=_MAX_DB_SIZE)
        except RuntimeError as exc:
            if not (self._file and "lock" in str(exc).lower() and Path(self.path).exists()):
                raise GraphStoreError("图数据库无法打开", detail=str(exc)) from exc
            try:  # LadybugDB allows read-only processes beside the one writer
                self._db = ladybug.Database(self.path, read_only=True, buffer_pool_size=self._pool,
                                            max_db_size=_MAX_DB_SIZE)
            except RuntimeError as exc2:
                raise GraphStoreError("图数据库无法打开（可能被其他进程占用）", detail=str(exc2)) from exc2
            self.query_only = True
        self._conn = ladybug.Connection(self._db)
        self._use_ro = read_only_path and self._file and not self.query_only
        self.closed = False
        if self.query_only:
            return
        try:
            self.ensure_schema()
        except GraphStoreError as exc:  # an older layout: only clear() (rebuild) may touch it
            self._schema_error = exc

    # ---- schema ----------------------------------------------------------------------
    def _tables(self, conn=None) -> dict[str, str]:
        res = (conn or self._conn).execute("CALL show_tables() RETURN *")
        cols = res.get_column_names()
        out = {}
        for row in res.get_all():
            d = dict(zip(cols, row))
            out[d["name"]] = d["type"]
        return out

    def _layout_error(self, conn) -> GraphStoreError | None:
        """An error when a node table of the file has other columns than this version's schema
        (a graph built by an older version: its queries would fail on the missing columns)."""
        existing = self._tables(conn)
        for nt in NODE_TABLES:
            if nt.label in existing:
                res = conn.execute(f"CALL table_info('{nt.label}') RETURN *")
                names = [dict(zip(res.get_column_names(), r))["name"] for r in res.get_all()]
                if names != nt.property_names:
                    return OutdatedGraphLayout(detail=f"{nt.label}: {names} != {nt.property_names}")
        return None

    def ensure_schema(self) -> None:
        with WRITE_LOCK:
            self._before_write()
            error = self._layout_error(self._conn)
            if error is not None:
                raise error
            for stmt in ladybug_ddl():
                self._conn.execute(stmt)
            self._after_write()

    def clear(self) -> None:
        with WRITE_LOCK:
            self._before_write()
            tables = self._tables()
            for name, kind in tables.items():
                if kind == "REL":
                    self._conn.execute(f"DROP TABLE IF EXISTS {q(name)}")
            for name, kind in tables.items():
                if kind != "REL":
                    self._conn.execute(f"DROP TABLE IF EXISTS {q(name)}")
            for stmt in ladybug_ddl():
                self._conn.execute(stmt)
            self._schema_error = None
            self._after_write()

    def _check_schema(self) -> None:
        if self._schema_error is not None:
            raise self._schema_error

    # ---- writes ----------------------------------------------------------------------
    def _before_write(self) -> None:
        if self.read_only:
            raise GraphStoreError("已提交的图谱版本只读；请通过构建（build-graph 或“数据导入与建图”页）更新图谱")
        if self.query_only:
            raise GraphStoreError("图数据库正被另一个进程（例如正在运行的看板）以写模式打开，本进程只能查询；"
                                  "请在看板的“数据导入与建图”页构建，或先关闭看板")
        self._gate.wait_no_readers()
        with self._ro_lock:
            self._close_ro()

    def _after_write(self) -> None:
        self._generation += 1

    def _in_transaction(self, work) -> None:
        """Run ``work()`` as one write transaction under the process-wide write lock."""
        self._check_schema()
        with WRITE_LOCK:
            self._before_write()
            self._conn.execute("BEGIN TRANSACTION")
            try:
                work()
                self._conn.execute("COMMIT")
            except Exception as exc:
                try:
                    self._conn.execute("ROLLBACK")
                except Exception:  # noqa: BLE001 - the transaction may already be gone
                    pass
                raise GraphStoreError("写入图数据库失败", detail=str(exc)) from exc
            finally:
                self._after_write()

    def _holds_none(self, count_cypher: str) -> bool:
        """Inside a write transaction: does the table this count query counts hold nothing yet?
        (A build writes a fresh generation, so the existence checks of a MERGE can be skipped.)"""
        return int(self._conn.execute(self.dialect.render(count_cypher)).get_all()[0][0]) == 0

    def upsert_nodes(self, label: str, rows: Iterable[dict[str, Any]], *, batch_size: int = 2000) -> int:
        """MERGE semantics, executed as existence check + CREATE for new keys + MATCH…SET for
        existing ones (ladybug's MERGE is ~3× slower); same result, idempotent. Into an empty
        table (a new generation) every row is new: no checks."""
        nt = NODE_BY_LABEL[label]
        rows = dedup_last_wins(rows, lambda r: r[nt.pk])
        if not rows:
            return 0
        create, props = Q.create_nodes(label, self.dialect)
        update, _ = Q.update_nodes(label, self.dialect)
        check = Q.existing_node_keys(label)
        pk_i = props.index(nt.pk)
        packed = [{f"p{i}": _plain(r.get(p)) for i, p in enumerate(props)} for r in rows]

        def work() -> None:
            empty = self._holds_none(Q.count_nodes(label))
            for i in range(0, len(packed), batch_size):
                batch = packed[i:i + batch_size]
                keys = [r[f"p{pk_i}"] for r in batch]
                found = set() if empty else {row[0] for row in self._conn.execute(check, {"keys": keys}).get_all()}
                new = [r for r in batch if r[f"p{pk_i}"] not in found]
                old = [r for r in batch if r[f"p{pk_i}"] in found]
                if new:
                    self._conn.execute(create, {"rows": new})
                if old:
                    self._conn.execute(update, {"rows": old})

        self._in_transaction(work)
        return len(packed)

    def upsert_edges(self, rel_type: str, from_label: str, to_label: str, rows: Iterable[dict[str, Any]], *,
                     batch_size: int = 2000) -> int:
        """MERGE semantics: rows whose edge exists go through the MERGE…SET form, the rest are
        created (both ends must exist; rows with a missing end create nothing). Into an empty
        relationship table every row is new: no checks."""
        rt = REL_BY_TYPE[rel_type]
        rows = dedup_last_wins(rows, lambda r: (r["from"], r["to"]) + tuple(r.get(p) for p in rt.merge_on))
        if not rows:
            return 0
        merge, props = Q.upsert_edges(rel_type, from_label, to_label, self.dialect)
        create, _ = Q.create_edges(rel_type, from_label, to_label, self.dialect)
        check = Q.existing_edges(rel_type, from_label, to_label, self.dialect)
        packed = [{"f": r["from"], "t": r["to"], **{f"p{i}": _plain(r.get(p)) for i, p in enumerate(props)}}
                  for r in rows]
        probes = [{"i": n, "f": r["from"], "t": r["to"], **{f"m{j}": r.get(p) for j, p in enumerate(rt.merge_on)}}
                  for n, r in enumerate(rows)]

        def work() -> None:
            empty = self._holds_none(Q.count_edges(rel_type))
            for i in range(0, len(packed), batch_size):
                found = set() if empty else \
                    {row[0] for row in self._conn.execute(check, {"rows": probes[i:i + batch_size]}).get_all()}
                new = [packed[n] for n in range(i, min(i + batch_size, len(packed))) if n not in found]
                old = [packed[n] for n in range(i, min(i + batch_size, len(packed))) if n in found]
                if new:
                    self._conn.execute(create, {"rows": new})
                if old:
                    self._conn.execute(merge, {"rows": old})

        self._in_transaction(work)
        return len(packed)

    def delete_edges(self, rel_type: str, from_label: str, to_label: str, rows: Iterable[dict[str, Any]]) -> int:
        cypher = Q.delete_edges(rel_type, from_label, to_label, self.dialect)
        packed = Q.delete_edges_rows(rel_type, rows)
        if packed:
            self._in_transaction(lambda: self._conn.execute(cypher, {"rows": packed}))
        return len(packed)

    # ---- reads -----------------------------------------------------------------------
    def _close_ro(self) -> None:
        if self._ro_conn is not None:
            try:
                self._ro_conn.close()
            except Exception:  # noqa: BLE001
                pass
        if self._ro_db is not None:
            try:
                self._ro_db.close()
            except Exception:  # noqa: BLE001
                pass
        self._ro_conn = self._ro_db = None

    def _read_conn(self) -> ladybug.Connection:
        if not self._use_ro:
            return self._conn
        with self._ro_lock:
            if self._ro_conn is None or self._ro_generation != self._generation:
                self._close_ro()
                try:
                    if not self.read_only:
                        # fold the WAL into the file first so the read-only open does not replay it
                        self._conn.execute("CHECKPOINT")
                    self._ro_db = ladybug.Database(self.path, read_only=True, buffer_pool_size=self._pool,
                                                   max_db_size=_MAX_DB_SIZE)
                    self._ro_conn = ladybug.Connection(self._ro_db)
                    self._ro_generation = self._generation
                except RuntimeError as exc:  # fall back to the writer's database (still checked read-only)
                    if self.read_only:
                        raise GraphStoreError("图数据库无法打开", detail=f"{exc}\n{self.path}") from exc
                    self._use_ro = False
                    return self._conn
            return self._ro_conn

    @property
    def read_only_connection(self) -> bool:
        """True when queries run on a database opened read-only."""
        return self._use_ro

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        Q.assert_read_only(cypher)
        if self.closed:
            raise GraphStoreError("图数据库已关闭", detail=self.path)
        self._check_schema()
        text = self.dialect.render(cypher)
        try:
            return self._query_once(text, params)
        except _BufferPoolFull:
            # The pool holds cached pages as well as query memory; when a long-running process's
            # read database cannot free enough of it, a fresh read database starts empty.
            if not self._use_ro:
                raise GraphStoreError("图查询执行失败：图数据库缓冲区已满，请重启看板") from None
            with WRITE_LOCK:
                self._gate.wait_no_readers()
                with self._ro_lock:
                    self._close_ro()
            _log.warning("ladybug read database reopened after its buffer pool filled up")
            try:
                return self._query_once(text, params)
            except _BufferPoolFull as exc:
                raise GraphStoreError("图查询执行失败：查询所需内存超过图数据库缓冲区",
                                      detail=f"{exc}\n{text}") from None

    def _query_once(self, text: str, params: dict[str, Any] | None) -> list[dict[str, Any]]:
        with WRITE_LOCK:  # a reopen of the read-only database must not race a write
            self._gate.acquire_read()
            try:
                conn = self._read_conn()
            except BaseException:
                self._gate.release_read()
                raise
        try:
            try:
                res = conn.execute(text, dict(params or {}))
            except RuntimeError as exc:
                msg = str(exc)
                if "read-only" in msg.lower() or "read only" in msg.lower():
                    from core.errors import ReadOnlyViolation

                    raise ReadOnlyViolation(detail=msg) from exc
                if "buffer pool is full" in msg.lower():
                    raise _BufferPoolFull(msg) from exc
                raise GraphStoreError("图查询执行失败", detail=f"{msg}\n{text}") from exc
            try:
                cols = res.get_column_names()
                return [{c: _plain(v) for c, v in zip(cols, row)} for row in res.get_all()]
            finally:
                res.close()  # release the result's buffers now, not whenever it is collected
        finally:
            self._gate.release_read()

    def run_named(self, name: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        nq = Q.get(name)
        return self.query(nq.cypher, nq.bind(params))

    def counts(self) -> dict[str, dict[str, int]]:
        nodes = {label: int(self.query(Q.count_nodes(label))[0]["n"]) for label in LABELS}
        edges = {rt.type: int(self.query(Q.count_edges(rt.type))[0]["n"]) for rt in REL_TABLES}
        return {"nodes": nodes, "edges": edges}

    def close(self) -> None:
        if self.closed:
            return
        with WRITE_LOCK:
            self._gate.wait_no_readers()
            with self._ro_lock:
                self._close_ro()
            try:
                if self._conn is not None:
                    self._conn.close()
                    self._db.close()
            finally:
                self.closed = True

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database file (before the file is copied or published)."""
        with WRITE_LOCK:
            self._before_write()
            self._conn.execute("CHECKPOINT")
