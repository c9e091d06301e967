"""Business-graph Q&A service: the API the page 图谱问答 and the CLI ``ask-kg`` call.

``ask_kg(question, principal=…, thread_id=…, auto=…)`` runs the LangGraph agent on a thread
(checkpointed, so a later call with a reply — "确认", "修改：…", "改成4月", a scope choice or an
edited plan — resumes it). Without ``auto`` the call stops at the first interrupt and returns
``need_confirm``; with ``auto`` slots and plans are confirmed and scope is "返回全部".
The result's ``tokens`` is what the model servers reported for this call (0 in rules mode).
"""

from __future__ import annotations

import threading
import time
import uuid
from datetime import date
from pathlib import Path
from typing import Any, Callable

from langgraph.types import Command

from core.errors import BadInputError, NotFoundError, SecurityViolation
from core.security.principals import Principal

_graphs: dict[int, Any] = {}
_lock = threading.Lock()
_store_override: dict[str, Any] = {}


def _graph():
    from core.agents.kg.graph import build_graph
    from core.storage.checkpoint import get_checkpointer

    saver = get_checkpointer()
    with _lock:
        g = _graphs.get(id(saver))
        if g is None:
            g = _graphs[id(saver)] = build_graph(saver)
        return g


# ---- the graph the asker may read: their tenant's ----------------------------------------
class NoGraph:
    """The store of a principal with no tenant graph: every query answers no rows, so the
    agent says "数据中未找到" and nothing reveals what exists elsewhere."""

    backend = "none"
    tenant = ""
    generation = "none"

    def run_named(self, name: str, params: dict | None = None) -> list[dict]:
        return []

    def query(self, cypher: str, params: dict | None = None) -> list[dict]:
        return []

    def counts(self) -> dict:
        return {"nodes": {}, "edges": {}}


def set_store_override(store: Any, tenant: str = "demo", sources: Path | None = None) -> None:
    """Tests: serve a prebuilt ``store`` as tenant ``tenant``'s graph, built from the
    spreadsheets in the folder ``sources`` (None removes the override)."""
    _store_override.clear()
    if store is not None:
        _store_override[tenant] = (store, sources)


def _built_tenants() -> list[str]:
    if _store_override:
        return list(_store_override)
    from core.graph.store import graph_tenants

    return list(graph_tenants())


def graph_tenant(principal: Principal) -> str | None:
    """The tenant whose graph ``principal`` reads: the first of their tenants that has a
    graph (else their first tenant); an administrator without tenants reads the workspace's
    default tenant, or the only built one. None = no tenant, no data."""
    from core.agents.runtime import check_principal
    from core.config import get_settings

    check_principal(principal)
    built = _built_tenants()
    if principal.tenants:
        return next((t for t in principal.tenants if t in built), principal.tenants[0])
    if not principal.is_admin:
        return None
    default = get_settings().default_tenant
    return default if default in built or not built else built[0]


def kg_store(principal: Principal):
    """The graph store ``principal`` may read (an empty one when they have none)."""
    tenant = graph_tenant(principal)
    if tenant is None:
        return NoGraph()
    if _store_override:
        return _store_override[tenant][0] if tenant in _store_override else NoGraph()
    from core.graph.store import get_graph_store

    return get_graph_store(tenant=tenant)


def _thread_key(principal: Principal, thread_id: str) -> str:
    from core.agents.runtime import thread_key

    return thread_key("kg", principal, thread_id)


def _pending(graph, config) -> dict | None:
    snap = graph.get_state(config)
    for task in snap.tasks or ():
        for intr in getattr(task, "interrupts", ()) or ():
            return intr.value
    return None


def _auto_reply(pending: dict) -> str:
    return "返回全部" if pending.get("kind") == "scope" else "确认"


def _screen(question: str | None) -> str:
    """The same input screen as policy Q&A (length, PII masked, sensitive words, injection)."""
    from core.security.injection import screen_question

    screened = screen_question(question or "")
    if screened["injection"]:
        raise SecurityViolation(f"问题包含不允许的指令（{'、'.join(screened['injection'])}），图谱问答只能读取数据，已拒绝执行")
    if screened["sensitive"]:
        raise SecurityViolation("问题包含不允许的敏感内容，已拒绝回答")
    return screened["question"]


