"""LLM helpers for the KG agent: every prompt carries READ_ONLY_SAFETY; any LLM failure or a
step / token / time budget overrun returns ``None`` so the node falls back to its rules path
(and says so)."""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel, Field

from core.errors import BudgetExceeded, LLMError
from core.llm.client import READ_ONLY_SAFETY

T = TypeVar("T", bound=BaseModel)

SYSTEM = ("你是企业业务知识图谱问答助手，只依据图谱查询结果回答，缺失时明确说“数据中未找到”。" + READ_ONLY_SAFETY)


def ask(client, prompt: str, model: type[T]) -> T | None:
    if client is None:
        return None
    try:
        return client.generate([{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}], model)
    except (LLMError, BudgetExceeded):  # a budget overrun is noted by context.BudgetedLLM
        return None


class UnderstandOut(BaseModel):
    kind: str = Field("graph", description="chat 或 graph")
    intent: str = ""
    projects: list[str] = []
    people: list[str] = []
    time_text: str = ""
    granularity: str = ""


class CapabilityOut(BaseModel):
    name: str
    label: str = "人员"
    source_fields: list[str] = []
    expr: str
    condition: str = ""


class PlanStepOut(BaseModel):
    tool: str
    params: dict = {}
    depends: list[int] = []


class PlanOut(BaseModel):
    steps: list[PlanStepOut]


class ReflectOut(BaseModel):
    fit: bool
    kind: str = Field("ok", description="ok | data_absent | wrong_parameter")
    reason: str = ""


class AnswerOut(BaseModel):
    answer: str
