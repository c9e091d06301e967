"""Rules path of ``plan``: intent → query-template steps with parameters, return fields and
dependencies; plus the edits a user can make at plan confirmation ("去掉第2步")."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from core.agents.kg import expr as X
from core.agents.kg.computed import SUBSET_RATIOS
from core.agents.kg.catalog import SALARY_FIELDS, consumed_filters, intent_tool, percent_fields, tool_fields
from core.agents.kg.grounding import person_ids, project_codes
from core.agents.kg import kgrules, phrasing
from core.agents.kg.timeparse import month_span
from core.agents.kg.month_scope import months_native
from core.agents.kg.tools import TOOLS, is_expression
from core.agents.kg.value_words import worded_values
from core.graph.schema import NODE_BY_LABEL
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


# the tools whose rows are a set operation over other steps (no per-record figures to add up)
_SET_TOOLS = ("project_gap", "absence", "intersect", "anti_join")


@dataclass
class _Asked:
    """What a plan is built from: the question's slots and grounding, the anchors narrowed by a
    chosen scope, the conditions as the graph stores their fields."""
    slots: dict
    grounded: dict
    derived: list[dict]
    intent: str
    projects: list[str]
    people: list[str]
    months: list[str]
    filters: dict
    positions: list[str]
    conditions: list[str]
    derived_names: list[str]
    agg: dict | None
    growth: dict | None

    @property
    def question(self) -> str:
        return self.slots.get("question", "")

    def common(self, extra: dict) -> dict:
        """``extra`` with the question's conditions and derived fields, when it has any."""
        p = dict(extra)
        if self.conditions:
            p["conditions"] = self.conditions
        if self.derived_names:
            p["derived"] = self.derived_names
        return p


def build_plan(slots: dict, grounded: dict, derived: list[dict], scope: dict | None = None) -> list[dict]:
    """The rules plan: the steps selecting the asked records, then the one computing the asked
    figure over them (a growth, a ratio, a pick of the earliest / latest, an aggregate); none when
    the question cannot be answered from the graph."""
    scope = scope or {}
    a = _asked(slots, grounded, derived, scope)
    if _unanswerable(grounded, a.projects, a.people):
        return []
    steps = _record_steps(a)
    if a.growth and steps[-1]["tool"] in ("attendance", "schedule", "finance") and len(steps) == 1:
        return _growth_steps(steps, a.growth, a.agg, a.intent, grounded)
    ratio = slots.get("ratio")
    if ratio and steps[-1]["tool"] not in _SET_TOOLS:
        return _ratio_steps(steps, ratio, slots, grounded, scope, a.intent)
    if a.agg and a.agg.get("op") in ("earliest", "latest"):
        return steps + [_pick_step(steps[-1], a.agg)]
    if a.agg and (steps[-1]["tool"] not in _SET_TOOLS or a.agg.get("op") == "count"):
        steps.append(_aggregate_step(steps[-1], a))
    return steps


def _asked(slots: dict, grounded: dict, derived: list[dict] | None, scope: dict) -> _Asked:
    """The plan's inputs: a growth keeps only the compared months, not the span between them (同比);
    a scope's projects / positions replace the asked ones, and its summary counts the records."""
    months = list(grounded.get("months") or [])
    filters = grounded.get("filters") or {}
    agg, growth = slots.get("agg"), slots.get("growth")
    if growth and months:
        wanted = set(growth.get("base_months") or [growth["base"]]) | set(growth.get("current_months")
                                                                          or [growth["current"]])
        months = [m for m in months if m in wanted]
    if scope.get("summary") and not agg:
        agg = {"op": "count", "field": _count_key(slots.get("intent") or ""), "distinct": True}
    derived = derived or []
    return _Asked(slots=slots, grounded=grounded, derived=derived, intent=slots.get("intent") or "",
                  projects=scope.get("projects") or project_codes(grounded), people=person_ids(grounded),
                  months=months, filters=filters,
                  positions=scope.get("positions") or list(filters.get("岗位名称") or []),
                  conditions=[_stored_scale(c) for c in slots.get("conditions") or []],
                  derived_names=[d["name"] for d in derived], agg=agg, growth=growth)


