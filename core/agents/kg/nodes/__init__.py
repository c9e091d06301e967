"""One function per file, each ``(state, *, config) -> dict``."""

from core.agents.kg.nodes.answer import answer
from core.agents.kg.nodes.answer_reuse import answer_reuse
from core.agents.kg.nodes.cap_check import cap_check
from core.agents.kg.nodes.capability import capability
from core.agents.kg.nodes.chat import chat
from core.agents.kg.nodes.confirm import confirm
from core.agents.kg.nodes.confirm_plan import confirm_plan
from core.agents.kg.nodes.ground import ground
from core.agents.kg.nodes.permission import permission
from core.agents.kg.nodes.plan import plan
from core.agents.kg.nodes.reflect import reflect
from core.agents.kg.nodes.reuse_check import reuse_check
from core.agents.kg.nodes.run import run
from core.agents.kg.nodes.run_check import run_check
from core.agents.kg.nodes.scope import scope
from core.agents.kg.nodes.understand import understand

__all__ = ["answer", "answer_reuse", "cap_check", "capability", "chat", "confirm", "confirm_plan", "ground",
           "permission", "plan", "reflect", "reuse_check", "run", "run_check", "scope", "understand"]
