"""Two-phase graph build from validated template records (seed 003 §5.3).

Phase 1 writes every node, phase 2 every relationship, each by batched ``UNWIND … MERGE``
through the :class:`GraphStore` (idempotent; duplicates inside a batch are resolved in Python,
later row wins). Every node and edge carries 来源模板 / 来源文件 / 行号. A reference to an
unknown 项目编号 / 工号 / 片区编号 builds the record but not the relationship and adds a warning
(template, file, row, column, value). 服务于 edges come from 人员服务期 rows and from unbroken
runs of consecutive 考勤/排班 months (one edge per run) not already covered by a stated period.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable

from core.graph.reader import Issue, ReadResult, Record
from core.graph.schema import (ATT_DERIVED, DAY_COLUMNS, DISPLAY, LABELS, NODE_BY_LABEL, PERSON_FIN, REL_TABLES,
                               SHIFT_COUNT_NAMES, display_name, synthetic_key)
from core.graph.store.protocol import GraphStore

ProgressFn = Callable[[str, float, str], None]


@dataclass
class BuildReport:
    nodes: dict[str, int] = field(default_factory=dict)
    edges: dict[str, int] = field(default_factory=dict)
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    written_nodes: dict[str, int] = field(default_factory=dict)
    written_edges: dict[str, int] = field(default_factory=dict)
    files_read: int = 0
    rows_read: int = 0
    seconds: float = 0.0
    phase_seconds: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "edges": self.edges, "errors": [e.to_dict() for e in self.errors],
                "warnings": [w.to_dict() for w in self.warnings], "seconds": round(self.seconds, 3),
                "written": {"nodes": self.written_nodes, "edges": self.written_edges},
                "files_read": self.files_read, "rows_read": self.rows_read,
                "phase_seconds": {k: round(v, 3) for k, v in self.phase_seconds.items()}}


def _ym_next(ym: str) -> str:
    y, m = int(ym[:4]), int(ym[5:7])
    return f"{y + (m == 12):04d}-{m % 12 + 1:02d}"


def month_runs(months: list[str]) -> list[tuple[str, str]]:
    """Unbroken runs of consecutive year-months: ['2026-01','2026-02','2026-04'] → [(01,02),(04,04)]."""
    runs: list[tuple[str, str]] = []
    for ym in sorted(set(months)):
        if runs and _ym_next(runs[-1][1]) == ym:
            runs[-1] = (runs[-1][0], ym)
        else:
            runs.append((ym, ym))
    return runs


class _Plan:
    """Nodes and edges to write, collected from the records with reference checks."""

    def __init__(self, known: dict[str, set[str]]):
        self.nodes: dict[str, list[dict]] = defaultdict(list)
        self.edges: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
        self.warnings: list[Issue] = []
        self.known = known  # 项目 / 人员 / 片区 keys (this build + already in the graph)
        self.stale_service: list[dict] = []  # derived 服务于 edges superseded by this build

    @staticmethod
    def prov(rec: Record) -> dict:
        return {"来源模板": rec.template, "来源文件": rec.file, "行号": rec.row}

    def node(self, label: str, rec: Record, values: dict) -> str:
        nt = NODE_BY_LABEL[label]
        row = {p: values.get(p) for p in nt.property_names}
        if nt.key_parts:
            row[nt.pk] = synthetic_key(label, values)
        row[DISPLAY] = display_name(label, row)
        row.update(self.prov(rec))
        self.nodes[label].append(row)
        return row[nt.pk]

    def ref_ok(self, kind: str, rec: Record, column: str) -> str | None:
        value = rec.values.get(column)
        if value is None:
            return None
        if value not in self.known[kind]:
            self.warnings.append(Issue(rec.template, rec.file, rec.row, column,
                                       f"引用的{NODE_BY_LABEL[kind].pk}不存在，未建立关系", value, "warning"))
            return None
        return value

    def edge(self, rel: str, a: str, b: str, frm: str | None, to: str | None, rec: Record, **props) -> None:
        if frm is None or to is None:
            return
        self.edges[(rel, a, b)].append({"from": frm, "to": to, **props, **self.prov(rec)})


def _att_derived(values: dict) -> dict:
    codes = [values.get(d) for d in DAY_COLUMNS]
    count = lambda *cs: sum(1 for c in codes if c in cs)  # noqa: E731
    return dict(zip((n for n, _ in ATT_DERIVED),
                    (count("√", "加"), count("休"), count("事", "病", "年", "调"), count("旷"), count("加"))))


def _shift_derived(values: dict) -> dict:
    codes = [values.get(d) for d in DAY_COLUMNS]
    return {"排班天数": sum(1 for c in codes if c and c != "休"), "夜班天数": sum(1 for c in codes if c in ("夜", "全")),
            "休息天数": sum(1 for c in codes if c == "休"),
            **{name: sum(1 for c in codes if c == code) for code, name in SHIFT_COUNT_NAMES.items()}}


_Recs = Callable[[str], list[Record]]
#: (工号, 项目编号) → 年月 → (the first record of that month, the kinds seen: 考勤 / 排班)
_Served = dict[tuple[str, str], dict[str, tuple[Record, set]]]


def plan_build(read: ReadResult, existing: dict[str, set[str]] | None = None,
               graph: "GraphService | None" = None) -> _Plan:
    """The nodes and edges ``read`` makes, with reference checks against ``existing`` keys (and
    this build's), and the 服务于 edges re-derived against ``graph``'s material (incremental)."""
    R = read.records
    recs = lambda t: R.get(t, [])  # noqa: E731
    P = _Plan(_known_keys(recs, existing))
    _plan_organisation(P, recs)
    served = _plan_monthly_facts(P, recs)
    _plan_project_records(P, recs)
    _plan_procurement(P, recs)
    _plan_inspections_and_certificates(P, recs)
    _plan_service(P, recs, served, graph)
    return P


def _known_keys(recs: _Recs, existing: dict[str, set[str]] | None) -> dict[str, set[str]]:
    """The 项目 / 人员 / 片区 keys a reference may name: those of this build and those already in the graph."""
    known = {k: set(v) for k, v in (existing or {}).items()}
    for k in ("项目", "人员", "片区"):
        known.setdefault(k, set())
    known["项目"] |= {r.values["项目编号"] for r in recs("项目信息")}
    known["人员"] |= {r.values["工号"] for r in recs("人员信息")}
    known["片区"] |= {r.values["片区编号"] for r in recs("片区信息")}
    return known


def _plan_organisation(P: _Plan, recs: _Recs) -> None:
    """Projects, people (员工层级 from the 岗位字典 where a row leaves it empty), areas, the areas of
    projects and project finance, with the edges each record implies."""
    levels = {r.values["岗位名称"]: r.values["员工层级"] for r in recs("岗位字典")}
    for r in recs("项目信息"):
        k = P.node("项目", r, r.values)
        P.edge("包含", "项目", "项目", P.ref_ok("项目", r, "上级项目编号"), k, r)
        P.edge("续签自", "项目", "项目", k, P.ref_ok("项目", r, "续签前项目编号"), r)
        P.edge("负责人", "项目", "人员", k, P.ref_ok("人员", r, "项目负责人工号"), r)
    for r in recs("人员信息"):
        v = dict(r.values)
        if levels:
            if v["岗位名称"] not in levels:
                P.warnings.append(Issue(r.template, r.file, r.row, "岗位名称", "岗位名称不在岗位字典中", v["岗位名称"],
                                        "warning"))
            elif not v.get("员工层级"):
                v["员工层级"] = levels[v["岗位名称"]]
        P.node("人员", r, v)
        P.ref_ok("项目", r, "当前服务项目编号")
    for r in recs("片区信息"):
        k = P.node("片区", r, r.values)
        P.edge("负责人", "片区", "人员", k, P.ref_ok("人员", r, "片区负责人工号"), r)
    for r in recs("项目片区关系"):
        P.edge("属于片区", "项目", "片区", P.ref_ok("项目", r, "项目编号"), P.ref_ok("片区", r, "片区编号"), r)
    for r in recs("项目月度财务"):
        k = P.node("财务", r, {**r.values, "财务类型": "项目财务"})
        P.edge("月度财务", "项目", "财务", P.ref_ok("项目", r, "项目编号"), k, r)
        P.edge("经办人", "财务", "人员", k, P.ref_ok("人员", r, "财务经办人工号"), r)


def _plan_monthly_facts(P: _Plan, recs: _Recs) -> _Served:
    """考勤 (with 人员财务) and 排班月报 records; returns the months each person served each project in."""
    served: _Served = defaultdict(dict)
    for r in recs("考勤与人员财务"):
        k = P.node("考勤", r, {**r.values, **_att_derived(r.values)})
        person, proj = P.ref_ok("人员", r, "工号"), P.ref_ok("项目", r, "项目编号")
        P.edge("有考勤", "人员", "考勤", person, k, r)
        P.edge("所属项目", "考勤", "项目", k, proj, r)
        if any(r.values.get(f) is not None for f in PERSON_FIN):
            fk = P.node("财务", r, {**r.values, "财务类型": "人员财务"})
            P.edge("月度财务", "人员", "财务", person, fk, r)
        if person and proj:
            served[(person, proj)].setdefault(r.values["年月"], (r, set()))[1].add("考勤")
    for r in recs("排班月报"):
        k = P.node("排班月报", r, {**r.values, **_shift_derived(r.values)})
        person, proj = P.ref_ok("人员", r, "工号"), P.ref_ok("项目", r, "项目编号")
        P.edge("有排班", "人员", "排班月报", person, k, r)
        P.edge("所属项目", "排班月报", "项目", k, proj, r)
        if person and proj:
            served[(person, proj)].setdefault(r.values["年月"], (r, set()))[1].add("排班")
    return served


def _plan_project_records(P: _Plan, recs: _Recs) -> None:
    """Bids, staffing and equipment of projects."""
    for r in recs("投标记录"):
        k = P.node("投标记录", r, r.values)
        P.edge("投标", "项目", "投标记录", P.ref_ok("项目", r, "项目编号"), k, r)
        P.edge("经办人", "投标记录", "人员", k, P.ref_ok("人员", r, "投标经办人工号"), r)
    for r in recs("岗位编制"):
        k = P.node("岗位编制", r, r.values)
        P.edge("编制", "项目", "岗位编制", P.ref_ok("项目", r, "项目编号"), k, r)
    for r in recs("设备信息"):
        k = P.node("设备", r, r.values)
        P.edge("所属项目", "设备", "项目", k, P.ref_ok("项目", r, "项目编号"), r)
        P.edge("责任人", "设备", "人员", k, P.ref_ok("人员", r, "设备责任人工号"), r)


def _plan_procurement(P: _Plan, recs: _Recs) -> None:
    """采购与维保 rows: suppliers, maintenance contracts and procurement records; a supplier named only
    on a record gets its node from that row."""
    suppliers_listed = {r.values["名称"] for r in recs("采购与维保") if r.values["记录类型"] == "供应商"}
    for r in recs("采购与维保"):
        v = r.values
        kind = v["记录类型"]
        if kind == "供应商":
            P.node("供应商", r, v)
            P.ref_ok("项目", r, "项目编号")
            P.ref_ok("人员", r, "经办人工号")
            continue
        label, rel = ("维保合同", "维保") if kind == "维保合同" else ("采购记录", "采购")
        k = P.node(label, r, v)
        P.edge(rel, "项目", label, P.ref_ok("项目", r, "项目编号"), k, r)
        P.edge("经办人", label, "人员", k, P.ref_ok("人员", r, "经办人工号"), r)
        sup = v.get("供应商名称")
        if sup:
            if sup not in suppliers_listed:  # named only here: the supplier node comes from this row
                P.nodes["供应商"].insert(0, {**{p: None for p in NODE_BY_LABEL["供应商"].property_names},
                                             "名称": sup, "类别": v.get("类别"), DISPLAY: sup, **P.prov(r)})
                suppliers_listed.add(sup)
            P.edge("维保单位" if label == "维保合同" else "供应商", label, "供应商", k, sup, r)


def _plan_inspections_and_certificates(P: _Plan, recs: _Recs) -> None:
    """Inspections of projects and people's certificates."""
    for r in recs("检查记录"):
        k = P.node("检查记录", r, r.values)
        P.edge("检查", "项目", "检查记录", P.ref_ok("项目", r, "项目编号"), k, r)
        P.edge("检查人", "检查记录", "人员", k, P.ref_ok("人员", r, "检查人工号"), r)
    for r in recs("人员证书"):
        k = P.node("证书", r, r.values)
        P.edge("持有", "人员", "证书", P.ref_ok("人员", r, "工号"), k, r)


def _plan_service(P: _Plan, recs: _Recs, served: _Served, graph: "GraphService | None") -> None:
    """服务于: stated periods win; derived runs fill what they do not cover."""
    stated, direct = _stated_periods(P, recs)
    old_derived = _add_graph_service(graph, served, stated) if graph is not None else {}
    for (person, proj), months in sorted(served.items()):
        _plan_derived_runs(P, person, proj, months, stated.get((person, proj), []),
                           old_derived.get((person, proj), set()))
    for person, proj, r, start, end in direct:
        P.edge("服务于", "人员", "项目", person, proj, r, 开始=start, 结束=end, 依据="服务期填写",
               备注=r.values.get("备注"))


def _stated_periods(P: _Plan, recs: _Recs) -> tuple[dict[tuple[str, str], list[tuple[str, str]]], list[tuple]]:
    """The 人员服务期 rows: (person, project) → [(开始, 结束 or 9999-99)], and the rows to write as edges."""
    stated: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    direct = []
    for r in recs("人员服务期"):
        person, proj = P.ref_ok("人员", r, "工号"), P.ref_ok("项目", r, "项目编号")
        if person and proj:
            start, end = r.values["开始年月"], r.values.get("结束年月")
            stated[(person, proj)].append((start, end or "9999-99"))
            direct.append((person, proj, r, start, end))
    return stated, direct


def _add_graph_service(graph: "GraphService", served: _Served,
                       stated: dict[tuple[str, str], list[tuple[str, str]]]) -> dict[tuple[str, str], set[str]]:
    """Incremental build: the months and stated periods already in the graph count too, for the
    pairs this build touches; returns the starts of those pairs' derived edges in the graph."""
    affected = set(served) | set(stated)
    old_derived: dict[tuple[str, str], set[str]] = defaultdict(set)
    for pair, months in graph.months.items():
        if pair in affected:
            for ym, (rec, kinds) in months.items():
                entry = served[pair].setdefault(ym, (rec, set()))
                entry[1].update(kinds)
    for pair, periods in graph.stated.items():
        if pair in affected:
            stated[pair] += periods
    for pair, starts in graph.derived.items():
        if pair in affected:
            old_derived[pair] |= starts
    return old_derived


def _plan_derived_runs(P: _Plan, person: str, proj: str, months: dict[str, tuple[Record, set]],
                       periods: list[tuple[str, str]], old_starts: set[str]) -> None:
    """One derived 服务于 edge per unbroken run of months no stated period covers; the pair's
    derived edges in the graph that no longer start a run (nor a stated period) are stale."""
    keep: set[str] = set()
    for start, end in month_runs(list(months)):
        if any(s <= start and end <= e for s, e in periods):
            continue
        rec = months[start][0]
        kinds = set().union(*(months[m][1] for m in months if start <= m <= end))
        how = "/".join(k for k in ("考勤", "排班") if k in kinds) + "推导"
        P.edge("服务于", "人员", "项目", person, proj, rec, 开始=start, 结束=end, 依据=how, 备注=None)
        keep.add(start)
    stated_starts = {s for s, _ in periods}
    for start in sorted(old_starts - keep - stated_starts):
        P.stale_service.append({"from": person, "to": proj, "开始": start})


@dataclass
class GraphService:
    """服务于 material already in the graph (for incremental builds)."""

    months: dict[tuple[str, str], dict[str, tuple[Record, set]]] = field(default_factory=dict)
    stated: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    derived: dict[tuple[str, str], set[str]] = field(default_factory=dict)


def graph_service(store: GraphStore) -> GraphService:
    g = GraphService()
    for name, kind in (("attendance_months", "考勤"), ("schedule_months", "排班")):
        for r in store.run_named(name):
            rec = Record(r["来源模板"], r["来源文件"], r["行号"], {})
            g.months.setdefault((r["工号"], r["项目编号"]), {}).setdefault(r["年月"], (rec, set()))[1].add(kind)
    for r in store.run_named("service_periods_all"):
        pair = (r["工号"], r["项目编号"])
        if r["依据"] == "服务期填写":
            g.stated.setdefault(pair, []).append((r["开始"], r["结束"] or "9999-99"))
        else:
            g.derived.setdefault(pair, set()).add(r["开始"])
    return g


def existing_keys(store: GraphStore) -> dict[str, set[str]]:
    return {"项目": {r["项目编号"] for r in store.run_named("entity_projects")},
            "人员": {r["工号"] for r in store.run_named("entity_people")},
            "片区": {r["片区编号"] for r in store.run_named("entity_areas")}}


def build_graph(store: GraphStore, read: ReadResult, *, clear: bool = False, progress: ProgressFn | None = None,
                batch_size: int = 2000) -> BuildReport:
    """Write ``read`` into ``store`` (phase 1 nodes, phase 2 relationships) and report."""
    t0 = time.perf_counter()
    report = BuildReport(errors=list(read.errors), warnings=list(read.warnings), files_read=read.files_read,
                         rows_read=read.rows_read)
    if clear:
        store.clear()
    needs_service = any(read.records.get(t) for t in ("考勤与人员财务", "排班月报", "人员服务期"))
    plan = plan_build(read, None if clear else existing_keys(store),
                      None if clear or not needs_service else graph_service(store))
    report.warnings += plan.warnings
    t1 = time.perf_counter()
    labels = [lb for lb in LABELS if plan.nodes.get(lb)]
    for i, label in enumerate(labels, 1):
        report.written_nodes[label] = store.upsert_nodes(label, plan.nodes[label], batch_size=batch_size)
        if progress:
            progress("nodes", i / len(labels), f"已写入节点：{label} {report.written_nodes[label]}")
    if progress and not labels:
        progress("nodes", 1.0, "没有节点需要写入")
    t2 = time.perf_counter()
    if plan.stale_service:
        store.delete_edges("服务于", "人员", "项目", plan.stale_service)
    order = [(rt.type, a, b) for rt in REL_TABLES for a, b in rt.pairs if plan.edges.get((rt.type, a, b))]
    for i, (rel, a, b) in enumerate(order, 1):
        n = store.upsert_edges(rel, a, b, plan.edges[(rel, a, b)], batch_size=batch_size)
        report.written_edges[rel] = report.written_edges.get(rel, 0) + n
        if progress:
            progress("edges", i / len(order), f"已写入关系：{rel}（{a}→{b}）{n}")
    if progress and not order:
        progress("edges", 1.0, "没有关系需要写入")
    t3 = time.perf_counter()
    c = store.counts()
    report.nodes, report.edges = c["nodes"], c["edges"]
    report.seconds = time.perf_counter() - t0
    report.phase_seconds = {"plan": t1 - t0, "nodes": t2 - t1, "edges": t3 - t2}
    return report
