"""Sensitive-field masking for result rows. The field list comes from the graph schema
(``core.graph.schema.SENSITIVE_FIELDS``), so adding a sensitive column there is enough."""

from __future__ import annotations

from typing import Iterable

from core.security.permissions import can_see_sensitive
from core.security.principals import Principal


def sensitive_fields() -> frozenset[str]:
    from core.graph.schema import SENSITIVE_FIELDS

    return SENSITIVE_FIELDS


def strip_sensitive(rows: Iterable[dict], principal: Principal) -> tuple[list[dict], list[str]]:
    """Rows without the sensitive keys for roles lacking the right, and the keys removed."""
    rows = list(rows)
    if can_see_sensitive(principal):
        return rows, []
    fields = sensitive_fields()
    removed: set[str] = set()
    out = []
    for r in rows:
        hit = fields.intersection(r)
        removed |= hit
        out.append({k: v for k, v in r.items() if k not in fields} if hit else r)
    return out, sorted(removed)


def hidden_fields(principal: Principal) -> list[str]:
    """The sensitive fields ``principal`` may not see (none for roles holding 工资)."""
    return [] if can_see_sensitive(principal) else sorted(sensitive_fields())


def strip_fields(fields: Iterable[str], principal: Principal) -> list[str]:
    """Field names a role may see (for return-field lists of a plan)."""
    if can_see_sensitive(principal):
        return list(fields)
    s = sensitive_fields()
    return [f for f in fields if f not in s]
