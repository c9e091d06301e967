"""Helpers of the policy-RAG nodes around the shared :class:`core.agents.runtime.AgentRuntime`
(index, principal, LLM or None, budget, alias table): trace entries and LLM-failure handling."""

from __future__ import annotations

import time
from typing import Any

from core.agents.runtime import AgentRuntime, get_runtime  # noqa: F401 - the nodes import get_runtime from here
from core.errors import BudgetExceeded, LLMError


def usable_llm(state: dict, rt: AgentRuntime):
    """The LLM when configured and not failed earlier in this turn."""
    if rt.llm is None or state.get("llm_failed"):
        return None
    return rt.llm


def llm_step(rt: AgentRuntime) -> None:
    if rt.budget is not None:
        rt.budget.step()


def llm_failure(state: dict, exc: Exception, node: str) -> dict:
    """State update after an LLM failure (retries already done by the client): switch the
    rest of the turn to rules mode and say so."""
    if isinstance(exc, BudgetExceeded):
        why = exc.user_message
    elif isinstance(exc, LLMError):
        why = exc.user_message
    else:
        why = f"大模型调用异常（{type(exc).__name__}）"
    notice = f"{why}，已切换为离线规则模式作答（{node}）"
    notices = list(state.get("notices") or [])
    if not any(n.startswith(why) for n in notices):
        notices.append(notice)
    return {"llm_failed": True, "mode": "rules", "notices": notices}


def add_trace(state: dict, node: str, started: float, **info: Any) -> list[dict]:
    entry = {"node": node, "round": state.get("attempt", 0), "ms": round((time.perf_counter() - started) * 1000, 1)}
    entry.update(info)
    return [*(state.get("trace") or []), entry]


def doc_title(d: dict) -> str:
    t = (d.get("title") or "").strip()
    if t:
        return t
    name = d.get("file_name") or ""
    return name.rsplit(".", 1)[0] if "." in name else name
