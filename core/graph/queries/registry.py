"""Named queries: :class:`NamedQuery` (a query with every parameter's "any" value) and the one
registry :data:`QUERIES` both backends run by name (``store.run_named``). The query modules of
this package :func:`register` theirs when imported; registering checks the text is read-only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.errors import BadInputError
from core.graph.queries.read_only import assert_read_only

YM_MIN, YM_MAX = "0000-00", "9999-99"
DATE_MIN, DATE_MAX = "0000-00-00", "9999-99-99"


@dataclass(frozen=True)
class NamedQuery:
    name: str
    cypher: str
    defaults: dict[str, Any] = field(default_factory=dict)  # every parameter with its "any" value
    description: str = ""
    sensitive: bool = False  # returns sensitive fields (人员财务, 联系电话 …): mask/permission-check

    @property
    def params(self) -> tuple[str, ...]:
        return tuple(self.defaults)

    def bind(self, params: dict[str, Any] | None) -> dict[str, Any]:
        params = dict(params or {})
        unknown = set(params) - set(self.defaults)
        if unknown:
            raise BadInputError(f"查询 {self.name} 不接受参数：{'、'.join(sorted(unknown))}；"
                                f"可用参数：{'、'.join(self.defaults) or '无'}")
        out = dict(self.defaults)
        for k, v in params.items():
            if v is None:  # None means "any"
                continue
            out[k] = v
        return out


QUERIES: dict[str, NamedQuery] = {}


def get(name: str) -> NamedQuery:
    try:
        return QUERIES[name]
    except KeyError:
        raise BadInputError(f"未知查询“{name}”，可用查询：{'、'.join(QUERIES)}") from None


def register(nq: NamedQuery) -> NamedQuery:
    """Append a query (other modules, e.g. the KG agent); names must be unique."""
    if nq.name in QUERIES and QUERIES[nq.name] != nq:
        raise ValueError(f"duplicate query name {nq.name}")
    assert_read_only(nq.cypher)
    QUERIES[nq.name] = nq
    return nq
