"""The read-only check every backend runs before any query on the read path: one statement, no
write clause, no procedure outside :data:`READ_PROCEDURES`."""

from __future__ import annotations

import re

from core.errors import ReadOnlyViolation

_WRITE_WORDS = ("CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "LOAD", "COPY", "ALTER",
                "INSTALL", "ATTACH", "DETACH", "IMPORT", "EXPORT", "CHECKPOINT", "FOREACH", "BEGIN", "COMMIT",
                "ROLLBACK", "GRANT", "REVOKE", "DENY", "TERMINATE")
_WRITE_RE = re.compile(r"\b(" + "|".join(_WRITE_WORDS) + r")\b", re.IGNORECASE)
_CALL_RE = re.compile(r"\bCALL\b\s*([A-Za-z_][\w.]*)?\s*(\{|\()?", re.IGNORECASE)
# Read-only procedures allowed after CALL (Neo4j catalog procs and ladybug table functions).
READ_PROCEDURES = frozenset({
    "db.labels", "db.relationshiptypes", "db.propertykeys", "db.schema.visualization", "db.schema.nodetypeproperties",
    "db.schema.reltypeproperties", "show_tables", "table_info", "show_connection", "current_setting", "db_version",
})
_STRIP_RE = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`(?:[^`]|``)*`|//[^\n]*|/\*.*?\*/", re.DOTALL)


def strip_literals(cypher: str) -> str:
    """Cypher with string literals, quoted identifiers and comments blanked out."""
    return _STRIP_RE.sub(" ", cypher)


def assert_read_only(cypher: str) -> None:
    """Raise :class:`ReadOnlyViolation` unless ``cypher`` is a single read-only statement."""
    body = strip_literals(cypher)
    if "⟦" in body:
        body = re.sub(r"⟦[^⟧]*⟧", " ", body)
    m = _WRITE_RE.search(body)
    if m:
        raise ReadOnlyViolation(f"只读查询中不允许写操作：{m.group(1).upper()}")
    for m in _CALL_RE.finditer(body):
        proc = (m.group(1) or "").lower()
        if proc not in READ_PROCEDURES:
            raise ReadOnlyViolation(f"只读查询中不允许调用过程：CALL {m.group(1) or '{…}'}")
    if ";" in body.strip().rstrip(";"):
        raise ReadOnlyViolation("只读查询只能包含一条语句")
