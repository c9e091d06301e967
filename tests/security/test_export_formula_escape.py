"""Attack: a spreadsheet value ``=cmd|' /C calc'!A0`` went unescaped into the validation-report
CSV and ran as a formula when the CSV was opened in Excel. Every CSV/Excel export writes its
cells through core.security.export.safe_cell."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from core.security.export import safe_cell
from core.services.build import ISSUE_COLUMNS, issues_csv

REPO = Path(__file__).resolve().parents[2]
PAYLOADS = ["=cmd|' /C calc'!A0", "+1+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0",
            "\t=1+1", "\r=1+1", "  =HYPERLINK(\"http://x\",\"点我\")"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_validation_report_csv_escapes_formulas(payload):
    issue = {c: "x" for c in ISSUE_COLUMNS}
    issue.update(value=payload, reason=payload)
    text = issues_csv([issue]).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) == 2
    for cell in rows[1]:
        assert not cell.lstrip(" ").startswith(("=", "+", "-", "@", "\t", "\r")), rows[1]
    assert payload in "".join(rows[1])  # kept readable, only defused


def test_safe_cell_keeps_ordinary_values():
    assert safe_cell("张三") == "张三" and safe_cell(None) == "" and safe_cell(-5) == -5 and safe_cell(3.5) == 3.5
    assert safe_cell("-12.5") == "-12.5" and safe_cell("2026-03-01") == "2026-03-01"
    assert safe_cell("=1+1") == "'=1+1"


def test_every_csv_or_excel_export_goes_through_the_helper():
    """A new export must use safe_cell / safe_row (grep the code base, as the issue says)."""
    writers = re.compile(r"csv\.writer\(|csv\.DictWriter\(|\.to_csv\(|\.to_excel\(")
    offenders = []
    for folder in ("core", "pages", "components"):
        for f in (REPO / folder).rglob("*.py"):
            text = f.read_text(encoding="utf-8")
            if writers.search(text) and "safe_row" not in text and "safe_cell" not in text:
                offenders.append(str(f.relative_to(REPO)))
    assert offenders == []
