"""The read path of one tenant's current LadybugDB generation (core/graph/store/tenancy.py keeps the
generations): a store that follows the tenant's CURRENT pointer, so a store handed out earlier
reads a generation published later (by this or another process) on its next query, and closes
a replaced generation's database once the last query running on it ends."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import GraphStoreError
from core.graph import queries as Q
from core.graph.schema import LABELS, REL_TABLES

if TYPE_CHECKING:
    from core.graph.store.tenancy import LadybugGraphs


def _pointer_stamp(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


class LadybugTenantStore:
    """The read path of one tenant's current LadybugDB generation (a :class:`GraphStore` whose
    writes are refused). Each query checks the CURRENT file (one ``stat``) and moves to a newly
    published generation; the previous database closes once its last running query ends."""

    backend = "ladybug"

    def __init__(self, graphs: LadybugGraphs, tenant: str):
        from core.graph.store.dialect import LADYBUG

        self.dialect = LADYBUG
        self.tenant = tenant
        self._graphs = graphs
        self._pointer = graphs.pointer_file(tenant)
        self._cond = threading.Condition()
        self._stamp: tuple | None = ("unread",)
        self._gen = 0
        self._inner = None
        self._users: dict[int, int] = {}
        self._retired: list[tuple[Any, int]] = []
        self.closed = False

    def _refresh(self) -> None:  # caller holds self._cond
        from core.graph.store.ladybug import LadybugStore

        for _ in range(5):
            stamp = _pointer_stamp(self._pointer)
            if stamp == self._stamp:
                return
            gen = self._graphs.current(self.tenant)
            if gen == self._gen:
                self._stamp = stamp
                return
            try:
                inner = LadybugStore(self._graphs.db_file(self.tenant, gen), read_only=True) if gen else None
            except GraphStoreError:
                if self._graphs.current(self.tenant) != gen:
                    continue  # a newer build published (and removed this one) meanwhile
                raise
            if self._inner is not None:
                self._retired.append((self._inner, self._gen))
            self._inner, self._gen, self._stamp = inner, gen, stamp
            self._close_retired()
            return

    def _close_retired(self) -> None:
        keep = []
        for store, gen in self._retired:
            if self._users.get(gen, 0):
                keep.append((store, gen))
            else:
                store.close()
        self._retired = keep

    def _acquire(self):
        with self._cond:
            if self.closed:
                raise GraphStoreError("图数据库已关闭")
            self._refresh()
            self._users[self._gen] = self._users.get(self._gen, 0) + 1
            return self._gen, self._inner

    def _release(self, gen: int) -> None:
        with self._cond:
            self._users[gen] -= 1
            self._close_retired()

    @property
    def generation(self) -> int:
        """The generation the next query reads (0: the tenant has no graph yet)."""
        with self._cond:
            self._refresh()
            return self._gen

    @property
    def database_path(self) -> Path | None:
        """The current generation's database file (None when the tenant has no graph)."""
        gen = self.generation
        return self._graphs.db_file(self.tenant, gen) if gen else None

    @property
    def read_only_connection(self) -> bool:
        return True

    def query(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        Q.assert_read_only(cypher)
        gen, inner = self._acquire()
        try:
            return inner.query(cypher, params) if inner is not None else []
        finally:
            self._release(gen)

    def run_named(self, name: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        nq = Q.get(name)
        return self.query(nq.cypher, nq.bind(params))

    def counts(self) -> dict[str, dict[str, int]]:
        gen, inner = self._acquire()
        try:
            if inner is not None:
                return inner.counts()
            return {"nodes": {lb: 0 for lb in LABELS}, "edges": {rt.type: 0 for rt in REL_TABLES}}
        finally:
            self._release(gen)

    def _refuse(self, *args, **kwargs):
        raise GraphStoreError("当前图谱只读；请通过构建（build-graph 或“数据导入与建图”页）更新图谱")

    ensure_schema = clear = upsert_nodes = upsert_edges = delete_edges = _refuse

    def close(self) -> None:
        with self._cond:
            if self.closed:
                return
            self.closed = True
            if self._inner is not None:
                self._retired.append((self._inner, self._gen))
                self._inner = None
            for store, _ in self._retired:
                store.close()
            self._retired = []
