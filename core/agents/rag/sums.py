"""A total of two figures the question names, computed from the cited figures, never quoted from
a neighbouring row: "予以公开和部分公开一共多少件" → the 予以公开 row's 总计 1362 and the 部分公开 row's
454 → 1362+454＝1816件; "行政诉讼里结果维持和结果纠正一共多少件" → the sentence about 行政诉讼 says
结果维持25件，结果纠正5件 → 25+5＝30件. Each item's figure is read where the document states it:

- a sentence clause that names the item followed by its figure (结果维持25件), in the clause that
  best names the rest of the question (行政诉讼, not 行政复议);
- a table row labelled with the item (信息内容: 行政处罚；本年处理决定数量: 4119 / 项目: …予以公开；
  …申请人情况/总计: 1362): its total cell, else the cell whose header names a question term.

The question form is data (``named_sum_asked`` in ``rate_rules``, data/rules/rag_patterns.json);
the line shows its addition and the citation check redoes it and finds each figure in the cited
text (:func:`verify_named_sum`)."""

from __future__ import annotations

import re

from core.agents.rag.ruledata import rules_file, synonyms, words
from core.agents.rag.textutil import key_terms, norm, salient_nouns, term_in

SUM_FIGURES_LEAD = "按所引数字合计："
SUM_LEAD = "按所引表格合计："  # a table item's parts or numbered rows summed (calc.py, arith.py)
_CELL = re.compile(r"([^:：；;]+)[:：]\s*([^；;]*)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _rx(name: str) -> re.Pattern:
    return re.compile(rules_file("rag_patterns")["rate_rules"][name]["pattern"])


def _fmt(x: float) -> str:
    return f"{round(x, 2):.2f}".rstrip("0").rstrip(".")


def asked_items(question: str) -> tuple[str, str] | None:
    """The two items a "A和B一共多少" question names (A as written before 和, up to the clause)."""
    m = _rx("named_sum_asked").search(norm(question))
    # 属于国家秘密的和其他…禁止公开的: the items without their 的
    return (m.group("a").removesuffix("的"), m.group("b").removesuffix("的")) if m else None


def _suffixes(item: str) -> list[str]:
    """行政复议里结果维持 → 行政复议里结果维持, 政复议里结果维持, …, 维持: the item as the document may
    name it (the clause before 和 may carry the question's context)."""
    return [item[i:] for i in range(0, max(1, len(item) - 1))]


def _prose_figure(item: str, text: str, context: list[str], unit: str) -> tuple[int, float, str, str] | None:
    """(how many context terms the clause names, figure, clause, the item's name there) of the
    best clause saying ``item`` + figure + unit."""
    best = None
    for clause in re.split(r"[。；;\n]", text):
        for name in (n for n in _suffixes(item) if len(n) >= min(4, len(item))):  # 重复申请 is no 申请
            m = re.search(re.escape(name) + r"(?:为|有|共)?(\d+(?:\.\d+)?)" + re.escape(unit), clause)
            if m:
                score = sum(1 for t in context if t in clause)
                if best is None or score > best[0]:
                    best = (score, float(m.group(1)), clause, name)
                break
    return best


def _row_figure(item: str, line: str, context: list[str]) -> tuple[float, str] | None:
    """(figure, the item's name there) of a table row labelled with ``item``: its total cell,
    else a cell whose header names a question term, else its only figure."""
    cells = [(h.strip(), v.strip()) for h, v in _CELL.findall(line)]
    labels = [v for _, v in cells if not _NUMBER.fullmatch(v)]
    name = next((n for n in _suffixes(item) if len(n) >= min(4, len(item)) and any(n in v for v in labels)), "")
    if not name:
        return None
    nums = [(h, float(v)) for h, v in cells if _NUMBER.fullmatch(v)]
    total = _rx("total_cell")
    for pick in ([v for h, v in nums if total.search(h)], [v for h, v in nums if any(t in h for t in context)],
                 [v for _, v in nums] if len(nums) == 1 else []):
        if len(pick) == 1:
            return pick[0], name
    return None


def _figure(item: str, used: list[dict], context: list[str], unit: str) -> tuple[float, int, str, str] | None:
    """(figure, citation number, cited text, the item's name there) of one named item: a clause
    of the evidence saying it, else a table row labelled with it."""
    prose = [(f, n) for n, d in enumerate(used, 1)
             if (f := _prose_figure(item, norm(d.get("body") or d.get("text") or ""), context, unit))]
    if prose:
        (_, value, clause, name), n = max(prose, key=lambda x: x[0][0])
        return value, n, clause, name
    for n, d in enumerate(used, 1):
        for line in (d.get("body") or d.get("text") or "").split("\n"):
            row = _row_figure(item, norm(line), context)
            if row is not None:
                return row[0], n, norm(line), row[1]
    return None


def named_sum_claim(question: str, used: list[dict]) -> dict | None:
    """"A和B一共多少件": A's and B's figures, each read where the evidence states it, added and
    cited; None unless both are found (then nothing else is summed for them either)."""
    items = asked_items(question)
    if not items or not used:
        return None
    unit_m = _rx("count_unit_asked").search(norm(question))
    if not unit_m:  # a count of cases (件/个/次…); amounts have their own rules
        return None
    unit = unit_m.group(1)
    context = [t for t in key_terms(question) if len(t) >= 2 and not re.search(r"\d", t)
               and not any(t in it for it in items)]
    found = [_figure(it, used, context, unit) for it in items]
    if any(f is None for f in found):
        return None
    (va, na, sa, name_a), (vb, nb, sb, name_b) = found
    if name_a == name_b or used[na - 1].get("doc_id") != used[nb - 1].get("doc_id"):
        return None  # one figure twice, or two reports' figures added
    text = (f"{SUM_FIGURES_LEAD}{name_a}{_fmt(va)}{unit}、{name_b}{_fmt(vb)}{unit}，"
            f"{_fmt(va)}+{_fmt(vb)}＝{_fmt(va + vb)}{unit}。")
    return {"text": text, "cites": sorted({na, nb}), "source": sa + "\n" + sb, "n": min(na, nb), "pos": -1}


def verify_named_sum(claim: str, source_text: str) -> tuple[bool, str] | None:
    """A named-sum line is supported when each added figure is in the cited text and the addition
    holds; None for any other claim."""
    c = norm(claim)
    if not c.startswith(norm(SUM_FIGURES_LEAD)):
        return None
    m = re.search(r"([\d.]+)\+([\d.]+)[=＝]([\d.]+)", c)
    if not m:
        return False, "合计式无法核对"
    a, b, r = (float(x) for x in m.groups())
    src = norm(source_text)
    if any(not re.search(r"(?<![\d.])" + re.escape(_fmt(x)) + r"(?![\d.])", src) for x in (a, b)):
        return False, "合计所用数字未出现在所引片段中"
    return (True, "合计已核对") if abs(a + b - r) <= 0.01 else (False, "合计结果有误")


# ---- a count of items times the amount each gets ------------------------------------------------
PRODUCT_LEAD = "按所引标准合计："


def items_counted(question: str) -> tuple[int, str]:
    """How many items the question says were bought and their classifier (两个人各买一辆 → 2, 辆;
    公司买了3辆 → 3, 辆); (0, "") if none."""
    from core.text.numerals import cn_to_int

    m = _rx("items_bought").search(norm(question))
    if not m:
        return 0, ""
    raw = next(g for g in m.groups() if g)
    n = int(raw) if raw.isdigit() else cn_to_int(raw)
    return (n, m.group(0)[-1]) if n and n >= 2 else (0, "")


def product_claim(question: str, claims: list[dict], used: list[dict] | None = None) -> dict | None:
    """"两个人各买一辆30万的新能源车，一共能领多少": the per-item amount of the cited tier the
    stated price falls in (每辆补贴5000元), times the count (5000元×2＝10000元); the claim naming
    most of the question's terms its documents' titles do not (新能源 over 燃油) wins. None unless a total is asked."""
    from core.agents.rag.amounts import question_amounts

    n, unit = items_counted(question)
    amounts = question_amounts(question)
    if not n or not amounts or not _rx("sum_asked").search(norm(question)):
        return None
    if used is not None:  # 两个人各买一台冰箱: a car notice's 可申领1900元 is not the 冰箱's amount
        claims = [c for c in claims if _about_subject(question, used[c["n"] - 1])]
    titles = norm(" ".join(d.get("title") or "" for d in used or []))
    # the terms that tell the claims apart (燃油 over 新能源汽车), not those of the title (汽车补贴)
    terms = [t for t in key_terms(question) if len(t) >= 2 and not re.search(r"\d", t) and t not in titles]
    ranked = sorted(claims, key=lambda c: -sum(1 for t in terms if t in norm(c["text"])))
    prices = list(dict.fromkeys(amounts))
    if len(prices) >= 2:  # 3辆车，发票分别是9万、20万和45万: each price its own tier, summed
        return _tiers_summed(question, ranked, prices, n)
    for c in ranked:
        each = _tier_amount(c, amounts)
        if each is not None:
            return {"text": f"{PRODUCT_LEAD}每{unit}{_fmt(each)}元×{n}＝{_fmt(each * n)}元。", "cites": list(c["cites"]),
                    "source": c["text"], "n": c["n"], "pos": -1}
    return None


def _tier_amount(claim: dict, amounts: list[float]) -> float | None:
    """The per-item amount of a tier sentence covering ``amounts`` (可申领1900元), else None."""
    from core.agents.rag.amounts import amount_fits

    m = _rx("tier_item_amount").search(norm(claim["text"]))
    if not m or not amount_fits(amounts, claim["text"]):
        return None
    return float(m.group(1)) * (10000 if m.group(2).startswith("万") else 1)


def _tiers_summed(question: str, ranked: list[dict], prices: list[float], n: int) -> dict | None:
    """One item per stated price, each at its own tier's amount, added (1900元＋5800元＋8500元); None
    when the prices are not one per item, a tier is not cited, or a part of the package is asked
    (加油储值卡: the tier sentence gives the whole package)."""
    if len(prices) != n or any(w in norm(question) for w in words("tier_parts")):
        return None
    picked = [next(((c, e) for c in ranked if (e := _tier_amount(c, [p])) is not None), None) for p in prices]
    if any(x is None for x in picked):
        return None
    eachs = [e for _, e in picked]
    return {"text": f"{PRODUCT_LEAD}{'＋'.join(f'{_fmt(e)}元' for e in eachs)}＝{_fmt(sum(eachs))}元。",
            "cites": sorted({x for c, _ in picked for x in c["cites"]}),
            "source": "\n".join(c["text"] for c, _ in picked), "n": picked[0][0]["n"], "pos": -1}


def _about_subject(question: str, d: dict) -> bool:
    """Does the cited chunk (its text and title) name every salient noun of the question?"""
    ctx = norm(" ".join([d.get("title") or "", d.get("body") or d.get("text") or ""]))
    return all(term_in(t, ctx) or any(norm(x) in ctx for x in synonyms().get(t, ())) for t in salient_nouns(question))


def verify_line(claim: str, source_text: str, lead: str, operator: str, compute,
                cited: int) -> tuple[bool, str] | None:
    """A computed line ``<lead>… A元<operator>B元＝R元`` is supported when its ``cited``-th figure
    (0 = A, 1 = B) is in the cited text and ``compute(A, B)`` is R; None for a line with
    another lead."""
    c = norm(claim)
    if not c.startswith(norm(lead)):
        return None
    m = re.search(r"([\d.]+)元" + operator + r"([\d.]+)元?[=＝]([\d.]+)元", c)
    if not m:
        return False, "计算式无法核对"
    a, b, r = (float(x) for x in m.groups())
    if not re.search(r"(?<![\d.])" + re.escape(_fmt((a, b)[cited])) + r"\s*元", norm(source_text)):
        return False, "计算所用金额未出现在所引片段中"
    return (True, "计算已核对") if abs(compute(a, b) - r) <= 0.01 else (False, "计算结果有误")


def verify_product(claim: str, source_text: str) -> tuple[bool, str] | None:
    """A count-times-amount line (5000元×2＝10000元): the amount must be cited; a line adding each
    item's tier amount (1900元＋5800元＝7700元): every amount cited, the addition right."""
    c = norm(claim)
    if c.startswith(norm(PRODUCT_LEAD)) and not re.search(r"[×x*]", c):
        m = re.search(r"((?:[\d.]+元[+＋])+[\d.]+元)[=＝]([\d.]+)元", c)
        if not m:
            return False, "计算式无法核对"
        parts = [float(x) for x in re.findall(r"([\d.]+)元", m.group(1))]
        src = norm(source_text)
        if any(not re.search(r"(?<![\d.])" + re.escape(_fmt(x)) + r"\s*元", src) for x in parts):
            return False, "计算所用金额未出现在所引片段中"
        return (True, "计算已核对") if abs(sum(parts) - float(m.group(2))) <= 0.01 else (False, "计算结果有误")
    return verify_line(claim, source_text, PRODUCT_LEAD, "[×x*]", lambda each, n: each * n, 0)
