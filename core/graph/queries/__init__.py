"""All Cypher of the business graph: named, parameterised, portable (Neo4j 5 + LadybugDB).

Rules for queries here (both backends run them; the contract suite runs every one):

- no ``type(r)`` / ``labels(n)`` — use the dialect tokens ``⟦type:e⟧`` / ``⟦label:n⟧``; the
  relationship type 供应商 is written ``⟦R:供应商⟧`` (see core/graph/store/dialect.py);
- no ``SET n += $map``, no list comprehensions, no ``COUNT {}``, no ``WITH … ORDER BY``
  without ``LIMIT``;
- no null parameters (LadybugDB types a null parameter as BOOL): an optional text filter is
  ``''`` = any, an optional list filter is ``[]`` = any, a year-month range defaults to
  ``'0000-00'`` … ``'9999-99'``, a date range to ``'0000-00-00'`` … ``'9999-99-99'``;
- dates are ``'YYYY-MM-DD'`` strings and year-months ``'YYYY-MM'`` strings (compare directly);
- period edges (服务于) are selected by interval intersection:
  ``e.开始 <= $到 AND (e.结束 IS NULL OR e.结束 >= $从)``;
- result rows carry provenance columns 来源模板 / 来源文件 / 行号 wherever a record is returned.

The modules, by what their queries serve (each registers its named queries when imported; this
package imports them all, so every text is built from the schema as it is at first import):

- :mod:`~core.graph.queries.registry` — :class:`NamedQuery`, :data:`QUERIES`, :func:`get`, :func:`register`;
- :mod:`~core.graph.queries.read_only` — :func:`assert_read_only`, run before every read;
- :mod:`~core.graph.queries.columns` — provenance columns and a record's template columns;
- :mod:`~core.graph.queries.named` — the general named reads by business subject, the build's
  and the entity index's lookups, provenance by row;
- :mod:`~core.graph.queries.kg` — the KG agent's ``kg_*`` reads;
- :mod:`~core.graph.queries.explore` — the graph explorer's ``explore_*`` reads;
- :mod:`~core.graph.queries.generated` — per-label reads (distinct values, node by key, counts);
- :mod:`~core.graph.queries.build` — the build's upserts and deletes;
- :mod:`~core.graph.queries.generations` — Neo4j tenancy scopes and generations.

Other engineers may append queries to :data:`QUERIES` (keep the rules above; the contract
suite picks them up automatically).
"""

from __future__ import annotations

from core.graph.queries.read_only import READ_PROCEDURES, assert_read_only, strip_literals
from core.graph.queries.registry import DATE_MAX, DATE_MIN, QUERIES, YM_MAX, YM_MIN, NamedQuery, get, register
from core.graph.queries.columns import record_columns
from core.graph.queries.generated import count_edges, count_nodes, distinct_values, node_by_key
from core.graph.queries.build import (create_edges, create_nodes, delete_edges, delete_edges_rows, existing_edges,
                                      existing_node_keys, update_nodes, upsert_edges, upsert_nodes)
from core.graph.queries.generations import (GEN_CURRENT, GEN_DDL, GEN_MARK, GEN_MARKS, GEN_META_LABEL, GEN_PUBLISH,
                                            GEN_SCOPE_LABEL, GEN_TENANTS, GEN_UNMARK, scope_copy_edges,
                                            scope_copy_nodes, scope_delete_nodes)
# Registration order is the order of QUERIES: the general reads, the KG agent's, the explorer's.
from core.graph.queries import named  # noqa: F401 - registers the general named reads
from core.graph.queries.kg import (KG_AREAS, KG_ATTENDANCE, KG_ATTENDANCE_DAYS, KG_BIDS, KG_CERTIFICATES, KG_COVERAGE,
                                   KG_DISTINCT_VALUES, KG_ENTITY_AREAS, KG_ENTITY_EQUIPMENT, KG_ENTITY_PEOPLE,
                                   KG_ENTITY_PROJECTS, KG_EQUIPMENT, KG_FINANCE, KG_INSPECTIONS, KG_MAINTENANCE,
                                   KG_PROCUREMENT, KG_PROJECT_AREAS, KG_PROJECT_CHILDREN, KG_PROJECT_PARENT,
                                   KG_PROJECTS, KG_PROJECTS_FULL, KG_RENEWALS, KG_SCHEDULE, KG_SERVICE_PERIODS,
                                   KG_STAFF, KG_STAFFING, KG_SUPPLIERS)
from core.graph.queries.explore import EXPLORE_MAX_HOPS, EXPLORE_ROW_CAP, explore_fields

__all__ = [
    "NamedQuery", "QUERIES", "get", "register", "YM_MIN", "YM_MAX", "DATE_MIN", "DATE_MAX",
    "READ_PROCEDURES", "assert_read_only", "strip_literals", "record_columns",
    "count_edges", "count_nodes", "distinct_values", "node_by_key",
    "create_edges", "create_nodes", "delete_edges", "delete_edges_rows", "existing_edges", "existing_node_keys",
    "update_nodes", "upsert_edges", "upsert_nodes",
    "GEN_CURRENT", "GEN_DDL", "GEN_MARK", "GEN_MARKS", "GEN_META_LABEL", "GEN_PUBLISH", "GEN_SCOPE_LABEL",
    "GEN_TENANTS", "GEN_UNMARK", "scope_copy_edges", "scope_copy_nodes", "scope_delete_nodes",
    "KG_AREAS", "KG_ATTENDANCE", "KG_ATTENDANCE_DAYS", "KG_BIDS", "KG_CERTIFICATES", "KG_COVERAGE",
    "KG_DISTINCT_VALUES", "KG_ENTITY_AREAS", "KG_ENTITY_EQUIPMENT", "KG_ENTITY_PEOPLE", "KG_ENTITY_PROJECTS",
    "KG_EQUIPMENT", "KG_FINANCE", "KG_INSPECTIONS", "KG_MAINTENANCE", "KG_PROCUREMENT", "KG_PROJECT_AREAS",
    "KG_PROJECT_CHILDREN", "KG_PROJECT_PARENT", "KG_PROJECTS", "KG_PROJECTS_FULL", "KG_RENEWALS", "KG_SCHEDULE",
    "KG_SERVICE_PERIODS", "KG_STAFF", "KG_STAFFING", "KG_SUPPLIERS",
    "EXPLORE_MAX_HOPS", "EXPLORE_ROW_CAP", "explore_fields",
]
