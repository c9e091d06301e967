"""Generated (schema-whitelisted) queries: label and property names cannot be parameters, so a
query naming one is built from the schema after the name is checked against it."""

from __future__ import annotations

from core.errors import BadInputError
from core.graph.schema import NODE_BY_LABEL, REL_BY_TYPE, NodeTable, RelTable, q


def _node(label: str) -> NodeTable:
    if label not in NODE_BY_LABEL:
        raise BadInputError(f"未知节点标签“{label}”，可选：{'、'.join(NODE_BY_LABEL)}")
    return NODE_BY_LABEL[label]


def _rel(rel_type: str) -> RelTable:
    if rel_type not in REL_BY_TYPE:
        raise BadInputError(f"未知关系类型“{rel_type}”，可选：{'、'.join(REL_BY_TYPE)}")
    return REL_BY_TYPE[rel_type]


def distinct_values(label: str, prop: str, limit: int = 500) -> tuple[str, dict]:
    """Distinct non-null values of ``label.prop`` with their counts (value grounding)."""
    nt = _node(label)
    if prop not in nt.property_names:
        raise BadInputError(f"{label} 没有属性“{prop}”")
    return (f"MATCH (n:{q(label)}) WHERE n.{q(prop)} IS NOT NULL "
            f"RETURN n.{q(prop)} AS 值, count(n) AS 次数 ORDER BY 次数 DESC, 值 LIMIT $上限", {"上限": int(limit)})


def node_by_key(label: str, key: str) -> tuple[str, dict]:
    """One node by primary key with every property (provenance lookup)."""
    nt = _node(label)
    cols = ", ".join(f"n.{q(p)} AS {q(p)}" for p in nt.property_names)
    return f"MATCH (n:{q(label)}) WHERE n.{q(nt.pk)} = $键 RETURN {cols}", {"键": key}


def count_nodes(label: str) -> str:
    return f"MATCH (n:{q(_node(label).label)}) RETURN count(n) AS n"


def count_edges(rel_type: str) -> str:
    return f"MATCH ()-[e:⟦R:{_rel(rel_type).type}⟧]->() RETURN count(e) AS n"
