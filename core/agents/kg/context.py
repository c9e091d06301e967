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
    """The LLM for this turn wrapped in the turn's step / token / time budget, or None (rules mode:
    none configured, ``rules_only``, or the budget already ran out earlier in this turn)."""
    if configurable(config).get("rules_only"):
        return None
    from core.llm.client import current_llm

    client = current_llm()
    if client is None:
        return None
    run = turn_budget(config)
    if run.notice:
        return None
    return BudgetedLLM(client, run)


# ---- per-turn LLM budget (core.llm.budget.Budget) ----------------------------------------
class TurnBudget:
    """One question's budget; ``notice`` is set once it is exceeded (the rest of the turn runs
    on the rules path and the answer says so)."""

    def __init__(self, budget) -> None:
        self.budget = budget
        self.notice = ""


_turns: dict[str, TurnBudget] = {}
_MAX_TURNS = 256


def _turn_key(config: dict | None) -> str:
    return str(configurable(config).get("thread_id") or "")


def start_turn(config: dict | None = None) -> TurnBudget:
    """A fresh budget for a new question on this thread (``configurable.kg_budget`` if the caller
    passed one, else :meth:`Budget.from_settings`)."""
    from core.llm.budget import Budget

    given = configurable(config).get("kg_budget")
    run = TurnBudget(given if given is not None else Budget.from_settings())
    with _lock:
        _turns[_turn_key(config)] = run
        while len(_turns) > _MAX_TURNS:
            _turns.pop(next(iter(_turns)))
    return run


def turn_budget(config: dict | None = None) -> TurnBudget:
    with _lock:
        run = _turns.get(_turn_key(config))
    return run if run is not None else start_turn(config)


def budget_notice(config: dict | None = None) -> str:
    with _lock:
        run = _turns.get(_turn_key(config))
    return run.notice if run is not None else ""


class BudgetedLLM:
    """Passes the turn's budget to every call and counts each call as one agent step; a
    :class:`BudgetExceeded` records the notice and propagates (llm_support.ask returns None)."""

    def __init__(self, inner: Any, run: TurnBudget) -> None:
        self.inner, self.run = inner, run

    def generate(self, messages, response_model, **kw):
        from core.errors import BudgetExceeded

        try:
            self.run.budget.step()
            return self.inner.generate(messages, response_model, budget=self.run.budget)
        except BudgetExceeded as exc:
            self.run.notice = f"{exc.user_message}，已切换为离线规则模式作答。"
            raise
