"""The contract every GraphStore backend passes (LadybugDB here; Neo4j subclasses it too).

A backend's test module subclasses :class:`GraphStoreContract` and provides a ``store``
fixture returning an empty store with the schema created, e.g.::

    class TestNeo4j(GraphStoreContract):
        @pytest.fixture
        def store(self):
            s = Neo4jStore(settings); s.clear(); yield s; s.close()
"""

from __future__ import annotations

import pytest

from core.errors import ReadOnlyViolation
from core.graph import queries as Q
from core.graph.schema import LABELS, NODE_BY_LABEL, REL_TYPES
from core.graph.store.protocol import GraphStore


def _prov(row: int, tpl: str = "测试模板", file: str = "t.xlsx") -> dict:
    return {"来源模板": tpl, "来源文件": file, "行号": row}


def _seed(store: GraphStore) -> None:
    store.upsert_nodes("项目", [{"项目编号": "P1", "项目名称": "青浦-区图书馆", "服务状态": "服务中", "合同金额": 1200.5,
                                 "客户投诉": 2, "开始日期": "2024-01-01", **_prov(2)},
                                {"项目编号": "P0", "项目名称": "青浦-文体中心", "服务状态": "服务中", **_prov(3)}])
    store.upsert_nodes("人员", [{"工号": "K1", "姓名": "张三", "岗位名称": "保安_普保", "当前服务项目编号": "P1", **_prov(2)},
                                {"工号": "K2", "姓名": "李四", "岗位名称": "项目经理", **_prov(3)}])
    store.upsert_nodes("考勤", [{"键": "K1|P1|2026-03", "工号": "K1", "项目编号": "P1", "年月": "2026-03", "加班小时": 24.0,
                                 "旷工天数": 1, "请假天数": 0, "1日": "√", **_prov(2, "考勤与人员财务")}])
    store.upsert_edges("有考勤", "人员", "考勤", [{"from": "K1", "to": "K1|P1|2026-03", **_prov(2, "考勤与人员财务")}])
    store.upsert_edges("所属项目", "考勤", "项目", [{"from": "K1|P1|2026-03", "to": "P1", **_prov(2, "考勤与人员财务")}])
    store.upsert_edges("服务于", "人员", "项目", [{"from": "K1", "to": "P1", "开始": "2026-01", "结束": None, "依据": "服务期填写",
                                                  **_prov(4, "人员服务期")}])
    store.upsert_edges("包含", "项目", "项目", [{"from": "P0", "to": "P1", **_prov(2)}])
    store.upsert_edges("负责人", "项目", "人员", [{"from": "P1", "to": "K2", **_prov(2)}])