def _unanswerable(grounded: dict, projects: list[str], people: list[str]) -> bool:
    """No plan: the asked time is outside the data (never an unfiltered query instead), or a named
    project / area / person is not in the graph (say so instead of querying everything)."""
    ungrounded = grounded.get("ungrounded") or []
    return bool(grounded.get("time_outside")
                or (any(u["kind"] in ("project", "area") for u in ungrounded) and not projects)
                or (any(u["kind"] == "person" for u in ungrounded) and not people))


# ---- the steps that select the records -----------------------------------------------------

def _record_steps(a: _Asked) -> list[dict]:
    """The steps selecting the asked records: a set operation over two queries for a gap, an
    absence, projects without some records, or a run of consecutive months; else one query."""
    shape = _SET_SHAPES.get(a.intent)
    if shape is not None:
        return shape(a)
    if a.slots.get("consecutive") and a.intent in ("考勤", "工资", "排班"):
        return _consecutive_steps(a)
    return _query_steps(a)


def _gap_steps(a: _Asked) -> list[dict]:
    """项目缺口: the projects in service with no service period of anyone."""
    statuses = a.filters.get("服务状态") or ["服务中"]
    return [_step(1, "projects", {"projects": a.projects, "statuses": statuses}, note="服务中的项目"),
            _step(2, "service_periods", {"projects": a.projects, "months": a.months}, note="人员服务记录"),
            _step(3, "project_gap", {"of": [1, 2], "months": a.months}, depends=[1, 2],
                  note="服务中但没有人员服务记录的项目")]


def _without_steps(a: _Asked) -> list[dict]:
    """项目无 ("哪些项目没有维保合同"): the projects minus those with records of the other kind."""
    other = a.slots.get("without") or ""
    sub = INTENT_TOOL.get(other, "projects")
    if sub == "procurement" and "维保" in a.question:
        sub = "maintenance"
    sub_params = {"projects": a.projects, "months": a.months}
    if sub in ("attendance", "schedule", "service_periods"):
        sub_params.update({"people": [], "positions": []})
    return [_step(1, "projects", {"projects": a.projects, "statuses": a.filters.get("服务状态") or []}, note="项目"),
            _step(2, sub, sub_params, note=f"有{other}记录的项目"),
            _step(3, "anti_join", {"of": [1, 2], "key": "项目编号"}, depends=[1, 2],
                  fields=tool_fields("projects"), note=f"没有{other}记录的项目")]


def _absence_steps(a: _Asked) -> list[dict]:
    """缺勤: the people in service that month without an attendance record."""
    return [_step(1, "service_periods", {"projects": a.projects, "positions": a.positions, "months": a.months},
                  note="在册人员（服务期覆盖该月）"),
            _step(2, "attendance", {"projects": a.projects, "months": a.months, "positions": a.positions},
                  note="考勤记录"),
            _step(3, "absence", {"of": [1, 2], "months": a.months}, depends=[1, 2], note="在册但无出勤")]


def _people_without_steps(a: _Asked) -> list[dict]:
    """人员无 ("没有保安员证的保安"): the asked people minus the holders of the named certificates."""
    tool, params = _staff_params(a, INTENT_TOOL["人员"])
    _, certs = _certificate_params(a, "certificates")
    named = "、".join(certs["categories"]) or "证书"
    return [_step(1, tool, a.common(params), note="人员"),  # 在职 and other conditions of the people
            _step(2, "certificates", {"categories": certs["categories"]}, note=f"持有{named}的人员"),
            _step(3, "anti_join", {"of": [1, 2], "key": "工号"}, depends=[1, 2], fields=tool_fields(tool),
                  note=f"没有{named}的人员")]


