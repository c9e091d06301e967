"""Graph store factory and the tenancy API of the business graph.

Backends: the embedded LadybugDB files under the workspace by default, Neo4j 5 when
``ZHICE_NEO4J_URI`` is set (core/graph/store/neo4j.py). Every graph belongs to a tenant and is
replaced generation by generation (core/graph/store/tenancy.py):

- :func:`get_graph_store` — the read path of a tenant's current committed graph. A handed-out
  store follows the tenant's current generation: after a build publishes (in this process or
  another one) its next query reads the new generation, and ``store.generation`` is the one that
  query reads. ``store.tenant`` / ``store.generation`` key caches. A tenant without a graph gets
  an empty store (no rows, zero counts). Writes on a read store are refused.
- :func:`graph_build` — the only write path: a staging store; the new generation becomes
  visible atomically when the block exits normally; an exception or a killed process changes
  nothing readers see.
- :func:`graph_tenants`, :func:`source_file`.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from core.config import Settings, get_settings
from core.graph.store.protocol import GraphStore
from core.graph.store.tenancy import (StagingStore, _Graphs, add_build_hook, graphs_for, validate_tenant)

_lock = threading.Lock()
_graphs: dict[tuple, _Graphs] = {}
_stores: dict[tuple, GraphStore] = {}


def _key(settings: Settings) -> tuple:
    if settings.graph_backend == "neo4j":
        return ("neo4j", f"{settings.neo4j_uri}/{settings.neo4j_database}", str(settings.home))
    return ("ladybug", str(settings.home))


def _graphs_for(settings: Settings) -> _Graphs:  # caller holds _lock
    key = _key(settings)
    graphs = _graphs.get(key)
    if graphs is None:
        if key[0] == "ladybug":
            # one workspace per process at a time: release the files of any other workspace
            for k in [k for k in _stores if k[0][0] == "ladybug" and k[0] != key]:
                _stores.pop(k).close()
        graphs = _graphs[key] = graphs_for(settings)
    return graphs


def get_graph_store(settings: Settings | None = None, *, tenant: str) -> GraphStore:
    """The read path of ``tenant``'s current committed graph (one store per workspace/backend/tenant)."""
    settings = settings or get_settings()
    tenant = validate_tenant(tenant)
    with _lock:
        graphs = _graphs_for(settings)
        key = (_key(settings), tenant)
        store = _stores.get(key)
        if store is not None and not getattr(store, "closed", False):
            return store
        store = _stores[key] = graphs.reader(tenant)
        return store


def graph_tenants(settings: Settings | None = None) -> list[str]:
    """Tenants that have a committed graph, sorted."""
    settings = settings or get_settings()
    with _lock:
        graphs = _graphs_for(settings)
    return graphs.tenants()


@contextmanager
def graph_build(tenant: str, clear: bool = False, settings: Settings | None = None) -> Iterator[StagingStore]:
    """Build ``tenant``'s next generation: ``with graph_build("demo") as store: build_graph(store, …)``.

    The staging store starts as a copy of the current graph (``clear=False``) or empty. Readers
    keep seeing the current graph until the block exits normally, then all see the new one.
    A second build of the same tenant (any thread or process) raises GraphBuildBusy."""
    settings = settings or get_settings()
    tenant = validate_tenant(tenant)
    with _lock:
        graphs = _graphs_for(settings)
    with graphs.build(tenant, clear=clear) as stage:
        yield stage


def source_file(tenant: str, template: str, file_name: str, settings: Settings | None = None) -> Path | None:
    """The spreadsheet the tenant's current graph was built from for ``(template, file_name)``
    (来源模板, 来源文件 as stored in provenance); exact names only, never outside the workspace."""
    settings = settings or get_settings()
    with _lock:
        graphs = _graphs_for(settings)
    return graphs.source_file(tenant, template, file_name)


def current_sources(tenant: str, settings: Settings | None = None) -> dict[str, list[Path]]:
    """The spreadsheets kept with the tenant's current graph, template → files."""
    settings = settings or get_settings()
    with _lock:
        graphs = _graphs_for(settings)
    return graphs.current_sources(tenant)


def close_graph_stores() -> None:
    with _lock:
        for store in _stores.values():
            store.close()
        _stores.clear()
        for graphs in _graphs.values():
            close = getattr(graphs, "close", None)
            if close:
                close()
        _graphs.clear()


__all__ = ["GraphStore", "StagingStore", "get_graph_store", "graph_tenants", "graph_build", "source_file", "current_sources",
           "close_graph_stores", "validate_tenant", "add_build_hook"]
