"""The columns the queries return: provenance (来源模板 / 来源文件 / 行号) and a record node's
template columns, read from the schema when called."""

from __future__ import annotations

from core.graph.schema import (DAY_COLUMNS, DERIVED_COLUMNS_BY_LABEL, DISPLAY, NODE_BY_LABEL, PROVENANCE,
                               SYNTHETIC_KEY, TEMPLATE_BY_NAME, q)

_PROV = "n.来源模板 AS 来源模板, n.来源文件 AS 来源文件, n.行号 AS 行号"


def _prov(var: str) -> str:
    return f"{var}.来源模板 AS 来源模板, {var}.来源文件 AS 来源文件, {var}.行号 AS 行号"


def record_columns(label: str, template: str | None = None, skip: tuple[str, ...] = ()) -> list[str]:
    """The columns a KG query returns for a record node: its template's columns (all of the
    label's templates unless one is named) and the properties derived at load, without the
    synthetic key, the display name, the 1日…31日 codes and provenance (returned separately). A
    column added to a template in the schema is returned with no edit here."""
    nt = NODE_BY_LABEL[label]
    cols = set(TEMPLATE_BY_NAME[template].column_names) if template else None
    derived = {c.name for c in DERIVED_COLUMNS_BY_LABEL.get(label, ())}
    leave = {SYNTHETIC_KEY, DISPLAY, *PROVENANCE, *DAY_COLUMNS, *skip}
    return [p for p in nt.property_names if p not in leave and (cols is None or p in cols or p in derived)]


def _returns(var: str, label: str, template: str | None = None, skip: tuple[str, ...] = ()) -> str:
    return ", ".join(f"{var}.{q(p)} AS {q(p)}" for p in record_columns(label, template, skip))