def _reply(reply: dict) -> dict:
    """A structured reply from the page: an edited plan or a scope choice, nothing else."""
    if isinstance(reply.get("plan"), list):
        return {"plan": reply["plan"]}
    if reply.get("confirm") is True:
        return {"action": "confirm"}
    if isinstance(reply.get("choice"), str):
        return {"choice": _screen(reply["choice"])}
    raise BadInputError("无法识别的回复：只接受修改后的查询计划（plan）或范围选择（choice）")


def ask_kg(question: str | dict | None, *, principal: Principal, thread_id: str | None = None, auto: bool = False,
           today: date | None = None, debug: bool = False, rules_only: bool = False,
           on_node: Callable[[str, dict], None] | None = None) -> dict:
    """Ask (or reply on ``thread_id``). ``question`` may be a dict reply from the page
    (``{"plan": [...]}`` for an edited plan, ``{"choice": "..."}`` for a scope button).
    Threads are private to their user; every plan, however it arrived, is authorised step by
    step when it runs (core.agents.kg.authorization)."""
    from core.agents.kg.state import TURN_RESET
    from core.agents.runtime import RUNTIME_KEY, AgentRuntime
    from core.config import get_settings
    from core.llm.client import current_llm
    from core.llm.usage import metering

    t0 = time.perf_counter()
    reply_obj = _reply(question) if isinstance(question, dict) else None
    q = None if reply_obj is not None else _screen(question)
    tid = (thread_id or "").strip() or uuid.uuid4().hex[:12]
    rt = AgentRuntime(principal=principal, store=kg_store(principal), today=today or get_settings().today_date(),
                      llm=None if rules_only else current_llm(), rules_only=rules_only)
    config = {"configurable": {"thread_id": _thread_key(principal, tid), RUNTIME_KEY: rt}, "recursion_limit": 60}
    graph = _graph()
    pending = _pending(graph, config) if thread_id else None
    if pending is not None:
        payload: Any = Command(resume=reply_obj if reply_obj is not None else q)
    elif reply_obj is not None:
        raise BadInputError("该对话没有等待确认的步骤，请直接提问")
    else:
        payload = {**TURN_RESET, "question": q}
    with metering(rt.usage):
        _run(graph, payload, config, on_node)
        pending = _pending(graph, config)
        rounds = 0
        while pending is not None and auto and rounds < 8:
            _run(graph, Command(resume=_auto_reply(pending)), config, on_node)
            pending = _pending(graph, config)
            rounds += 1
    state = graph.get_state(config).values
    res = {**_result(state, pending, tid, t0, debug, _names_index(rt.store)), "tokens": rt.usage.total}
    asked = (q if reply_obj is None else "（修改后的查询计划）" if "plan" in reply_obj
             else "确认" if reply_obj.get("action") else reply_obj["choice"])
    _audit(principal, asked, state, res, mode="rules" if rt.llm is None else "llm")
    return res


def _run(graph, payload: Any, config: dict, on_node: Callable[[str, dict], None] | None) -> None:
    """``graph.invoke``, or with ``on_node`` a stream of node updates reported as they finish."""
    if on_node is None:
        graph.invoke(payload, config)
        return
    for chunk in graph.stream(payload, config, stream_mode="updates"):
        for node, update in (chunk or {}).items():
            if node.startswith("__") or not isinstance(update, dict):
                continue  # interrupts are reported by the result's need_confirm
            last = (update.get("trace") or [{}])[-1] if isinstance(update.get("trace"), list) else {}
            try:
                on_node(node, {k: v for k, v in (last or {}).items() if k not in ("rows", "steps")})
            except Exception:  # noqa: BLE001 - a progress callback must not break the answer
                pass


def _names_index(store):
    """The entity index of ``store`` for naming projects / people in a plan (None if unavailable)."""
    try:
        from core.agents.kg.entity_index import get_entity_index

        return None if isinstance(store, NoGraph) else get_entity_index(store)
    except Exception:  # noqa: BLE001 - names are a nicety: codes are shown instead
        return None


def edited_plan(plan: list[dict], form: dict) -> dict:
    """The reply for a plan whose plain-language form (projects, months, conditions, grouping)
    was changed on the page: ``{"plan": [...]}``, or "确认" when nothing changed. The plan is
    authorised step by step when it runs, like any other."""
    from core.agents.kg.describe import apply_plan_form, plan_form

    if form == plan_form(plan):
        return {"confirm": True}
    return {"plan": apply_plan_form(plan, form)}