class GraphStoreContract:
    @pytest.fixture
    def store(self) -> GraphStore:  # pragma: no cover - provided by subclasses
        raise NotImplementedError

    def test_is_a_graph_store(self, store):
        assert isinstance(store, GraphStore)

    def test_schema_has_every_label_and_type(self, store):
        c = store.counts()
        assert set(c["nodes"]) == set(LABELS) and set(c["edges"]) == set(REL_TYPES)
        assert all(v == 0 for v in c["nodes"].values())

    def test_upsert_is_idempotent_and_typed(self, store):
        _seed(store)
        first = store.counts()
        _seed(store)
        assert store.counts() == first
        assert first["nodes"]["项目"] == 2 and first["edges"]["服务于"] == 1
        row = store.query("MATCH (n:项目) WHERE n.项目编号 = $k RETURN n.合同金额 AS a, n.客户投诉 AS c, n.开始日期 AS d",
                          {"k": "P1"})[0]
        assert row == {"a": 1200.5, "c": 2, "d": "2024-01-01"}

    def test_duplicate_keys_in_one_batch_last_wins(self, store):
        store.upsert_nodes("项目", [{"项目编号": "D", "项目名称": "first", **_prov(2)},
                                    {"项目编号": "D", "项目名称": "last", **_prov(3)}])
        rows = store.query("MATCH (n:项目) RETURN n.项目名称 AS name, n.行号 AS row")
        assert rows == [{"name": "last", "row": 3}]
        store.upsert_nodes("人员", [{"工号": "K", "姓名": "x", **_prov(2)}])
        store.upsert_edges("服务于", "人员", "项目", [
            {"from": "K", "to": "D", "开始": "2026-01", "结束": "2026-02", **_prov(5)},
            {"from": "K", "to": "D", "开始": "2026-01", "结束": "2026-04", **_prov(6)},
            {"from": "K", "to": "D", "开始": "2026-06", "结束": None, **_prov(7)}])
        rows = store.query("MATCH (:人员)-[e:服务于]->(:项目) RETURN e.开始 AS s, e.结束 AS e, e.行号 AS r ORDER BY s")
        assert rows == [{"s": "2026-01", "e": "2026-04", "r": 6}, {"s": "2026-06", "e": None, "r": 7}]

    def test_null_in_every_row_of_a_typed_column(self, store):
        store.upsert_nodes("项目", [{"项目编号": "N", "项目名称": "n", "合同金额": None, "客户投诉": None, **_prov(2)}])
        assert store.query("MATCH (n:项目) RETURN n.合同金额 AS a")[0]["a"] is None

    def test_provenance_on_nodes_and_edges(self, store):
        _seed(store)
        for label in ("项目", "人员", "考勤"):
            rows = store.query(f"MATCH (n:`{label}`) RETURN n.来源模板 AS t, n.来源文件 AS f, n.行号 AS r")
            assert rows and all(r["t"] and r["f"] and isinstance(r["r"], int) for r in rows)
        rows = store.query("MATCH ()-[e]->() RETURN ⟦type:e⟧ AS t, e.来源模板 AS m, e.来源文件 AS f, e.行号 AS r")
        assert {r["t"] for r in rows} >= {"服务于", "有考勤", "所属项目", "包含", "负责人"}
        assert all(r["m"] and r["f"] and r["r"] for r in rows)

    def test_delete_edges(self, store):
        _seed(store)
        store.upsert_edges("服务于", "人员", "项目", [{"from": "K1", "to": "P1", "开始": "2026-03", **_prov(5)}])
        assert store.delete_edges("服务于", "人员", "项目", [{"from": "K1", "to": "P1", "开始": "2026-01"}]) == 1
        rows = store.query("MATCH (:人员)-[e:服务于]->(:项目) RETURN e.开始 AS s")
        assert rows == [{"s": "2026-03"}]

    def test_edge_to_missing_node_is_not_created(self, store):
        _seed(store)
        store.upsert_edges("负责人", "项目", "人员", [{"from": "P1", "to": "NOPE", **_prov(9)}])
        assert store.counts()["edges"]["负责人"] == 1

    def test_supplier_rel_type_shares_a_node_label_name(self, store):
        store.upsert_nodes("采购记录", [{"键": "r", "名称": "拖把", **_prov(2)}])
        store.upsert_nodes("供应商", [{"名称": "洁美", **_prov(3)}])
        store.upsert_edges("供应商", "采购记录", "供应商", [{"from": "r", "to": "洁美", **_prov(2)}])
        assert store.counts()["edges"]["供应商"] == 1
        assert store.query("MATCH (r:采购记录)-[:⟦R:供应商⟧]->(s:供应商) RETURN s.名称 AS n") == [{"n": "洁美"}]

    def test_every_named_query_runs(self, store):
        _seed(store)
        for name in Q.QUERIES:
            assert isinstance(store.run_named(name), list), name
        for label in LABELS:
            for prop in NODE_BY_LABEL[label].property_names[:3]:
                store.query(*Q.distinct_values(label, prop))
            store.query(*Q.node_by_key(label, "x"))

    def test_named_queries_answer(self, store):
        _seed(store)
        rows = store.run_named("overtime_over", {"从": "2026-03", "到": "2026-03", "最少小时": 20.0,
                                                 "岗位列表": ["保安_普保", "保安_领班"]})
        assert [(r["工号"], r["加班小时"], r["行号"]) for r in rows] == [("K1", 24.0, 2)]
        assert store.run_named("staff_serving_project", {"项目编号": "P1", "从": "2026-03", "到": "2026-03"})[0]["工号"] == "K1"
        assert store.run_named("staff_serving_project", {"项目编号": "P1", "从": "2025-01", "到": "2025-12"}) == []
        assert [r["项目编号"] for r in store.run_named("project_children", {"项目编号": "P0"})] == ["P1"]
        assert [r["项目编号"] for r in store.run_named("projects_without_staff", {"从": "2026-03", "到": "2026-03"})] == ["P0"]

    def test_explore_queries_answer(self, store):
        _seed(store)
        store.upsert_nodes("采购记录", [{"键": "r", "名称": "拖把", **_prov(2)}])
        store.upsert_nodes("供应商", [{"名称": "洁美", **_prov(3)}])
        store.upsert_edges("供应商", "采购记录", "供应商", [{"from": "r", "to": "洁美", **_prov(2)}])

        def edges(label, keys, **kw):
            rows = store.run_named(f"explore_edges:{label}", {"键列表": keys, **kw})
            return sorted((r["键"], r["方向"], r["关系"], r["对端标签"], r["对端键"], r["对端年月"], r["开始"], r["行号"])
                          for r in rows)

        assert edges("人员", ["K1", "K2"]) == [
            ("K1", "出", "有考勤", "考勤", "K1|P1|2026-03", "2026-03", None, 2),
            ("K1", "出", "服务于", "项目", "P1", None, "2026-01", 4),
            ("K2", "入", "负责人", "项目", "P1", None, None, 2)]
        assert [e[2] for e in edges("人员", ["K1"], 关系列表=["服务于"])] == ["服务于"]
        assert [e[2] for e in edges("人员", ["K1"], 标签列表=["考勤"])] == ["有考勤"]
        # a month range keeps period edges that overlap it and monthly records inside it
        assert [e[2] for e in edges("人员", ["K1"], 从="2026-04", 到="2026-05")] == ["服务于"]
        assert edges("人员", ["K1"], 从="2025-01", 到="2025-12") == []
        assert len(edges("项目", ["P1"])) == 4 and len(edges("项目", ["P1"], 上限=1)) == 2  # 上限 per direction
        assert edges("采购记录", ["r"]) == [("r", "出", "供应商", "供应商", "洁美", None, None, 2)]  # logical name
        assert edges("供应商", ["洁美"], 关系列表=["供应商"])[0][1:5] == ("入", "供应商", "采购记录", "r")
        # the far ring of a depth-2 view: counted per (label, 经由), listed in drawing order, edges folded
        counts = store.run_named("explore_reach_counts_all:人员", {"键列表": ["K1"], "已有": ["人员:K1"]})
        assert sorted((r["对端标签"], r["经由"], r["数量"]) for r in counts) == [("考勤", "K1", 1), ("项目", "K1", 1)]
        assert [r["对端键"] for r in store.run_named("explore_reach_all:人员", {
            "键列表": ["K1"], "已有": ["人员:K1"], "逐条": ["考勤|K1"]})] == ["P1", "K1|P1|2026-03"]
        assert [r["对端键"] for r in store.run_named("explore_reach:人员", {
            "键列表": ["K1"], "已有": ["人员:K1", "项目:P1"], "标签列表": ["项目"]})] == []
        ring = store.run_named("explore_ring_edges_all:人员", {"键列表": ["K1"], "对端列表": ["项目:P1"]})
        assert [(r["方向"], r["关系"], r["对端键"], r["条数"], r["行号"]) for r in ring] == [("出", "服务于", "P1", 1, 4)]
        assert store.run_named("explore_nodes:项目", {"键列表": ["P1", "nope"]})[0]["项目名称"] == "青浦-区图书馆"
        assert store.run_named("explore_nodes:项目") == []
        c = store.run_named("explore_completeness:人员")[0]
        assert (c["__总数"], c["姓名"], c["当前服务项目编号"], c["出生日期"]) == (2, 2, 1, 0)
        meta = {(r["起点标签"], r["关系"], r["终点标签"]): r["数量"] for r in store.run_named("explore_meta_edges")}
        assert meta[("人员", "服务于", "项目")] == 1 and meta[("采购记录", "供应商", "供应商")] == 1
        assert sum(meta.values()) == sum(store.counts()["edges"].values())

    def test_unknown_parameter_is_refused(self, store):
        from core.errors import BadInputError

        with pytest.raises(BadInputError):
            store.run_named("attendance_by_person", {"姓名": "张三"})

    @pytest.mark.parametrize("cypher", [
        "MATCH (n) DETACH DELETE n", "CREATE (n:项目 {项目编号: 'x'})", "MATCH (n:项目) SET n.项目名称 = 'x' RETURN n",
        "MERGE (n:项目 {项目编号: 'x'})", "MATCH (n:项目) REMOVE n.项目名称", "DROP TABLE 项目",
        "COPY 项目 FROM 'x.csv'", "LOAD FROM 'x.csv' RETURN *", "CALL db.clearQueryCaches()",
        "MATCH (n) RETURN n; MATCH (m) DELETE m", "match (n) delete n"])
    def test_read_path_refuses_writes(self, store, cypher):
        _seed(store)
        before = store.counts()
        with pytest.raises(ReadOnlyViolation):
            store.query(cypher)
        assert store.counts() == before

    def test_read_path_allows_write_words_inside_strings(self, store):
        _seed(store)
        rows = store.query("MATCH (n:项目) WHERE n.项目名称 <> 'CREATE SET DELETE' RETURN count(n) AS c")
        assert rows == [{"c": 2}]

    def test_clear_removes_everything(self, store):
        _seed(store)
        store.clear()
        c = store.counts()
        assert sum(c["nodes"].values()) == 0 and sum(c["edges"].values()) == 0
        _seed(store)
        assert store.counts()["nodes"]["项目"] == 2

    def test_large_batch(self, store):
        n = 10_000  # 20k nodes + 10k edges + a 2k fan-in of period edges on one node
        store.upsert_nodes("人员", ({"工号": f"K{i:06d}", "姓名": f"员工{i}", "岗位名称": "保洁员", **_prov(i + 2)}
                                    for i in range(n)))
        store.upsert_nodes("证书", ({"键": f"K{i:06d}|保洁员证", "工号": f"K{i:06d}", "证书名称": "保洁员证", **_prov(i + 2)}
                                    for i in range(n)))
        store.upsert_edges("持有", "人员", "证书", ({"from": f"K{i:06d}", "to": f"K{i:06d}|保洁员证", **_prov(i + 2)}
                                                    for i in range(n)))
        store.upsert_nodes("项目", [{"项目编号": "BIG", "项目名称": "大项目", **_prov(2)}])
        store.upsert_edges("服务于", "人员", "项目", ({"from": f"K{i:06d}", "to": "BIG", "开始": "2026-01", **_prov(i + 2)}
                                                      for i in range(2000)))
        c = store.counts()
        assert c["nodes"]["人员"] == n and c["nodes"]["证书"] == n and c["edges"]["持有"] == n
        assert c["edges"]["服务于"] == 2000
        assert store.query("MATCH (p:人员) WHERE p.工号 = 'K009999' RETURN p.行号 AS r") == [{"r": 10001}]


