"""Business-graph Q&A service: the API the page 图谱问答 and the CLI ``ask-kg`` call.

``ask_kg(question, principal=…, thread_id=…, auto=…)`` runs the LangGraph agent on a thread
(checkpointed, so a later call with a reply — "确认", "修改：…", "改成4月", a scope choice or an
edited plan — resumes it). Without ``auto`` the call stops at the first interrupt and returns
``need_confirm``; with ``auto`` slots and plans are confirmed and scope is "返回全部".
"""

from __future__ import annotations

import threading
import time
import uuid
from datetime import date
from pathlib import Path
from typing import Any

from langgraph.types import Command

from core.errors import BadInputError, NotFoundError, SecurityViolation
from core.security.principals import Principal

MAX_QUESTION_CHARS = 1000
_graphs: dict[int, Any] = {}
_lock = threading.Lock()


def _graph():
    from core.agents.kg.graph import build_graph
    from core.storage.checkpoint import get_checkpointer

    saver = get_checkpointer()
    with _lock:
        g = _graphs.get(id(saver))
        if g is None:
            g = _graphs[id(saver)] = build_graph(saver)
        return g


def _pending(graph, config) -> dict | None:
    snap = graph.get_state(config)
    for task in snap.tasks or ():
        for intr in getattr(task, "interrupts", ()) or ():
            return intr.value
    return None


def _auto_reply(pending: dict) -> str:
    return "返回全部" if pending.get("kind") == "scope" else "确认"


def _validate(question: str | None) -> str:
    q = (question or "").strip()
    if not q:
        raise BadInputError("问题不能为空")
    if len(q) > MAX_QUESTION_CHARS:
        raise BadInputError(f"问题过长（{len(q)} 个字符），请控制在 {MAX_QUESTION_CHARS} 个字符以内")
    from core.security.injection import detect_injection

    hits = detect_injection(q)
    if hits:
        raise SecurityViolation(f"问题包含不允许的指令（{'、'.join(hits)}），图谱问答只能读取数据，已拒绝执行")
    return q


def ask_kg(question: str | dict | None, *, principal: Principal, thread_id: str | None = None, auto: bool = False,
           today: date | None = None, debug: bool = False, rules_only: bool = False) -> dict:
    """Ask (or reply on ``thread_id``). ``question`` may be a dict reply from the page
    (``{"plan": [...]}`` for an edited plan, ``{"choice": "..."}`` for a scope button)."""
    from core.agents.kg.state import TURN_RESET

    t0 = time.perf_counter()
    reply_obj = question if isinstance(question, dict) else None
    q = None if reply_obj is not None else _validate(question)
    tid = thread_id or uuid.uuid4().hex[:12]
    config = {"configurable": {"thread_id": tid, "user": principal.name, "role": principal.role.value,
                               "today": (today or date.today()).isoformat(), "rules_only": rules_only},
              "recursion_limit": 60}
    graph = _graph()
    pending = _pending(graph, config) if thread_id else None
    if pending is not None:
        payload: Any = Command(resume=reply_obj if reply_obj is not None else q)
    elif reply_obj is not None:
        raise BadInputError("该对话没有等待确认的步骤，请直接提问")
    else:
        payload = {**TURN_RESET, "question": q}
    graph.invoke(payload, config)
    pending = _pending(graph, config)
    rounds = 0
    while pending is not None and auto and rounds < 8:
        graph.invoke(Command(resume=_auto_reply(pending)), config)
        pending = _pending(graph, config)
        rounds += 1
    state = graph.get_state(config).values
    return _result(state, pending, tid, t0, debug)


