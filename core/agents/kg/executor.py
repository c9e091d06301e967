"""Execute a plan: each step's parameters aliased and checked against the tool signature,
named queries run on the read-only path, built-ins computed over earlier steps' rows. Every
step records executed vs dropped parameters, Cypher, bound parameters, row count, rows."""

from __future__ import annotations

import time
from datetime import date

from core.agents.kg import tools as T
from core.errors import AppError

MAX_ROWS_PER_STEP = 5000


def run_plan(plan: list[dict], store, today: date, principal) -> list[dict]:
    """Run ``plan`` as ``principal``: the whole plan is authorised first (PermissionDenied,
    nothing runs), then each step runs in order."""
    from core.agents.kg.authorization import authorize_plan

    authorize_plan(principal, plan)
    results: dict[int, dict] = {}
    records = []
    for step in plan:
        t0 = time.perf_counter()
        rec = {"id": step.get("id"), "tool": step.get("tool"), "note": step.get("note", ""),
               "fields": step.get("fields") or [], "asked": step.get("asked") or [], "executed_params": {},
               "dropped_params": {},
               "cypher": None, "params": {}, "rows": [], "row_count": 0, "error": None, "notes": []}
        tool = T.TOOLS.get(step.get("tool") or "")
        try:
            if tool is None:
                raise AppError(f"未知工具：{step.get('tool')}（可用：{'、'.join(T.TOOLS)}）")
            executed, dropped = T.alias_params(tool, step.get("params") or {})
            rec["executed_params"], rec["dropped_params"] = executed, dropped
            if tool.query:
                out = T.run_query_tool(store, tool, executed, today)
                rec.update(cypher=out["cypher"], params=out["params"], rows=out["rows"], notes=out["notes"],
                           derived=out["derived"], conditions_applied=out["conditions_applied"],
                           conditions_skipped=out["conditions_skipped"], months_applied=out["months_applied"],
                           year_only=out["year_only"])
            else:
                rec["rows"] = _builtin(tool.name, executed, results, store)
                rec["params"] = executed
        except AppError as exc:
            rec["error"] = exc.user_message
        except Exception as exc:  # noqa: BLE001 - a failing step is reported, never raised to the user
            rec["error"] = f"{type(exc).__name__}: {exc}"
        rec["rows"] = rec["rows"][:MAX_ROWS_PER_STEP]
        rec["row_count"] = len(rec["rows"])
        rec["ms"] = round((time.perf_counter() - t0) * 1000, 1)
        results[rec["id"]] = rec
        records.append(rec)
    return records


def _named_projects(results: dict[int, dict], ref) -> list:
    """The projects the step ``ref`` was cut to (none: every project's records)."""
    ref = (ref[0] if ref else None) if isinstance(ref, list) else ref
    return list(((results.get(ref) or {}).get("executed_params") or {}).get("projects") or [])


def _rows_of(results: dict[int, dict], ref) -> list[dict]:
    if isinstance(ref, list):
        ref = ref[0] if ref else None
    if ref not in results:
        raise AppError(f"依赖的第 {ref} 步不存在")
    return results[ref]["rows"]


def _builtin(name: str, p: dict, results: dict[int, dict], store=None) -> list[dict]:
    if name == "aggregate":
        rows = _rows_of(results, p.get("of"))
        if "片区编号" in str(p.get("group_by") or "") + str(p.get("outer") or "") and store is not None:
            rows = T.attach_areas(store, rows)
        out = T.aggregate(rows, str(p.get("op") or "count"), p.get("field"),
                          bool(p.get("distinct")), p.get("group_by"), p.get("top"),
                          str(p.get("order") or "desc"), p.get("then"), p.get("outer"), p.get("having"))
        if p.get("per_all") and p.get("then") == "avg" and out and store is not None:
            from core.agents.kg.population import population, widen_avg

            scope = p["per_all"] if isinstance(p.get("per_all"), dict) else {}
            out = [widen_avg(out[0], population(store, str(p.get("group_by")), scope))]
        if p.get("op") == "count" and p.get("group_by") == "项目编号" and store is not None:
            # projects in service with no rows count 0: "设备少于3台的项目" includes them, and
            # "哪个项目的设备最少" is they (only the named projects, when the question names some)
            named = _named_projects(results, p.get("of"))
            if "<" in str(p.get("having") or ""):
                out += T.zero_groups(store, rows, out, str(p["having"]), p.get("field"), named)
            elif p.get("top") and p.get("order") == "asc" and not p.get("then"):
                out = T.zero_groups(store, rows, [], "值 < 1", p.get("field"), named) or out
        return out
    if name == "change":
        return T.change(_rows_of(results, p.get("of")), str(p.get("key") or "年月"), _period(p.get("base")),
                        _period(p.get("current")), str(p.get("kind") or ""), p.get("outside"), p.get("by"),
                        bool(p.get("base_avg")), p.get("select"))
    if name == "ratio":
        of = p.get("of") if isinstance(p.get("of"), list) else [p.get("of")]
        num_rows = _rows_of(results, of[0])
        den_rows = _rows_of(results, of[1]) if len(of) > 1 else None
        if "片区编号" in str(p.get("group_by") or "") and store is not None:
            num_rows = T.attach_areas(store, num_rows)
            den_rows = T.attach_areas(store, den_rows) if den_rows is not None else None
        return T.ratio(num_rows, den_rows, str(p.get("op") or "count"), p.get("field"), p.get("num"),
                       p.get("den"), str(p.get("name") or "比例"), p.get("group_by"), p.get("top"),
                       str(p.get("order") or "desc"), p.get("having"))
    if name == "pick":
        return T.pick(_rows_of(results, p.get("of")), str(p.get("field") or ""), str(p.get("order") or "asc"),
                      p.get("top"))
    if name == "project_gap":
        of = p.get("of") or []
        return T.project_gap(_rows_of(results, of[0]), _rows_of(results, of[1]), p.get("months") or [])
    if name == "absence":
        of = p.get("of") or []
        return T.absence(_rows_of(results, of[0]), _rows_of(results, of[1]), p.get("months") or [])
    if name == "anti_join":
        of = p.get("of") or []
        return T.anti_join(_rows_of(results, of[0]), _rows_of(results, of[1]), str(p.get("key") or "项目编号"))
    if name == "intersect" and p.get("run"):
        return T.consecutive(_rows_of(results, p.get("of")), str(p.get("key") or "工号"), str(p.get("by") or "年月"),
                             int(p["run"]))
    if name == "intersect":
        return T.intersect([_rows_of(results, i) for i in p.get("of") or []], str(p.get("key") or "工号"))
    raise AppError(f"未知内置计算：{name}")


def _period(v):
    """A month ("2026-04") or the months of a period (["2026-01", …])."""
    return [str(x) for x in v] if isinstance(v, list) else str(v or "")


def final_rows(records: list[dict]) -> list[dict]:
    """The rows the answer is about: the last step's (an aggregate's source is kept too)."""
    return records[-1]["rows"] if records else []
