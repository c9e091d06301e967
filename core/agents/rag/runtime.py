"""What the nodes need besides the state: the index, the principal, the LLM (or None), the
budget, the alias table. Passed in ``config["configurable"]["rag_runtime"]`` (never
checkpointed); helpers for trace entries and LLM-failure handling."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from core.errors import BudgetExceeded, LLMError


@dataclass
class RagRuntime:
    index: Any
    principal: Any
    llm: Any = None
    budget: Any = None
    aliases: dict = field(default_factory=dict)
    _docs: list | None = None

    def list_docs(self) -> list:
        if self._docs is None:
            try:
                docs = list(self.index.list_docs())
            except Exception:  # noqa: BLE001 - metadata is a nicety for clarify/refusal
                docs = []
            try:
                from core.retrieval.filters import doc_visible

                docs = [m for m in docs if doc_visible(m, self.principal)]
            except Exception:  # noqa: BLE001 - duck-typed metadata (tests): keep as is
                pass
            self._docs = docs
        return self._docs


def get_runtime(config: dict | None) -> RagRuntime:
    rt = ((config or {}).get("configurable") or {}).get("rag_runtime")
    if rt is None:
        raise RuntimeError("rag_runtime missing from config['configurable']")
    return rt


def usable_llm(state: dict, rt: RagRuntime):
    """The LLM when configured and not failed earlier in this turn."""
    if rt.llm is None or state.get("llm_failed"):
        return None
    return rt.llm


def llm_step(rt: RagRuntime) -> None:
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