def kg_overview(principal: Principal) -> dict:
    """What the asker's graph holds, for the page's empty state and the plan widgets:
    ``{"tenant", "nodes": {label: n}, "edges": n, "months": [YYYY-MM…], "projects": [{"key",
    "name"}], "examples": [questions that work on it]}``."""
    from core.agents.kg.describe import months_between

    store = kg_store(principal)
    try:
        counts = store.counts()
    except Exception:  # noqa: BLE001 - an unreadable graph reads as empty
        counts = {"nodes": {}, "edges": {}}
    index = _names_index(store)
    months: list[str] = []
    projects: list[dict] = []
    if index is not None:
        if index.coverage:
            months = months_between(str(index.coverage[0])[:7], str(index.coverage[1])[:7])
        projects = [{"key": str(p["项目编号"]), "name": index.display("project", str(p["项目编号"]))}
                    for p in index.projects]
    nodes = {k: int(v) for k, v in (counts.get("nodes") or {}).items() if v}
    edges = counts.get("edges") or {}
    return {"tenant": graph_tenant(principal) or "", "nodes": nodes,
            "edges": int(sum(edges.values())) if isinstance(edges, dict) else int(edges or 0),
            "months": months, "projects": projects, "examples": _examples(store, index, months) if nodes else []}


def _busiest_project(store, query: str, params: dict, index) -> str | None:
    """The name of the project with the most rows of ``query`` (None when there are none)."""
    from collections import Counter

    from core.graph import queries as Q

    try:
        nq = Q.get(query)
        rows = store.run_named(query, {k: v for k, v in params.items() if k in nq.defaults})
    except Exception:  # noqa: BLE001 - no example rather than a failing page
        return None
    counts = Counter(str(r.get("项目编号")) for r in rows if r.get("项目编号"))
    if not counts:
        return None
    code = counts.most_common(1)[0][0]
    row = index.project_by_code.get(code) if index is not None else None
    return str((row or {}).get("项目名称") or code)


def _examples(store, index, months: list[str]) -> list[str]:
    """3–5 questions built from what is really in the graph (the project with the most
    attendance rows in the last data month, the one with the most equipment, …), so each one
    has an answer on this workspace."""
    from core.agents.kg.describe import month_label

    out = []
    last = months[-1] if months else ""
    busy = _busiest_project(store, "kg_attendance", {"months": [last]}, index) if last else None
    if busy:
        out.append(f"{busy}{month_label([last])}有多少人出勤？")
        out.append(f"{month_label([last])}加班最多的人是谁？")
    out.append("哪些服务中的项目没有人员服务记录？")
    out.append("各片区平均每个项目有多少人？")
    equip = _busiest_project(store, "kg_equipment", {}, index)
    if equip:
        out.append(f"{equip}有哪些设备？")
    return out[:5]


def _sensitive_values(steps: list[dict]) -> list:
    """Values in the result rows that came from sensitive fields (for the audit copy)."""
    from core.agents.kg.authorization import fields_read
    from core.security.masking import sensitive_fields

    hidden = sensitive_fields()
    out: list = []
    for step in steps:
        computed = bool(fields_read(step) & hidden)
        for row in step.get("rows") or []:
            out += [v for k, v in row.items() if k in hidden or (computed and isinstance(v, (int, float)))]
    return out


def _audit(principal: Principal, asked: str, state: dict, res: dict, *, mode: str) -> None:
    """The turn into the audit log: slots, plan (and whether the user edited it), queries,
    provenance, checks; sensitive values in the answer replaced."""
    from core.security.audit import mask_values, record_question

    steps = state.get("steps") or []
    trace = {"mode": mode, "slots": res["slots"], "plan": res["plan"], "plan_source": state.get("plan_source") or "",
             "edited": state.get("plan_source") == "user", "waiting": (res["need_confirm"] or {}).get("kind"),
             "queries": [{k: q.get(k) for k in ("step", "tool", "cypher", "executed_params", "rows", "error")}
                         for q in res["queries"]],
             "provenance": res["provenance"][:200], "masked_fields": res["masked_fields"],
             "fallback": state.get("llm_fallback") or "", "trace": state.get("trace") or []}
    record_question(principal, "kg", thread=res["thread"], question=asked or "", tenant=graph_tenant(principal),
                    answer=mask_values(res["answer"] or "", _sensitive_values(steps)), refused=res["refused"],
                    latency_ms=res["latency_ms"], trace=trace,
                    outcome="waiting" if res["need_confirm"] else "answered")


