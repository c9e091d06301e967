"""③a cap_check: every derived rule's expression parses under the whitelist, references only
its source fields, and the source fields exist on the node label. Bad unregistered rules are
dropped after at most 3 rounds (with feedback to capability before that)."""

from __future__ import annotations

from core.agents.kg import expr as X
from core.agents.kg.state import MAX_ROUNDS, trace
from core.errors import AppError
from core.graph.schema import NODE_BY_LABEL


def check_rule(d: dict) -> str | None:
    sources = d.get("sources") or [d.get("source")]
    node = NODE_BY_LABEL.get(d.get("label") or "")
    if node is None:
        return f"派生概念 {d.get('name')} 的节点“{d.get('label')}”不存在"
    missing = [s for s in sources if s not in node.property_names]
    if missing:
        return f"派生概念 {d.get('name')} 的来源字段不存在：{'、'.join(missing)}"
    try:
        X.check(d.get("expr", ""), names=set(sources))
        if d.get("param"):
            X.check(d["param"], names={d.get("name")} | set(sources))
    except AppError as exc:
        return exc.user_message
    return None


def cap_check(state: dict, *, config) -> dict:
    derived = list(state.get("derived") or [])
    problems, keep = [], []
    for d in derived:
        err = check_rule(d)
        if err:
            problems.append(err)
        else:
            keep.append(d)
    retry = bool(problems) and int(state.get("cap_rounds") or 0) < MAX_ROUNDS
    report = {"ok": not problems, "problems": problems, "retry": retry, "feedback": "；".join(problems)}
    update = {"cap_report": report, "trace": trace(state, "cap_check", ok=not problems, problems=problems)}
    if not retry:
        update["derived"] = keep
    return update
