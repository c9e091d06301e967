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
