"""Rules path of ``plan``: intent → query-template steps with parameters, return fields and
dependencies; plus the edits a user can make at plan confirmation ("去掉第2步")."""

from __future__ import annotations

import json
import re
from pathlib import Path

from core.agents.kg import expr as X
from core.agents.kg.catalog import SALARY_FIELDS, consumed_filters, intent_tool, percent_fields, tool_fields
from core.agents.kg.grounding import person_ids, project_codes
from core.agents.kg.timeparse import month_span
from core.agents.kg.tools import TOOLS, is_expression
from core.text.numerals import cn_to_int

_RULES = Path(__file__).resolve().parents[3] / "data" / "rules"
# words in a question that ask for one more column of the rows (甲方 → 甲方名称 …)
COLUMN_WORDS: dict[str, str] = json.loads((_RULES / "kg_column_words.json").read_text(encoding="utf-8"))["words"]
INTENT_TOOL = intent_tool()


def _stored_scale(cond: dict) -> str:
    """A condition as the graph stores its field: a threshold on a percentage field kept as a
    fraction ("实际毛利率低于10%" → ``实际毛利率 < 0.1``); a value already at most 1 is a fraction."""
    field, value = cond.get("field"), cond.get("value")
    if field not in percent_fields() or not isinstance(value, (int, float)) or abs(value) <= 1:
        return cond["expr"]
    v = round(float(value) / 100, 6)
    return f"{field} {cond['op']} {int(v) if v.is_integer() else v}"


def _step(i: int, tool: str, params: dict, *, depends=(), fields=None, note: str = "") -> dict:
    return {"id": i, "tool": tool, "params": params, "depends": list(depends),
            "fields": list(fields if fields is not None else tool_fields(tool)), "note": note}


