"""A value of a person's field (岗位名称：采购专员, 保安_普保) on records that do not store that field:
applied through the column the records hold under another name (岗位编制.岗位), or through the
records' person field (经办人工号 in the people holding the value) — never dropped, and never a
refusal when the join is known. The joins are data (``field_joins`` in kg_vocabulary.json)."""

from __future__ import annotations

from core.agents.kg import kgrules
from core.graph.schema import NODE_BY_LABEL


def person_value_join(intent: str, filters: dict, index) -> tuple[dict, list[dict]]:
    """(filters, conditions) with the 人员 field values the ``intent``'s records lack rewritten."""
    node = NODE_BY_LABEL.get(kgrules.mapping("intent_labels").get(intent or "", ""))
    person = NODE_BY_LABEL.get("人员")
    if node is None or person is None or index is None or node.label == person.label:
        return filters, []
    spec = kgrules.rules_file("kg_vocabulary")["field_joins"]
    out, conds = dict(filters), []
    for field, vals in filters.items():
        if not vals or field in node.property_names or field not in person.property_names:
            continue
        same = next((f for f in spec["same_as"].get(field, []) if f in node.property_names), None)
        if same:
            out.pop(field)
            out[same] = list(vals)
            continue
        pf = spec["person_fields"].get(intent or "")
        if not pf or pf not in node.property_names:
            continue
        wanted = {str(v) for v in vals}
        ids = sorted(str(p["工号"]) for p in index.people if str(p.get(field) or "") in wanted)
        out.pop(field)
        conds.append({"field": pf, "op": "in", "value": 0, "text": f"{field}：{'、'.join(map(str, vals))}",
                      "derived": None, "expr": f"{pf} in {ids!r}"})
    return out, conds
