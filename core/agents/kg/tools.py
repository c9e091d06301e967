"""The agent's tools: named Cypher queries (core/graph/queries/kg.py, ``kg_*``) plus built-in
computations done in Python over earlier steps' rows (aggregate — also per 片区 and nested
"平均每个项目…" averages —, ratio, earliest / latest pick, absence analysis, project gap,
intersection). The catalog of tools (queries, parameters, labels, display fields) is generated
from the schema in :mod:`core.agents.kg.catalog`.

:func:`run_step` does parameter aliasing (项目编号 → projects …), checks the tool signature,
records executed vs dropped parameters, runs the query on the read-only path, applies
derived attributes and numeric conditions with the whitelisted evaluator, and returns a
record with Cypher, parameters, row count and rows (provenance columns included).
"""

from __future__ import annotations

import ast
import re
from datetime import date
from typing import Any

from core.agents.kg import expr as X
from core.agents.kg.month_scope import in_asked_months, period_hits
from core.agents.kg.catalog import DAY_COUNT_CODES, DERIVED, TOOLS, Tool, column_params, person_fields  # noqa: F401
from core.errors import BadInputError


_COMMON = ("conditions", "derived", "months", "date_field")

VALUE_FILTER_RE = re.compile(r"^\s*([^\s]+)\s+in\s+(\[.*\])\s*$")  # "字段 in [值, …]"

# other names an edited or LLM-proposed plan may use for a parameter; the template columns that
# a parameter takes (项目编号 → projects, 检查类型 → types …) come from the catalog
PARAM_ALIASES: dict[str, str] = {
    "项目": "projects", "project": "projects", "project_code": "projects", "project_codes": "projects",
    "项目列表": "projects", "month": "months", "ym": "months", "月份": "months",
    "person": "people", "staff_no": "people", "人员": "people",
    "岗位": "positions", "岗位列表": "positions", "position": "positions", "type": "types", "category": "categories",
    "gender": "genders", "status": "statuses", "日期字段": "date_field", "片区": "areas",
    "条件": "conditions", "condition": "conditions", "派生": "derived",
    "字段": "field", "统计": "op", "依赖": "of",
    **column_params(),
}

AGG_OPS = ("count", "sum", "avg", "max", "min")


def alias_params(tool: Tool, params: dict) -> tuple[dict, dict]:
    """(executed, dropped): aliased names that the tool accepts, and everything else."""
    executed, dropped = {}, {}
    allowed = set(tool.params) | set(_COMMON)
    for k, v in (params or {}).items():
        name = PARAM_ALIASES.get(k, k)
        if name in allowed:
            if name in ("projects", "months", "people", "positions", "types", "categories", "genders", "statuses",
                        "results", "kinds", "areas", "day_counts") \
                    and not isinstance(v, list):
                v = [] if v in (None, "") else [v]
            if isinstance(v, list) and any(x in (None, "") for x in v):
                v = [x for x in v if x not in (None, "")]
            executed[name] = v
        else:
            dropped[k] = v
    return executed, dropped


def add_derived(rows: list[dict], names: list[str], today: date, label: str = "") -> list[str]:
    """Add derived attributes (年龄/司龄/剩余服务期) computed from their source fields."""
    added = []
    for name in names:
        rule = DERIVED.get(name)
        if rule is None:
            continue
        if rows and rule.source not in rows[0]:
            continue
        for r in rows:
            r[name] = X.evaluate(rule.expr, {rule.source: r.get(rule.source)}, today)
        added.append(name)
    return added


def apply_conditions(rows: list[dict], conditions: list[str], today: date) -> tuple[list[dict], list[str], list[str]]:
    """Keep rows for which every condition holds; (rows, applied, skipped-because-field-missing)."""
    if not conditions or not rows:
        return rows, list(conditions or []), []
    applied, skipped = [], []
    keys = set(rows[0])
    for c in conditions:
        names = X.referenced_names(c)
        (applied if names <= keys else skipped).append(c)
    # every(分组字段, 条件): one failing row excludes its whole group ("每个月收款都等于开票的项目")
    failing = {c: {r.get(X.every_group(c)) for r in rows if not X.evaluate(c, dict(r), today)}
               for c in applied if X.every_group(c)}
    out = []
    for r in rows:
        env = dict(r)
        ok = True
        for c in applied:
            v = r.get(X.every_group(c)) not in failing[c] if c in failing else X.evaluate(c, env, today)
            if not v:
                ok = False
                break
        if ok:
            out.append(r)
    return out, applied, skipped