def _describe(plan: list[dict], index=None) -> list[str]:
    from core.agents.kg.describe import describe_plan

    return describe_plan(plan, index)


def _result(state: dict, pending: dict | None, tid: str, t0: float, debug: bool, index=None) -> dict:
    steps = state.get("steps") or []
    need = None
    if pending is not None:
        need = {"kind": pending.get("kind"), "text": pending.get("text"), "options": pending.get("options") or []}
        if pending.get("kind") == "plan":
            from core.agents.kg.describe import plan_form

            need["plan"] = [{"id": s["id"], "tool": s["tool"], "params": s["params"], "depends": s.get("depends", []),
                             "note": s.get("note", "")} for s in pending.get("plan") or []]
            need["steps"] = _describe(need["plan"], index)  # plain Chinese, one line per step
            need["form"] = plan_form(need["plan"])           # the parts the page offers as widgets
    done = pending is None
    out = {
        "answer": state.get("answer") if done else "",
        "need_confirm": need,
        "slots": _public_slots(state.get("slots") or {}, state.get("grounded") or {}),
        "plan": [{"tool": s["tool"], "params": s["params"]} for s in state.get("plan") or []],
        "plan_steps": _describe(state.get("plan") or [], index) if done else [],
        "queries": [{"step": s["id"], "tool": s["tool"], "cypher": s.get("cypher"), "params": s.get("params"),
                     "rows": s.get("row_count", 0), "executed_params": s.get("executed_params"),
                     "dropped_params": s.get("dropped_params"), "error": s.get("error")} for s in steps] if done else [],
        "rows": (state.get("rows") or []) if done else [],
        "provenance": (state.get("provenance") or []) if done else [],
        "latency_ms": round((time.perf_counter() - t0) * 1000, 1),
        "thread": tid,
        "refused": bool(state.get("denied")),
        "masked_fields": state.get("masked_fields") or [],
    }
    if done and steps and steps[-1]["tool"] == "aggregate" and steps[-1]["rows"]:
        out["result"] = steps[-1]["rows"][0]
    if debug:
        out["trace"] = state.get("trace") or []
        out["steps"] = [{k: v for k, v in s.items() if k != "rows"} | {"first_row": (s.get("rows") or [None])[0]}
                        for s in steps]
    return out


def _public_slots(slots: dict, grounded: dict) -> dict:
    if not slots:
        return {}
    return {
        "intent": slots.get("intent"), "granularity": slots.get("granularity"),
        "projects": [{"text": p["text"], "key": p["key"], "name": p["name"], "score": p["score"],
                      "method": p["method"]} for p in grounded.get("projects") or []] or slots.get("projects") or [],
        "people": [{"text": p["text"], "key": p["key"], "name": p["name"]} for p in grounded.get("people") or []]
        or slots.get("people") or [],
        "time": slots.get("time"), "months": grounded.get("months"),
        "filters": grounded.get("filters") or slots.get("filters") or {},
        "conditions": [c["expr"] for c in slots.get("conditions") or []],
        "agg": slots.get("agg"), "coverage": grounded.get("coverage"),
    }


def thread_history(principal: Principal, thread_id: str) -> list[dict]:
    """The finished turns of one of ``principal``'s threads (for the page's chat view)."""
    graph = _graph()
    values = graph.get_state({"configurable": {"thread_id": _thread_key(principal, thread_id)}}).values or {}
    return [{"question": h.get("question"), "answer": h.get("answer")} for h in values.get("history") or []]


def thread_transcript(principal: Principal, thread_id: str, *, debug: bool = False, limit: int = 20) -> list[dict]:
    """The newest ``limit`` turns of one of ``principal``'s threads, oldest first, rebuilt from
    the checkpointer for the page after a reload: ``[{"question", "result"}]`` with each result
    as :func:`ask_kg` returned it — the answer, its provenance and the plan it ran (described in
    plain Chinese); the newest turn may still wait for a confirmation (``need_confirm``).
    Another user's thread id names an empty thread of one's own: ``[]``."""
    from core.services.transcript import checkpoint_turns

    turns = checkpoint_turns(_graph(), _thread_key(principal, thread_id), limit=limit)
    index = _names_index(kg_store(principal)) if turns else None
    now = time.perf_counter()  # a turn's latency is the time it took then: its start, moved to now
    return [{"question": t.question, "result": _result(t.values, t.waiting, thread_id, now - t.seconds, debug, index)}
            for t in turns]