def build_plan(slots: dict, grounded: dict, derived: list[dict], scope: dict | None = None) -> list[dict]:
    intent = slots.get("intent") or ""
    projects = project_codes(grounded)
    people = person_ids(grounded)
    months = list(grounded.get("months") or [])
    filters = grounded.get("filters") or {}
    positions = list(filters.get("岗位名称") or [])
    conditions = [_stored_scale(c) for c in slots.get("conditions") or []]
    derived_names = [d["name"] for d in derived or []]
    agg = slots.get("agg")
    growth = slots.get("growth")
    if growth and months:  # only the compared months, not the span between them (同比)
        wanted = set(growth.get("base_months") or [growth["base"]]) | set(growth.get("current_months")
                                                                          or [growth["current"]])
        months = [m for m in months if m in wanted]
    scope = scope or {}
    if scope.get("projects"):
        projects = scope["projects"]
    if scope.get("positions"):
        positions = scope["positions"]
    if scope.get("summary") and not agg:
        agg = {"op": "count", "field": _count_key(intent), "distinct": True}

    def common(extra: dict) -> dict:
        p = dict(extra)
        if conditions:
            p["conditions"] = conditions
        if derived_names:
            p["derived"] = derived_names
        return p

    steps: list[dict] = []
    if grounded.get("time_outside"):
        return steps  # the asked time is outside the data: never run an unfiltered query instead
    if any(u["kind"] in ("project", "area") for u in grounded.get("ungrounded") or []) and not projects:
        return steps  # a named project that is not in the graph: say so instead of querying everything
    if any(u["kind"] == "person" for u in grounded.get("ungrounded") or []) and not people:
        return steps  # likewise a named person
    if intent == "项目缺口":
        statuses = filters.get("服务状态") or ["服务中"]
        steps.append(_step(1, "projects", {"projects": projects, "statuses": statuses}, note="服务中的项目"))
        steps.append(_step(2, "service_periods", {"projects": projects, "months": months}, note="人员服务记录"))
        steps.append(_step(3, "project_gap", {"of": [1, 2], "months": months}, depends=[1, 2],
                           note="服务中但没有人员服务记录的项目"))
    elif intent == "项目无":
        other = slots.get("without") or ""
        sub = INTENT_TOOL.get(other, "projects")
        if sub == "procurement" and "维保" in slots.get("question", ""):
            sub = "maintenance"
        sub_params = {"projects": projects, "months": months}
        if sub in ("attendance", "schedule", "service_periods"):
            sub_params.update({"people": [], "positions": []})
        steps.append(_step(1, "projects", {"projects": projects, "statuses": filters.get("服务状态") or []},
                           note="项目"))
        steps.append(_step(2, sub, sub_params, note=f"有{other}记录的项目"))
        steps.append(_step(3, "anti_join", {"of": [1, 2], "key": "项目编号"}, depends=[1, 2],
                           fields=tool_fields("projects"), note=f"没有{other}记录的项目"))
    elif intent == "缺勤":
        steps.append(_step(1, "service_periods", {"projects": projects, "positions": positions, "months": months},
                           note="在册人员（服务期覆盖该月）"))
        steps.append(_step(2, "attendance", {"projects": projects, "months": months, "positions": positions},
                           note="考勤记录"))
        steps.append(_step(3, "absence", {"of": [1, 2], "months": months}, depends=[1, 2], note="在册但无出勤"))
    elif slots.get("consecutive") and intent in ("考勤", "工资", "排班"):
        tool = "schedule" if intent == "排班" else "attendance"
        run = int(slots["consecutive"])
        if run <= 0:
            cov = grounded.get("coverage")
            run = len(months) if months else (len(month_span(cov[0], cov[1])) if cov else 1)
        steps.append(_step(1, tool, common({"projects": projects, "months": months, "people": people,
                                            "positions": positions}), note="逐月记录"))
        steps.append(_step(2, "intersect", {"of": [1], "key": "工号", "by": "年月", "run": run}, depends=[1],
                           fields=tool_fields(tool), note=f"连续 {run} 个月都满足条件的人员"))
    else:
        tool = INTENT_TOOL.get(intent, "staff" if positions or people else "projects")
        params: dict = {}
        if tool in ("attendance", "schedule"):
            params = {"projects": projects, "months": months, "people": people, "positions": positions}
            q_text0 = slots.get("question", "")
            day_counts = [f for w, f in (("病假", "病假天数"), ("事假", "事假天数"), ("年假", "年假天数"),
                                         ("年休", "年假天数"), ("调休", "调休天数"), ("休息日加班", "休息日加班天数"))
                          if w in q_text0 or any(f in c for c in conditions)]
            if tool == "attendance" and day_counts:
                params["day_counts"] = sorted(set(day_counts))
        elif tool == "finance":
            params = {"projects": projects, "months": months}
        elif tool == "equipment":
            params = {"projects": projects, "types": filters.get("设备类型") or []}
        elif tool == "service_periods":
            params = {"projects": projects, "people": people, "positions": positions, "months": months}
        elif tool in ("project_children", "renewals", "project_parent"):
            params = {"projects": projects}
        elif tool == "bids":
            params = {"projects": projects, "results": filters.get("中标结果") or [],
                      "kinds": filters.get("投标类型") or [], "months": months}
        elif tool == "areas":
            params = {"areas": [a["key"] for a in grounded.get("areas") or []]}
        elif tool == "certificates":
            params = {"people": people, "projects": projects, "positions": positions,
                      "categories": (filters.get("证书名称") or []) + (filters.get("专业类别") or [])}
        elif tool == "staff":
            if months and projects:
                tool = "service_periods"
                params = {"projects": projects, "people": people, "positions": positions, "months": months}
            else:
                params = {"people": people, "projects": projects, "positions": positions,
                          "genders": filters.get("性别") or []}
                if months and re.search(r"入职|离职", slots.get("question", "")):  # "今年入职的员工"
                    params["date_field"] = "离职日期" if "离职" in slots.get("question", "") else "入职日期"
                    params["months"] = months
        elif tool == "staffing":
            params = {"projects": projects, "positions": positions}
        elif tool == "inspections":
            params = {"projects": projects, "types": filters.get("检查类型") or [], "months": months}
        elif tool == "procurement" and re.search(r"供应商|供货商|合作单位", slots.get("question", "")) and not projects \
                and not re.search(r"维保|采购|耗材|固定资产", slots.get("question", "")):
            tool = "suppliers"
            params = {}
        elif tool == "procurement" and "维保" in slots.get("question", "") and "采购" not in slots.get("question", ""):
            tool = "maintenance"
            params = {"projects": projects, "months": months}
        elif tool == "procurement":
            params = {"projects": projects, "types": filters.get("记录类型") or [], "months": months}
        elif tool == "projects":
            params = {"projects": projects, "statuses": filters.get("服务状态") or []}
            if months and re.search(r"结束|到期|届满|截止", slots.get("question", "")):
                params["date_field"], params["months"] = "结束日期", months
            elif months and re.search(r"开始|启动|进场|新签|新接|签约|开工", slots.get("question", "")):
                params["date_field"], params["months"] = "开始日期", months
        consumed = consumed_filters(tool)
        leftover = [f"{k} in {sorted(v)!r}" for k, v in filters.items() if v and k not in consumed]
        if leftover:
            params = common(params)
            params["conditions"] = list(params.get("conditions") or []) + leftover
        fields = tool_fields(tool)
        for k, v in filters.items():
            if v and k not in consumed and k not in fields:
                fields.append(k)
        if intent == "工资":
            fields += list(SALARY_FIELDS)
        for c in slots.get("concepts") or []:
            prop = c.get("property")
            if prop and c.get("label") == "人员" and tool in ("staff", "service_periods", "certificates") \
                    and not c.get("derived") and prop not in fields:
                fields.append(prop)
        q_text = slots.get("question", "")
        asked = []
        for word, col in COLUMN_WORDS.items():
            rest = q_text
            for f in fields:  # "证书类别" is the rows' own column, not the column word 类别
                if f != col and f != word and word in f:
                    rest = rest.replace(f, "□")
            if word in rest and col not in asked:
                asked.append(col)
        for c in slots.get("concepts") or []:
            if c.get("property") and not c.get("derived") and c.get("label") == "人员" and c["property"] not in asked:
                asked.append(c["property"])
        for col in asked:
            if col not in fields:
                fields.append(col)
        for d in derived or []:
            for f in (d["name"], d["source"]):
                if f not in fields:
                    fields.append(f)
        for f in params.get("day_counts") or []:
            if f not in fields:
                fields.append(f)
        for c in slots.get("conditions") or []:
            if c["field"] not in fields and not c.get("derived"):
                fields.append(c["field"])
        steps.append(_step(1, tool, params if leftover else common(params), fields=fields))
        steps[-1]["asked"] = asked
        if tool == "procurement" and re.search(r"维保", slots.get("question", "")):  # 采购和维保 both asked
            steps.append(_step(2, "maintenance", common({"projects": projects, "months": months})))
    if growth and steps and steps[-1]["tool"] in ("attendance", "schedule", "finance") and len(steps) == 1:
        return _growth_steps(steps, growth, agg, intent, grounded)
    ratio = slots.get("ratio")
    if ratio and steps and steps[-1]["tool"] not in ("project_gap", "absence", "intersect", "anti_join"):
        return _ratio_steps(steps, ratio, slots, grounded, derived, scope, intent)
    if agg and agg.get("op") in ("earliest", "latest") and steps:
        last = steps[-1]["id"]
        if agg["field"] not in steps[-1]["fields"]:
            steps[-1]["fields"].append(agg["field"])
        steps.append(_step(last + 1, "pick", {"of": last, "field": agg["field"],
                                               "order": "asc" if agg["op"] == "earliest" else "desc",
                                               "top": int(agg.get("top") or 1)},
                           depends=[last], fields=list(steps[-1]["fields"]),
                           note=f"按{agg['field']}取{'最早' if agg['op'] == 'earliest' else '最晚'}的记录"))
        return steps
    if agg and steps[-1]["tool"] not in ("project_gap", "absence", "intersect", "anti_join") or \
            (agg and steps[-1]["tool"] in ("project_gap", "absence", "intersect", "anti_join")
             and agg.get("op") == "count"):
        last = steps[-1]["id"]
        field = agg.get("field")
        if agg.get("op") == "count" and field is None and not agg.get("records"):
            field = _count_key(intent)
            agg = {**agg, "distinct": bool(field)}
        for f in _expression_fields(field):  # "项目编制 - 在岗人数": the rows show both operands
            if f not in steps[-1]["fields"]:
                steps[-1]["fields"].append(f)
        ap = {"of": last, "op": agg["op"], "field": field, "distinct": bool(agg.get("distinct"))}
        if agg.get("group_by"):
            ap["group_by"] = agg["group_by"]
        if agg.get("then"):
            ap["then"] = agg["then"]
        if agg.get("per_all"):  # "平均每个员工…": every in-service person / project (of the asked scope) is a group
            ap["per_all"] = {k: v for k, v in (("positions", positions), ("projects", projects)) if v} or True
        for k in ("outer", "having"):
            if agg.get(k):
                ap[k] = agg[k]
        if ap.get("group_by") == "年月" and not ap.get("top") and re.search(r"环比|变化|增长|增减|涨跌|趋势",
                                                                            slots.get("question", "")):
            ap["delta"] = True  # "各月开票金额环比变化": each month against the one before
        if agg.get("top"):
            ap["top"] = int(agg["top"])
            if agg.get("order"):
                ap["order"] = agg["order"]
        steps.append(_step(last + 1, "aggregate", ap,
                           depends=[last], fields=[], note=_agg_note(agg["op"], field)))
    return steps