def run_query_tool(store, tool: Tool, params: dict, today: date) -> dict:
    from core.graph import queries as Q

    nq = Q.get(tool.query)
    qparams = {k: v for k, v in params.items() if k in nq.defaults}
    bound = nq.bind(qparams)
    rows = [dict(r) for r in store.run_named(tool.query, qparams)]
    notes = []
    rows, months_applied, year_only = in_asked_months(tool, rows, params, "months" in nq.defaults)
    if tool.name == "renewals" and params.get("projects"):
        rows = renewal_chain(rows, params["projects"])
    if tool.name == "attendance" and params.get("day_counts") and rows:
        add_day_counts(store, rows, params, list(params["day_counts"]))
    join_people(store, rows, list(params.get("conditions") or []), list(params.get("derived") or []))
    name_projects(store, rows)
    derived = add_derived(rows, list(params.get("derived") or []), today, tool.label)
    rows, applied_conds, skipped = apply_conditions(rows, list(params.get("conditions") or []), today)
    for c in list(skipped):
        m = VALUE_FILTER_RE.match(c)
        if not m or not rows:
            continue
        try:
            values = [str(v) for v in ast.literal_eval(m.group(2))]
        except (ValueError, SyntaxError):
            continue
        # the grounded value's own column is not in these rows (设备类型 电梯 on 维保合同): match the value
        # in the rows' text columns instead, and say so
        hit = [r for r in rows if any(isinstance(x, str) and any(v in x for v in values)
                                      for k, x in r.items() if k not in ("来源模板", "来源文件"))]
        if not hit:
            continue  # stays "not applied" (noted) rather than emptying the answer
        rows = hit
        skipped.remove(c)
        applied_conds.append(c)
        notes.append(f"结果中没有“{m.group(1)}”字段，已按“{'、'.join(values)}”在记录的文字字段中匹配。")
    if skipped:
        notes.append("以下条件在该步骤结果中没有对应字段，未应用：" + "；".join(skipped))
    return {"cypher": nq.cypher.strip(), "params": bound, "rows": rows, "derived": derived,
            "conditions_applied": applied_conds, "conditions_skipped": skipped, "notes": notes,
            "months_applied": months_applied, "year_only": year_only}


def add_day_counts(store, rows: list[dict], params: dict, names: list[str]) -> None:
    """事假/病假/年假/调休 days per row, counted from the month's day codes."""
    names = [n for n in names if n in DAY_COUNT_CODES]
    if not names:
        return
    qp = {k: list(params.get(k) or []) for k in ("projects", "months", "people")}
    counts = {}
    for d in store.run_named("kg_attendance_days", qp):
        codes = [str(d.get(f"{i}日") or "") for i in range(1, 32)]
        counts[(d.get("工号"), d.get("项目编号"), d.get("年月"))] = {n: codes.count(DAY_COUNT_CODES[n]) for n in names}
    for r in rows:
        got = counts.get((r.get("工号"), r.get("项目编号"), r.get("年月")))
        for n in names:
            r[n] = got.get(n) if got else None


def join_people(store, rows: list[dict], conditions: list[str], derived: list[str]) -> None:
    """Rows keyed by 工号 (考勤, 排班, 证书 …) get the person's own fields a condition or a derived
    attribute needs ("其中女性", "50岁以上的保安3月加班") from the entity index."""
    if not rows or "工号" not in rows[0]:
        return
    need = set()
    for c in conditions:
        try:
            need |= X.referenced_names(c)
        except Exception:  # noqa: BLE001 - a bad condition is reported by apply_conditions
            continue
    for d in derived:
        rule = DERIVED.get(d)
        if rule:
            need.add(rule.source)
    need = {f for f in need if f in person_fields() and f not in rows[0]}
    if not need:
        return
    from core.agents.kg.entity_index import get_entity_index

    people = get_entity_index(store).person_by_id
    for r in rows:
        p = people.get(str(r.get("工号"))) or {}
        for f in need:
            r[f] = p.get(f)


