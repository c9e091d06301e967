"""What nodes read from the run config: the acting principal, "today", the graph store,
the entity index and the LLM (None = rules mode). Tests inject a store and a date."""

from __future__ import annotations

import threading
from datetime import date
from typing import Any

from core.security.principals import Principal, Role

_override_store: Any = None
_lock = threading.Lock()


def set_store_override(store: Any) -> None:
    """Tests: a fake store (``run_named(name, params)``) instead of the workspace graph."""
    global _override_store
    with _lock:
        _override_store = store


def configurable(config: dict | None) -> dict:
    return (config or {}).get("configurable", {}) or {}


def get_store(config: dict | None = None):
    if _override_store is not None:
        return _override_store
    from core.graph.store import get_graph_store

    return get_graph_store()


def get_index(config: dict | None = None):
    from core.agents.kg.entity_index import get_entity_index

    return get_entity_index(get_store(config))


def today(config: dict | None = None) -> date:
    t = configurable(config).get("today")
    if t:
        return date.fromisoformat(str(t))
    return date.today()


def principal(config: dict | None = None) -> Principal:
    c = configurable(config)
    p = c.get("principal")
    if isinstance(p, Principal):
        return p
    return Principal(name=str(c.get("user") or "admin"), role=Role(str(c.get("role") or "admin")))


def llm(config: dict | None = None):
    if configurable(config).get("rules_only"):
        return None
    from core.llm.client import current_llm

    return current_llm()
