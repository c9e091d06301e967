"""The KG agent's tool catalog, generated from :mod:`core.graph.schema`.

Each query tool names its Cypher query (``core/graph/queries/``), the node label its rows
describe, its parameters (``types=设备类型``: a list parameter that filters that column), the
context columns its rows lead with (who / where / when) and the label whose template columns
marked ``show`` follow. Display fields, numeric fields with their units, percentage fields,
the filters a tool consumes, the column → parameter aliases and the sensitive fields are all
derived here, so a column added to a template's schema entry reaches the planner, the tools
and the answers without an edit in the agent.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from core.graph import schema as S

PERSON = ("姓名", "工号", "岗位名称")
PROJECT = ("项目名称", "项目编号")
MONTH = ("年月",)
#: list parameters that pick entities or months rather than filter a column's values, with their key column
ENTITY_COLUMNS = {"项目编号": "projects", "年月": "months", "工号": "people", "片区编号": "areas"}
ENTITY_PARAMS = frozenset(ENTITY_COLUMNS.values())


@dataclass(frozen=True)
class Tool:
    name: str
    query: str | None          # named query in core.graph.queries (None = built-in)
    params: tuple[str, ...]    # accepted parameters (list-valued filters unless noted)
    description: str
    label: str = ""            # node label the rows describe (for derived attributes)
    month_field: str = ""      # row field used for Python-side month filtering
    date_field: str = ""       # row date field used for Python-side month filtering
    year_field: str = ""       # the rows are dated by a year only: asked months filter by it
    shows: str = ""            # node label whose ``show`` columns the rows display
    context: tuple[str, ...] = ()   # leading display fields (person / project / month)
    extra: tuple[str, ...] = ()     # trailing display fields (relationship properties, verdicts)
    columns: tuple[tuple[str, str], ...] = ()  # (parameter, column it filters), e.g. ("types", "设备类型")
    intents: tuple[str, ...] = ()   # question intents answered by this tool


def T(name: str, query: str | None, params: str, description: str, label: str = "", **kw) -> Tool:
    """``params`` as "projects months types=设备类型": a name, or name=the column it filters."""
    names, cols = [], []
    for p in params.split():
        n, _, col = p.partition("=")
        if n not in names:
            names.append(n)
        if col:
            cols.append((n, col))
    for k in ("context", "extra", "intents"):
        if isinstance(kw.get(k), str):
            kw[k] = tuple(kw[k].split())
    return Tool(name, query, tuple(names), description, label, columns=tuple(cols), **kw)


_SERVED = tuple(p for p, _ in S.REL_BY_TYPE["服务于"].properties if p != "备注")
_PERSON_FILTERS = "positions=岗位名称"

QUERY_TOOLS: tuple[Tool, ...] = (
    T("attendance", "kg_attendance", f"projects months people {_PERSON_FILTERS} day_counts",
      "考勤（按项目/年月/工号/岗位；可加逐日状态统计的事假/病假/年假/调休天数）", "考勤", shows="考勤",
      context=PERSON + PROJECT + MONTH, intents="考勤 工资", month_field="年月"),
    T("schedule", "kg_schedule", f"projects months people {_PERSON_FILTERS}", "排班月报", "排班月报",
      shows="排班月报", context=PERSON + PROJECT + MONTH, intents="排班", month_field="年月"),
    T("finance", "kg_finance", "projects months", "项目月度财务（开票/收款）", "财务", shows="财务",
      context=PROJECT + MONTH, intents="收费", month_field="年月"),
    T("equipment", "kg_equipment", "projects types=设备类型", "设备台账", "设备", shows="设备", context=PROJECT,
      intents="设备"),
    T("service_periods", "kg_service_periods", f"projects people {_PERSON_FILTERS}", "人员服务期（服务于）", "人员",
      context=PERSON + PROJECT, extra=_SERVED, intents="服务期"),
    T("project_children", "kg_project_children", "projects", "父项目包含的子项目", "项目",
      context=("上级项目名称", "上级项目编号") + PROJECT, extra="服务状态", intents="从属"),
    T("renewals", "kg_renewals", "projects", "项目续签链", "项目", context=PROJECT,
      extra="开始日期 结束日期 续签前项目编号 续签前项目名称", intents="续签"),
    T("certificates", "kg_certificates", f"people projects {_PERSON_FILTERS} categories=证书名称 categories=专业类别",
      "人员证书", "人员", shows="证书", context=PERSON, intents="证书"),
    T("staff", "kg_staff", f"people projects {_PERSON_FILTERS} genders=性别 date_field",
      "人员（当前服务项目/岗位/性别；可按入职/离职日期的年月筛选）", "人员", shows="人员", context=PERSON + PROJECT,
      intents="人员"),
    T("staffing", "kg_staffing", f"projects {_PERSON_FILTERS}", "岗位编制", "岗位编制", shows="岗位编制",
      context=PROJECT, intents="编制"),
    T("inspections", "kg_inspections", "projects types=检查类型", "检查记录", "检查记录", shows="检查记录",
      context=PROJECT, date_field="检查日期", intents="检查"),
    T("procurement", "kg_procurement", "projects types=记录类型", "采购记录", "采购记录", shows="采购记录",
      context=("项目编号",), date_field="日期", intents="采购"),
    T("maintenance", "kg_maintenance", "projects", "维保合同", "维保合同", shows="维保合同", context=("项目编号",),
      date_field="日期"),
    T("projects", "kg_projects_full", "projects statuses=服务状态 date_field",
      "项目列表（服务状态；可按开始/结束日期的年月筛选）", "项目", shows="项目", context=PROJECT, intents="项目"),
    T("bids", "kg_bids", "projects results=中标结果 kinds=投标类型", "投标记录（中标结果/投标类型/年份）", "投标记录",
      shows="投标记录", context=PROJECT, intents="投标", year_field="年份"),
    T("project_parent", "kg_project_parent", "projects", "子项目的上级项目", "项目",
      context=("子项目名称", "子项目编号") + PROJECT, extra="服务状态", intents="从属上级"),
    T("areas", "kg_areas", "areas", "片区及片区负责人", "片区", context=("片区名称", "片区编号") + PERSON,
      intents="片区"),
    T("suppliers", "kg_suppliers", "", "供应商列表", "供应商", context=("名称", "类别", "状态")),
)

BUILTIN_TOOLS: tuple[Tool, ...] = (
    T("aggregate", None, "of op field distinct group_by top order then outer having delta per_all",
      "聚合统计 sum/avg/count/max/min（可分组、取前 N 名；group_by 可为 片区编号 或 项目编号+年月；"
      "then=avg 时再对各组结果求平均，如“平均每个项目有多少人”；outer 再按外层分组分别求平均，如"
      "“各片区平均每个项目多少人”；then=max/min 与 outer 同用时，在各外层分组里取 group_by 各组中值最高/最低的一组，如"
      "“各岗位税后工资最高的分别是谁”；having 是对每组结果“值”的条件，如“值 > 50”；per_all 时分母为全部在职人员/服务中项目）"),
    T("ratio", None, "of op field num den name group_by top order having",
      "比率：两步结果的计数/合计之比（占比、中标率），或同一步两组字段合计之比（出勤率、回款率、满编率）；"
      "having 是对每组“比率”（百分数）的条件，如“比率 < 95”"),
    T("change", None, "of key base current kind outside by base_avg select",
      "两期对比（环比、同比、3月比2月、一季度比去年四季度）：按年月分组的聚合结果中本期值 − 基期值 及变化率；"
      "base_avg 时基期取各月平均（4月比1-3月平均）；按 by 分组时 select 为 > 或 < 只留增加或减少的组"),
    T("pick", None, "of field order top", "按日期字段取最早/最晚的前 N 条记录（最早到期、最近一次检查、最晚入职）"),
    T("absence", None, "of projects months positions", "缺勤分析：服务期在册 vs 考勤出勤",
      context=PERSON + PROJECT + MONTH, extra="情况"),
    T("project_gap", None, "of projects statuses months", "项目缺口：服务中但无人员服务记录的项目",
      context=PROJECT, extra="服务状态 开始日期 结束日期 情况"),
    T("intersect", None, "of key by run", "交集：各步骤结果按关键字段取交集（如连续 N 个月都加班）"),
    T("anti_join", None, "of key", "差集：第一步中关键字段不出现在第二步结果里的记录（如没有维保合同的项目）"),
)

TOOLS: dict[str, Tool] = {t.name: t for t in QUERY_TOOLS + BUILTIN_TOOLS}


# ---- facts per node label, from the schema ----------------------------------------------------
def label_columns(label: str) -> list[S.Column]:
    """The typed columns behind a node label's properties: its templates' columns plus the
    properties the builder derives (出勤天数 …), in property order."""
    nt = S.NODE_BY_LABEL[label]
    pool: dict[str, S.Column] = {}
    for tpl in nt.templates:
        for c in S.TEMPLATE_BY_NAME[tpl].columns:
            pool.setdefault(c.name, c)
    for c in S.DERIVED_COLUMNS_BY_LABEL.get(label, ()):
        pool.setdefault(c.name, c)
    return [pool[p] for p in nt.property_names if p in pool]


def shown_columns(label: str) -> list[str]:
    """A label's columns marked ``show`` (for that label), by rank; never a sensitive one."""
    cols = [c for c in label_columns(label)
            if c.show and not c.sensitive and (not c.show_for or label in c.show_for)]
    return [c.name for c in sorted(cols, key=lambda c: c.show)]


