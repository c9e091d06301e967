"""Neo4j tenancy and generations (core/graph/store/neo4j.py, core/graph/store/tenancy.py).

Every business node carries ``_scope = "<tenant>#<generation>"``; the read path never writes
these by hand (Dialect.render adds the scope to every node pattern). The statements here are the
only ones that name scopes explicitly: publishing a generation, copying one into the next
(incremental builds) and deleting one. Meta nodes use labels outside the graph schema."""

from __future__ import annotations

from core.graph.queries.generated import _node, _rel
from core.graph.schema import q

GEN_META_LABEL = "ZhiceGraphMeta"    # one per tenant: {tenant, generation, scope}
GEN_SCOPE_LABEL = "ZhiceGraphScope"  # a scope being built or retired: {scope, tenant, generation, state}

GEN_DDL = [
    f"CREATE CONSTRAINT zhice_graph_meta IF NOT EXISTS FOR (m:{GEN_META_LABEL}) REQUIRE m.tenant IS UNIQUE",
    f"CREATE CONSTRAINT zhice_graph_scope IF NOT EXISTS FOR (s:{GEN_SCOPE_LABEL}) REQUIRE s.scope IS UNIQUE",
]
GEN_CURRENT = f"MATCH (m:{GEN_META_LABEL} {{tenant: $tenant}}) RETURN m.generation AS generation, m.scope AS scope"
GEN_TENANTS = f"MATCH (m:{GEN_META_LABEL}) RETURN m.tenant AS tenant ORDER BY tenant"
GEN_MARK = (f"MERGE (s:{GEN_SCOPE_LABEL} {{scope: $scope}}) "
            "SET s.tenant = $tenant, s.generation = $generation, s.state = $state")
GEN_MARKS = (f"MATCH (s:{GEN_SCOPE_LABEL} {{tenant: $tenant}}) "
             "RETURN s.scope AS scope, s.state AS state, s.generation AS generation ORDER BY generation")
GEN_UNMARK = f"MATCH (s:{GEN_SCOPE_LABEL} {{scope: $scope}}) DELETE s"
GEN_PUBLISH = (f"MERGE (m:{GEN_META_LABEL} {{tenant: $tenant}}) "
               "SET m.generation = $generation, m.scope = $scope, m.published_at = datetime()")


def _scope_prop() -> str:
    from core.graph.schema import NEO4J_SCOPE

    return q(NEO4J_SCOPE)


def scope_delete_nodes(label: str, batch: int = 10_000) -> str:
    """Delete every ``label`` node of scope ``$scope`` with its relationships (auto-commit)."""
    return (f"MATCH (n:{q(_node(label).label)} {{{_scope_prop()}: $scope}}) "
            f"CALL (n) {{ DETACH DELETE n }} IN TRANSACTIONS OF {int(batch)} ROWS")


def scope_copy_nodes(label: str, batch: int = 5_000) -> str:
    """Copy every ``label`` node of scope ``$from`` into scope ``$to`` (auto-commit)."""
    lb = q(_node(label).label)
    return (f"MATCH (n:{lb} {{{_scope_prop()}: $from}}) "
            f"CALL (n) {{ CREATE (m:{lb}) SET m = n {{.*, {_scope_prop()}: $to}} }} "
            f"IN TRANSACTIONS OF {int(batch)} ROWS")


def scope_copy_edges(rel_type: str, from_label: str, to_label: str, batch: int = 5_000) -> str:
    """Copy the ``rel_type`` edges between the nodes of scope ``$from`` onto their copies in ``$to``."""
    rt = _rel(rel_type)
    a, b = _node(from_label), _node(to_label)
    s = _scope_prop()
    return (f"MATCH (a:{q(a.label)} {{{s}: $from}})-[e:{q(rt.type)}]->(b:{q(b.label)} {{{s}: $from}}) "
            f"CALL (a, e, b) {{ MATCH (a2:{q(a.label)} {{{s}: $to, {q(a.pk)}: a.{q(a.pk)}}}) "
            f"MATCH (b2:{q(b.label)} {{{s}: $to, {q(b.pk)}: b.{q(b.pk)}}}) "
            f"CREATE (a2)-[e2:{q(rt.type)}]->(b2) SET e2 = properties(e) }} IN TRANSACTIONS OF {int(batch)} ROWS")