def _ratio_steps(steps: list[dict], ratio: dict, slots: dict, grounded: dict, derived: list[dict],
                 scope: dict, intent: str) -> list[dict]:
    """出勤率-style ratios: one step, two sums over its rows. 占比-style ratios: the filtered step
    (numerator) plus the same query without the subset's filters and conditions (denominator)."""
    first = steps[0]
    if ratio.get("kind") == "fields":
        for f in [*ratio["num"], *ratio["den"]]:
            if f not in first["fields"]:
                first["fields"].append(f)
        rp = {"of": [first["id"]], "num": ratio["num"], "den": ratio["den"], "name": ratio["name"]}
        for k in ("group_by", "top", "order", "having"):
            if ratio.get(k):
                rp[k] = ratio[k]
        note = f"{ratio['name']} = Σ{'+'.join(ratio['num'])} ÷ Σ({'+'.join(ratio['den'])})"
        return [first, _step(2, "ratio", rp, depends=[first["id"]], fields=[], note=note)]
    den_slots = {**slots, "ratio": None, "agg": None, "conditions": [], "filters": {}}
    den_grounded = {**grounded, "filters": {}}
    if ratio.get("whole") or (not any(v for v in (grounded.get("filters") or {}).values())
                              and not slots.get("conditions")):
        den_grounded.update(projects=[], areas=[])  # "图书馆的员工占全部员工的比例": the subset is the project
    den = build_plan(den_slots, den_grounded, [], {k: v for k, v in (scope or {}).items() if k != "positions"})
    if not den:
        return steps
    d = {**den[0], "id": 2, "depends": [], "note": "分母：不加筛选条件的全部记录"}
    first = {**first, "note": "分子：满足条件的记录"}
    field = ratio.get("field")
    op = "sum" if field else "count"
    key = field if field else _count_key(intent)
    rp = {"of": [1, 2], "op": op, "field": key, "name": ratio["name"]}
    for k in ("group_by", "top", "order", "having"):
        if ratio.get(k):
            rp[k] = ratio[k]
    return [first, d, _step(3, "ratio", rp, depends=[1, 2], fields=[], note=f"{ratio['name']} = 分子 ÷ 分母")]