def pending_confirm(principal: Principal, thread_id: str) -> dict | None:
    """What one of ``principal``'s threads waits for (``{"kind", "text", "options", …}``), or
    None when it waits for nothing — including another user's thread id (an empty thread)."""
    graph = _graph()
    pending = _pending(graph, {"configurable": {"thread_id": _thread_key(principal, thread_id)}})
    if pending is None:
        return None
    return {"kind": pending.get("kind"), "text": pending.get("text"), "options": pending.get("options") or []}


# ---- alias table (简称 / 曾用名 / common miswritings → 项目编号 or 工号) ----------------------
def kg_aliases() -> list[dict]:
    from core.agents.kg.aliases import load_aliases

    return [{"别名": k, "目标编号": v} for k, v in sorted(load_aliases().items())]


def save_kg_aliases(principal: Principal, rows: list[dict]) -> int:
    """Replace the alias table (admins only); every target must be a 项目编号 or 工号 in the graph."""
    from core.agents.kg.aliases import save_aliases
    from core.agents.kg.entity_index import get_entity_index, invalidate
    from core.errors import PermissionDenied

    if not principal.is_admin:
        raise PermissionDenied("只有管理员可以修改别名表")
    index = get_entity_index(kg_store(principal))
    table: dict[str, str] = {}
    for i, r in enumerate(rows, 1):
        alias, target = str(r.get("别名") or "").strip(), str(r.get("目标编号") or "").strip()
        if not alias and not target:
            continue
        if not alias or not target:
            raise BadInputError(f"别名表第 {i} 行：别名和目标编号都必须填写")
        if target not in index.project_by_code and target not in index.person_by_id:
            raise BadInputError(f"别名表第 {i} 行：目标编号“{target}”不是图谱中的项目编号或工号")
        table[alias] = target
    save_aliases(table)
    invalidate()
    return len(table)


# ---- provenance: the source spreadsheet row --------------------------------------------
MASKED_VALUE = "（已隐藏）"


def source_row(principal: Principal, template: str, file: str, row: int | str) -> dict:
    """The spreadsheet row behind a provenance entry, as ``principal`` may see it:
    ``{"template", "file", "sheet", "row", "values": {column: value}, "masked_fields"}``.

    Only a row that the asker's own tenant graph was built from is served (exact template,
    file name and row; the file is the copy that build used), and sensitive columns are
    masked for roles without the right, exactly as in answers. Anything else is "not found"."""
    from core.security.masking import hidden_fields

    name = str(file or "")
    if not name or name != Path(name).name or not str(row).isdigit() or int(row) < 2 or not template:
        raise BadInputError("溯源信息不完整（需要模板、准确的文件名和大于 1 的行号）")
    row = int(row)
    missing = NotFoundError(f"未找到该来源记录（{template} · {name} · 第 {row} 行）")
    tenant = graph_tenant(principal)
    store = kg_store(principal)
    key = {"来源模板": str(template), "来源文件": name, "行号": row}
    if tenant is None or not (store.run_named("provenance_by_row", key) or store.run_named("provenance_edge_by_row", key)):
        raise missing
    path = _source_file(tenant, str(template), name)
    if path is None:
        raise missing
    header, values = _read_row(path, row)
    if values is None:
        raise missing
    record = {str(h): v for h, v in zip(header, values) if h is not None}
    hidden = [c for c in hidden_fields(principal) if c in record]
    for c in hidden:
        record[c] = MASKED_VALUE
    return {"template": str(template), "file": name, "sheet": "数据", "row": row, "values": record,
            "masked_fields": hidden}


def _source_file(tenant: str, template: str, name: str) -> Path | None:
    if _store_override:
        folder = _store_override[tenant][1] if tenant in _store_override else None
        return folder / name if folder is not None and (folder / name).is_file() else None
    from core.graph.store import source_file

    return source_file(tenant, template, name)


def _read_row(path: Path, row: int) -> tuple[tuple, tuple | None]:
    from openpyxl import load_workbook

    wb = load_workbook(path, read_only=True, data_only=True)
    try:
        ws = wb["数据"] if "数据" in wb.sheetnames else wb.worksheets[0]
        ws.reset_dimensions()  # a workbook's recorded size may lie: read the real rows
        header = next(ws.iter_rows(min_row=1, max_row=1, values_only=True), ())
        values = next(ws.iter_rows(min_row=row, max_row=row, values_only=True), None)
    finally:
        wb.close()
    return header, values