_SET_SHAPES = {"项目缺口": _gap_steps, "项目无": _without_steps, "人员无": _people_without_steps,
               "缺勤": _absence_steps}


def _consecutive_steps(a: _Asked) -> list[dict]:
    """"连续三个月都加班": each month's records, then the people meeting it every month of a run
    (a run of 0 or less: every asked month, or every month the data covers)."""
    tool = "schedule" if a.intent == "排班" else "attendance"
    run = int(a.slots["consecutive"])
    if run <= 0:
        cov = a.grounded.get("coverage")
        run = len(a.months) if a.months else (len(month_span(cov[0], cov[1])) if cov else 1)
    return [_step(1, tool, a.common({"projects": a.projects, "months": a.months, "people": a.people,
                                     "positions": a.positions}), note="逐月记录"),
            _step(2, "intersect", {"of": [1], "key": "工号", "by": "年月", "run": run}, depends=[1],
                  fields=tool_fields(tool), note=f"连续 {run} 个月都满足条件的人员")]


def _query_steps(a: _Asked) -> list[dict]:
    """One query of the asked tool; a filter it does not take becomes a condition on its rows (and
    a column of them). "采购和维保" asks the maintenance contracts as a second query."""
    tool, params = _query_params(a)
    consumed = consumed_filters(tool)
    leftover = [f"{k} in {sorted(v)!r}" for k, v in a.filters.items() if v and k not in consumed]
    params = a.common(params)
    if leftover:
        params["conditions"] = list(params.get("conditions") or []) + leftover
    fields, asked = _query_fields(a, tool, params, consumed)
    steps = [_step(1, tool, params, fields=fields)]
    steps[-1]["asked"] = asked
    if tool == "procurement" and re.search(r"维保", a.question):  # 采购和维保 both asked
        steps.append(_step(2, "maintenance", a.common({"projects": a.projects, "months": a.months})))
    return steps


def _query_params(a: _Asked) -> tuple[str, dict]:
    """(tool, its parameters) for the asked intent (staff or projects when it names none)."""
    tool = INTENT_TOOL.get(a.intent, "staff" if a.positions or a.people else "projects")
    params = _TOOL_PARAMS.get(tool)
    if params is None:
        return tool, {}
    tool, params = params(a, tool) if callable(params) else (tool, _anchored(a, params))
    return tool, _dated_by_wording(a, tool, params)


def _dated_by_wording(a: _Asked, tool: str, params: dict) -> dict:
    """Asked months the tool's records do not carry themselves are of the date its wording names
    ("3月中标的" → 中标日期, "3月进场的设备" → 入项目日期: the ``date_fields`` phrasings), or of a date
    column the question names in full even when the records carry their own; with none, the
    months stay unapplied and the answer says so."""
    t = TOOLS[tool]
    if not a.months or params.get("date_field"):
        return params
    named = phrasing.named_date_column(a.question, t.label)
    if named and named != t.date_field:  # "整改完成日期在3月份的检查": not the 检查日期
        return {**params, "date_field": named, "months": a.months}
    if months_native(t, a.months):
        return params
    field = next(filter(None, (phrasing.phrased_date_field(a.question, i) for i in t.intents)), None)
    return {**params, "date_field": field, "months": a.months} if field else params


def _anchored(a: _Asked, names: tuple) -> dict:
    """Parameters by name: an anchor of the question (projects / people / positions / months), or
    for a (parameter, field) pair the values of that filter."""
    out = {}
    for n in names:
        if isinstance(n, str):
            out[n] = getattr(a, n)
        else:
            out[n[0]] = a.filters.get(n[1]) or []
    return out


def _dated_records(a: _Asked, tool: str) -> tuple[str, dict]:
    """attendance / schedule; the attendance day counts the question names (病假, 调休 …) as columns."""
    params = _anchored(a, ("projects", "months", "people", "positions"))
    day_counts = [f for w, f in _DAY_COUNT_WORDS if w in a.question or any(f in c for c in a.conditions)]
    if tool == "attendance" and day_counts:
        params["day_counts"] = sorted(set(day_counts))
    return tool, params


