"""Executor: runs the step at the cursor. ``$k.top`` / ``$k.all`` references are resolved from
step k's documents, the arguments validated, the tool run under its timeout (never past the
task's deadline). Any failure is recorded on the step (ok = false) and the run goes on."""

from __future__ import annotations

import time

from core.agents.task.plan_text import ref_text
from core.agents.task.runtime import add_trace, counters, get_runtime, tool_context
from core.agents.task.tools import REF, pick_docs, run_tool
from core.errors import AppError

OUTPUT_DOCS = ("documents",)


def resolve_refs(args: dict, results: list[dict]) -> tuple[dict, list[str]]:
    """Arguments with references replaced by document ids; the references that found nothing."""
    by_step = {r["step"]: r for r in results}
    out, empty = dict(args), []

    def expand(v):
        m = REF.fullmatch(v) if isinstance(v, str) else None
        if not m:
            return [v]
        r = by_step.get(int(m.group(1)))
        ids = pick_docs(r["output"], m.group(2)) if r and r.get("ok") else []
        if not ids:
            empty.append(v)
        return ids

    if isinstance(args.get("doc_ids"), list):
        out["doc_ids"] = list(dict.fromkeys(x for v in args["doc_ids"] for x in expand(v)))
    if isinstance(args.get("doc_id"), str) and REF.fullmatch(args["doc_id"]):
        ids = expand(args["doc_id"])
        out["doc_id"] = ids[0] if ids else args["doc_id"]
    return out, empty


def execute(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    cursor = int(state.get("cursor") or 0)
    step = (state.get("plan") or [])[cursor]
    results = list(state.get("results") or [])
    documents = dict(state.get("documents") or {})
    if rt.budget is not None:
        rt.budget.steps += 1  # the fuse itself is the Router's: counting here, deciding there
    args, empty = resolve_refs(step.get("args") or {}, results)
    entry = {"step": cursor + 1, "tool": step["tool"], "args": args, "ok": False, "error": "", "output": {}}
    if empty and (not args.get("doc_ids") if "doc_ids" in args else True):
        entry["error"] = "前序步骤未找到相关文件（" + "、".join(ref_text(v) for v in empty) + "），本步无法执行"
    else:
        try:
            remaining = rt.budget.remaining_s if rt.budget is not None else None
            out = run_tool(tool_context(rt), step["tool"], args, timeout_s=remaining)
            entry.update(ok=True, output=out)
            for card in out.get("documents") or out.get("items") or []:
                if card.get("doc_id"):
                    documents.setdefault(card["doc_id"], {k: v for k, v in card.items() if k not in ("chunks", "points")})
            if step["tool"] == "get_document_detail":
                card = out["document"]
                documents.setdefault(card["doc_id"], {k: card.get(k) for k in
                                                      ("doc_id", "title", "file_name", "doc_number", "authority",
                                                       "date", "status", "status_label")})
        except AppError as exc:
            entry["error"] = exc.user_message
        except Exception as exc:  # noqa: BLE001 - a failing tool fails its step, not the run
            entry["error"] = f"工具执行出错（{type(exc).__name__}）"
    entry["ms"] = round((time.perf_counter() - t0) * 1000, 1)
    results.append(entry)
    return {"results": results, "documents": documents, "cursor": cursor + 1, **counters(rt),
            "trace": add_trace(state, "execute", t0, step=cursor + 1, tool=step["tool"], ok=entry["ok"],
                               error=entry["error"] or None)}