def _growth_steps(steps: list[dict], growth: dict, agg: dict | None, intent: str, grounded: dict) -> list[dict]:
    """环比 / 同比 / 3月比2月: the records of both months, their per-month figure, then 本期 − 基期."""
    first = steps[0]
    agg = agg or {}
    op = agg.get("op") if agg.get("op") in ("sum", "count", "avg") else "sum"
    field = agg.get("field") if agg.get("field") or op == "count" else None
    if op == "count" and field is None and agg.get("distinct") is not False:
        field = _count_key(intent)
    if field and field not in first["fields"]:
        first["fields"].append(field)
    have = set(grounded.get("months") or [])
    dated = grounded.get("time") is not None
    base = growth.get("base_months") or growth["base"]
    current = growth.get("current_months") or growth["current"]
    both = (base if isinstance(base, list) else [base]) + (current if isinstance(current, list) else [current])
    outside = [m for m in both if dated and m not in have]
    by = growth.get("by")
    ap = {"of": first["id"], "op": op, "field": field, "distinct": bool(agg.get("distinct")) and op == "count",
          "group_by": f"{by}+年月" if by else "年月"}
    cp = {"of": first["id"] + 1, "key": "年月", "base": base, "current": current,
          "kind": growth.get("kind") or "对比", "outside": outside, **({"by": by} if by else {}),
          **({"select": growth["select"]} if by and growth.get("select") else {}),
          **({"base_avg": True} if growth.get("base_avg") else {})}
    return [first, _step(first["id"] + 1, "aggregate", ap, depends=[first["id"]], fields=[],
                         note=f"按年月{_agg_note(op, field)}"),
            _step(first["id"] + 2, "change", cp, depends=[first["id"] + 1], fields=[],
                  note=f"{cp['kind']}：{growth['current']} 对比 {growth['base']}（本期 − 基期）")]


