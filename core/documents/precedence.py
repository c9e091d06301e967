"""Which of two documents prevails when they say different things about the same matter.

The rules are data (data/rules/precedence.json): an ordered list, each naming one generic test
(``rank`` of a metadata field, ``asker_tenant``, ``names_place``, ``relation``, ``newer``) and the
template that explains the outcome. :func:`decide` tries them in order; the first test that
tells the two documents apart decides. When none does, the result says so and names no winner.

Documents are the answer's document dicts (``title``, ``status``, ``expiry_date``, ``level``,
``date``, ``effective_date``, ``authorities``, ``tenant``, ``doc_id``)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from core.text.numerals import cn_to_int

RULES_FILE = Path(__file__).resolve().parents[2] / "data" / "rules" / "precedence.json"


@lru_cache(maxsize=1)
def precedence_rules() -> dict:
    return json.loads(RULES_FILE.read_text(encoding="utf-8"))


def _fields(prefix: str, d: dict) -> dict:
    return {f"{prefix}_{k}": ("、".join(map(str, v)) if isinstance(v, list) else v) for k, v in d.items()
            if isinstance(v, (str, int, float)) or (isinstance(v, list) and all(isinstance(x, str) for x in v))}


def _bigram_share(short: str, long: str) -> float:
    grams = {short[i:i + 2] for i in range(len(short) - 1)}
    return sum(1 for g in grams if g in long) / len(grams) if grams else 0.0


def _ordinal(title: str, pattern: str) -> tuple[int, str] | None:
    m = re.search(pattern, title or "")
    if not m:
        return None
    n = m.group(1)
    value = cn_to_int(n, 0)
    return value, title[:m.start()] + title[m.end():]


# ---- the generic tests: +1 = a prevails, -1 = b prevails, 0 = undecided; plus template fields --------
def _rank(rule: dict, a: dict, b: dict, ctx: dict) -> tuple[int, dict]:
    ranks = rule["rank"]
    ra, rb = ranks.get(a.get(rule["field"]) or ""), ranks.get(b.get(rule["field"]) or "")
    if ra is None or rb is None or ra == rb:
        return 0, {}
    return (1 if ra < rb else -1), {}


def _asker_tenant(rule: dict, a: dict, b: dict, ctx: dict) -> tuple[int, dict]:
    own = ctx.get("tenant")
    ia, ib = bool(own) and a.get("tenant") == own, bool(own) and b.get("tenant") == own
    return (0 if ia == ib else (1 if ia else -1)), {}


def _names_place(rule: dict, a: dict, b: dict, ctx: dict) -> tuple[int, dict]:
    for place in ctx.get("places") or []:
        na, nb = (place in (d.get("title") or "") + "".join(d.get("authorities") or []) for d in (a, b))
        if na != nb:
            winner = a if na else b
            return (1 if na else -1), {"place": place,
                                       "w_level_label": rule["levels"].get(winner.get("level") or "", "本地")}
    return 0, {}


def _title_relation(rule: dict, a: dict, b: dict) -> tuple[int, str]:
    ta, tb = a.get("title") or "", b.get("title") or ""
    oa, ob = _ordinal(ta, rule["round_pattern"]), _ordinal(tb, rule["round_pattern"])
    if oa and ob and oa[0] != ob[0] and _bigram_share(oa[1], ob[1]) >= rule["same_title_share"]:
        return (1 if oa[0] > ob[0] else -1), "later_round"
    for kind, markers in rule["title_markers"].items():
        ma, mb = (any(m in t for m in markers) for t in (ta, tb))
        if ma == mb:
            continue
        marked, plain = (ta, tb) if ma else (tb, ta)
        for m in markers:
            marked = marked.replace(m, "")
        short, long = sorted((marked, plain), key=len)
        if _bigram_share(short, long) >= rule["same_title_share"]:
            return (1 if ma else -1), kind
    return 0, ""


def _relation(rule: dict, a: dict, b: dict, ctx: dict) -> tuple[int, dict]:
    for frm, kind, to in ctx.get("relations") or []:
        if (frm, to) == (a.get("doc_id"), b.get("doc_id")) and kind in rule["kinds"]:
            return 1, {"kind": kind}
        if (frm, to) == (b.get("doc_id"), a.get("doc_id")) and kind in rule["kinds"]:
            return -1, {"kind": kind}
    side, kind = _title_relation(rule, a, b)
    return side, ({"kind": kind} if side else {})


def _newer(rule: dict, a: dict, b: dict, ctx: dict) -> tuple[int, dict]:
    for field in rule["fields"]:
        da, db = a.get(field) or "", b.get(field) or ""
        if da and db and da != db:
            return (1 if da > db else -1), {}
    return 0, {}


TESTS = {"rank": _rank, "asker_tenant": _asker_tenant, "names_place": _names_place, "relation": _relation,
         "newer": _newer}


def decide(a: dict, b: dict, ctx: dict | None = None) -> dict:
    """``{"winner": "a" | "b" | None, "rule", "label", "reason"}``; ``ctx`` holds the asker's
    ``tenant``, the ``places`` the question names and explicit ``relations`` [(from, kind, to)]."""
    ctx = ctx or {}
    rules = precedence_rules()
    for rule in rules["rules"]:
        side, extra = TESTS[rule["test"]](rule, a, b, ctx)
        if not side:
            continue
        w, o = (a, b) if side > 0 else (b, a)
        why = rule["why"] if "why" in rule else rule["kinds"][extra["kind"]]
        if isinstance(why, dict):
            why = why.get(o.get(rule["field"]) or "", "")
        values = {**_fields("w", w), **_fields("o", o), **extra}
        return {"winner": "a" if side > 0 else "b", "rule": rule["id"], "label": rule["label"],
                "reason": why.format_map(_Blank(values))}
    return {"winner": None, "rule": "undecided", "label": "无法判断", "reason": rules["undecided"]}


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return ""
