"""The build's write statements (core/graph/builder.py, through a store's upserts): batched upserts
of nodes and relationships, their split forms, and the deletion of superseded edges."""

from __future__ import annotations

from core.errors import BadInputError
from core.graph.queries.generated import _node, _rel
from core.graph.schema import q


def upsert_nodes(label: str, dialect) -> tuple[str, list[str]]:
    """``UNWIND $rows AS r MERGE (n:L {pk: r.p0}) SET …``; rows use positional keys p0…pN in
    the order of the returned property list (ASCII keys, safe on every driver)."""
    nt = _node(label)
    props = nt.property_names
    pk_i = props.index(nt.pk)
    sets = ", ".join(f"n.{q(p)} = {dialect.typed(f'r.p{i}', t)}" for i, (p, t) in enumerate(nt.properties)
                     if p != nt.pk)
    return f"UNWIND $rows AS r MERGE (n:{q(label)} {{{q(nt.pk)}: r.p{pk_i}}}) SET {sets}", props


def upsert_edges(rel_type: str, from_label: str, to_label: str, dialect) -> tuple[str, list[str]]:
    """``UNWIND $rows AS r MATCH (a:A {pk: r.f}) MATCH (b:B {pk: r.t}) MERGE (a)-[e:R {merge_on…}]->(b) SET …``."""
    rt = _rel(rel_type)
    if (from_label, to_label) not in rt.pairs:
        raise BadInputError(f"关系 {rel_type} 不连接 {from_label} → {to_label}")
    a, b = _node(from_label), _node(to_label)
    props = [p for p, _ in rt.all_properties]
    types = dict(rt.all_properties)
    merge = ", ".join(f"{q(p)}: {dialect.typed(f'r.p{props.index(p)}', types[p])}" for p in rt.merge_on)
    merge = f" {{{merge}}}" if merge else ""
    sets = ", ".join(f"e.{q(p)} = {dialect.typed(f'r.p{i}', types[p])}" for i, p in enumerate(props)
                     if p not in rt.merge_on)
    cypher = (f"UNWIND $rows AS r MATCH (a:{q(a.label)} {{{q(a.pk)}: r.f}}) MATCH (b:{q(b.label)} {{{q(b.pk)}: r.t}}) "
              f"MERGE (a)-[e:{q(dialect.rel(rel_type))}{merge}]->(b) SET {sets}")
    return cypher, props


# ---------------------------------------------------------------------------------------
# Split upserts (same effect as the MERGE forms above; a backend may use them where MERGE is
# slow — LadybugDB's MERGE costs ~3× a MATCH…SET or CREATE). Callers hold the write lock
# between the existence check and the writes.
# ---------------------------------------------------------------------------------------
def existing_node_keys(label: str) -> str:
    nt = _node(label)
    return f"UNWIND $keys AS k MATCH (n:{q(label)} {{{q(nt.pk)}: k}}) RETURN n.{q(nt.pk)} AS k"


def create_nodes(label: str, dialect) -> tuple[str, list[str]]:
    nt = _node(label)
    props = ", ".join(f"{q(p)}: {dialect.typed(f'r.p{i}', t)}" for i, (p, t) in enumerate(nt.properties))
    return f"UNWIND $rows AS r CREATE (n:{q(label)} {{{props}}})", nt.property_names


def update_nodes(label: str, dialect) -> tuple[str, list[str]]:
    nt = _node(label)
    props = nt.property_names
    sets = ", ".join(f"n.{q(p)} = {dialect.typed(f'r.p{i}', t)}" for i, (p, t) in enumerate(nt.properties)
                     if p != nt.pk)
    return f"UNWIND $rows AS r MATCH (n:{q(label)} {{{q(nt.pk)}: r.p{props.index(nt.pk)}}}) SET {sets}", props


def _match_row_edge(rel_type: str, from_label: str, to_label: str, dialect) -> str:
    """``UNWIND $rows AS r MATCH`` the edge of each row ``{f, t, m0…}`` (its ends and ``merge_on`` props) as ``e``."""
    rt = _rel(rel_type)
    a, b = _node(from_label), _node(to_label)
    merge = ", ".join(f"{q(p)}: r.m{j}" for j, p in enumerate(rt.merge_on))
    merge = f" {{{merge}}}" if merge else ""
    return (f"UNWIND $rows AS r MATCH (a:{q(a.label)} {{{q(a.pk)}: r.f}})-[e:{q(dialect.rel(rel_type))}{merge}]->"
            f"(b:{q(b.label)} {{{q(b.pk)}: r.t}})")


def existing_edges(rel_type: str, from_label: str, to_label: str, dialect) -> str:
    """Which rows (by index ``r.i``) already have their edge (same ends and ``merge_on`` props)."""
    return _match_row_edge(rel_type, from_label, to_label, dialect) + " RETURN DISTINCT r.i AS i"


def create_edges(rel_type: str, from_label: str, to_label: str, dialect) -> tuple[str, list[str]]:
    rt = _rel(rel_type)
    a, b = _node(from_label), _node(to_label)
    props = [p for p, _ in rt.all_properties]
    types = dict(rt.all_properties)
    body = ", ".join(f"{q(p)}: {dialect.typed(f'r.p{i}', types[p])}" for i, p in enumerate(props))
    return (f"UNWIND $rows AS r MATCH (a:{q(a.label)} {{{q(a.pk)}: r.f}}) MATCH (b:{q(b.label)} {{{q(b.pk)}: r.t}}) "
            f"CREATE (a)-[e:{q(dialect.rel(rel_type))} {{{body}}}]->(b)"), props


def delete_edges(rel_type: str, from_label: str, to_label: str, dialect) -> str:
    """Delete the edges identified by rows ``{f, t, m0…}`` (ends + ``merge_on`` props)."""
    return _match_row_edge(rel_type, from_label, to_label, dialect) + " DELETE e"


def delete_edges_rows(rel_type: str, rows) -> list[dict]:
    """The ``$rows`` parameter of :func:`delete_edges` from ``{from, to, <merge_on props>}`` rows."""
    rt = _rel(rel_type)
    return [{"f": r["from"], "t": r["to"], **{f"m{j}": r.get(p) for j, p in enumerate(rt.merge_on)}} for r in rows]
