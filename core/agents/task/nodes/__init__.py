"""One function per node, ``(state, *, config) -> dict``; wiring in core.agents.task.graph."""

from core.agents.task.nodes.check import check
from core.agents.task.nodes.execute import execute
from core.agents.task.nodes.plan import plan
from core.agents.task.nodes.review import review
from core.agents.task.nodes.route import route
from core.agents.task.nodes.summarize import summarize

__all__ = ["check", "execute", "plan", "review", "route", "summarize"]
