"""One :class:`AgentRuntime` handed to every agent graph (policy RAG, business-graph KG):
who is asking, what they may read (document index, the graph of their tenant), the LLM or
None (rules mode), the budget, the answer's token usage and "today". It travels in
``config["configurable"]["runtime"]`` and is never checkpointed, so a resumed thread always
runs as the caller of *this* call.

A missing or partial principal is an error, never an administrator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from core.errors import SecurityViolation
from core.llm.usage import TokenUsage
from core.security.principals import Principal, Role

RUNTIME_KEY = "runtime"


def check_principal(principal: Any) -> Principal:
    """``principal`` itself when it is a complete :class:`Principal`; otherwise an error."""
    if not isinstance(principal, Principal):
        raise SecurityViolation("缺少当前用户身份，已拒绝执行")
    if not str(principal.name or "").strip() or not isinstance(principal.role, Role):
        raise SecurityViolation("当前用户身份不完整，已拒绝执行")
    return principal


@dataclass
class AgentRuntime:
    principal: Principal
    store: Any = None                 # business graph of the asker's tenant (KG)
    index: Any = None                 # document index (RAG)
    llm: Any = None                   # None = offline rules mode
    budget: Any = None                # core.llm.budget.Budget of this call, if any
    usage: TokenUsage = field(default_factory=TokenUsage)  # tokens the LLM used for this answer
    today: date = field(default_factory=date.today)
    aliases: dict = field(default_factory=dict)
    rules_only: bool = False
    live: Any = None                  # core.agents.live_answer.LiveAnswer of a streaming caller, if any
    _docs: list | None = field(default=None, repr=False)
    _entities: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        check_principal(self.principal)

    # ---- documents the principal may see (RAG clarify / refusal hints) ----------------
    def list_docs(self) -> list:
        if self._docs is None:
            try:
                docs = list(self.index.list_docs())
            except Exception:  # noqa: BLE001 - metadata is a nicety for clarify/refusal
                docs = []
            from core.retrieval.filters import doc_visible

            self._docs = [m for m in docs if _visible(doc_visible, m, self.principal)]
        return self._docs

    # ---- the entity index of the graph this runtime reads (KG grounding) --------------
    def entity_index(self):
        if self._entities is None:
            from core.agents.kg.entity_index import get_entity_index

            self._entities = get_entity_index(self.store)
        return self._entities


def _visible(doc_visible, meta, principal) -> bool:
    try:
        return bool(doc_visible(meta, principal))
    except (AttributeError, KeyError, TypeError):  # duck-typed metadata without tenant fields
        return False


def get_runtime(config: dict | None) -> AgentRuntime:
    """The runtime of this call; a graph invoked without one refuses to run."""
    rt = ((config or {}).get("configurable") or {}).get(RUNTIME_KEY)
    if not isinstance(rt, AgentRuntime):
        raise SecurityViolation("缺少运行上下文（用户身份），已拒绝执行")
    return rt


_THREAD_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def thread_key(kind: str, principal: Principal, thread_id: str) -> str:
    """The checkpoint key of a user's thread: threads are private to their user, so another
    user's thread id simply names an empty thread of one's own."""
    check_principal(principal)
    tid = (thread_id or "").strip()
    if not tid or len(tid) > 100 or not set(tid) <= _THREAD_ID_CHARS:
        from core.errors import BadInputError

        raise BadInputError("会话编号无效（1–100 个字母、数字、下划线或连字符）")
    return f"{kind}:{principal.name}:{tid}"


def forget_thread(kind: str, principal: Principal, thread_id: str) -> None:
    """Delete every checkpoint of the user's thread (a throwaway thread, e.g. one golden case's:
    each question leaves ~20 checkpoints of the whole agent state, ~1 MB, so an evaluation
    that kept them filled gigabytes)."""
    from core.storage.checkpoint import get_checkpointer

    get_checkpointer().delete_thread(thread_key(kind, principal, thread_id))