def name_projects(store, rows: list[dict]) -> None:
    """Rows keyed by 项目编号 without a 项目名称 (维保合同, 采购记录) get the project's name, so the
    answer can use the standard "名称（编号）" form."""
    if not rows or "项目编号" not in rows[0] or rows[0].get("项目名称"):
        return
    from core.agents.kg.entity_index import get_entity_index

    by = get_entity_index(store).project_by_code
    for r in rows:
        p = by.get(str(r.get("项目编号"))) or {}
        if p.get("项目名称") and not r.get("项目名称"):
            r["项目名称"] = p.get("项目名称")


def renewal_chain(edges: list[dict], codes: list[str]) -> list[dict]:
    """Edges of the renewal chains that contain any of ``codes`` (both directions)."""
    adj: dict[str, set[str]] = {}
    for e in edges:
        adj.setdefault(e["项目编号"], set()).add(e["续签前项目编号"])
        adj.setdefault(e["续签前项目编号"], set()).add(e["项目编号"])
    seen, todo = set(), list(codes)
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        todo.extend(adj.get(c, ()))
    return [e for e in edges if e["项目编号"] in seen]


# ---- built-ins ----------------------------------------------------------------------------
def _num(v):
    return X.to_number(v)


_ARITH = re.compile(r"[-*/()]|\s\+\s")


def is_expression(field: str | None) -> bool:
    """A figure computed from other fields ("项目编制 - 在岗人数", "开票金额 - 收款金额") rather than a
    field's own name (names may hold "+" only as a grouping key list, never with spaces)."""
    return bool(field) and bool(_ARITH.search(str(field)))


def field_value(row: dict, field: str | None):
    """A row's number for ``field``: the field itself, or the whitelisted arithmetic expression
    over the row's fields (None when a field it needs is missing or empty)."""
    if not is_expression(field):
        return _num(row.get(field))
    env = {k: _num(row.get(k)) for k in X.referenced_names(field)}
    if any(v is None for v in env.values()):
        return None
    val = _num(X.evaluate(field, env))
    return None if val is None else round(val, 2)


def _having(rows: list[dict], having: str | None, key: str, mean: float | None = None) -> list[dict]:
    """Groups whose figure (``值`` / ``比率``) meets ``having`` ("值 > 50"), largest first. ``平均值`` in
    the condition is the mean of the groups' figures ("高于平均"), or ``mean`` when given (the overall
    ratio); each kept group carries it as ``比较基准``."""
    if not having:
        return rows
    env: dict = {}
    if "平均值" in having:
        vals = [float(r[key]) for r in rows if r.get(key) is not None]
        env["平均值"] = mean if mean is not None else (round(sum(vals) / len(vals), 2) if vals else None)
    keep = [r for r in rows if r.get(key) is not None and X.evaluate(having, {key: r.get(key), **env})]
    if "平均值" in env:
        keep = [{**r, "比较基准": env["平均值"]} for r in keep]
    keep.sort(key=lambda r: -(r.get(key) or 0))
    return keep


