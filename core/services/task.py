"""Policy task agent (plan → execute → check → summarize) — the API the 任务 mode of the
政策问答 page and ``task`` call.

``run_task(request, principal, ...)`` runs the graph in core.agents.task to the end (the plan
auto-confirmed) and returns the contract dict of shared/spec/cli.md::

    {"report", "steps": [{"tool","args","ok", "error","ms"}], "stopped_by": null|"steps"|"tokens"|"time",
     "citations": [...as ask-docs...], "latency_ms",
     "thread_id", "plan", "planned_by", "sections", "missing", "counters", "limits", "kind",
     "mode", "notices", "need_confirm", "cancelled", "checks", "tokens"}

``start_task`` stops at the plan review (``need_confirm`` holds the plan); ``resume_task``
answers it ("确认" / "取消" / ``{"plan": [...]}``) and runs on. Threads are checkpointed
per user (core.agents.runtime.thread_key); the runtime is rebuilt for every call.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from core.agents.task.state import DEFAULT_DEADLINE_S, DEFAULT_MAX_STEPS
from core.errors import AppError, BadInputError
from core.security.injection import screen_question
from core.security.principals import Principal

StepCallback = Callable[[str, dict], None]
MAX_STEPS_LIMIT = 50
MAX_DEADLINE_S = 600.0


def new_thread_id() -> str:
    import uuid

    return uuid.uuid4().hex[:16]


def _graph():
    from core.agents.task.graph import build_graph
    from core.storage.checkpoint import get_checkpointer

    return build_graph(checkpointer=get_checkpointer())


def _index():
    from core.retrieval.index import get_index

    return get_index()


def _limits(max_steps: int | None, deadline_s: float | None, max_tokens: int | None) -> dict:
    from core.config import get_settings

    s = get_settings()
    steps = DEFAULT_MAX_STEPS if max_steps is None else max_steps
    deadline = DEFAULT_DEADLINE_S if deadline_s is None else deadline_s
    tokens = s.agent_max_tokens if max_tokens is None else max_tokens
    try:
        steps, deadline, tokens = int(steps), float(deadline), int(tokens)
    except (TypeError, ValueError):
        raise BadInputError("最大步数、时限和 Token 上限必须是数字") from None
    if not 1 <= steps <= MAX_STEPS_LIMIT:
        raise BadInputError(f"最大步数必须在 1 到 {MAX_STEPS_LIMIT} 之间")
    if not 0 < deadline <= MAX_DEADLINE_S:
        raise BadInputError(f"时限必须在 0 到 {MAX_DEADLINE_S:g} 秒之间")
    if tokens < 1:
        raise BadInputError("Token 上限必须为正整数")
    return {"max_steps": steps, "deadline_s": deadline, "max_tokens": tokens}


def _runtime(principal: Principal, limits: dict, *, index, llm, clock, steps: int = 0, tokens: int = 0):
    from core.agents.runtime import AgentRuntime
    from core.llm.budget import Budget
    from core.llm.client import current_llm

    client = current_llm() if llm == "default" else llm
    kw = {"clock": clock} if clock is not None else {}
    budget = Budget(max_steps=limits["max_steps"], max_tokens=limits["max_tokens"], deadline_s=limits["deadline_s"],
                    steps=steps, tokens=tokens, **kw)
    return AgentRuntime(principal=principal, index=index if index is not None else _index(), llm=client, budget=budget)


def _config(principal: Principal, thread_id: str, rt) -> dict:
    from core.agents.runtime import RUNTIME_KEY, thread_key

    return {"configurable": {"thread_id": thread_key("task", principal, thread_id), RUNTIME_KEY: rt},
            "recursion_limit": 200}


def _stream(graph, payload, config, on_event: StepCallback | None) -> None:
    for chunk in graph.stream(payload, config, stream_mode="updates"):
        for node, update in (chunk or {}).items():
            if on_event is None or not isinstance(update, dict):
                continue
            try:
                on_event(node, _event(node, update))
            except Exception:  # noqa: BLE001 - a UI callback must not break the run
                pass


def _event(node: str, update: dict) -> dict:
    """A small, UI-friendly description of a node's update (live step status, gauges)."""
    info = {k: update.get(k) for k in ("steps_done", "tokens", "elapsed_s", "stopped_by", "route") if k in update}
    if node == "execute" and update.get("results"):
        from core.agents.task.plan_text import TOOL_LABELS, humanize

        last = update["results"][-1]
        info.update(step=last["step"], tool=last["tool"], ok=last["ok"], error=humanize(last.get("error") or ""),
                    ms=last.get("ms"), label=TOOL_LABELS.get(last["tool"], ""))
    if node == "plan":
        info["plan"] = update.get("plan") or []
    return info


