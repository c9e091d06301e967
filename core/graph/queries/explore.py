"""The graph explorer's named read queries (图谱浏览, core/services/explore.py, ``explore_*``).

Labels and types cannot be parameters, so the per-label queries are generated from the schema
(named ``explore_<kind>:<label>``): a node is addressed by its label and primary key. Every
"other end" ``m`` of an edge is returned with its label, its key (the label's primary key, chosen
by CASE), 显示名 and 年月 (monthly records), every edge with its logical type, period properties
and provenance."""

from __future__ import annotations

from core.graph.queries.columns import _prov
from core.graph.queries.registry import YM_MAX, YM_MIN, NamedQuery, register
from core.graph.schema import LADYBUG_REL_RENAMES, NODE_BY_LABEL, SENSITIVE_FIELDS, q

#: the hop limit of the explorer's shortest path (a breadth-first search over explore_edges:*)
EXPLORE_MAX_HOPS = 4
EXPLORE_ROW_CAP = 20_000

#: the logical relationship type of ``e`` on every backend (ladybug stores 供应商 as 供应商关系)
_LOGICAL_TYPE = ("CASE ⟦type:e⟧ " + " ".join(f"WHEN '{phys}' THEN '{logical}'"
                                             for logical, phys in sorted(LADYBUG_REL_RENAMES.items()))
                 + " ELSE ⟦type:e⟧ END")


def _other_key(var: str) -> str:
    from core.graph.schema import NODE_TABLES, SYNTHETIC_KEY

    whens = " ".join(f"WHEN '{nt.label}' THEN {var}.{q(nt.pk)}" for nt in NODE_TABLES if nt.pk != SYNTHETIC_KEY)
    return f"CASE ⟦label:{var}⟧ {whens} ELSE {var}.{q(SYNTHETIC_KEY)} END"


def _explore_where(label: str, filtered: bool = True) -> str:
    """The explorer's filters on ``(n:label)-[e]-(m)``: the frontier keys, relationship types,
    other-end labels, and the month range on monthly records and period edges. LadybugDB
    evaluates every filter on every edge even when its list is empty (a hub's depth-2 ring
    triples in time), so each query also comes unfiltered, named ``explore_<kind>_all:<label>``."""
    if not filtered:
        return f"n.{q(NODE_BY_LABEL[label].pk)} IN $键列表"
    return (f"n.{q(NODE_BY_LABEL[label].pk)} IN $键列表\n"
            f"  AND (size($关系列表) = 0 OR {_LOGICAL_TYPE} IN $关系列表)\n"
            f"  AND (size($标签列表) = 0 OR ⟦label:m⟧ IN $标签列表)\n"
            "  AND (m.年月 IS NULL OR (m.年月 >= $从 AND m.年月 <= $到))\n"
            "  AND (e.开始 IS NULL OR (e.开始 <= $到 AND (e.结束 IS NULL OR e.结束 >= $从)))")


def _explore_ring_edges(label: str, filtered: bool = True) -> str:
    """The edges between the frontier ``$键列表`` and the far nodes ``$对端列表`` (``标签:主键``),
    parallel edges of one type between the same two nodes folded into one row with 条数 (their
    provenance only when there is one)."""
    nt = NODE_BY_LABEL[label]
    where = _explore_where(label, filtered) + f"\n  AND (⟦label:m⟧ + ':' + {_other_key('m')}) IN $对端列表"
    ret = (f"WITH n.{q(nt.pk)} AS 键, {_LOGICAL_TYPE} AS 关系, ⟦label:m⟧ AS 对端标签, {_other_key('m')} AS 对端键, e\n"
           "RETURN 键, '{d}' AS 方向, 关系, 对端标签, 对端键, count(*) AS 条数, min(e.开始) AS 开始, "
           "min(e.来源模板) AS 来源模板, min(e.来源文件) AS 来源文件, min(e.行号) AS 行号")
    return (f"MATCH (n:{q(label)})-[e]->(m)\nWHERE {where}\n{ret.format(d='出')}\nUNION ALL\n"
            f"MATCH (m)-[e]->(n:{q(label)})\nWHERE {where}\n{ret.format(d='入')}")


def _explore_edges(label: str, filtered: bool = True) -> str:
    nt = NODE_BY_LABEL[label]
    where = _explore_where(label, filtered)
    ret = (f"RETURN n.{q(nt.pk)} AS 键, '{{d}}' AS 方向, {_LOGICAL_TYPE} AS 关系, ⟦label:m⟧ AS 对端标签, "
           f"{_other_key('m')} AS 对端键, m.显示名 AS 对端显示名, m.年月 AS 对端年月, "
           "e.开始 AS 开始, e.结束 AS 结束, e.依据 AS 依据, e.备注 AS 备注, " + _prov("e") + "\nLIMIT $上限")
    return (f"MATCH (n:{q(label)})-[e]->(m)\nWHERE {where}\n{ret.format(d='出')}\nUNION ALL\n"
            f"MATCH (m)-[e]->(n:{q(label)})\nWHERE {where}\n{ret.format(d='入')}")