def aggregate(rows: list[dict], op: str, field: str | None, distinct: bool = False,
              group_by: str | None = None, top: int | None = None, order: str = "desc",
              then: str | None = None, outer: str | None = None, having: str | None = None) -> list[dict]:
    if op not in AGG_OPS:
        raise BadInputError(f"聚合方式“{op}”无效，可选：{'、'.join(AGG_OPS)}")
    if then not in (None, "", "avg", "max", "min"):
        raise BadInputError(f"then“{then}”无效，可选：avg、max、min")
    if having:
        X.check(having, {"值", "平均值"})
    if is_expression(field):
        X.check(str(field))  # only arithmetic over field names and literals
    if outer and group_by:
        # "各片区平均每个项目多少人": per outer group, the nested figure over its inner groups
        by: dict[Any, list[dict]] = {}
        for r in rows:
            g = r.get(outer)
            if g in (None, ""):
                continue
            by.setdefault(g, []).append(r)
        out = []
        for g, rs in by.items():
            res = (_extreme_group(rs, op, field, distinct, group_by, then) if then in ("max", "min")
                   else aggregate(rs, op, field, distinct, group_by, then=then or "avg")[0])
            row = {outer: g, **res, "外层分组": outer}
            if outer == "片区编号":
                row["片区名称"] = next((r.get("片区名称") for r in rs if r.get("片区名称")), None)
            out.append(row)
        if outer == "年月":
            out.sort(key=lambda r: str(r.get(outer)))
        out = _having(out, having, "值")
        if top:
            sign = 1 if order == "asc" else -1
            out.sort(key=lambda r: (r["值"] is None, sign * (r["值"] or 0)))
            out = out[:int(top)]
        return out

    def one(rs: list[dict]):
        if op == "count":
            if field:
                vals = [r.get(field) for r in rs if r.get(field) not in (None, "")]
                return len(set(map(str, vals))) if distinct else len(vals)
            return len(rs)
        nums = [field_value(r, field) for r in rs]
        nums = [n for n in nums if n is not None]
        if not nums:
            return None
        if op == "sum":
            return round(sum(nums), 2)
        if op == "avg":  # a fraction printed as a percentage keeps its one decimal (0.1033 → 10.3%)
            return round(sum(nums) / len(nums), 4 if field in _percent_fields() else 2)
        return max(nums) if op == "max" else min(nums)

    if group_by:
        keys = [k for k in str(group_by).split("+") if k]
        groups: dict[Any, list[dict]] = {}
        for r in rows:
            g = r.get(keys[0]) if len(keys) == 1 else tuple(r.get(k) for k in keys)
            if len(keys) == 1 and g in (None, "") and group_by in ("片区编号", "项目编号"):
                continue  # a person without a current project / a project outside every area: not a group
            groups.setdefault(g, []).append(r)
        out = [{group_by: g, "统计": op, "字段": field, "值": one(rs), "行数": len(rs)} for g, rs in groups.items()]
        if "片区编号" in keys:
            for o in out:
                o["片区名称"] = next((r.get("片区名称") for r in groups[o[group_by]] if r.get("片区名称")), None)
        if having and not then:
            return _having(out, having, "值")
        if then == "avg":
            vals = [o["值"] for o in out if o["值"] is not None]
            total = round(sum(vals), 2) if vals else None
            return [{"统计": "avg", "字段": field, "值": round(total / len(vals), 2) if vals else None,
                     "行数": len(rows), "内层统计": op, "分组": group_by, "组数": len(vals), "合计": total,
                     "各组": out}]
        if top:
            sign = 1 if order == "asc" else -1
            out.sort(key=lambda r: (r["值"] is None, sign * (r["值"] or 0)))
            if len(out) > int(top):  # keep ties with the last place ("前三" with two at 40 → both)
                cut = out[int(top) - 1]["值"]
                out = [r for i, r in enumerate(out) if i < int(top) or r["值"] == cut]
        return out
    return [{"统计": op, "字段": field, "值": one(rows), "行数": len(rows)}]


def _extreme_group(rows: list[dict], op: str, field: str | None, distinct: bool, group_by: str, then: str) -> dict:
    """The inner groups (people, projects) with the highest / lowest figure among ``rows``, ties kept:
    "保洁员和客服3月税后工资最高的分别是谁" per 岗位."""
    inner = [r for r in aggregate(rows, op, field, distinct, group_by) if r["值"] is not None]
    best = (max if then == "max" else min)((r["值"] for r in inner), default=None)
    return {"统计": op, "字段": field, "值": best, "行数": len(rows), "取": then, "分组": group_by,
            group_by: [r[group_by] for r in inner if r["值"] == best]}


def absence(periods: list[dict], attendance: list[dict], months: list[str]) -> list[dict]:
    """People on the roster (service period covers the month) without attendance that month."""
    present = {(r["工号"], r["项目编号"], r["年月"]) for r in attendance
               if (_num(r.get("出勤天数")) or 0) > 0 or (_num(r.get("上班天数")) or 0) > 0}
    out = []
    for p in periods:
        for m in months:
            if period_hits(p, [m]) and (p["工号"], p["项目编号"], m) not in present:
                out.append({**p, "年月": m, "情况": "在册无出勤记录"})
    return out


