"""The GraphStore contract on a real Neo4j 5 (tests/support/neo4j_server.py starts or attaches
to one), plus what only a server shows: READ sessions refused writes by the server itself,
constraints generated from the schema, ``clear`` sparing other labels on the same database,
and the same answers as the embedded backend on the bundled sample spreadsheets."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from core import config
from core.errors import GraphStoreError, ReadOnlyViolation
from core.graph import queries as Q
from core.graph.builder import build_graph
from core.graph.reader import read_files
from core.graph.schema import LABELS, NODE_BY_LABEL, NODE_TABLES, neo4j_constraints
from core.graph.store import close_graph_stores, get_graph_store
from core.graph.store.ladybug import LadybugStore
from core.graph.store.neo4j import Neo4jStore
from core.services.build import load_config
from tests.contracts.graph_contract import GraphStoreContract, TenancyContract, _seed, two_tenants  # noqa: F401 - fixture
from tests.support.neo4j_server import neo4j_empty_uri, neo4j_server, neo4j_uri, wipe  # noqa: F401 - fixtures

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "data" / "samples" / "business" / "config.json"


def _store(uri: str) -> Neo4jStore:
    return Neo4jStore(config.load_settings({"ZHICE_NEO4J_URI": uri}))


class TestNeo4jStore(GraphStoreContract):
    @pytest.fixture
    def store(self, neo4j_uri):
        s = _store(neo4j_uri)
        yield s
        s.close()


@pytest.fixture(scope="class")
def shared_graph_settings(neo4j_server, tmp_path_factory, model_cache):
    """The live server, wiped once, for a whole class (``two_tenants``)."""
    wipe(neo4j_server)
    home = tmp_path_factory.mktemp("tenancy-neo4j") / "workspace"
    yield config.load_settings({"home": home, "ZHICE_NEO4J_URI": neo4j_server, "model_cache": str(model_cache)},
                               dotenv_path=home / ".env")
    close_graph_stores()


class TestNeo4jTenancy(TenancyContract):
    @pytest.fixture
    def graph_settings(self, neo4j_uri, workspace):
        yield config.load_settings({"ZHICE_NEO4J_URI": neo4j_uri})
        close_graph_stores()

    def leftovers(self, settings, tenant: str) -> list[str]:
        """Generation folders and node scopes of the tenant other than the current one."""
        folders = super().leftovers(settings, tenant)
        s = _store(settings.neo4j_uri)
        try:
            current = s.current(tenant)[1]
            with s._driver.session(database=s.database) as ses:
                scopes = [r["s"] for r in ses.run("MATCH (n) WHERE n._scope STARTS WITH $p AND n._scope <> $c "
                                                  "RETURN DISTINCT n._scope AS s", p=f"{tenant}#", c=current or "")]
            marks = [m["scope"] for m in s.marks(tenant)]
        finally:
            s.close()
        return folders + sorted(scopes) + sorted(marks)


@pytest.fixture
def store(neo4j_uri):
    s = _store(neo4j_uri)
    yield s
    s.close()


def test_server_refuses_writes_on_the_read_path(store, monkeypatch):
    _seed(store)
    before = store.counts()
    # even with the code-level check bypassed, the READ session makes the server refuse
    monkeypatch.setattr(Q, "assert_read_only", lambda cypher: None)
    with pytest.raises(ReadOnlyViolation):
        store.query("CREATE (n:项目 {项目编号: 'X'})")
    with pytest.raises(ReadOnlyViolation):
        store.query("MATCH (n:项目) SET n.项目名称 = '改' RETURN n")
    assert store.counts() == before
    assert store.run_named("project_profile", {"项目编号": "P1"})[0]["项目名称"] == "青浦-区图书馆"


def test_schema_created_on_an_empty_database(neo4j_empty_uri):
    s = _store(neo4j_empty_uri)  # creates the constraints and indexes
    try:
        s.ensure_schema()  # idempotent
        with s._driver.session(database=s.database) as ses:
            cons = ses.run("SHOW CONSTRAINTS YIELD labelsOrTypes, properties, type").data()
            idx = ses.run("SHOW INDEXES YIELD labelsOrTypes, properties, owningConstraint "
                          "WHERE owningConstraint IS NULL AND labelsOrTypes IS NOT NULL").data()
        unique = {(r["labelsOrTypes"][0], tuple(r["properties"])) for r in cons if "UNIQUENESS" in r["type"]}
        # a key is unique per scope (tenant + generation), so two tenants may share keys
        assert unique == {(nt.label, ("_scope", nt.pk)) for nt in NODE_TABLES} | {
            (Q.GEN_META_LABEL, ("tenant",)), (Q.GEN_SCOPE_LABEL, ("scope",))}
        lookups = {(r["labelsOrTypes"][0], r["properties"][0]) for r in idx}
        assert {("考勤", "年月"), ("人员", "岗位名称"), ("财务", "工号")} <= lookups
        assert len(cons) + len(idx) == len(neo4j_constraints()) + len(Q.GEN_DDL)
        # the key is enforced by the server, not only by MERGE
        with s._driver.session(database=s.database) as ses:
            ses.run("CREATE (:项目 {项目编号: 'U1', _scope: 'a#1'})").consume()
            ses.run("CREATE (:项目 {项目编号: 'U1', _scope: 'b#1'})").consume()
            with pytest.raises(Exception, match="already exists"):
                ses.run("CREATE (:项目 {项目编号: 'U1', _scope: 'a#1'})").consume()
    finally:
        s.close()


def test_clear_spares_labels_outside_the_graph_schema(store):
    _seed(store)
    with store._driver.session(database=store.database) as s:
        s.run("CREATE (:文档块 {chunk_id: 'c1', text: '高校毕业生租房补贴'})").consume()
    store.clear()
    assert sum(store.counts()["nodes"].values()) == 0
    with store._driver.session(database=store.database) as s:
        assert s.run("MATCH (c:文档块) RETURN count(c) AS n").single()["n"] == 1


def test_unreachable_server_is_a_clear_error():
    with pytest.raises(GraphStoreError) as err:
        Neo4jStore(config.load_settings({"ZHICE_NEO4J_URI": "bolt://127.0.0.1:1"}))
    assert "无法连接 Neo4j" in err.value.user_message


def test_factory_returns_neo4j_when_configured(neo4j_uri, monkeypatch):
    monkeypatch.setenv("ZHICE_NEO4J_URI", neo4j_uri)
    config.set_settings(None)
    try:
        s = get_graph_store(tenant="demo")
        assert isinstance(s, Neo4jStore) and s.backend == "neo4j" and s.tenant == "demo"
        assert s.server_info()["version"].startswith("5.")
    finally:
        close_graph_stores()


def _canon(rows: list[dict]) -> list[tuple]:
    def v(x):
        if isinstance(x, float):
            return round(x, 6) if not math.isnan(x) else "nan"
        if isinstance(x, list):
            return tuple(sorted(map(repr, x)))
        return x
    return sorted((tuple((k, repr(v(x))) for k, x in sorted(r.items())) for r in rows))


def _probe_params(store) -> dict[str, object]:
    """Concrete values that exist in the sample graph, for the named queries' parameters."""
    people = store.run_named("entity_people")
    projects = store.run_named("entity_projects")
    att = store.query("MATCH (a:考勤) RETURN a.工号 AS 工号, a.年月 AS 年月 ORDER BY 年月, 工号 LIMIT 1")[0]
    return {"项目编号": projects[0]["项目编号"], "工号": att["工号"], "年月": att["年月"],
            "显示名": people[0]["姓名"] and f"{people[0]['姓名']}（{people[0]['工号']}）"}


