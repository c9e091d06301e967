"""A query plan in plain Chinese, and the few parts of it a manager may change.

:func:`describe_plan` turns the agent's plan (tool + parameters per step, as in
core/agents/kg/tools.py) into numbered sentences such as "① 取青浦-区图书馆（XMSQ0102）2026年3月的
考勤记录，只保留出勤天数超过 0 或上班天数超过 0 的" / "② 统计人数". The wording is data:
``data/rules/kg_plan_text.json`` has one entry per tool of the catalog.

:func:`plan_form` lists the editable parts (projects, month range, simple numeric conditions,
grouping) and :func:`apply_plan_form` writes a changed form back into the plan, giving the
``{"plan": [...]}`` reply the service already accepts (every step is still authorised when it
runs, so a form is no way around the checks)."""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from pathlib import Path

RULES = Path(__file__).resolve().parents[3] / "data" / "rules" / "kg_plan_text.json"
CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"
SIMPLE_COND = re.compile(r"^\s*([^\s<>=!()]+)\s*(>=|<=|==|!=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$")
IN_COND = re.compile(r"^\s*([^\s]+)\s+in\s+\[(.*)\]\s*$")
GROUPINGS = ("", "项目编号", "片区编号", "年月", "工号", "岗位名称")


@lru_cache(maxsize=1)
def rules() -> dict:
    return json.loads(RULES.read_text(encoding="utf-8"))


# ---- wording of the parts ------------------------------------------------------------
def month_label(months: list[str]) -> str:
    """["2026-01", "2026-02", "2026-03"] → "2026年1月至3月"; one month → "2026年3月"."""
    ms = sorted({str(m)[:7] for m in months or [] if m})
    if not ms:
        return ""

    def one(m: str, with_year: bool = True) -> str:
        y, mo = m.split("-")
        return f"{y}年{int(mo)}月" if with_year else f"{int(mo)}月"

    if len(ms) == 1:
        return one(ms[0])
    contiguous = all(_next_month(a) == b for a, b in zip(ms, ms[1:]))
    if contiguous:
        same_year = ms[0][:4] == ms[-1][:4]
        return f"{one(ms[0])}至{one(ms[-1], not same_year)}"
    return "、".join(one(m) for m in ms)


def _next_month(m: str) -> str:
    y, mo = int(m[:4]), int(m[5:7])
    return f"{y + (mo == 12)}-{mo % 12 + 1:02d}"


def condition_text(expr: str) -> str:
    """"加班小时 > 20" → "加班小时超过 20"; "a > 0 or b > 0" → "a超过 0 或 b超过 0"."""
    r = rules()
    parts = re.split(r"\s+(and|or)\s+", str(expr or "").strip())
    out = []
    for p in parts:
        if p in ("and", "or"):
            out.append(r["connectives"][p])
            continue
        m = SIMPLE_COND.match(p)
        if m:
            out.append(f"{m.group(1)}{r['comparators'][m.group(2)]}{_num(m.group(3))}")
            continue
        m = IN_COND.match(p)
        if m:
            values = [v.strip().strip("'\"") for v in m.group(2).split(",") if v.strip()]
            out.append(f"{m.group(1)}为{'、'.join(values)}")
            continue
        t = p
        for op in (">=", "<=", "==", "!=", ">", "<"):
            t = t.replace(op, r["comparators"][op])
        out.append(t)
    return " ".join(out)


def _num(s: str) -> str:
    return s[:-2] if s.endswith(".0") else s


def _names(values, kind: str, index) -> str:
    shown = []
    for v in values or []:
        shown.append(index.display(kind, str(v)) if index is not None else str(v))
    return "、".join(shown)


def _step_refs(of) -> str:
    ids = of if isinstance(of, list) else [of]
    return "、".join(f"第 {i} 步" for i in ids if i not in (None, ""))


def describe_step(step: dict, index=None) -> str:
    """One step in plain Chinese (without its number)."""
    r = rules()
    tool = step.get("tool") or ""
    p = {k: v for k, v in (step.get("params") or {}).items() if v not in ([], "", None, {})}
    if tool in r["query_tools"]:
        scope = "、".join(x for x in (_names(p.get("projects"), "project", index),
                                       _names(p.get("people"), "person", index)) if x)
        when = month_label(p.get("months") or [])
        if when and p.get("date_field"):
            when = f"{p['date_field']}在{when}"
        gap = " " if scope and when and scope[-1].isascii() else ""
        head = f"取{scope}{gap}{when}的{r['query_tools'][tool]['noun']}" if (scope or when) \
            else f"取全部{r['query_tools'][tool]['noun']}"
        extras = [r["params"][k].format(values="、".join(map(str, v if isinstance(v, list) else [v])))
                  for k, v in p.items() if k in r["params"]]
        if p.get("derived"):
            extras.append("推算" + "、".join(map(str, p["derived"])))
        conds = [condition_text(c) for c in p.get("conditions") or []]
        text = head + ("（" + "；".join(extras) + "）" if extras else "")
        if conds:
            text += "，只保留" + "，且".join(conds) + "的"
        return text
    if tool == "aggregate":
        return _aggregate_text(p)
    b = r["builtins"].get(tool)
    if b is None:
        return tool
    fill = {
        "name": p.get("name") or "比率",
        "group": f"，按{r['group_by'].get(p['group_by'], p['group_by'])}分别计算" if p.get("group_by") else "",
        "having": (f"，只保留{condition_text(p['having'])}{'%' if tool == 'ratio' else ''}的"
                   if p.get("having") else ""),
        "current": month_label(p.get("current") if isinstance(p.get("current"), list) else [p.get("current")]) or "本期",
        "base": month_label(p.get("base") if isinstance(p.get("base"), list) else [p.get("base")]) or "基期",
        "field": p.get("field") or "日期",
        "order": "最早" if str(p.get("order") or "asc") == "asc" else "最晚",
        "top": p.get("top") or 1,
        "of": _step_refs(p.get("of")) or "各步",
        "key": r["group_by"].get(p.get("key") or "工号", p.get("key") or "工号"),
        "by": r["group_by"].get(p.get("by") or "年月", p.get("by") or "年月"),
        "first": _step_refs((p.get("of") or [1])[0:1] if isinstance(p.get("of"), list) else p.get("of")) or "第 1 步",
        "second": _step_refs((p.get("of") or [1, 2])[1:2] if isinstance(p.get("of"), list) else 2) or "第 2 步",
    }
    return b["template"].format(**fill)


