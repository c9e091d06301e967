"""State words of a kind of records read as a record condition, negations included: 没发现问题 →
问题描述 is empty, 没拿下来 → 中标结果 未中标, 没整改 → 未整改. The rows are data
(``data/rules/kg_patterns.json`` → ``state_conditions``)."""

from __future__ import annotations

from core.agents.kg import kgrules


def state_conditions(q: str, intent: str, conditions: list[dict]) -> list[dict]:
    """The conditions the question's state words imply for ``intent`` records (none for a field
    some condition already holds)."""
    rows = kgrules.rules_file("kg_patterns")["state_conditions"]["rows"]
    out: list[dict] = []
    for rx, row in zip(kgrules.patterns("state_conditions"), rows):
        if row["intent"] != intent or any(c.get("field") == row["field"] for c in [*conditions, *out]):
            continue
        if rx.search(q):
            out.append({"field": row["field"], "op": row["op"], "value": 0, "text": row["text"], "derived": None,
                        "expr": row["expr"]})
    return out