def project_gap(projects: list[dict], periods: list[dict], months: list[str]) -> list[dict]:
    served = {p["项目编号"] for p in periods if not months or period_hits(p, months)}
    return [{**j, "情况": "无人员服务记录"} for j in projects if j["项目编号"] not in served]


def consecutive(rows: list[dict], key: str, by: str, run: int) -> list[dict]:
    """Rows of the ``key`` values (工号) present in at least ``run`` consecutive months (``by``)."""
    from core.agents.kg.timeparse import add_months

    months: dict[str, set[str]] = {}
    for r in rows:
        if r.get(by):
            months.setdefault(str(r.get(key)), set()).add(str(r[by])[:7])
    ok = set()
    for k, ms in months.items():
        best = 0
        for m in ms:
            if add_months(m, -1) in ms:
                continue
            n, cur = 0, m
            while cur in ms:
                n, cur = n + 1, add_months(cur, 1)
            best = max(best, n)
        if best >= max(1, int(run)):
            ok.add(k)
    return [r for r in rows if str(r.get(key)) in ok]


def anti_join(left: list[dict], right: list[dict], key: str) -> list[dict]:
    have = {str(r.get(key)) for r in right}
    return [r for r in left if str(r.get(key)) not in have]


def intersect(step_rows: list[list[dict]], key: str) -> list[dict]:
    if not step_rows:
        return []
    keys = set(str(r.get(key)) for r in step_rows[0])
    for rs in step_rows[1:]:
        keys &= set(str(r.get(key)) for r in rs)
    out, seen = [], set()
    for rs in step_rows:
        for r in rs:
            k = str(r.get(key))
            if k in keys:
                out.append(r)
                seen.add(k)
    return out


# ---- 片区 grouping, ratios, earliest / latest ---------------------------------------------
def attach_areas(store, rows: list[dict]) -> list[dict]:
    """Rows keyed by 项目编号 get their project's 片区编号 / 片区名称 (the 属于片区 relationship of
    05_项目片区关系). A project in two areas yields one row per area, so it counts in both."""
    if not rows or "片区编号" in rows[0] or "项目编号" not in rows[0]:
        return rows
    codes = sorted({str(r.get("项目编号")) for r in rows if r.get("项目编号")})
    by: dict[str, list[dict]] = {}
    for a in store.run_named("kg_project_areas", {"projects": codes}):
        by.setdefault(str(a.get("项目编号")), []).append(a)
    out = []
    for r in rows:
        areas = by.get(str(r.get("项目编号"))) or [{}]
        for a in areas:
            out.append({**r, "片区编号": a.get("片区编号"), "片区名称": a.get("片区名称")})
    return out


def zero_groups(store, rows: list[dict], out: list[dict], having: str, field: str | None,
                only: list | None = None) -> list[dict]:
    """"设备少于3台的项目": projects in service with no record at all count 0 and meet a "<" condition;
    they are added (``行数`` 0, ``无记录`` True) — of ``only`` when the rows were cut to named projects."""
    from core.agents.kg.entity_index import get_entity_index

    have = {r.get("项目编号") for r in rows} | {o.get("项目编号") for o in out}
    extra = []
    for j in get_entity_index(store).projects:
        code = str(j.get("项目编号"))
        if code in have or j.get("服务状态") != "服务中" or (only and code not in only) \
                or not X.evaluate(having, {"值": 0}):
            continue
        extra.append({"项目编号": code, "项目名称": j.get("项目名称"), "统计": "count", "字段": field, "值": 0,
                      "行数": 0, "无记录": True})
    return extra


def _percent_fields() -> frozenset:
    from core.agents.kg import catalog

    return frozenset(catalog.percent_fields())