# =======================================================================================
# Tenancy and generations (core.graph.store: get_graph_store / graph_build / graph_tenants /
# source_file). A backend's module provides ``graph_settings`` (Settings of a workspace on that
# backend) and may override :meth:`TenancyContract.leftovers`.
# =======================================================================================
import json  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from core.errors import BadInputError, GraphBuildBusy, GraphStoreError  # noqa: E402
from core.graph.reader import read_files  # noqa: E402
from core.graph.schema import NODE_TABLES, REL_TABLES, TEMPLATE_BY_NAME  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "data" / "samples" / "business"
SAMPLE_CONFIG = SAMPLES / "config.json"
BROKEN_CONFIG = REPO / "data" / "samples" / "broken" / "config.json"

#: Columns whose values the "B" tenant keeps (keys and references), so both tenants share keys.
_KEEP_SUFFIXES = ("编号", "工号", "年月", "日期", "类型")
_KEEP = {"名称", "供应商名称", "岗位名称", "岗位", "依据", "姓名"}


def _tenant_b_records(read):
    """The sample records with every other text/number changed: same keys, different values."""
    from core.graph.schema import DAY_COLUMNS

    for tname, recs in read.records.items():
        keys = set(TEMPLATE_BY_NAME[tname].key)
        for rec in recs:
            for col, v in list(rec.values.items()):
                if col in keys or col in DAY_COLUMNS or col.endswith(_KEEP_SUFFIXES) or col in _KEEP:
                    continue
                if isinstance(v, str) and v:
                    rec.values[col] = v + "·乙"
                elif isinstance(v, (int, float)) and not isinstance(v, bool):
                    rec.values[col] = v + 7919
            if "姓名" in rec.values and isinstance(rec.values["姓名"], str):
                rec.values["姓名"] = rec.values["姓名"] + "乙"
    return read