def test_same_answers_as_the_embedded_backend_on_the_samples(store, tmp_path):
    read = read_files(load_config(SAMPLES))
    assert not read.errors
    embedded = LadybugStore(tmp_path / "g.lbug")
    try:
        rep_e = build_graph(embedded, read, clear=True)
        rep_n = build_graph(store, read, clear=True)
        assert rep_n.nodes == rep_e.nodes and rep_n.edges == rep_e.edges
        assert sum(rep_n.nodes.values()) > 300 and sum(rep_n.edges.values()) > 300
        # a second build changes nothing (idempotent upserts on real data)
        again = build_graph(store, read)
        assert again.nodes == rep_n.nodes and again.edges == rep_n.edges

        probe = _probe_params(embedded)
        compared = 0
        for name, nq in Q.QUERIES.items():
            variants = [{}]
            given = {k: probe[k] for k in nq.defaults if k in probe}
            if given:
                variants.append(given)
            for params in variants:
                a, b = embedded.run_named(name, params), store.run_named(name, params)
                assert _canon(a) == _canon(b), (name, params)
                compared += bool(a)
        assert compared >= 20  # most queries return rows on the samples
        # value grounding (distinct values with counts) agrees too
        for label in LABELS:
            for prop in NODE_BY_LABEL[label].property_names[1:4]:
                cypher, params = Q.distinct_values(label, prop)
                assert _canon(embedded.query(cypher, params)) == _canon(store.query(cypher, params)), (label, prop)
    finally:
        embedded.close()