def _aggregate_text(p: dict) -> str:
    r = rules()
    op = str(p.get("op") or "count")
    field = p.get("field") or ""
    by = r["group_by"]
    count_of = r["count_of"].get(field, f"{field}数" if field else r["count_of"][""])
    what = r["ops"].get(op, op).format(field=field or "数值", count_of=count_of)
    group = ""
    then = ""
    if p.get("group_by") and p.get("then") == "avg":
        inner = "、".join(by.get(k, k) for k in str(p["group_by"]).split("+"))
        group = f"先按{inner}分组"
        then = "，再求各组的平均值"
        if p.get("outer"):
            then += f"，各{by.get(p['outer'], p['outer'])}分别计算"
        what = "，" + what
    elif p.get("group_by"):
        group = f"按{'、'.join(by.get(k, k) for k in str(p['group_by']).split('+'))}分组"
        what = "，" + what
    having = f"，只保留{condition_text(str(p['having'])).replace('值', '结果', 1)}的组" if p.get("having") else ""
    top = f"，取前 {p['top']} 名" if p.get("top") else ""
    per_all = "（以全部在职人员 / 服务中项目为分母）" if p.get("per_all") else ""
    return r["builtins"]["aggregate"]["template"].format(group=group, op=what, then=then, having=having, top=top,
                                                         per_all=per_all)


def describe_plan(plan: list[dict], index=None) -> list[str]:
    """The plan as numbered plain sentences: ["① 取…的考勤记录", "② 统计人数"]."""
    out = []
    for i, step in enumerate(plan or []):
        mark = CIRCLED[i] if i < len(CIRCLED) else f"({i + 1})"
        out.append(f"{mark} {describe_step(step, index)}")
    return out


# ---- the editable parts ------------------------------------------------------------
def plan_form(plan: list[dict]) -> dict:
    """What a manager may change, read from the plan: ``{"projects": [codes] | None,
    "months": [YYYY-MM] | None, "conditions": [{"step", "index", "field", "op", "value"}],
    "group_by": str | None}`` (None = the plan has no such part)."""
    projects = months = group_by = None
    conditions = []
    for s in plan or []:
        p = s.get("params") or {}
        if "projects" in p and s.get("tool") not in ("absence", "project_gap"):
            projects = sorted(set(projects or []) | set(map(str, p.get("projects") or [])))
        if "months" in p and s.get("tool") not in ("absence", "project_gap"):
            months = sorted(set(months or []) | set(map(str, p.get("months") or [])))
        for j, c in enumerate(p.get("conditions") or []):
            m = SIMPLE_COND.match(str(c))
            if m:
                conditions.append({"step": s.get("id"), "index": j, "field": m.group(1), "op": m.group(2),
                                   "value": float(m.group(3))})
        if s.get("tool") == "aggregate" and not p.get("then") and "+" not in str(p.get("group_by") or ""):
            group_by = str(p.get("group_by") or "")
    return {"projects": projects, "months": months, "conditions": conditions, "group_by": group_by}


def apply_plan_form(plan: list[dict], form: dict) -> list[dict]:
    """The plan with the form's values written back (steps, tools and dependencies unchanged)."""
    new = copy.deepcopy(plan or [])
    for s in new:
        p = s.setdefault("params", {})
        tool = s.get("tool")
        if form.get("projects") is not None and "projects" in p and tool not in ("absence", "project_gap"):
            p["projects"] = list(form["projects"])
        if form.get("months") is not None and "months" in p and tool not in ("absence", "project_gap"):
            p["months"] = list(form["months"])
        if tool == "aggregate" and form.get("group_by") is not None and not p.get("then") \
                and "+" not in str(p.get("group_by") or ""):
            if form["group_by"]:
                p["group_by"] = form["group_by"]
            else:
                p.pop("group_by", None)
    for c in form.get("conditions") or []:
        step = next((s for s in new if s.get("id") == c.get("step")), None)
        if step is None:
            continue
        conds = (step.get("params") or {}).get("conditions") or []
        if 0 <= int(c.get("index", -1)) < len(conds) and c.get("op") in rules()["comparators"]:
            conds[int(c["index"])] = f"{c['field']} {c['op']} {_num(str(float(c['value'])))}"
    return [{"id": s.get("id"), "tool": s.get("tool"), "params": s.get("params") or {},
             "depends": list(s.get("depends") or [])} for s in new]


def months_between(start: str, end: str) -> list[str]:
    """Inclusive list of months from ``start`` to ``end`` (YYYY-MM)."""
    if not start or not end:
        return []
    if start > end:
        start, end = end, start
    out, m = [], start
    while m <= end and len(out) < 240:
        out.append(m)
        m = _next_month(m)
    return out