def _sum_fields(rows: list[dict], fields: list[str]) -> tuple[float | None, int]:
    total, n = 0.0, 0
    for r in rows:
        vals = [_num(r.get(f)) for f in fields]
        if all(v is None for v in vals):
            continue
        total += sum(v for v in vals if v is not None)
        n += 1
    return (round(total, 2) if n else None), n


def ratio(num_rows: list[dict], den_rows: list[dict] | None, op: str = "count", field: str | None = None,
          num: list[str] | None = None, den: list[str] | None = None, name: str = "比例",
          group_by: str | None = None, top: int | None = None, order: str = "desc",
          having: str | None = None) -> list[dict]:
    """One row ``{比率, 分子, 分母, 公式…}``; per group when ``group_by`` (the ``top`` highest, or
    lowest with ``order="asc"``, ties kept; only the groups whose 比率 meets ``having``, e.g.
    "比率 < 95"). A zero denominator gives ``比率: None`` with ``分母为零: True`` instead of dividing."""
    if having:
        X.check(having, {"比率", "平均值"})
    def one(nr: list[dict], dr: list[dict]) -> dict:
        if num and den:  # 出勤率 = Σ出勤天数 ÷ Σ(出勤天数+请假天数+旷工天数) over the same rows
            n_val, _ = _sum_fields(nr, list(num))
            d_val, _ = _sum_fields(nr, list(den))
            n_lab, d_lab = "+".join(num), "+".join(den)
        elif op == "sum" and field:
            n_val, _ = _sum_fields(nr, [field])
            d_val, _ = _sum_fields(dr, [field])
            n_lab = d_lab = f"{field}合计"
        else:
            key = field
            n_val = len({str(r.get(key)) for r in nr if r.get(key) not in (None, "")}) if key else len(nr)
            d_val = len({str(r.get(key)) for r in dr if r.get(key) not in (None, "")}) if key else len(dr)
            n_lab = d_lab = "数量"
        zero = not d_val
        val = None if zero or n_val is None else round(float(n_val) / float(d_val) * 100, 2)
        return {"统计": "ratio", "名称": name, "比率": val, "分子": n_val, "分母": d_val, "分子口径": n_lab,
                "分母口径": d_lab, "分母为零": zero, "分子行数": len(nr), "分母行数": len(dr)}

    den_rows = num_rows if den_rows is None else den_rows
    if group_by:
        keys = list(dict.fromkeys([r.get(group_by) for r in den_rows] + [r.get(group_by) for r in num_rows]))
        out = [{group_by: k, **one([r for r in num_rows if r.get(group_by) == k],
                                   [r for r in den_rows if r.get(group_by) == k])} for k in keys if k not in (None, "")]
        if group_by == "片区编号":
            names = {r.get("片区编号"): r.get("片区名称") for r in [*den_rows, *num_rows] if r.get("片区名称")}
            for o in out:
                o["片区名称"] = names.get(o.get("片区编号"))
        if having:
            overall = one(num_rows, den_rows)["比率"] if "平均值" in having else None
            out = _having(out, having, "比率", overall)
            if order == "asc":
                out.reverse()
        if top:
            sign = 1 if order == "asc" else -1
            out.sort(key=lambda r: (r["比率"] is None, sign * (r["比率"] or 0)))
            if len(out) > int(top):
                cut = out[int(top) - 1]["比率"]
                out = [r for i, r in enumerate(out) if i < int(top) or r["比率"] == cut]
        return out
    return [one(num_rows, den_rows)]


def pick(rows: list[dict], field: str, order: str = "asc", top: int | None = 1) -> list[dict]:
    """The records with the earliest (``asc``) / latest (``desc``) ``field`` value (ISO dates or
    year-months compare as text); ties with the last place are kept; rows without it are left out."""
    dated = [r for r in rows if r.get(field) not in (None, "")]
    dated.sort(key=lambda r: str(r.get(field)), reverse=(order == "desc"))
    n = max(1, int(top or 1))
    if len(dated) > n:
        cut = str(dated[n - 1].get(field))
        dated = [r for i, r in enumerate(dated) if i < n or str(r.get(field)) == cut]
    return dated


