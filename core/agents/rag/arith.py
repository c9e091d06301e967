"""Two more amounts computed from cited figures, never quoted from a neighbouring sentence:

- a difference of two cited amounts ("不含税25万的新能源车比同价燃油车多补多少" → the two tiers
  that apply, 每辆补贴4000元 and 每辆补贴3000元 → 4000元−3000元＝1000元);
- what is left to pay after a 满减 coupon ("在饭店吃了300元，用餐饮券实际要付多少" → the highest
  tier the spend reaches, 满300元减75元 → 300元−75元＝225元).

The question forms and the sentence shapes are data (``rate_rules`` in
data/rules/rag_patterns.json); the line shows its subtraction and the citation check redoes it
(:func:`verify_difference`)."""

from __future__ import annotations

import re

from core.agents.rag.amounts import question_amounts
from core.agents.rag.ruledata import rules_file
from core.agents.rag.sums import SUM_LEAD, verify_line  # the table-total line the citation check redoes
from core.agents.rag.textutil import key_terms, norm

DIFF_LEAD = "按所引标准相减："


def _rx(name: str) -> re.Pattern:
    return re.compile(rules_file("rag_patterns")["rate_rules"][name]["pattern"])


def _fmt(x: float) -> str:
    return f"{round(x, 2):.2f}".rstrip("0").rstrip(".")


def _yuan(value: str, unit: str | None) -> float:
    return float(value) * (10000 if (unit or "").startswith("万") else 1)


def difference_claim(question: str, claims: list[dict]) -> dict | None:
    """"A比B多补多少": the two distinct per-item amounts the answer's sentences state,
    subtracted (larger − smaller), citing both; None unless exactly two are stated."""
    if not _rx("difference_asked").search(norm(question)):
        return None
    found: list[tuple[float, dict]] = []
    for c in claims:
        m = _rx("per_item_amount").search(norm(c["text"]))
        if m and all(abs(v - _yuan(m.group(1), m.group(2))) > 0.001 for v, _ in found):
            found.append((_yuan(m.group(1), m.group(2)), c))
    if len(found) != 2:
        return None
    (a, ca), (b, cb) = sorted(found, key=lambda x: -x[0])
    cites = sorted({*ca["cites"], *cb["cites"]})
    return {"text": f"{DIFF_LEAD}{_fmt(a)}元−{_fmt(b)}元＝{_fmt(a - b)}元。", "cites": cites,
            "source": "", "n": min(ca["n"], cb["n"]), "pos": -1}


def net_pay_claim(question: str, claims: list[dict]) -> dict | None:
    """"消费300元用券实际要付多少": the spend less the reduction of the highest 满X减Y tier it
    reaches, from the cited sentence that names what the question names (餐饮 over 零售)."""
    amounts = question_amounts(question)
    if len(amounts) != 1 or not _rx("net_pay_asked").search(norm(question)):
        return None
    spend = amounts[0]
    terms = [t for t in key_terms(question) if len(t) >= 2 and not re.search(r"\d", t)]
    ranked = sorted(claims, key=lambda c: -sum(1 for t in terms if t in norm(c["text"])))
    for c in ranked:
        tiers = [(_yuan(x, None), _yuan(y, None)) for x, y in _rx("tier_off").findall(norm(c["text"]))]
        reached = [t for t in tiers if t[0] <= spend]
        if reached:
            _, off = max(reached)
            return {"text": f"{DIFF_LEAD}{_fmt(spend)}元−{_fmt(off)}元＝{_fmt(spend - off)}元。",
                    "cites": list(c["cites"]), "source": c["text"], "n": c["n"], "pos": -1}
    return None


def verify_difference(claim: str, source_text: str) -> tuple[bool, str] | None:
    """A subtraction line (300元−75元＝225元) is supported when its subtrahend is in the cited text
    and the arithmetic holds; None for any other claim."""
    return verify_line(claim, source_text, DIFF_LEAD, "[−\\-－]", lambda a, b: a - b, 1)


def cell_sum_claim(question: str, claims: list[dict]) -> dict | None:
    """"行政诉讼一共多少件" where the table gives only its parts (行政诉讼/未经复议直接起诉/总计: 26；
    行政诉讼/复议后起诉/总计: 20): the parts' totals summed (26+20＝46件), citing the row. None when
    the table states the item's own total (行政复议/总计: 351) or fewer than two parts."""
    q = norm(question)
    if not _rx("sum_asked").search(q):
        return None
    unit = _rx("count_unit_asked").search(q)
    total = _rx("total_cell")
    for c in claims:
        cells = [x.strip() for x in re.split(r"[;；]", norm(c["text"]).rstrip("。."))]
        heads: dict[str, list[tuple[list[str], float]]] = {}
        for cell in cells:
            m = re.fullmatch(r"([^:：]+)[:：]\s*(\d+(?:\.\d+)?)", cell)
            if not m:
                continue
            path = m.group(1).split("/")
            heads.setdefault(path[0], []).append((path[1:], float(m.group(2))))
        for head, rows in heads.items():
            if len(head) < 2 or head not in q:
                continue
            if any(len(p) == 1 and total.fullmatch(p[0]) for p, _ in rows):
                return None  # the item's own total is stated: quoted, not summed
            parts = [v for p, v in rows if len(p) == 2 and total.fullmatch(p[1])]
            if len(parts) >= 2:
                expr = "+".join(_fmt(v) for v in parts)
                return {"text": f"{SUM_LEAD}{head}各项{expr}＝{_fmt(sum(parts))}{unit.group(1) if unit else ''}。",
                        "cites": list(c["cites"]), "source": c["text"], "n": c["n"], "pos": -1}
    return None