def _explore_reach(label: str, listing: bool, filtered: bool = True) -> str:
    """The far ring of a depth-2 neighbourhood without fetching every edge: the distinct other
    ends of the frontier ``$键列表`` that are not already drawn (``$已有``: ``标签:主键``), each
    with the smallest frontier key reaching it (经由). ``listing=False`` counts them per
    (对端标签, 经由) with their month span (bundles and "共 M"); ``listing=True`` lists them in
    the drawing order (structure before monthly records, schema label order, name) up to
    ``$上限``, monthly records only for the (标签|经由) groups in ``$逐条``."""
    from core.graph.schema import LABELS, MONTHLY_LABELS

    rank = "CASE 对端标签 " + " ".join(f"WHEN '{lb}' THEN {i}" for i, lb in enumerate(LABELS)) + " ELSE 99 END"
    monthly = "[" + ", ".join(f"'{lb}'" for lb in MONTHLY_LABELS) + "]"
    head = (f"MATCH (n:{q(label)})-[e]-(m)\nWHERE {_explore_where(label, filtered)}\n"
            f"WITH ⟦label:m⟧ AS 对端标签, {_other_key('m')} AS 对端键, min(n.{q(NODE_BY_LABEL[label].pk)}) AS 经由, "
            f"min({_LOGICAL_TYPE}) AS 关系, min(m.显示名) AS 对端显示名, min(m.年月) AS 对端年月\n"
            "WHERE NOT (对端标签 + ':' + 对端键) IN $已有\n")
    if not listing:
        return head + "RETURN 对端标签, 经由, min(关系) AS 关系, count(*) AS 数量, min(对端年月) AS 起, max(对端年月) AS 止"
    return head + (f"  AND (NOT 对端标签 IN {monthly} OR (对端标签 + '|' + 经由) IN $逐条)\n"
                   "RETURN 对端标签, 对端键, 对端显示名, 对端年月, 经由, 关系\n"
                   f"ORDER BY CASE WHEN 对端标签 IN {monthly} THEN 1 ELSE 0 END, {rank}, 对端显示名, 对端键\nLIMIT $上限")


def _explore_nodes(label: str) -> str:
    nt = NODE_BY_LABEL[label]
    cols = ", ".join(f"n.{q(p)} AS {q(p)}" for p in nt.property_names)
    return f"MATCH (n:{q(label)})\nWHERE n.{q(nt.pk)} IN $键列表\nRETURN {cols}\nORDER BY {q(nt.pk)}"


def explore_fields(label: str) -> list[str]:
    """The properties whose completeness the schema view reports (no day columns, keys, display)."""
    from core.graph.schema import DAY_COLUMNS, DISPLAY, SYNTHETIC_KEY

    return [p for p in NODE_BY_LABEL[label].property_names if p not in DAY_COLUMNS and p not in (DISPLAY, SYNTHETIC_KEY)]


def _explore_completeness(label: str) -> str:
    cols = ", ".join(f"count(n.{q(p)}) AS {q(p)}" for p in explore_fields(label))
    return f"MATCH (n:{q(label)})\nRETURN count(n) AS `__总数`, {cols}"


def _register_explore() -> None:
    from core.graph.schema import NODE_TABLES

    filters = {"关系列表": [], "标签列表": [], "从": YM_MIN, "到": YM_MAX}
    for nt in NODE_TABLES:
        lb = nt.label
        for suffix, f in (("", filters), ("_all", {})):
            on = not suffix
            register(NamedQuery(f"explore_edges{suffix}:{lb}", _explore_edges(lb, on),
                                {"键列表": [], **f, "上限": EXPLORE_ROW_CAP},
                                f"图谱浏览：{lb}节点（按主键列表）的出入边与对端" + ("（按关系类型/对端标签/年月过滤）" if on else "")))
            register(NamedQuery(f"explore_ring_edges{suffix}:{lb}", _explore_ring_edges(lb, on),
                                {"键列表": [], **f, "对端列表": []},
                                f"图谱浏览·第二层：{lb}节点列表与所选对端之间的边（同类平行边合并计数）"))
            register(NamedQuery(f"explore_reach_counts{suffix}:{lb}", _explore_reach(lb, False, on),
                                {"键列表": [], **f, "已有": []},
                                f"图谱浏览·第二层：{lb}节点列表的其他相邻节点数（按对端标签与经由节点）"))
            register(NamedQuery(f"explore_reach{suffix}:{lb}", _explore_reach(lb, True, on),
                                {"键列表": [], **f, "已有": [], "逐条": [], "上限": EXPLORE_ROW_CAP},
                                f"图谱浏览·第二层：{lb}节点列表的其他相邻节点（按显示顺序，限量）"))
        register(NamedQuery(f"explore_nodes:{nt.label}", _explore_nodes(nt.label), {"键列表": []},
                            f"图谱浏览：按主键列表取{nt.label}节点的全部属性（输出前按角色脱敏）",
                            sensitive=any(p in SENSITIVE_FIELDS for p in nt.property_names)))
        register(NamedQuery(f"explore_completeness:{nt.label}", _explore_completeness(nt.label), {},
                            f"图谱浏览·结构：{nt.label}节点数与各属性的填写数"))
    register(NamedQuery("explore_meta_edges", """
MATCH (a)-[e]->(b)
RETURN ⟦label:a⟧ AS 起点标签, """ + _LOGICAL_TYPE + """ AS 关系, ⟦label:b⟧ AS 终点标签, count(*) AS 数量
ORDER BY 关系, 起点标签, 终点标签""", {}, "图谱浏览·结构：按（起点标签, 关系, 终点标签）统计的关系数（元图）"))


_register_explore()