def _expression_fields(field: str | None) -> list[str]:
    return sorted(X.referenced_names(field)) if is_expression(field) else []


def _count_key(intent: str) -> str | None:
    return {"设备": "设备编号", "项目": "项目编号", "项目缺口": "项目编号", "从属": "项目编号", "续签": "项目编号",
            "收费": "项目编号", "检查": None, "采购": None, "证书": "工号", "编制": None, "投标": "项目编号",
            "从属上级": "项目编号", "片区": "片区编号", "项目无": "项目编号"}.get(intent, "工号")


def _agg_note(op: str, field: str | None) -> str:
    names = {"count": "计数", "sum": "求和", "avg": "平均", "max": "最大", "min": "最小"}
    return f"{names.get(op, op)}{('：' + field) if field else ''}"


# ---- plan edits at confirmation ----------------------------------------------------------

def apply_plan_edit(plan: list[dict], text: str) -> tuple[list[dict], bool]:
    """Apply "去掉第2步" / "删除第1、3步"; (new plan, handled). Dependents of a removed step go too."""
    m = re.search(r"(?:去掉|删除|删掉|移除|不要)\s*第?\s*([\d一二两三四五六七八九、,，和 ]+)\s*步", text)
    if not m:
        return plan, False
    nums = {cn_to_int(x, 0) for x in re.findall(r"\d+|[一二两三四五六七八九]", m.group(1))}
    remove = {s["id"] for i, s in enumerate(plan, 1) if i in nums}
    changed = True
    while changed:
        changed = False
        for s in plan:
            if s["id"] not in remove and set(s.get("depends") or []) & remove:
                remove.add(s["id"])
                changed = True
    return [s for s in plan if s["id"] not in remove], True


def validate_plan(plan: list[dict]) -> list[str]:
    """Problems with a (possibly user-edited) plan: unknown tools, bad dependencies."""
    problems = []
    ids = set()
    for s in plan:
        if s.get("tool") not in TOOLS:
            problems.append(f"第 {s.get('id')} 步的工具“{s.get('tool')}”不存在，可用：{'、'.join(TOOLS)}")
        for d in s.get("depends") or []:
            if d not in ids:
                problems.append(f"第 {s.get('id')} 步依赖的第 {d} 步不存在或在其后")
        ids.add(s.get("id"))
    return problems