@lru_cache(maxsize=None)
def _tool_fields(name: str) -> tuple[str, ...]:
    t = TOOLS[name]
    out = list(t.context)
    for f in (*(shown_columns(t.shows) if t.shows else []), *t.extra):
        if f not in out:
            out.append(f)
    return tuple(out)


def tool_fields(name: str) -> list[str]:
    """The fields a tool's answer rows display, in order (empty for an unknown tool)."""
    return list(_tool_fields(name)) if name in TOOLS else []


def _all_columns() -> list[S.Column]:
    cols = [*S.ATT_DERIVED_COLUMNS, *S.SHIFT_DERIVED_COLUMNS]
    return cols + [c for t in S.TEMPLATES for c in t.columns]


@lru_cache(maxsize=1)
def units() -> dict[str, str]:
    """Column → unit for every column that states one (元, 天, 人, %, …)."""
    out: dict[str, str] = {}
    for c in _all_columns():
        if c.unit:
            out.setdefault(c.name, c.unit)
    return out


def unit(field: str | None) -> str:
    """A field's unit: a schema column's, a day count's (天) or a derived attribute's (年龄 → 岁)."""
    if not field:
        return ""
    if field in units():
        return units()[field]
    if field in DAY_COUNT_CODES:
        return "天"
    if any(op in field for op in (" - ", " + ")):  # a sum or difference of fields in one unit keeps it
        from core.agents.kg import expr as X

        try:
            got = {unit(n) for n in X.referenced_names(field)}
        except Exception:  # noqa: BLE001 - not an expression: no unit
            return ""
        return got.pop() if len(got) == 1 else ""
    rule = DERIVED.get(field)
    return rule.unit if rule else ""