def _result(state: dict, pending: dict | None, tid: str, t0: float, debug: bool) -> dict:
    steps = state.get("steps") or []
    need = None
    if pending is not None:
        need = {"kind": pending.get("kind"), "text": pending.get("text"), "options": pending.get("options") or []}
        if pending.get("kind") == "plan":
            need["plan"] = [{"id": s["id"], "tool": s["tool"], "params": s["params"], "depends": s.get("depends", []),
                             "note": s.get("note", "")} for s in pending.get("plan") or []]
    done = pending is None
    out = {
        "answer": state.get("answer") if done else "",
        "need_confirm": need,
        "slots": _public_slots(state.get("slots") or {}, state.get("grounded") or {}),
        "plan": [{"tool": s["tool"], "params": s["params"]} for s in state.get("plan") or []],
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


def thread_history(thread_id: str) -> list[dict]:
    """The finished turns of a thread (for the page's chat view)."""
    graph = _graph()
    values = graph.get_state({"configurable": {"thread_id": thread_id}}).values or {}
    return [{"question": h.get("question"), "answer": h.get("answer")} for h in values.get("history") or []]


# ---- alias table (简称 / 曾用名 / common miswritings → 项目编号 or 工号) ----------------------
def kg_aliases() -> list[dict]:
    from core.agents.kg.entity_index import load_aliases

    return [{"别名": k, "目标编号": v} for k, v in sorted(load_aliases().items())]


def save_kg_aliases(principal: Principal, rows: list[dict]) -> int:
    """Replace the alias table (admins only); every target must be a 项目编号 or 工号 in the graph."""
    from core.agents.kg import context as ctx
    from core.agents.kg.entity_index import save_aliases
    from core.errors import PermissionDenied

    if not principal.is_admin:
        raise PermissionDenied("只有管理员可以修改别名表")
    index = ctx.get_index()
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
    return len(table)


# ---- provenance: the source spreadsheet row --------------------------------------------
def _search_dirs() -> list[Path]:
    from core.config import get_settings

    repo = Path(__file__).resolve().parents[2]
    return [get_settings().home, repo / "data" / "samples"]


def source_row(template: str, file: str, row: int) -> dict:
    """The spreadsheet row a fact came from: ``{"file", "sheet", "row", "values": {col: value}}``.
    Looks in the workspace (uploaded files) and the bundled samples."""
    name = Path(str(file or "")).name
    if not name or not str(row).isdigit() or int(row) < 2:
        raise BadInputError("溯源信息不完整（需要文件名和大于 1 的行号）")
    path = None
    for d in _search_dirs():
        if d.is_dir():
            hit = next((p for p in d.rglob(name) if p.is_file()), None)
            if hit:
                path = hit
                break
    if path is None:
        raise NotFoundError(f"找不到来源文件 {name}（模板：{template}）")
    from openpyxl import load_workbook

    wb = load_workbook(path, read_only=True, data_only=True)
    try:
        ws = wb["数据"] if "数据" in wb.sheetnames else wb.worksheets[0]
        header = next(ws.iter_rows(min_row=1, max_row=1, values_only=True), ())
        values = next(ws.iter_rows(min_row=int(row), max_row=int(row), values_only=True), None)
    finally:
        wb.close()
    if values is None:
        raise NotFoundError(f"{name} 没有第 {row} 行")
    return {"template": template, "file": name, "sheet": "数据", "row": int(row),
            "values": {str(h): v for h, v in zip(header, values) if h is not None}}


# ---- CLI -------------------------------------------------------------------------------------
def _human(res: dict) -> str:
    if res.get("need_confirm"):
        nc = res["need_confirm"]
        return (f"{nc['text']}\n选项：{' / '.join(nc.get('options') or [])}\n"
                f"（继续：ask-kg \"确认\" --thread {res['thread']}）")
    lines = [res.get("answer") or ""]
    lines.append(f"（{res['latency_ms']} ms，thread {res['thread']}）")
    return "\n".join(lines)


def cli_ask_kg(args) -> int:
    from core.cli import emit, run_batch
    from core.security.principals import resolve_user

    auto = bool(getattr(args, "auto", False))
    debug = bool(getattr(args, "debug", False))
    if getattr(args, "batch", None):
        users: dict[str, Principal] = {}

        def one(rec: dict) -> dict:
            name = rec.get("user") or args.user
            if name not in users:
                users[name] = resolve_user(name)
            return ask_kg(rec["question"], principal=users[name], thread_id=rec.get("thread"), auto=auto,
                          debug=debug)

        return run_batch(args, one)
    if not args.question:
        raise BadInputError("请提供问题，或使用 --batch 文件")
    res = ask_kg(args.question, principal=resolve_user(args.user), thread_id=args.thread, auto=auto, debug=debug)
    emit(res, args.json, _human)
    return 0
