"""An amount computed from a cited rate rule, never quoted from another sentence: the question
states a price (买一台6000元的2级能效洗衣机) and asks what it gets; the document gives the rule
("按最终销售价格的15%给予补贴 … 1级及以上 额外再给予5% … 每件补贴不超过2000元"). The rates that
apply to what is asked (its 能效 grade) and the per-item cap are read by the patterns of
``rate_rules`` in data/rules/rag_patterns.json; the line shows the formula and cites the rule.
The citation check verifies such a line by redoing the arithmetic (:func:`verify_calculation`)."""

from __future__ import annotations

import re

from core.agents.rag.amounts import amount_fits, question_amounts
from core.agents.rag.ruledata import rules_file, words
from core.agents.rag.slots import slot_kind
from core.agents.rag.sums import SUM_LEAD, asked_items, verify_named_sum, verify_product
from core.agents.rag.textutil import display, is_table_row, key_terms, norm, split_sentences

LEAD = "按所引规定计算："


def _rules() -> dict:
    return rules_file("rag_patterns")["rate_rules"]


def _rx(name: str) -> re.Pattern:
    return re.compile(_rules()[name]["pattern"])


def _num(text: str) -> float:
    digits = _rules()["chinese_digits"]["map"]
    return float(digits.get(text, text))


def _fmt(x: float) -> str:
    return f"{round(x, 2):.2f}".rstrip("0").rstrip(".")


def asked_grade(question: str) -> float | None:
    """The grade the question names (2级能效 / 一级能效 → 2 / 1), or None."""
    m = _rx("asked_grade").search(norm(question or ""))
    return _num(m.group(1)) if m else None


def applicable_rates(sentence: str, grade: float | None) -> list[float] | None:
    """The rates of a rule sentence that apply to an item of ``grade``: the base rate and the
    extra ones (额外再给予5%) whose condition (1级及以上) the grade meets. None when a
    condition needs a grade the question does not name."""
    s = norm(sentence)
    rates, start, base = [], 0, False
    for m in _rx("rate").finditer(s):
        cond = s[start:m.start()]
        start = m.end()
        need = _rx("grade_at_least").search(cond)
        if need and grade is None:
            return None
        if need and grade > _num(need.group(1)):
            continue  # 1级及以上 does not cover a 2级 item
        extra = bool(_rx("extra_rate").search(cond))
        if not extra and base:
            continue  # one base rate
        base = base or not extra
        rates.append(float(m.group(1)))
    return rates if base else None


def _item_cap(sentences: list[str]) -> float | None:
    for s in sentences:
        m = _rx("item_cap").search(norm(s))
        if m:
            return float(m.group(1)) * (10000 if m.group(2).startswith("万") else 1)
    return None


def _rule_sentences(d: dict) -> list[str]:
    return [display(s) for s in split_sentences(d.get("body") or d.get("text") or "")]


def rate_claim(question: str, claims: list[dict], used: list[dict]) -> dict | None:
    """The computed-amount claim (formula, cap, citation) for a stated price, or None."""
    amounts = question_amounts(question)
    net = bool(_rx("net_pay_asked").search(norm(question)))  # 补完实际花多少: the price less the subsidy
    if len(amounts) != 1 or (slot_kind(question)[0] != "金额" and not net) or not claims:
        return None
    doc_id = used[claims[0]["n"] - 1]["doc_id"]
    chunks = [(n, d) for n, d in enumerate(used, 1) if d["doc_id"] == doc_id]
    sents = [(n, s) for n, d in chunks for s in _rule_sentences(d)]
    if any(amount_fits(amounts, s) is True for _, s in sents):
        return None  # a tier (10万元（含）至30万元（不含）) answers the stated amount itself
    grade = asked_grade(question)
    for n, s in sents:
        if not _rx("rate_sentence").search(s):
            continue
        rates = applicable_rates(s, grade)
        if not rates:
            continue
        cap = _item_cap([x for m, x in sents if m == n] + [x for _, x in sents])
        cap_n = next((m for m, x in sents if cap is not None and _rx("item_cap").search(norm(x))), n)
        return {"text": _formula(amounts[0], rates, cap, net), "cites": sorted({n, cap_n}), "source": s, "n": n, "pos": -1}
    return None


def total_rate_claim(question: str, claims: list[dict], used: list[dict]) -> dict | None:
    """"1级能效的家电总共按百分之几补贴": the rates that apply to the asked grade summed
    (15%+5%＝20%), cited; None unless more than one applies."""
    if slot_kind(question)[0] != "比例" or asked_grade(question) is None or not claims:
        return None
    doc_id = used[claims[0]["n"] - 1]["doc_id"]
    for n, d in enumerate(used, 1):
        for s in (_rule_sentences(d) if d["doc_id"] == doc_id else []):
            rates = applicable_rates(s, asked_grade(question)) if _rx("rate_sentence").search(s) else None
            if rates and len(rates) >= 2:
                expr = "+".join(f"{_fmt(r)}%" for r in rates)
                return {"text": f"{LEAD}{expr}＝{_fmt(sum(rates))}%。", "cites": [n], "source": s, "n": n, "pos": -1}
    return None


