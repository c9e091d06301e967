"""Step / token / wall-clock budgets for one agent run. Exceeding any raises
:class:`core.errors.BudgetExceeded` with ``kind`` steps | tokens | time."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from core.config import get_settings
from core.errors import BudgetExceeded


@dataclass
class Budget:
    max_steps: int
    max_tokens: int
    deadline_s: float
    clock: Callable[[], float] = time.monotonic
    steps: int = 0
    tokens: int = 0
    started: float = field(default=-1.0)

    def __post_init__(self) -> None:
        if self.started < 0:
            self.started = self.clock()

    @classmethod
    def from_settings(cls, **overrides) -> "Budget":
        s = get_settings()
        values = {"max_steps": s.agent_max_steps, "max_tokens": s.agent_max_tokens,
                  "deadline_s": s.agent_deadline_s}
        values.update(overrides)
        return cls(**values)

    @property
    def elapsed_s(self) -> float:
        return self.clock() - self.started

    @property
    def remaining_s(self) -> float:
        return max(0.0, self.deadline_s - self.elapsed_s)

    def check(self) -> None:
        if self.steps > self.max_steps:
            raise BudgetExceeded("steps", detail=f"{self.steps}>{self.max_steps}")
        if self.tokens > self.max_tokens:
            raise BudgetExceeded("tokens", detail=f"{self.tokens}>{self.max_tokens}")
        if self.elapsed_s > self.deadline_s:
            raise BudgetExceeded("time", detail=f"{self.elapsed_s:.1f}s>{self.deadline_s}s")

    def step(self, n: int = 1) -> None:
        """Count an agent step, then check every budget."""
        self.steps += n
        self.check()

    def add_tokens(self, n: int) -> None:
        self.tokens += max(0, int(n))
        self.check()

    def snapshot(self) -> dict:
        return {"steps": self.steps, "tokens": self.tokens, "elapsed_s": round(self.elapsed_s, 3),
                "max_steps": self.max_steps, "max_tokens": self.max_tokens, "deadline_s": self.deadline_s}
