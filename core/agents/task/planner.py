"""Plans of the task agent: checked against the tool schemas before anything runs, whether
they come from the rules (core.agents.task.rules.plan_offline), the LLM, or a user's edit.

The LLM extracts a plan; code decides whether it may run: every step must name one of the
five tools, its arguments must validate, and a ``$k.top`` / ``$k.all`` reference must point
back to an earlier search_policy step.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from core.agents.task.tools import REF, TOOLS, validate_args
from core.errors import AppError
from core.llm.client import READ_ONLY_SAFETY

MAX_PLAN = 20


class PlanStep(BaseModel):
    tool: str = Field(description="工具名")
    args: dict = Field(default_factory=dict, description="参数对象")
    note: str = Field("", description="这一步做什么（中文，一句话）")


class PlanModel(BaseModel):
    steps: list[PlanStep] = Field(description="按顺序执行的工具调用")


def _refs(args: dict) -> list[tuple[int, str]]:
    vals = args.get("doc_ids") if isinstance(args.get("doc_ids"), list) else [args.get("doc_id")]
    out = []
    for v in vals:
        m = REF.fullmatch(v) if isinstance(v, str) else None
        if m:
            out.append((int(m.group(1)), m.group(2)))
    return out


def validate_plan(plan: list) -> list[str]:
    """Problems of a plan, one line each; empty = it may run."""
    if not isinstance(plan, list) or not plan:
        return ["计划为空"]
    if len(plan) > MAX_PLAN:
        return [f"计划最多 {MAX_PLAN} 步"]
    problems = []
    for i, s in enumerate(plan, 1):
        if not isinstance(s, dict):
            problems.append(f"第 {i} 步格式无效")
            continue
        try:
            validate_args(str(s.get("tool") or ""), s.get("args") if s.get("args") is not None else {})
        except AppError as exc:
            problems.append(f"第 {i} 步：{exc.user_message}")
            continue
        for k, _ in _refs(s.get("args") or {}):
            if not 1 <= k < i:
                problems.append(f"第 {i} 步引用了第 {k} 步，只能引用之前的步骤")
            elif plan[k - 1].get("tool") != "search_policy":
                problems.append(f"第 {i} 步引用的第 {k} 步不是 search_policy")
    return problems


def normalized(plan: list[dict], planned_by: str) -> list[dict]:
    return [{"tool": s["tool"], "args": dict(s.get("args") or {}),
             "note": str(s.get("note") or ("用户修改" if planned_by == "user" else ""))} for s in plan]


PLAN_PROMPT = (
    "你是政务政策分析任务的规划助手。把用户的任务拆成若干次只读工具调用，按顺序执行。\n"
    "可用工具（只能使用这些工具和参数）：\n{catalog}\n"
    "规则：1. 用 \"$k.top\" 表示第 k 步 search_policy 找到的最相关文件，\"$k.all\" 表示第 k 步找到的全部相关文件，"
    "只能引用之前的 search_policy 步骤；2. 不要编造文档编号；3. 步骤尽量少，不超过 {max_steps} 步；"
    "4. 对比两个地区时，分别检索再用 compare_documents 对比。\n" + READ_ONLY_SAFETY
)


def llm_plan(llm, request: str, parsed: dict, *, max_steps: int, budget) -> PlanModel:
    from core.agents.task.tools import catalog_text

    msgs = [{"role": "system", "content": PLAN_PROMPT.format(catalog=catalog_text(), max_steps=max_steps)},
            {"role": "user", "content": f"任务：{request}\n（规则解析参考：类型={parsed.get('label')}，"
                                        f"维度={'、'.join(parsed.get('dimensions') or [])}，"
                                        f"地区={'、'.join(parsed.get('places') or [])}）"}]
    return llm.generate(msgs, PlanModel, budget=budget)


__all__ = ["PlanModel", "PlanStep", "TOOLS", "llm_plan", "normalized", "validate_plan"]
