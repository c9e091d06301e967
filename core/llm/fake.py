"""A scripted LLM for tests: ``enqueue`` replies (text, dict, pydantic model or an
exception to raise) and read ``history`` afterwards. The real SDK path is tested separately
against a local Chat Completions server."""

from __future__ import annotations

import json
from collections import deque
from typing import Any, Iterator, TypeVar

from pydantic import BaseModel

from core.errors import LLMError
from core.llm.budget import Budget
from core.llm.client import Message, parse_model_reply
from core.llm.usage import record_usage

T = TypeVar("T", bound=BaseModel)


class FakeLLM:
    model = "fake"

    def __init__(self, tokens_per_call: int = 10):
        self._queue: deque[Any] = deque()
        self.history: list[dict] = []
        self.tokens_per_call = tokens_per_call

    def enqueue(self, *replies: Any) -> "FakeLLM":
        self._queue.extend(replies)
        return self

    @property
    def pending(self) -> int:
        return len(self._queue)

    def _next(self, kind: str, messages: list[Message], budget: Budget | None) -> Any:
        self.history.append({"kind": kind, "messages": [dict(m) for m in messages]})
        record_usage(self.tokens_per_call, 0)
        if budget is not None:
            budget.add_tokens(self.tokens_per_call)
        if not self._queue:
            raise LLMError("FakeLLM: no scripted reply left", detail=kind)
        reply = self._queue.popleft()
        if isinstance(reply, BaseException):
            raise reply
        return reply

    def generate(self, messages: list[Message], response_model: type[T], *, budget: Budget | None = None) -> T:
        reply = self._next("generate", messages, budget)
        if isinstance(reply, response_model):
            return reply
        if isinstance(reply, BaseModel):
            reply = reply.model_dump()
        text = reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
        return parse_model_reply(text, response_model)

    def complete(self, messages: list[Message], *, budget: Budget | None = None) -> str:
        reply = self._next("complete", messages, budget)
        return reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)

    def stream(self, messages: list[Message], *, budget: Budget | None = None) -> Iterator[str]:
        text = self.complete(messages, budget=budget)
        for i in range(0, len(text), 4):
            yield text[i:i + 4]
