"""Tenancy outside the backends' contract: the Neo4j scoping of rendered Cypher (one place for
every query), the build service per tenant (uploads, source files, CLI) and the setting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core import config
from core.cli import main
from core.errors import BadInputError, ConfigError
from core.graph import queries as Q
from core.graph.store import close_graph_stores, get_graph_store, graph_tenants, source_file
from core.graph.store.dialect import LADYBUG, NEO4J, SCOPE_PARAM, scope_cypher
from core.security.principals import Principal, Role
from core.services import build as B
from tests.support.old_graph import replace_with_an_older_layout

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "samples" / "business" / "config.json"
ADMIN = Principal("admin", Role.admin, ("north",))
S = f"_scope: ${SCOPE_PARAM}"


@pytest.fixture(autouse=True)
def _close_stores():
    yield
    close_graph_stores()


@pytest.mark.parametrize("cypher, expected", [
    ("MATCH (p:人员)-[:有考勤]->(a:考勤) RETURN count(p) AS n",
     f"MATCH (p:人员 {{{S}}})-[:有考勤]->(a:考勤 {{{S}}}) RETURN count(p) AS n"),
    ("OPTIONAL MATCH (j:项目 {项目编号: p.x}) RETURN j", f"OPTIONAL MATCH (j:项目 {{{S}, 项目编号: p.x}}) RETURN j"),
    ("MATCH (n) WHERE n.a = 'MATCH (x)' RETURN n // MATCH (y)",
     f"MATCH (n {{{S}}}) WHERE n.a = 'MATCH (x)' RETURN n // MATCH (y)"),
    ("MATCH (a:A) MATCH (a)-[e:R*1..3]-(b) RETURN b", f"MATCH (a:A {{{S}}}) MATCH (a {{{S}}})-[e:R*1..3]-(b {{{S}}}) RETURN b"),
    ("MATCH p = shortestPath((a:A)-[*..4]-(b)) RETURN p",
     f"MATCH p = shortestPath((a:A {{{S}}})-[*..4]-(b {{{S}}})) RETURN p"),
    ("MATCH (n:A WHERE n.x > 1) RETURN n", f"MATCH (n:A {{{S}}} WHERE n.x > 1) RETURN n"),
    ("MATCH (n:X) WHERE EXISTS { (n)-->(m:Y) } RETURN [(n)-->(q) | q.b] AS l, [1, 2] AS k",
     f"MATCH (n:X {{{S}}}) WHERE EXISTS {{ (n {{{S}}})-->(m:Y {{{S}}}) }} "
     f"RETURN [(n {{{S}}})-->(q {{{S}}}) | q.b] AS l, [1, 2] AS k"),
    ("MATCH (a:A) RETURN 1 AS x UNION MATCH (b:B) RETURN 2 AS x",
     f"MATCH (a:A {{{S}}}) RETURN 1 AS x UNION MATCH (b:B {{{S}}}) RETURN 2 AS x"),
    # writes: created nodes get the scope, variables bound by MATCH are already scoped
    ("UNWIND $rows AS r MERGE (n:L {k: r.p0}) SET n.x = r.p1", f"UNWIND $rows AS r MERGE (n:L {{{S}, k: r.p0}}) SET n.x = r.p1"),
    ("UNWIND $rows AS r MATCH (a:A {k: r.f}) MATCH (b:B {k: r.t}) MERGE (a)-[e:R]->(b)",
     f"UNWIND $rows AS r MATCH (a:A {{{S}, k: r.f}}) MATCH (b:B {{{S}, k: r.t}}) MERGE (a)-[e:R]->(b)"),
])
def test_scope_is_added_to_every_node_pattern(cypher, expected):
    assert scope_cypher(cypher) == expected


def test_every_named_query_is_scoped_when_rendered_for_neo4j_only():
    for name, nq in Q.QUERIES.items():
        text = NEO4J.render(nq.cypher)
        assert f"${SCOPE_PARAM}" in text, name
        assert SCOPE_PARAM not in LADYBUG.render(nq.cypher), name  # one database file per generation
        Q.assert_read_only(text)


def test_default_tenant_setting_is_validated():
    assert config.load_settings({}).default_tenant == "demo"
    assert config.load_settings({"ZHICE_DEFAULT_TENANT": "acme-2"}).default_tenant == "acme-2"
    with pytest.raises(ConfigError, match="ZHICE_DEFAULT_TENANT"):
        config.load_settings({"ZHICE_DEFAULT_TENANT": "../etc"})


def test_build_graph_cli_builds_the_named_tenant_only(capsys, monkeypatch):
    assert main(["build-graph", str(SAMPLE), "--json", "--tenant", "north"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tenant"] == "north" and out["generation"] == 1 and out["nodes"]["人员"] == 34
    assert graph_tenants() == ["north"]
    assert get_graph_store(tenant="demo").counts()["nodes"]["人员"] == 0  # the default tenant: nothing
    # without --tenant: the workspace's default tenant
    monkeypatch.setenv("ZHICE_DEFAULT_TENANT", "south")
    config.set_settings(None)
    assert main(["build-graph", str(SAMPLE), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tenant"] == "south"
    assert graph_tenants() == ["north", "south"]
    assert main(["build-graph", str(SAMPLE), "--tenant", "a/b"]) == 2
    assert "租户名" in capsys.readouterr().err


def test_provenance_rows_open_the_file_the_current_graph_was_built_from():
    att = REPO / "data" / "samples" / "business" / "07_考勤与人员财务_2026-03.xlsx"
    B.build_from_config(ADMIN, SAMPLE, tenant="north", clear=True)
    store = get_graph_store(tenant="north")
    row = store.run_named("attendance_by_person", {"工号": "KWL2307024", "从": "2026-03", "到": "2026-03"})[0]
    assert (row["来源模板"], row["来源文件"]) == ("考勤与人员财务", att.name)  # file names, no folders
    built = source_file("north", row["来源模板"], row["来源文件"])
    assert built is not None and built.read_bytes() == att.read_bytes()
    assert config.get_settings().home in built.parents

    # an upload of the same name to another tenant is saved under that tenant and changes
    # nothing that north's provenance shows
    B.build_from_uploads(ADMIN, {"考勤与人员财务": [(att.name, att.read_bytes())]}, tenant="south")
    assert (config.get_settings().home / "uploads" / "business" / "south" / "考勤与人员财务" / att.name).is_file()
    assert source_file("north", "考勤与人员财务", att.name).read_bytes() == att.read_bytes()
    assert source_file("south", "考勤与人员财务", att.name) is not None
    assert source_file("south", "项目信息", "01_项目信息.xlsx") is None
    with pytest.raises(BadInputError):
        source_file("north", "考勤与人员财务", "../" + att.name)


def test_services_take_the_tenant():
    B.load_demo_graph(clear=True)
    assert graph_tenants() == ["demo"]
    assert B.graph_counts(ADMIN, tenant="demo")["nodes"]["项目"] == 16
    assert B.graph_counts(ADMIN, tenant="north")["nodes"]["项目"] == 0
    assert B.tenant_choices(ADMIN) == ["demo", "north"]
    counts = B.clear_graph(ADMIN, tenant="demo")
    assert not any(counts["nodes"].values())
    store = get_graph_store(tenant="demo")
    assert store.generation == 2 and store.counts()["nodes"]["项目"] == 0
    with pytest.raises(BadInputError, match="租户名"):
        B.graph_counts(ADMIN, tenant="demo tenant")
    with pytest.raises(BadInputError, match="未知模板"):
        B.validate_uploads(ADMIN, {"不是模板": [("x.xlsx", b"x")]}, tenant="demo")


def test_two_files_with_one_name_in_one_template_are_refused(tmp_path):
    base = REPO / "data" / "samples" / "business"
    for sub in ("x", "y"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "07.xlsx").write_bytes((base / f"07_考勤与人员财务_2026-0{1 if sub == 'x' else 2}.xlsx").read_bytes())
    cfg = tmp_path / "c.json"
    cfg.write_text(json.dumps({"考勤与人员财务": ["x/07.xlsx", "y/07.xlsx"]}), encoding="utf-8")
    with pytest.raises(BadInputError, match="同名文件"):
        B.build_from_config(ADMIN, cfg, tenant="north")
    assert graph_tenants() == []


def test_a_graph_of_an_older_layout_is_rebuilt_from_the_spreadsheets_it_kept(capsys):
    from core.errors import OutdatedGraphLayout, PermissionDenied
    from core.security.audit import events

    B.build_from_config(ADMIN, SAMPLE, tenant="north", clear=True)
    built = get_graph_store(tenant="north").counts()
    assert not B.graph_layout_outdated(ADMIN, tenant="north")
    replace_with_an_older_layout("north")

    assert B.graph_layout_outdated(ADMIN, tenant="north")
    with pytest.raises(OutdatedGraphLayout, match="重新构建"):
        get_graph_store(tenant="north").run_named("kg_entity_projects")
    with pytest.raises(PermissionDenied):
        B.rebuild_from_sources(Principal("li", Role.manager, ("north",)), tenant="north")

    assert main(["build-graph", "--rebuild", "--tenant", "north", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["generation"] == 2 and out["nodes"] == built["nodes"] and out["edges"] == built["edges"]
    assert not B.graph_layout_outdated(ADMIN, tenant="north")
    rows = get_graph_store(tenant="north").run_named("attendance_by_person",
                                                     {"工号": "KWL2307024", "从": "2026-03", "到": "2026-03"})
    assert rows and source_file("north", rows[0]["来源模板"], rows[0]["来源文件"]) is not None  # provenance opens
    assert [(e["kind"], e["tenant"]) for e in events(ADMIN, kind="build.rebuild")] == [("build.rebuild", "north")]

    # nothing kept to rebuild from: said, nothing changed
    with pytest.raises(BadInputError, match="没有保存构建所用的原始表格"):
        B.rebuild_from_sources(ADMIN, tenant="south")
    assert graph_tenants() == ["north"]
    # the command needs exactly one of a config and --rebuild
    assert main(["build-graph", "--tenant", "north"]) == 2
    assert "二选一" in capsys.readouterr().err
