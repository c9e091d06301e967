"""One node function per file, each ``(state, *, config) -> dict``."""

from core.agents.rag.nodes.check import check
from core.agents.rag.nodes.clarify import clarify
from core.agents.rag.nodes.fallback import fallback
from core.agents.rag.nodes.finalize import finalize
from core.agents.rag.nodes.generate import generate
from core.agents.rag.nodes.grade import grade
from core.agents.rag.nodes.guard import guard
from core.agents.rag.nodes.reconcile import reconcile
from core.agents.rag.nodes.reflect import reflect
from core.agents.rag.nodes.retrieve import retrieve
from core.agents.rag.nodes.rewrite import rewrite

__all__ = ["check", "clarify", "fallback", "finalize", "generate", "grade", "guard", "reconcile", "reflect", "retrieve",
           "rewrite"]
