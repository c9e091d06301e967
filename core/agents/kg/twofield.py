"""Figures computed from two fields and rankings after summing, read from data rows:

* ``kg_patterns.two_fields`` — "开票和收款差了多少" → sum of ``开票金额 - 收款金额``;
  "收款比开票少" → ``开票金额 - 收款金额``; "收款金额少于开票金额的项目" → the condition
  ``收款金额 < 开票金额``. ``{F}`` in a row stands for the field words of
  ``kg_vocabulary.two_field_words``;
* ``kg_patterns.group_rank`` — "累计开票金额最高的项目" → totals per project, the top one.

:func:`apply` runs on the slots the other rules produced and only adds what they lack."""

from __future__ import annotations

import re
from functools import lru_cache

from core.agents.kg import kgrules
from core.agents.kg.cues import _WHICH_KEYS

_NUMERIC_OPS = ("sum", "avg", "max", "min", None)


@lru_cache(maxsize=1)
def _rows() -> tuple[tuple[re.Pattern, dict], ...]:
    words = kgrules.mapping("two_field_words")
    alt = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    spec = kgrules.rules_file("kg_patterns")["two_fields"]
    field = f"(?:{spec['before']})?(?:{alt})(?:{spec['after']})?"  # 累计开票, 收款金额合计
    return tuple((re.compile(r["pattern"].replace("{F}", field)), r) for r in spec["rows"])


def _field_of(said: str) -> str:
    """The field a field word with its qualifiers names (累计开票 → 开票金额)."""
    words = kgrules.mapping("two_field_words")
    return next((words[w] for w in sorted(words, key=len, reverse=True) if w in said), "")


def two_field_slot(q: str) -> dict | None:
    """The first two-field row that matches ``q``: ``{"kind", "expr", "fields", "text"}`` (a
    difference expression, or a comparison condition's expression)."""
    for rx, row in _rows():
        m = rx.search(q)
        if not m:
            continue
        a, b = (_field_of(m.groupdict().get(k) or "") for k in ("a", "b"))
        a, b = (a, b) if a and b else tuple(row.get("fields") or ("", ""))  # a row naming its fields
        if row["kind"] == "difference":
            expr = row["expr"].format(a=a, b=b) if a and b else row["expr"]
            fields = [f.strip() for f in re.split(r" [-+] ", expr)]
        else:
            if not (a and b) or a == b:
                continue
            expr, fields = f"{a} {row['op']} {b}", [a, b]
        if len(set(fields)) < 2:
            continue
        return {"kind": row["kind"], "expr": expr, "fields": fields, "text": m.group(0),
                **({"op": row["op"]} if row["kind"] == "compare" else {}),
                **({"counts": True} if row.get("counts") else {})}
    return None


def top_group(q: str, agg: dict | None) -> dict:
    """"编制缺口最大的是哪个项目", "哪个岗位加班超时费最多": the group asked for an extreme of a max / min
    figure, first of the ranking ({} when the question names no group key)."""
    m = kgrules.cue("which_group_extreme").search(q)
    key = _WHICH_KEYS.get((m.group(1) or m.group(2)).removeprefix("个")) if m else None
    if not key or (agg or {}).get("op") not in ("max", "min"):
        return {}
    return {"group_by": key, "top": 1, **({"order": "asc"} if agg["op"] == "min" else {})}


def _intent_of(fields: list[str], intent: str) -> str:
    owners = {kgrules.mapping("two_field_intents").get(f) for f in fields}
    owners.discard(None)
    return owners.pop() if len(owners) == 1 else intent


def _group_rank(q: str, agg: dict | None) -> dict | None:
    """"累计开票金额最高的项目是哪个": the summed field per group, ranked, the first one."""
    if not agg or agg.get("group_by") or agg.get("op") not in ("sum", "max", "min") or not agg.get("field"):
        return agg
    for row in kgrules.rules_file("kg_patterns")["group_rank"]["rows"]:
        if re.search(row["pattern"], q):
            return {"op": "sum", "field": agg["field"], "group_by": row["field"], "top": 1, "explicit": True,
                    **({"order": "asc"} if row["order"] == "asc" else {})}
    return agg


def apply(slots: dict) -> dict:
    """``slots`` with two-field figures, two-field conditions and group rankings added."""
    if slots.get("followup") or slots.get("kind") != "graph":
        return slots
    q = slots.get("question") or ""
    hit = two_field_slot(q)
    agg = slots.get("agg")
    ops = _NUMERIC_OPS + (("count",) if (hit or {}).get("counts") else ())  # 还缺几个人: the gap is the count
    if hit and hit["kind"] == "difference" and (agg or {}).get("op") in ops \
            and not (agg or {}).get("group_by") and not slots.get("ratio"):
        slots = {**slots, "intent": _intent_of(hit["fields"], slots.get("intent") or ""), "growth": None,
                 "agg": {"op": "sum", "field": hit["expr"], "explicit": True, **top_group(q, agg)}, "granularity": "汇总",
                 "conditions": [c for c in slots.get("conditions") or [] if c.get("field") not in hit["fields"]]}
    elif hit and hit["kind"] == "difference" and (agg or {}).get("group_by") and agg.get("op") in ops \
            and (agg.get("field") in hit["fields"] or agg.get("op") == "count"):
        # "开票和收款差额最大的是哪个项目", "各岗位缺编多少人": the difference summed per group
        slots = {**slots, "agg": {**agg, "op": "sum", "field": hit["expr"], "distinct": False}}
    elif hit and hit["kind"] == "compare":
        kept = [c for c in slots.get("conditions") or [] if c.get("field") not in hit["fields"]]
        cond = {"field": hit["fields"][0], "op": hit["op"], "value": None, "text": hit["text"],
                "expr": hit["expr"]}
        slots = {**slots, "intent": _intent_of(hit["fields"], slots.get("intent") or ""),
                 "conditions": kept + [cond]}
        if agg and agg.get("field") in hit["fields"] and agg.get("op") != "count":
            slots["agg"], slots["granularity"] = None, "明细"
    ranked = _group_rank(q, slots.get("agg"))
    if ranked is not slots.get("agg"):
        slots = {**slots, "agg": ranked, "granularity": "汇总"}
    return slots
