"""⑦ reflect: does the result answer the question? Rules first: non-empty rows with every
anchor grounded at confidence ≥ 0.5 fit directly; an empty result is told apart as data
absent (answer honestly) vs wrong parameter (replan). With an LLM the doubtful cases are
reviewed; at most 3 rounds."""

from __future__ import annotations

from core.agents.kg import context as ctx
from core.agents.kg.grounding import confidence_ok
from core.agents.kg.llm_support import ReflectOut, ask
from core.agents.kg.state import MAX_ROUNDS, trace


def reflect(state: dict, *, config) -> dict:
    steps = state.get("steps") or []
    grounded = state.get("grounded") or {}
    rows = steps[-1]["rows"] if steps else []
    rounds = int(state.get("reflect_rounds") or 0)
    if rows and confidence_ok(grounded):
        report = {"fit": True, "kind": "ok", "reason": "结果非空且锚点高置信接地"}
    elif not rows:
        report = {"fit": True, "kind": "data_absent",
                  "reason": "时间超出数据覆盖" if grounded.get("time_outside") else "参数正确但数据中没有匹配记录"}
    else:
        report = {"fit": True, "kind": "ok", "reason": "部分锚点为低置信匹配，已在回答中说明"}
    client = ctx.llm(config)
    if client is not None and report["kind"] != "ok" and rounds < MAX_ROUNDS and not grounded.get("time_outside"):
        out = ask(client, f"问题：{(state.get('slots') or {}).get('question')}\n接地：{grounded}\n"
                          f"计划：{state.get('plan')}\n结果行数：{len(rows)}\n"
                          "判断结果是否契合问题；空结果请区分 data_absent（数据确实没有）与 wrong_parameter（参数错误可修复）。",
                  ReflectOut)
        if out is not None and out.kind == "wrong_parameter" and not out.fit:
            report = {"fit": False, "kind": "wrong_parameter", "reason": out.reason}
    return {"reflect_report": report, "reflect_rounds": rounds + (0 if report["fit"] else 1),
            "trace": trace(state, "reflect", **report)}
