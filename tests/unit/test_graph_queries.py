"""Named queries: portable Cypher, read-only, dialect rendering for both backends."""

from __future__ import annotations

import re

import pytest

from core.errors import BadInputError, ReadOnlyViolation
from core.graph import queries as Q
from core.graph.store.dialect import LADYBUG, NEO4J


@pytest.mark.parametrize("name", sorted(Q.QUERIES))
def test_named_queries_are_portable(name):
    text = Q.strip_literals(Q.QUERIES[name].cypher)
    for bad in (r"\btype\(", r"\blabels\(", r"COUNT\s*\{", r"\+=", r"\[\s*\w+\s+IN\b"):
        assert not re.search(bad, text, re.IGNORECASE), (name, bad)
    params = set(re.findall(r"\$(\w+)", Q.QUERIES[name].cypher))
    assert params == set(Q.QUERIES[name].defaults), name
    assert None not in Q.QUERIES[name].defaults.values()


def test_dialect_tokens():
    cy = "MATCH (n)-[e:⟦R:供应商⟧]->(m) RETURN ⟦label:n⟧, ⟦type:e⟧"
    assert LADYBUG.render(cy) == "MATCH (n)-[e:`供应商关系`]->(m) RETURN label(n), label(e)"
    # Neo4j also confines every node pattern to the store's scope (tenant + generation)
    assert NEO4J.render(cy) == ("MATCH (n {_scope: $__zhice_scope})-[e:`供应商`]->(m {_scope: $__zhice_scope}) "
                                "RETURN labels(n)[0], type(e)")
    assert LADYBUG.logical_rel("供应商关系") == "供应商"


@pytest.mark.parametrize("cypher", [
    "MATCH (n) WHERE n.名称 = 'DROP' RETURN n", "MATCH (n) RETURN n.`SET` AS x // DELETE", "CALL show_tables() RETURN *",
    "MATCH (n) /* MERGE */ RETURN count(n)"])
def test_read_only_allows(cypher):
    Q.assert_read_only(cypher)


@pytest.mark.parametrize("cypher", [
    "MATCH (n) SET n.x = 1", "MATCH (n)DELETE n", "CALL apoc.periodic.iterate('a','b',{})",
    "CALL { CREATE (n) } RETURN 1", "INSTALL json", "ATTACH 'x' AS y", "MATCH (n) RETURN n; DROP TABLE x",
    "FOREACH (x IN [1] | CREATE ())", "LOAD CSV FROM 'f' AS r RETURN r"])
def test_read_only_refuses(cypher):
    with pytest.raises(ReadOnlyViolation):
        Q.assert_read_only(cypher)


def test_bind_fills_defaults_and_rejects_unknown():
    nq = Q.get("attendance_by_project_month")
    assert nq.bind({"项目编号": "XMSQ0102", "从": None}) == {"项目编号": "XMSQ0102", "从": "0000-00", "到": "9999-99",
                                                             "岗位列表": []}
    with pytest.raises(BadInputError):
        nq.bind({"项目": "x"})
    with pytest.raises(BadInputError):
        Q.get("no_such_query")
    with pytest.raises(BadInputError):
        Q.distinct_values("项目", "不存在的属性")