def _all_values(store) -> set:
    """Every property value of every node and edge of the store's graph (as reprs)."""
    out = set()
    for nt in NODE_TABLES:
        cols = ", ".join(f"n.`{p}` AS `{p}`" for p in nt.property_names)
        for row in store.query(f"MATCH (n:`{nt.label}`) RETURN {cols}"):
            out |= {repr(v) for v in row.values() if v is not None}
    for rt in REL_TABLES:
        cols = ", ".join(f"e.`{p}` AS `{p}`" for p, _ in rt.all_properties)
        for row in store.query(f"MATCH ()-[e:⟦R:{rt.type}⟧]->() RETURN {cols}"):
            out |= {repr(v) for v in row.values() if v is not None}
    return out


def _flat(v):
    if isinstance(v, dict):
        for x in v.values():
            yield from _flat(x)
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from _flat(x)
    elif v is not None:
        yield repr(v)


def _probe(store) -> dict:
    """Values that exist in the store's graph, for the named queries' parameters."""
    people = store.run_named("entity_people")
    projects = store.run_named("entity_projects")
    att = store.query("MATCH (a:考勤) RETURN a.工号 AS 工号, a.年月 AS 年月 ORDER BY 年月, 工号 LIMIT 1")
    return {"项目编号": projects[0]["项目编号"], "工号": att[0]["工号"], "年月": att[0]["年月"],
            "显示名": f"{people[0]['姓名']}（{people[0]['工号']}）", "projects": [projects[0]["项目编号"]],
            "people": [att[0]["工号"]], "months": [att[0]["年月"]]}


