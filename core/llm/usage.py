"""Token usage of one answer: what the model servers reported (``usage`` of each Chat
Completions reply), summed over every LLM call made while answering.

A service opens a meter around its agent run (``with metering(rt.usage): ...``); the LLM
client reports each reply's prompt / completion tokens with :func:`record_usage`, which adds
them to every meter open in the current context (LangGraph runs nodes in copies of the
caller's context, so calls made inside graph nodes are counted too; meters nest, so an answer
metered inside another counts into both). With no meter open, recording does nothing. Rules
mode makes no calls, so its answers use 0 tokens.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Iterator


@dataclass
class TokenUsage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, prompt_tokens: int, completion_tokens: int) -> None:
        with self._lock:
            self.prompt_tokens += max(0, int(prompt_tokens or 0))
            self.completion_tokens += max(0, int(completion_tokens or 0))
            self.calls += 1

    def as_dict(self) -> dict:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "total_tokens": self.total, "calls": self.calls}


_meters: ContextVar[tuple[TokenUsage, ...]] = ContextVar("zhice_token_meters", default=())


@contextmanager
def metering(usage: TokenUsage) -> Iterator[TokenUsage]:
    """Count every LLM call made in this context (and contexts copied from it) into ``usage``."""
    token = _meters.set((*_meters.get(), usage))
    try:
        yield usage
    finally:
        _meters.reset(token)


def record_usage(prompt_tokens: int, completion_tokens: int) -> None:
    """One model reply's usage, into every open meter."""
    for usage in _meters.get():
        usage.add(prompt_tokens, completion_tokens)