def _pending(graph, config) -> dict | None:
    snap = graph.get_state(config)
    for task in snap.tasks or ():
        for intr in getattr(task, "interrupts", ()) or ():
            return intr.value
    return None


def start_task(request: str, principal: Principal, *, thread_id: str | None = None, auto: bool = False,
               max_steps: int | None = None, deadline_s: float | None = None, max_tokens: int | None = None,
               index: Any = None, llm: Any = "default", clock: Callable[[], float] | None = None,
               on_event: StepCallback | None = None) -> dict:
    """Plan a request; without ``auto`` stop at the plan review (``need_confirm``)."""
    from core.agents.runtime import check_principal
    from core.agents.task.state import task_input

    t0 = time.perf_counter()
    check_principal(principal)
    screened = screen_question(request)
    limits = _limits(max_steps, deadline_s, max_tokens)
    thread_id = (thread_id or "").strip() or new_thread_id()
    rt = _runtime(principal, limits, index=index, llm=llm, clock=clock)
    config = _config(principal, thread_id, rt)
    graph = _graph()
    inp = task_input(screened["question"], auto=auto, **limits)
    if screened["pii"]:
        inp["notices"] = ["任务描述中的个人信息（" + "、".join(screened["pii"]) + "）已脱敏，不会被记录"]
    _stream(graph, inp, config, on_event)
    res = _result(graph, config, thread_id, (time.perf_counter() - t0) * 1000)
    _audit(principal, res)
    return res


def resume_task(principal: Principal, thread_id: str, reply: Any = "确认", *, index: Any = None, llm: Any = "default",
                clock: Callable[[], float] | None = None, on_event: StepCallback | None = None) -> dict:
    """Answer the plan review of one of the principal's own threads and run on."""
    from langgraph.types import Command

    from core.agents.runtime import check_principal

    t0 = time.perf_counter()
    check_principal(principal)
    graph = _graph()
    probe = _config(principal, thread_id, None)
    probe["configurable"].pop("runtime")
    st = graph.get_state(probe).values
    if not st or _pending(graph, probe) is None:
        from core.errors import NotFoundError

        raise NotFoundError(f"没有等待确认的任务：{thread_id}")
    limits = {k: st[k] for k in ("max_steps", "deadline_s", "max_tokens")}
    rt = _runtime(principal, limits, index=index, llm=llm, clock=clock, steps=int(st.get("steps_done") or 0),
                  tokens=int(st.get("tokens") or 0))
    config = _config(principal, thread_id, rt)
    _stream(graph, Command(resume=reply), config, on_event)
    res = _result(graph, config, thread_id, (time.perf_counter() - t0) * 1000)
    _audit(principal, res)
    return res


def task_state(principal: Principal, thread_id: str) -> dict | None:
    """The last state of one of ``principal``'s task threads, shaped as :func:`start_task`
    returns it (the plan awaiting review, or the report), for the page after a reload; ``None``
    when the thread has nothing (another user's thread id names an empty thread of one's own)."""
    from core.agents.runtime import check_principal

    check_principal(principal)
    graph = _graph()
    config = _config(principal, (thread_id or "").strip(), None)
    config["configurable"].pop("runtime")
    if not thread_id or not graph.get_state(config).values:
        return None
    return _result(graph, config, thread_id, 0.0)


def run_task(request: str, principal: Principal, *, thread_id: str | None = None, max_steps: int | None = None,
             deadline_s: float | None = None, max_tokens: int | None = None, index: Any = None, llm: Any = "default",
             clock: Callable[[], float] | None = None, on_event: StepCallback | None = None) -> dict:
    """Plan and run a request to the end (the plan auto-confirmed)."""
    return start_task(request, principal, thread_id=thread_id, auto=True, max_steps=max_steps, deadline_s=deadline_s,
                      max_tokens=max_tokens, index=index, llm=llm, clock=clock, on_event=on_event)


