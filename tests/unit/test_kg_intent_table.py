"""The intent keyword table is data (data/rules/kg_intents.json, issue #15 "rules as data"):
every row's example question is read as that row's intent."""

import json

import pytest

from core.agents.kg import concepts
from core.agents.kg.kgrules import RULES_DIR

ROWS = json.loads((RULES_DIR / "kg_intents.json").read_text(encoding="utf-8"))["rows"]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["intent"])
def test_each_intent_rows_example_is_read_as_that_intent(row):
    assert concepts.detect_intents(row["example"])[0][0] == row["intent"]


def test_the_intent_table_keeps_the_files_order_and_generic_flags():
    assert list(concepts.INTENTS) == [r["intent"] for r in ROWS]
    assert concepts.GENERIC_INTENTS == {"人员", "项目"}
    assert "发票" in concepts.INTENTS["收费"][1]
