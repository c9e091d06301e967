"""Where LadybugDB and Neo4j 5 Cypher truly differ, and nothing else.

Queries in :mod:`core.graph.queries` are written once in portable Cypher; three tokens are
rendered per backend:

- ``⟦label:n⟧`` — the (single) label of node variable ``n``: ladybug ``label(n)``, Neo4j ``labels(n)[0]``
- ``⟦type:e⟧`` — the type of relationship variable ``e``: ladybug ``label(e)``, Neo4j ``type(e)``
- ``⟦R:供应商⟧`` — a relationship type name: the physical rel table name (ladybug keeps node and
  rel tables in one catalog, so the rel type 供应商 is stored as 供应商关系 there)

and :meth:`Dialect.typed` wraps a parameter expression in a cast where the backend needs the
column type spelled out (ladybug infers a STRING for a struct field that is null in every row
of a batch).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.graph.schema import LADYBUG_REL_RENAMES, STORAGE_TYPES, q

_TOKEN = re.compile(r"⟦(label|type|R):([^⟧]+)⟧")


@dataclass(frozen=True)
class Dialect:
    name: str
    label_fmt: str
    type_fmt: str
    rel_renames: dict = field(default_factory=dict)
    cast: bool = False

    def rel(self, rel_type: str) -> str:
        return self.rel_renames.get(rel_type, rel_type)

    def logical_rel(self, physical: str) -> str:
        for logical, phys in self.rel_renames.items():
            if phys == physical:
                return logical
        return physical

    def typed(self, expr: str, col_type: str) -> str:
        return f"CAST({expr} AS {STORAGE_TYPES[col_type]})" if self.cast else expr

    def render(self, cypher: str) -> str:
        def sub(m: re.Match) -> str:
            kind, arg = m.group(1), m.group(2)
            if kind == "label":
                return self.label_fmt.format(arg)
            if kind == "type":
                return self.type_fmt.format(arg)
            return q(self.rel(arg))

        return _TOKEN.sub(sub, cypher)


LADYBUG = Dialect("ladybug", "label({})", "label({})", dict(LADYBUG_REL_RENAMES), cast=True)
NEO4J = Dialect("neo4j", "labels({})[0]", "type({})", {}, cast=False)
