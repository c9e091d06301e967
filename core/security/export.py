"""Spreadsheet-safe exports. A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is run as a formula by Excel / WPS / LibreOffice when the CSV is opened
(``=cmd|' /C calc'!A0``, ``=HYPERLINK(...)``), so every CSV / Excel export writes its cells
through :func:`safe_cell`, which prefixes such text with a single quote (OWASP's advice).
Numbers stay numbers; a plain numeric string (``-12.5``) is not a formula and stays as is."""

from __future__ import annotations

import re
from typing import Any, Iterable

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def safe_cell(value: Any) -> Any:
    """The value as it may be written to a CSV / Excel cell."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return value
    head = value.lstrip(" ")
    if head.startswith(FORMULA_PREFIXES) and not _NUMBER.fullmatch(value.strip()):
        return "'" + value
    return value


def safe_row(row: Iterable[Any]) -> list[Any]:
    return [safe_cell(v) for v in row]


__all__ = ["FORMULA_PREFIXES", "safe_cell", "safe_row"]