def _formula(amount: float, rates: list[float], cap: float | None, net: bool = False) -> str:
    rate = sum(rates)
    expr = "+".join(f"{_fmt(r)}%" for r in rates)
    expr = f"（{expr}）" if len(rates) > 1 else expr
    raw = amount * rate / 100
    text = f"{LEAD}{_fmt(amount)}元×{expr}＝{_fmt(raw)}元"
    if cap is not None and raw > cap:
        text += f"，超过每件最高{_fmt(cap)}元的上限，按{_fmt(cap)}元补贴"
    elif cap is not None:
        text += f"（未超过每件{_fmt(cap)}元的上限）"
    paid = min(raw, cap) if cap is not None else raw  # one sentence: the net price is no claim of its own
    return text + (f"，补贴后实际支付{_fmt(amount)}元−{_fmt(paid)}元＝{_fmt(amount - paid)}元。" if net else "。")


def sum_claim(question: str, claims: list[dict], used: list[dict]) -> dict | None:
    """"不予公开的加起来有几件": the total column of the table rows numbered under the asked
    item (（三）不予公开 1.… 8.…) summed, with the rows' citation; None when no such rows."""
    if slot_kind(question)[0] not in ("数量", "数值") or not _rx("sum_asked").search(question) or not claims:
        return None
    if asked_items(question):  # 予以公开和部分公开一共: those two (core/agents/rag/sums.py), not another item's rows
        return None
    doc_id = used[claims[0]["n"] - 1]["doc_id"]
    title = norm(used[claims[0]["n"] - 1].get("title") or "")
    # the item asked (不予): not what the report's title is about (政府信息公开), nor a generic word (申请)
    terms = [t for t in key_terms(question) if len(t) >= 2 and t not in title and t not in words("generic_terms")]
    groups: dict[tuple[int, str], list[float]] = {}
    for n, d in enumerate(used, 1):
        if d["doc_id"] != doc_id:
            continue
        for line in (d.get("body") or d.get("text") or "").split("\n"):
            m = _rx("numbered_row").match(norm(line)) if is_table_row(line) else None
            if m and any(t in m.group(1) for t in terms):
                groups.setdefault((n, m.group(1)), []).append(float(m.group(2)))
    # the item the question names best over every cited chunk (不予处理, not the 不予公开 rows of an
    # earlier chunk), then the one with most sub-items
    qualified = [k for k, rows in groups.items() if len(rows) >= 2]
    if not qualified:
        return None
    kt, q = key_terms(question), norm(question)
    # a generic word joined to the item in the question (不予 + 处理) names it too
    joined = [a + b for a, b in zip(kt, kt[1:]) if a + b in q and (a in terms or b in terms)]
    n, label = max(qualified, key=lambda k: (sum(len(t) for t in [*terms, *joined] if t in k[1]), len(groups[k])))
    rows, unit = groups[(n, label)], _rx("count_unit_asked").search(question)
    return {"text": f"{SUM_LEAD}{display(label)}各项{'+'.join(_fmt(v) for v in rows)}＝{_fmt(sum(rows))}"
                    f"{unit.group(1) if unit else ''}。", "cites": [n], "source": "", "n": n, "pos": -1}


def _verify_sum(claim: str, src: str) -> tuple[bool, str]:
    m = _rx("sum_formula").search(norm(claim))
    if not m:
        return False, "合计式无法核对"
    parts = [float(x) for x in m.group(1).split("+")]
    if abs(sum(parts) - float(m.group(2))) > 0.01:
        return False, "合计结果有误"
    return True, "合计已核对"


def verify_calculation(claim: str, source_text: str) -> tuple[bool, str] | None:
    """A computed line is supported when its rates and cap are in the cited text and its
    arithmetic holds; None for any other claim."""
    if norm(claim).startswith(norm(SUM_LEAD)):
        return _verify_sum(claim, norm(source_text))
    named = verify_named_sum(claim, source_text) or verify_product(claim, source_text)  # 1362+454＝1816件 / 5000元×2
    if named is not None:
        return named
    if not norm(claim).startswith(norm(LEAD)):
        return None
    m = _rx("formula").search(norm(claim))
    r = _rx("rate_sum").search(norm(claim))
    if not m and r:
        rates = [float(x) for x in re.findall(r"(\d+(?:\.\d+)?)%", r.group(1))]
        if any(not re.search(r"(?<![\d.])" + re.escape(_fmt(x)) + r"\s*%", norm(source_text)) for x in rates):
            return False, "计算所用比例未出现在所引片段中"
        ok = abs(sum(rates) - float(r.group(2))) <= 0.01
        return (True, "计算已核对") if ok else (False, "计算结果有误")
    if not m:
        return False, "计算式无法核对"
    amount, result = float(m.group(1)), float(m.group(3))
    rates = [float(r) for r in re.findall(r"(\d+(?:\.\d+)?)%", m.group(2))]
    src = norm(source_text)
    if not rates or any(not re.search(r"(?<![\d.])" + re.escape(_fmt(r)) + r"\s*%", src) for r in rates):
        return False, "计算所用比例未出现在所引片段中"
    if abs(amount * sum(rates) / 100 - result) > 0.01:
        return False, "计算结果有误"
    cap = re.search(r"每件最高?(\d+(?:\.\d+)?)元", norm(claim))
    if cap and not re.search(r"(?<![\d.])" + re.escape(cap.group(1)) + r"\s*元", src):
        return False, "上限金额未出现在所引片段中"
    return True, "计算已核对"