def _certificate_params(a: _Asked, tool: str) -> tuple[str, dict]:
    """The certificates of the asked people / projects / posts; a named certificate or 专业类别."""
    return tool, {**_anchored(a, ("people", "projects", "positions")),
                  "categories": (a.filters.get("证书名称") or []) + (a.filters.get("专业类别") or [])}


def _staff_params(a: _Asked, tool: str) -> tuple[str, dict]:
    """The people; of named projects in asked months: their service periods; "今年入职的员工": by
    their 入职日期 / 离职日期."""
    if a.months and a.projects:
        return "service_periods", _anchored(a, _TOOL_PARAMS["service_periods"])
    params = _anchored(a, ("people", "projects", "positions", ("genders", "性别")))
    if a.months and re.search(r"入职|离职", a.question):
        params["date_field"] = "离职日期" if "离职" in a.question else "入职日期"
        params["months"] = a.months
    return tool, params


def _procurement_params(a: _Asked, tool: str) -> tuple[str, dict]:
    """Purchase records; the suppliers when only they are asked ("有哪些供应商"); the maintenance
    contracts for 维保 without 采购."""
    q = a.question
    if re.search(r"供应商|供货商|合作单位", q) and not a.projects and not re.search(r"维保|采购|耗材|固定资产", q):
        return "suppliers", {}
    if "维保" in q and "采购" not in q:
        return "maintenance", _anchored(a, ("projects", "months"))
    return tool, _anchored(a, ("projects", ("types", "记录类型"), "months"))


def _project_params(a: _Asked, tool: str) -> tuple[str, dict]:
    """The projects; asked months are of their 结束日期 ("3月到期") or 开始日期 ("今年新签")."""
    params = _anchored(a, ("projects", ("statuses", "服务状态")))
    if a.months and re.search(r"结束|到期|届满|截止", a.question):
        params["date_field"], params["months"] = "结束日期", a.months
    elif a.months and re.search(r"开始|启动|进场|新签|新接|签约|开工", a.question):
        params["date_field"], params["months"] = "开始日期", a.months
    return tool, params


# tool → its parameters: names of _anchored, or a function (asked, tool) → (tool, parameters)
_TOOL_PARAMS: dict = {
    "attendance": _dated_records, "schedule": _dated_records,
    "finance": ("projects", "months"),
    "equipment": ("projects", ("types", "设备类型")),
    "service_periods": ("projects", "people", "positions", "months"),
    "project_children": ("projects",), "renewals": ("projects",), "project_parent": ("projects",),
    "bids": ("projects", ("results", "中标结果"), ("kinds", "投标类型"), "months"),
    "areas": lambda a, tool: (tool, {"areas": [x["key"] for x in a.grounded.get("areas") or []]}),
    "certificates": _certificate_params,
    "staff": _staff_params,
    "staffing": ("projects", "positions"),
    "inspections": ("projects", ("types", "检查类型"), "months"),
    "procurement": _procurement_params,
    "projects": _project_params,
}

# words of an attendance question → the day-count column they ask
_DAY_COUNT_WORDS = (("病假", "病假天数"), ("事假", "事假天数"), ("年假", "年假天数"), ("年休", "年假天数"),
                    ("调休", "调休天数"), ("休息日加班", "休息日加班天数"))


