"""A conversation rebuilt from the checkpointer, so that a chat page shows the current thread's
turns again after a reload (the page's own memory is gone; the checkpoints are not).

A turn is the run of checkpoints between two inputs: its first step holds the question as
asked, its last checkpoint the state the answer came from (or, for the newest turn, an
interrupt still waiting for a confirmation). The thread key names the owner's own thread
(core.agents.runtime.thread_key), so another user's thread id reads as an empty thread."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class CheckpointTurn:
    question: str           # as asked (the state at the turn's first step)
    values: dict            # the state at the turn's last checkpoint
    waiting: dict | None    # the interrupt's value while the newest turn waits for a reply
    seconds: float          # from the question to the last checkpoint


def _seconds(start: str | None, end: str | None) -> float:
    try:
        return max(0.0, (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds())
    except (TypeError, ValueError):
        return 0.0


def _interrupt(snapshot) -> dict | None:
    for task in snapshot.tasks or ():
        for intr in getattr(task, "interrupts", ()) or ():
            return intr.value if isinstance(intr.value, dict) else {"text": str(intr.value)}
    return None


def _turn(steps: list, start, newest: bool) -> CheckpointTurn | None:
    """``steps``: a turn's checkpoints, newest first; ``start``: the input checkpoint before them."""
    if not steps:
        return None
    last, first = steps[0], steps[-1]
    waiting = _interrupt(last) if last.next else None
    if last.next and (waiting is None or not newest):
        return None  # stopped by an error, or a confirmation that was never answered
    return CheckpointTurn(question=str((first.values or {}).get("question") or ""), values=dict(last.values or {}),
                          waiting=waiting, seconds=_seconds(start.created_at, last.created_at))


def checkpoint_turns(graph, thread_key: str, *, limit: int = 20) -> list[CheckpointTurn]:
    """The newest ``limit`` turns of the thread ``thread_key`` of a compiled, checkpointed
    ``graph``, oldest first."""
    turns: list[CheckpointTurn] = []
    steps: list = []
    newest = True
    for snapshot in graph.get_state_history({"configurable": {"thread_id": thread_key}}):
        if (snapshot.metadata or {}).get("source") != "input":
            steps.append(snapshot)
            continue
        turn = _turn(steps, snapshot, newest)
        steps, newest = [], False
        if turn is not None:
            turns.append(turn)
            if len(turns) >= limit:
                break
    return turns[::-1]