def _variants(probe: dict, nq) -> list[dict]:
    given = {k: probe[k] for k in nq.defaults if k in probe}
    return [{}, given] if given else [{}]


def _answers(store) -> dict:
    """Counts plus a few named queries: what "the graph answers exactly as before" compares."""
    return {"counts": store.counts(),
            "people": store.run_named("entity_people"),
            "history": store.run_named("person_service_history", {"工号": "KWL2307024"}),
            "overtime": store.run_named("overtime_over", {"从": "2026-03", "到": "2026-03", "最少小时": 20.0}),
            "projects": store.run_named("kg_projects")}


CHILD = r"""
import sys, time
sys.path.insert(0, {repo!r})
from core.graph.store import add_build_hook
from core.security.principals import Principal, Role
from core.services.build import build_from_config

moment, config, tenant, clear = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"

def hook(step, t):
    print("step", step, flush=True)
    if step == moment or (moment.startswith("run:") and step == "written"):
        time.sleep(3600)  # the parent kills us here (run:…: the writes go on until it does)

def progress(phase, frac, msg):
    print("progress", phase, flush=True)
    if phase == moment:
        time.sleep(3600)

add_build_hook(hook)
build_from_config(Principal("admin", Role.admin), config, tenant=tenant, clear=clear, progress=progress)
print("done", flush=True)
"""


@pytest.fixture(scope="class")
def two_tenants(shared_graph_settings):
    """Tenants ``ta`` (the samples) and ``tb`` (same keys, every other value changed), built
    once per test class and shared by its isolation tests, which only read them. A backend's
    test module provides ``shared_graph_settings`` (like ``graph_settings``, one empty graph
    home for the whole class) and imports this fixture."""
    from core.services.build import load_config

    files = load_config(SAMPLE_CONFIG)
    TenancyContract._build(shared_graph_settings, "ta", read_files(files))
    TenancyContract._build(shared_graph_settings, "tb", _tenant_b_records(read_files(files)))
    return shared_graph_settings