def change(rows: list[dict], key: str, base: str | list[str], current: str | list[str], kind: str = "",
           outside: list[str] | None = None, by: str | None = None, base_avg: bool = False,
           select: str | None = None) -> list[dict]:
    """Two-period comparison over per-period aggregate rows (``{年月: …, 值: …}``): one row with
    基期值, 本期值, 变化量 = 本期 − 基期 and 变化率 = 变化量 ÷ 基期 × 100 (None when the base is 0 or
    missing). A period without rows has no value (``缺失期``) — it is never read as 0.
    ``base_avg``: the base is the monthly average of its months ("4月比1-3月平均高多少"), 基期口径 月均."""
    if by:  # "各片区3月比2月开票增长多少": one comparison per group (rows keyed "片区编号+年月")
        gk = f"{by}+{key}"
        groups: dict = {}
        for r in rows:
            g, m = (r.get(gk) or (None, None))[:2]
            groups.setdefault(g, []).append({**r, key: m})
        out = []
        for g, rs in groups.items():
            res = change(rs, key, base, current, kind, outside)[0]
            out.append({by: g, **({"片区名称": rs[0].get("片区名称")} if rs[0].get("片区名称") else {}), **res})
        out.sort(key=lambda r: (r["变化量"] is None, -(r["变化量"] or 0)))
        if select in (">", "<"):  # "比3月多的项目": only the groups whose change has that sign
            out = [{**r, "筛选": select} for r in out if r["变化量"] is not None
                   and (r["变化量"] > 0 if select == ">" else r["变化量"] < 0)][::1 if select == ">" else -1]
            out = out or [{by: None, "筛选": select, "变化量": None, "无符合": True}]
        return out
    by = {str(r.get(key)): r for r in rows}
    if isinstance(base, list) or isinstance(current, list):  # periods of several months: their totals
        def period(ms):
            got = [by[m] for m in ms if m in by and by[m].get("值") is not None]
            return ({"值": round(sum(float(g["值"]) for g in got), 2), "行数": sum(g.get("行数") or 0 for g in got)}
                    if got else None), [m for m in ms if m not in by or by[m].get("值") is None]
        bl, cl = list(base) if isinstance(base, list) else [base], list(current) if isinstance(current, list) \
            else [current]
        (b, b_miss), (c, c_miss) = period(bl), period(cl)
        if base_avg and b:
            n_have = len([m for m in bl if m not in b_miss])
            b = {**b, "值": round(float(b["值"]) / n_have, 2), "月数": n_have}
        bv, cv = (b or {}).get("值"), (c or {}).get("值")
        diff = round(float(cv) - float(bv), 2) if bv is not None and cv is not None else None
        pct = round(diff / float(bv) * 100, 2) if diff is not None and bv not in (0, None) else None
        first = rows[0] if rows else {}
        return [{"统计": "change", "口径": kind, "内层统计": first.get("统计"), "字段": first.get("字段"),
                 "基期": bl, "本期": cl, "基期值": bv, "本期值": cv, "变化量": diff, "变化率": pct,
                 "基期行数": (b or {}).get("行数", 0), "本期行数": (c or {}).get("行数", 0),
                 "缺失期": b_miss + c_miss, "超出覆盖": [m for m in (outside or []) if m in bl + cl],
                 **({"基期口径": "月均", "基期月数": (b or {}).get("月数", 0)} if base_avg else {})}]
    b, c = by.get(base), by.get(current)
    bv = b.get("值") if b else None
    cv = c.get("值") if c else None
    diff = round(float(cv) - float(bv), 2) if bv is not None and cv is not None else None
    pct = round(diff / float(bv) * 100, 2) if diff is not None and bv not in (0, None) else None
    first = rows[0] if rows else {}
    return [{"统计": "change", "口径": kind, "内层统计": first.get("统计"), "字段": first.get("字段"),
             "基期": base, "本期": current, "基期值": bv, "本期值": cv, "变化量": diff, "变化率": pct,
             "基期行数": b.get("行数") if b else 0, "本期行数": c.get("行数") if c else 0,
             "缺失期": [m for m in (base, current) if by.get(m) is None or by[m].get("值") is None],
             "超出覆盖": [m for m in (outside or []) if m in (base, current)]}]