def _query_fields(a: _Asked, tool: str, params: dict, consumed) -> tuple[list[str], list[str]]:
    """(the columns the query's rows show, the columns the question asks for): the tool's own, the
    filters it does not take, salary, the asked person properties and column words, the derived
    fields with their sources, the day counts and the conditions' fields."""
    fields = tool_fields(tool)
    _append_missing(fields, [k for k, v in a.filters.items() if v and k not in consumed])
    if a.intent == "工资":
        fields += list(SALARY_FIELDS)
    concepts = a.slots.get("concepts") or []
    if tool in ("staff", "service_periods", "certificates"):
        _append_missing(fields, [c["property"] for c in concepts if c.get("property") and c.get("label") == "人员"
                                 and not c.get("derived")])
    asked = _asked_columns(a.question, fields, concepts)
    _append_missing(fields, asked)
    _append_missing(fields, [f for d in a.derived for f in (d["name"], d["source"])])
    _append_missing(fields, params.get("day_counts") or [])
    _append_missing(fields, [params["date_field"]] if params.get("date_field") else [])  # the months' date, shown
    _append_missing(fields, [c["field"] for c in a.slots.get("conditions") or [] if not c.get("derived")])
    return fields, asked


def _asked_columns(question: str, fields: list[str], concepts: list[dict]) -> list[str]:
    """The columns a word of the question asks for (甲方 → 甲方名称), then the person properties
    of its concepts; a word inside one of the rows' own columns ("证书类别" ⊃ 类别) asks nothing."""
    asked: list[str] = []
    for word, col in COLUMN_WORDS.items():
        rest = question
        for f in fields:
            if f != col and f != word and word in f:
                rest = rest.replace(f, "□")
        if word in rest and col not in asked:
            asked.append(col)
    _append_missing(asked, [c["property"] for c in concepts
                            if c.get("property") and not c.get("derived") and c.get("label") == "人员"])
    return asked


def _append_missing(names: list[str], more) -> None:
    """Append to ``names`` each of ``more`` it does not hold yet, in order."""
    for n in more:
        if n not in names:
            names.append(n)


# ---- the steps over the records: pick one, aggregate, ratio, growth ------------------------------

def _pick_step(last: dict, agg: dict) -> dict:
    """最早 / 最晚: the top record(s) of ``last``'s rows by the asked field."""
    if agg["field"] not in last["fields"]:
        last["fields"].append(agg["field"])
    earliest = agg["op"] == "earliest"
    return _step(last["id"] + 1, "pick", {"of": last["id"], "field": agg["field"], "order": "asc" if earliest else "desc",
                                          "top": int(agg.get("top") or 1)},
                 depends=[last["id"]], fields=list(last["fields"]),
                 note=f"按{agg['field']}取{'最早' if earliest else '最晚'}的记录")


def _tool_node(tool: str | None):
    """The node table of the records ``tool`` returns (None for a computing step)."""
    return NODE_BY_LABEL.get(TOOLS[tool].label) if tool in TOOLS else None


def _own_column(tool: str | None, field: str) -> str:
    """The column of ``tool``'s rows that holds ``field`` under a shorter name (岗位编制's 岗位 for
    岗位名称), else ``field``."""
    node = _tool_node(tool)
    names = node.property_names if node else []
    if not names or field in names or "+" in field:
        return field
    return next((c for c in names if len(c) >= 2 and field.startswith(c)), field)


def _counted_column(tool: str | None, question: str) -> str | None:
    """The head-count column (在岗人数, 项目编制) of ``tool``'s rows the question names when the rows
    hold no people to count, the longest named; else ``None``."""
    node = _tool_node(tool)
    if node is None or "工号" in node.property_names:
        return None
    named = [c for c, typ in node.properties if typ in ("int", "number") and c in question]
    return max(named, key=len) if named else None


