"""What the KG nodes read from the run config: everything comes from the call's
:class:`core.agents.runtime.AgentRuntime` (principal, the graph store of the asker's tenant,
its entity index, "today", the LLM or None for rules mode). A graph run without a runtime
refuses to run; there is no fallback principal."""

from __future__ import annotations

import threading
from datetime import date
from typing import Any

from core.agents.runtime import get_runtime
from core.security.principals import Principal

_lock = threading.Lock()


def configurable(config: dict | None) -> dict:
    return (config or {}).get("configurable", {}) or {}


def get_store(config: dict | None):
    return get_runtime(config).store


def get_index(config: dict | None):
    return get_runtime(config).entity_index()


def today(config: dict | None) -> date:
    return get_runtime(config).today


def principal(config: dict | None) -> Principal:
    return get_runtime(config).principal


def llm(config: dict | None = None):
    """The LLM for this turn wrapped in the turn's step / token / time budget, or None (rules mode:
    none configured, ``rules_only``, or the budget already ran out earlier in this turn)."""
    rt = get_runtime(config)
    if rt.rules_only or rt.llm is None:
        return None
    run = turn_budget(config)
    if run.notice:
        return None
    return BudgetedLLM(rt.llm, run)


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
    """A fresh budget for a new question on this thread (the runtime's ``budget`` if the caller
    passed one, else :meth:`Budget.from_settings`)."""
    from core.llm.budget import Budget

    given = get_runtime(config).budget
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