@lru_cache(maxsize=1)
def numeric_fields() -> tuple[str, ...]:
    """Numeric columns with a unit: the ones users ask figures and put thresholds on."""
    return tuple(dict.fromkeys(c.name for c in _all_columns() if c.type in ("int", "number") and c.unit))


@lru_cache(maxsize=1)
def percent_fields() -> frozenset[str]:
    """Columns stored as a fraction and spoken of as a percentage (实际毛利率 0.097 = 9.7%)."""
    return frozenset(c.name for c in _all_columns() if c.percent)


def label_fields(label: str, *, sensitive: bool = False) -> tuple[str, ...]:
    """A label's template columns (not keys of other records), sensitive ones only when asked."""
    return tuple(c.name for c in label_columns(label) if sensitive or not c.sensitive)


SENSITIVE_FIELDS = S.SENSITIVE_FIELDS
#: the person-level pay columns (人员财务) a 工资 question shows
SALARY_FIELDS: tuple[str, ...] = S.PERSON_FIN
#: day counts computed from the 考勤 1日…31日 codes (事假天数 ← 事 …); 出勤天数 (√ and 加) is built at load
@dataclass(frozen=True)
class DerivedRule:
    name: str
    label: str
    source: str
    expr: str
    unit: str


# Declarative derived attributes: the fast path before the capability node's dynamic path.
DERIVED: dict[str, DerivedRule] = {
    "年龄": DerivedRule("年龄", "人员", "出生日期", "years_between(出生日期, today())", "岁"),
    "司龄": DerivedRule("司龄", "人员", "入职日期", "years_between(入职日期, today())", "年"),
    "剩余服务期": DerivedRule("剩余服务期", "项目", "结束日期", "months_between(today(), 结束日期)", "个月"),
}

DAY_COUNT_CODES: dict[str, str] = {f"{v}天数": k for k, v in S.ATTENDANCE_CODES.items() if k != "√"}


@lru_cache(maxsize=1)
def person_fields() -> tuple[str, ...]:
    """Person columns a condition or a derived attribute may need on rows keyed by 工号: the
    non-sensitive ones plus the sources of derived attributes (出生日期 for 年龄)."""
    sources = {r.source for r in DERIVED.values() if r.label == "人员"}
    return tuple(c.name for c in label_columns("人员") if not c.sensitive or c.name in sources)


def intent_tool() -> dict[str, str]:
    """Question intent → the query tool that answers it."""
    return {i: t.name for t in QUERY_TOOLS for i in t.intents}


def consumed_filters(name: str) -> set[str]:
    """Grounded filter columns a tool takes as query parameters (others become conditions)."""
    t = TOOLS.get(name)
    return {col for _p, col in t.columns} if t else set()


def column_params() -> dict[str, str]:
    """Column name → the parameter that takes it (项目编号 → projects, 检查类型 → types)."""
    return {**ENTITY_COLUMNS, **{col: p for t in TOOLS.values() for p, col in t.columns}}
