"""⑥a run_check: rule layer over the executed steps — failures, unknown tools, dropped
parameters (a wrong parameter: replan), empty results (data absent: answer honestly, no
retry). At most 3 replans, so no retry storms."""

from __future__ import annotations

from core.agents.kg.state import MAX_ROUNDS, trace


def run_check(state: dict, *, config) -> dict:
    steps = state.get("steps") or []
    problems, fixable = [], False
    for s in steps:
        if s.get("error"):
            problems.append(f"第{s['id']}步执行失败：{s['error']}")
            fixable = True
        if s.get("dropped_params"):
            problems.append(f"第{s['id']}步参数被丢弃：{'、'.join(s['dropped_params'])}")
            fixable = True
    empty = bool(steps) and not steps[-1].get("rows")
    grounded = state.get("grounded") or {}
    kind = "ok"
    if fixable:
        kind = "wrong_parameter"
    elif empty:
        kind = "data_absent"
    rounds = int(state.get("run_rounds") or 0)
    # the rules planner would rebuild the same plan: only a user-edited or LLM plan is worth a replan
    retry = fixable and rounds < MAX_ROUNDS and state.get("plan_source") in ("user", "llm")
    report = {"ok": not problems, "problems": problems, "kind": kind, "retry": retry,
              "empty": empty, "time_outside": grounded.get("time_outside", False)}
    out = {"run_report": report, "trace": trace(state, "run_check", kind=kind, problems=problems, retry=retry)}
    if retry:
        out["run_rounds"] = rounds + 1
    return out
