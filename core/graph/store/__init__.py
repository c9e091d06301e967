"""Graph store factory: the embedded LadybugDB file under the workspace by default, Neo4j 5
when ``ZHICE_NEO4J_URI`` is set (core/graph/store/neo4j.py, class ``Neo4jStore(settings)``)."""

from __future__ import annotations

import threading

from core.config import Settings, get_settings
from core.graph.store.protocol import GraphStore

_lock = threading.Lock()
_stores: dict[tuple[str, str], GraphStore] = {}


def get_graph_store(settings: Settings | None = None) -> GraphStore:
    """The process-wide store for the current settings (one per workspace/backend)."""
    settings = settings or get_settings()
    if settings.graph_backend == "neo4j":
        key = ("neo4j", f"{settings.neo4j_uri}/{settings.neo4j_database}")
    else:
        key = ("ladybug", str(settings.graph_path))
    with _lock:
        store = _stores.get(key)
        if store is not None and not getattr(store, "closed", False):
            return store
        if key[0] == "neo4j":
            from core.graph.store.neo4j import Neo4jStore

            store = Neo4jStore(settings)
        else:
            from core.graph.store.ladybug import LadybugStore

            # one workspace per process at a time: release the files of any other workspace
            for k, other in list(_stores.items()):
                if k[0] == "ladybug":
                    other.close()
                    _stores.pop(k)
            store = LadybugStore(settings.graph_path)
        _stores[key] = store
        return store


def close_graph_stores() -> None:
    with _lock:
        for store in _stores.values():
            store.close()
        _stores.clear()


__all__ = ["GraphStore", "get_graph_store", "close_graph_stores"]