class TenancyContract:
    @pytest.fixture
    def graph_settings(self):  # pragma: no cover - provided by subclasses
        raise NotImplementedError

    def leftovers(self, settings, tenant: str) -> list[str]:
        """What an unfinished build left behind (generation folders other than the current one)."""
        from core.graph.store.tenancy import graphs_for

        g = graphs_for(settings)
        folder = g.folder(tenant)
        cur = g.current(tenant)
        return sorted(p.name for p in folder.iterdir() if p.name.startswith("gen-") and p.name != f"gen-{cur:06d}") \
            if folder.is_dir() else []

    def child_env(self, settings) -> dict:
        env = dict(os.environ)
        env["ZHICE_HOME"] = str(settings.home)
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        if settings.neo4j_uri:
            env["ZHICE_NEO4J_URI"] = settings.neo4j_uri
        return env

    @staticmethod
    def _build(settings, tenant, read, *, clear=False, sources=()):
        from core.graph.builder import build_graph
        from core.graph.store import graph_build

        with graph_build(tenant, clear=clear, settings=settings) as stage:
            for template, path in sources:
                stage.add_source(template, Path(path).name, path)
            build_graph(stage, read, clear=clear)
        return stage.generation

    # ---- isolation ----------------------------------------------------------------------
    def test_every_named_query_stays_in_its_tenant(self, two_tenants):
        from core.graph.store import get_graph_store, graph_tenants

        graph_settings = two_tenants
        assert graph_tenants(graph_settings) == ["ta", "tb"]
        a, b = get_graph_store(graph_settings, tenant="ta"), get_graph_store(graph_settings, tenant="tb")
        assert a.counts() == b.counts()  # same keys, so the same nodes and edges …
        values_a, values_b = _all_values(a), _all_values(b)
        only = {"ta": values_a - values_b, "tb": values_b - values_a}
        assert len(only["tb"]) > 300 and "'青浦-区图书馆·乙'" in only["tb"]  # … with different values
        extra = Q.register(Q.NamedQuery("test_registered_later_all_names", "MATCH (n) RETURN n.显示名 AS 名 ORDER BY 名",
                                        {}, "contract: a query registered after import"))
        try:
            for me, other in (("ta", "tb"), ("tb", "ta")):
                store = get_graph_store(graph_settings, tenant=me)
                probe = _probe(store)
                answered = 0
                for name, nq in Q.QUERIES.items():
                    for params in _variants(probe, nq):
                        rows = store.run_named(name, params)
                        leaked = set(_flat(rows)) & only[other]
                        assert not leaked, (me, name, params, sorted(leaked)[:5])
                        answered += bool(rows)
                assert answered >= 40, answered
                for label in LABELS:
                    for prop in NODE_BY_LABEL[label].property_names[:6]:
                        rows = store.query(*Q.distinct_values(label, prop))
                        assert not set(_flat(rows)) & only[other], (me, label, prop)
                whole = store.query("MATCH (n)-[e]->(m) RETURN n, e, m")
                assert whole and not set(_flat(whole)) & only[other]
        finally:
            Q.QUERIES.pop(extra.name, None)
        # a tenant without a graph: an empty store, no rows, no error, no hint of other tenants
        none = get_graph_store(graph_settings, tenant="nobody")
        assert none.tenant == "nobody" and none.generation == 0
        assert all(none.run_named(name) == [] for name in Q.QUERIES)
        c = none.counts()
        assert set(c["nodes"]) == set(LABELS) and not any(c["nodes"].values()) and not any(c["edges"].values())
        assert graph_tenants(graph_settings) == ["ta", "tb"]

    def test_explorer_stays_in_its_tenant(self, two_tenants):
        from core import config
        from core.agents.kg.entity_index import invalidate
        from core.errors import NotFoundError
        from core.graph.store import get_graph_store, graph_tenants
        from core.security.principals import Principal, Role
        from core.services import explore as X

        graph_settings = two_tenants
        assert graph_tenants(graph_settings) == ["ta", "tb"]

        only_b = _all_values(get_graph_store(graph_settings, tenant="tb")) - \
            _all_values(get_graph_store(graph_settings, tenant="ta"))
        config.set_settings(graph_settings)
        invalidate()
        try:
            a = Principal("ma", Role.manager, tenants=("ta",))
            seen = [X.search(a, "青浦区图书馆"), X.search(a, "刘德明"), X.schema_view(a),
                    X.neighbors(a, "项目:XMSQ0102", depth=2, limit=2000),
                    X.neighbors(a, "人员:KWL2012006", months="2026-02:2026-03", bundle_over=2),
                    X.node_detail(a, "人员:KWL2012006", with_source=False),
                    X.edge_detail(a, "项目:XMSQ0100-[包含]->项目:XMSQ0102", with_source=False),
                    X.shortest_path(a, "人员:KWL2012006", "项目:XMSQ0052")]
            assert seen[0]["results"][0]["id"] == "项目:XMSQ0102" and seen[3]["total_nodes"] > 50
            assert seen[7]["hops"] == 3 and seen[2]["labels"][0]["count"] == 16
            leaked = set(_flat(seen)) & only_b
            assert not leaked, sorted(leaked)[:5]
            b = Principal("mb", Role.manager, tenants=("tb",))
            assert "青浦-区图书馆·乙" in str(X.node_detail(b, "项目:XMSQ0102", with_source=False)["properties"])
            nobody = Principal("mn", Role.manager, tenants=("nobody",))
            assert X.search(nobody, "区图书馆")["results"] == [] and X.schema_view(nobody)["empty"]
            with pytest.raises(NotFoundError):
                X.neighbors(nobody, "项目:XMSQ0102")
        finally:
            config.set_settings(None)
            invalidate()

    # ---- generations ----------------------------------------------------------------------
    def test_generations_switch_atomically(self, graph_settings, tmp_path):
        from core.graph.store import get_graph_store, graph_build, graph_tenants, source_file

        reader = get_graph_store(graph_settings, tenant="ta")
        assert graph_tenants(graph_settings) == [] and reader.generation == 0
        f1 = tmp_path / "人员.xlsx"
        f1.write_bytes(b"first")
        with graph_build("ta", settings=graph_settings) as stage:
            assert stage.tenant == "ta" and stage.generation == 1
            _seed(stage)
            stage.add_source("人员信息", "人员.xlsx", f1)
            assert stage.counts()["nodes"]["项目"] == 2
            assert reader.run_named("entity_projects") == [] and reader.generation == 0  # not yet visible
        assert reader.generation == 1 and len(reader.run_named("entity_projects")) == 2  # the same store
        assert graph_tenants(graph_settings) == ["ta"]
        first = source_file("ta", "人员信息", "人员.xlsx", settings=graph_settings)
        assert first is not None and first.read_bytes() == b"first"
        f1.write_bytes(b"changed after the build")  # the generation keeps its own copy
        assert first.read_bytes() == b"first"

        # incremental: starts from a copy of the current generation
        with graph_build("ta", settings=graph_settings) as stage:
            stage.upsert_nodes("片区", [{"片区编号": "A9", "片区名称": "新片区", **_prov(2)}])
        assert reader.generation == 2 and reader.counts()["nodes"]["项目"] == 2
        assert [r["片区编号"] for r in reader.run_named("entity_areas")] == ["A9"]
        assert source_file("ta", "人员信息", "人员.xlsx", settings=graph_settings).read_bytes() == b"first"

        # a failing build changes nothing readers see, and leaves nothing behind
        before = reader.counts()
        with pytest.raises(RuntimeError, match="boom"):
            with graph_build("ta", clear=True, settings=graph_settings) as stage:
                stage.upsert_nodes("项目", [{"项目编号": "X", "项目名称": "半成品", **_prov(2)}])
                raise RuntimeError("boom")
        assert reader.generation == 2 and reader.counts() == before and self.leftovers(graph_settings, "ta") == []

        # one build per tenant at a time; another tenant may build meanwhile
        with graph_build("ta", clear=True, settings=graph_settings) as stage:
            with pytest.raises(GraphBuildBusy, match="正在由另一个任务构建"):
                with graph_build("ta", settings=graph_settings):
                    pass
            with graph_build("tb", settings=graph_settings) as other:
                other.upsert_nodes("项目", [{"项目编号": "P1", "项目名称": "乙的项目", **_prov(2)}])
            stage.upsert_nodes("项目", [{"项目编号": "P1", "项目名称": "重建", **_prov(2)}])
        assert reader.generation == 3 and reader.counts()["nodes"] == {**{lb: 0 for lb in LABELS}, "项目": 1}
        assert reader.run_named("project_profile", {"项目编号": "P1"})[0]["项目名称"] == "重建"
        assert source_file("ta", "人员信息", "人员.xlsx", settings=graph_settings) is None  # --clear: no sources
        tb = get_graph_store(graph_settings, tenant="tb")
        assert tb.generation == 1 and tb.run_named("project_profile", {"项目编号": "P1"})[0]["项目名称"] == "乙的项目"
        assert graph_tenants(graph_settings) == ["ta", "tb"]

        # read stores refuse writes
        with pytest.raises(GraphStoreError):
            reader.upsert_nodes("项目", [{"项目编号": "W", **_prov(2)}])
        assert self.leftovers(graph_settings, "ta") == []

    def test_bad_tenant_and_source_names(self, graph_settings, tmp_path):
        from core.graph.store import get_graph_store, graph_build, source_file

        for bad in ("", "a b", "../x", "x/y", "_hidden", "租户", "t" * 33):
            with pytest.raises(BadInputError, match="租户名"):
                get_graph_store(graph_settings, tenant=bad)
            with pytest.raises(BadInputError, match="租户名"):
                with graph_build(bad, settings=graph_settings):
                    pass
        f = tmp_path / "a.xlsx"
        f.write_bytes(b"x")
        with graph_build("ta", settings=graph_settings) as stage:
            stage.add_source("项目信息", "a.xlsx", f)
            for name in ("../a.xlsx", "sub/a.xlsx", "..", "", "a\\b.xlsx"):
                with pytest.raises(BadInputError):
                    stage.add_source("项目信息", name, f)
            with pytest.raises(BadInputError):
                stage.add_source("不是模板", "a.xlsx", f)
        assert source_file("ta", "项目信息", "a.xlsx", settings=graph_settings).read_bytes() == b"x"
        assert source_file("ta", "项目信息", "b.xlsx", settings=graph_settings) is None
        assert source_file("ta", "人员信息", "a.xlsx", settings=graph_settings) is None
        assert source_file("other", "项目信息", "a.xlsx", settings=graph_settings) is None
        for name in ("../a.xlsx", "项目信息/../a.xlsx", "..", "/etc/passwd"):
            with pytest.raises(BadInputError):
                source_file("ta", "项目信息", name, settings=graph_settings)

    # ---- crash safety: a real second process killed with SIGKILL ----------------------------
    def _kill_at(self, settings, moment: str, config: Path, *, clear: bool, tenant: str = "ta") -> None:
        proc = subprocess.Popen([sys.executable, "-c", CHILD.format(repo=str(REPO)), moment, str(config), tenant,
                                 "1" if clear else "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.child_env(settings), cwd=str(REPO))
        want = moment[4:] if moment.startswith("run:") else moment
        seen = []
        try:
            for line in proc.stdout:
                seen.append(line.strip())
                if line.split()[-1:] == [want]:
                    break
            else:
                pytest.fail(f"child ended before {moment}: {seen} {proc.stderr.read()[-2000:]}")
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=60)
        assert proc.returncode == -signal.SIGKILL, (moment, seen)

    def test_kill_9_at_any_moment_leaves_the_old_or_the_new_graph(self, graph_settings):
        from core.graph.store import close_graph_stores, get_graph_store
        from core.services.build import load_config

        self._build(graph_settings, "ta", read_files(load_config(SAMPLE_CONFIG)))
        reader = get_graph_store(graph_settings, tenant="ta")  # a reader open all along (the dashboard)
        before = _answers(reader)
        assert before["counts"]["nodes"]["项目"] == 16 and before["history"] and before["overtime"]
        # what the incremental broken-set build gives, built in-process for another tenant
        self._build(graph_settings, "tref", read_files(load_config(SAMPLE_CONFIG)))
        self._build(graph_settings, "tref", read_files(load_config(BROKEN_CONFIG)))
        after = _answers(get_graph_store(graph_settings, tenant="tref"))
        assert after["counts"]["nodes"]["项目"] == 17 and after != before

        # killed before the switch (sleeping at a step, or while writing: "run:"), with and
        # without --clear: readers see exactly the previous graph
        for moment, clear in [("staged", True), ("run:nodes", True), ("nodes", False), ("run:edges", False),
                              ("edges", True), ("written", False)]:
            self._kill_at(graph_settings, moment, BROKEN_CONFIG, clear=clear)
            assert reader.generation == 1, moment
            assert _answers(reader) == before, (moment, clear)
        assert self.leftovers(graph_settings, "ta")  # the last killed build's staging generation
        close_graph_stores()  # the next start removes it
        reader = get_graph_store(graph_settings, tenant="ta")
        assert self.leftovers(graph_settings, "ta") == [] and _answers(reader) == before

        # killed right after the switch: readers see the NEW graph; the old generation is a
        # leftover until the next start
        self._kill_at(graph_settings, "published", BROKEN_CONFIG, clear=False)
        assert reader.generation == 2 and _answers(reader) == after
        assert self.leftovers(graph_settings, "ta")
        close_graph_stores()
        reader = get_graph_store(graph_settings, tenant="ta")
        assert self.leftovers(graph_settings, "ta") == [] and _answers(reader) == after
        # and the lock died with the process: the next build runs
        assert self._build(graph_settings, "ta", read_files(load_config(BROKEN_CONFIG))) == 3
        assert _answers(reader) == after and self.leftovers(graph_settings, "ta") == []

    def test_concurrent_build_in_another_process_is_refused(self, graph_settings, capsys):
        from core.cli import main
        from core.graph.store import get_graph_store
        from core.services.build import load_config

        self._build(graph_settings, "ta", read_files(load_config(SAMPLE_CONFIG)))
        before = _answers(get_graph_store(graph_settings, tenant="ta"))
        proc = subprocess.Popen([sys.executable, "-c", CHILD.format(repo=str(REPO)), "staged", str(BROKEN_CONFIG),
                                 "ta", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.child_env(graph_settings), cwd=str(REPO))
        try:
            for line in proc.stdout:
                if line.split()[-1:] == ["staged"]:
                    break
            from core import config

            config.set_settings(graph_settings)
            try:
                assert main(["build-graph", str(SAMPLE_CONFIG), "--tenant", "ta"]) == 1
                assert "正在由另一个任务构建" in capsys.readouterr().err
                # another tenant builds meanwhile
                assert main(["build-graph", str(SAMPLE_CONFIG), "--tenant", "tc", "--json"]) == 0
                assert json.loads(capsys.readouterr().out)["tenant"] == "tc"
            finally:
                config.set_settings(None)
        finally:
            proc.kill()
            proc.wait(timeout=60)
        assert _answers(get_graph_store(graph_settings, tenant="ta")) == before