def _result(graph, config, thread_id: str, latency_ms: float) -> dict:
    st = graph.get_state(config).values
    need = _pending(graph, config)
    steps = [{"tool": r["tool"], "args": r["args"], "ok": bool(r["ok"]), "error": r.get("error") or "",
              "ms": r.get("ms")} for r in st.get("results") or []]
    return {
        "report": st.get("report") or "",
        "steps": steps,
        "stopped_by": st.get("stopped_by"),
        "citations": st.get("citations") or [],
        "latency_ms": round(latency_ms, 1),
        "thread_id": thread_id,
        "request": st.get("request") or "",
        "kind": (st.get("parsed") or {}).get("kind"),
        "parsed": st.get("parsed") or {},
        "plan": st.get("plan") or [],
        "planned_by": st.get("planned_by") or "rules",
        "sections": st.get("sections") or [],
        "missing": st.get("missing") or [],
        "checks": st.get("checks") or [],
        "tokens": int(st.get("tokens") or 0),  # LLM tokens of the whole task (0 in rules mode)
        "counters": {"steps": int(st.get("steps_done") or 0), "tokens": int(st.get("tokens") or 0),
                     "elapsed_s": float(st.get("elapsed_s") or 0.0)},
        "limits": {"max_steps": st.get("max_steps"), "max_tokens": st.get("max_tokens"),
                   "deadline_s": st.get("deadline_s")},
        "mode": st.get("mode") or "rules",
        "notices": st.get("notices") or [],
        "need_confirm": need,
        "cancelled": bool(st.get("cancelled")),
        "trace": st.get("trace") or [],
    }


def _audit(principal: Principal, res: dict) -> None:
    """The run (plan, steps, fuse, citations) into the audit log and so the weekly review."""
    from core.security.audit import record_question

    waiting = res["need_confirm"] is not None
    trace = {"mode": res["mode"], "kind": res["kind"], "planned_by": res["planned_by"], "plan": res["plan"],
             "steps": res["steps"], "stopped_by": res["stopped_by"], "counters": res["counters"],
             "limits": res["limits"], "missing": res["missing"], "notices": res["notices"],
             "citations": [{k: c.get(k) for k in ("n", "chunk_id", "doc_id", "file_name", "doc_number", "page")}
                           for c in res["citations"]]}
    outcome = "waiting" if waiting else ("stopped" if res["stopped_by"] else
                                         "cancelled" if res["cancelled"] else "answered")
    record_question(principal, "task", thread=res["thread_id"], question=res["request"],
                    answer="" if waiting else res["report"], refused=not waiting and not res["cancelled"]
                    and not res["citations"], tenant=",".join(principal.tenants) or None,
                    latency_ms=res["latency_ms"], trace=trace, outcome=outcome)


# ---- exports -----------------------------------------------------------------------------------
def export_markdown(result: dict) -> str:
    from core.agents.task.report import to_markdown

    return to_markdown(result)


def export_excel(result: dict) -> bytes:
    from core.agents.task.report import to_excel

    return to_excel(result)


# ---- the plan and messages in a manager's words (the 任务 mode's plan table) --------------------
def plan_rows(plan: list[dict]) -> list[dict]:
    """The plan as table rows: 步骤, 操作, 内容 (检索语句：…；发文机关：…), 说明."""
    from core.agents.task.plan_text import TOOL_LABELS, args_text

    return [{"步骤": i, "操作": TOOL_LABELS.get(s["tool"], ""), "内容": args_text(s.get("args") or {}),
             "说明": s.get("note") or ""} for i, s in enumerate(plan, 1)]


def plan_from_rows(rows: list[dict]) -> list[dict]:
    """An edited plan table back into steps; BadInputError naming the row otherwise."""
    from core.agents.task.plan_text import parse_step

    plan = []
    for i, r in enumerate(rows, 1):
        if not any(str(r.get(k) or "").strip() for k in ("操作", "内容")):
            continue  # an empty row added and left blank
        try:
            step = parse_step(str(r.get("操作") or ""), str(r.get("内容") or ""))
        except AppError as exc:
            raise BadInputError(f"第 {i} 步：{exc.user_message}") from None
        plan.append({**step, "note": str(r.get("说明") or "")})
    return plan


def operation_labels() -> list[str]:
    from core.agents.task.plan_text import TOOL_LABELS

    return list(TOOL_LABELS.values())


def step_text(step: dict) -> str:
    from core.agents.task.plan_text import step_text as text

    return text(step)


def humanize(message: str) -> str:
    from core.agents.task.plan_text import humanize as words

    return words(message)


def citation_preview(citation: dict, principal: Principal, *, index: Any = None) -> dict:
    from core.services.ask_docs import citation_preview as preview

    return preview(citation, principal, index=index)