def _aggregate_step(last: dict, a: _Asked) -> dict:
    """The asked figure over ``last``'s rows (a count of the intent's key when no field is asked;
    the operands of an expression field shown on the rows), by its groups, ranked or compared."""
    agg = a.agg
    field = agg.get("field")
    if agg.get("op") == "count" and field is None and not agg.get("records"):
        field = _count_key(a.intent)
        agg = {**agg, "distinct": bool(field)}
    counted = _counted_column(last.get("tool"), a.question) if agg.get("op") == "count" and field == "工号" else None
    if counted:  # "哪个岗位的在岗人数最多": 编制 rows hold a head count, not people
        agg, field = {**agg, "op": "sum", "distinct": False}, counted
    _append_missing(last["fields"], _expression_fields(field))  # "项目编制 - 在岗人数": both operands
    ap = {"of": last["id"], "op": agg["op"], "field": field, "distinct": bool(agg.get("distinct"))}
    for k in ("group_by", "then"):
        if agg.get(k):
            ap[k] = agg[k]
    if ap.get("group_by"):
        ap["group_by"] = _own_column(last.get("tool"), ap["group_by"])
    if agg.get("per_all"):  # "平均每个员工…": every in-service person / project (of the asked scope) is a group
        ap["per_all"] = {k: v for k, v in (("positions", a.positions), ("projects", a.projects)) if v} or True
    for k in ("outer", "having"):
        if agg.get(k):
            ap[k] = agg[k]
    if ap.get("group_by") == "年月" and not ap.get("top") and re.search(r"环比|变化|增长|增减|涨跌|趋势", a.question):
        ap["delta"] = True  # "各月开票金额环比变化": each month against the one before
    if agg.get("top"):
        ap["top"] = int(agg["top"])
        if agg.get("order"):
            ap["order"] = agg["order"]
    return _step(last["id"] + 1, "aggregate", ap, depends=[last["id"]], fields=[], note=_agg_note(agg["op"], field))


def _population(ratio: dict, slots: dict) -> dict:
    """The filters and conditions of a ratio's denominator: for a share (占比: the subset is what the
    question filters) only the values said of the whole (after 占, or before 里 ahead of it); for a
    named rate (中标率) every one but those on the rate's own field — 续标的中标率 is the won 续标 bids
    out of all 续标 bids."""
    rate = SUBSET_RATIOS.get(ratio.get("name") or "")
    if rate is None:  # what is said of the whole bounds it too: 占全部服务中项目的, 在职员工里…占
        before, _, after = (slots.get("question") or "").partition("占")
        within = kgrules.cue("share_whole_before")
        whole = after + (within.split(before)[0] if within.search(before) else "")
        worded = worded_values(whole, ["女", "男"])  # 占全部在服项目: 在服 says 服务中
        return {"filters": {k: v for k, v in (slots.get("filters") or {}).items()
                            if any(str(x) in whole or str(x) in worded.get(k, []) for x in v)},
                "conditions": [c for c in slots.get("conditions") or []
                               if isinstance(c, dict) and c.get("text") and c["text"] in whole]}
    field = rate[1].split()[0]
    return {"filters": {k: v for k, v in (slots.get("filters") or {}).items() if k != field},
            "conditions": [c for c in slots.get("conditions") or [] if isinstance(c, dict) and c.get("field") != field]}


def _ratio_steps(steps: list[dict], ratio: dict, slots: dict, grounded: dict, scope: dict,
                 intent: str) -> list[dict]:
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
    den_slots = {**slots, "ratio": None, "agg": None, **_population(ratio, slots)}
    den_filters = _population(ratio, {**grounded, "question": slots.get("question")})["filters"]
    den_grounded = {**grounded, "filters": den_filters}
    if ratio.get("whole") or (not any(v for v in (grounded.get("filters") or {}).values())
                              and not slots.get("conditions")):
        den_grounded.update(projects=[], areas=[])  # "图书馆的员工占全部员工的比例": the subset is the project
    den = build_plan(den_slots, den_grounded, [], {k: v for k, v in (scope or {}).items() if k != "positions"})
    if not den:
        return steps
    kept = [str(x) for v in (den_grounded.get("filters") or {}).values() for x in v]
    kept += [c["text"] for c in den_slots.get("conditions") or [] if isinstance(c, dict) and c.get("text")]
    d = {**den[0], "id": 2, "depends": [], "note": f"分母：{'、'.join(kept)}的全部记录" if kept else "分母：不加筛选条件的全部记录"}
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
