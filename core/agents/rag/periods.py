"""Time-aware evidence: the months or round a question names against the period a document
covers. "1月份开始的汽车补贴" is not answered from the 下半年 notice, "第一轮" not from the 第二轮
one. A document's period comes from the period words of its title (data/rules
rag_vocabulary.json ``period_months``) or else from its validity dates (effective → expiry);
a document whose period is unknown is never penalised."""

from __future__ import annotations

from core.agents.rag.ruledata import pattern, vocab_entry
from core.agents.rag.textutil import norm
from core.text.numerals import cn_to_int


def _period_words(text: str) -> set[int]:
    months: set[int] = set()
    for word, (first, last) in vocab_entry("period_months")["map"].items():
        if word in text:
            months |= set(range(first, last + 1))
    return months


def asked_months(question: str) -> set[int]:
    """The months the question names as a time frame (1月份 / 上半年 / 三季度); empty if none."""
    q = norm(question or "")
    found = pattern("asked_month").findall(q) + pattern("event_month").findall(q)  # 我1月底买的车
    months = {m for m in (cn_to_int(g) for g in found) if m and 1 <= m <= 12}
    return months | _period_words(q)


def _month(value: str) -> int | None:
    parts = str(value or "").split("-")
    return int(parts[1]) if len(parts) >= 2 and parts[1].isdigit() else None


def doc_months(d: dict, question: str = "") -> set[int]:
    """The months a document covers: its title's period words, else effective → expiry date,
    else for a follow-on notice (追加…) its date onwards — 1月那轮 is the campaign's own notice,
    not the 2月 追加 (unless the question asks what became of it later: 用完了没有); empty when
    nothing says."""
    title = norm((d.get("title") or "") + " " + (d.get("file_name") or ""))
    months = _period_words(title)
    if months:
        return months
    start, end = _month(d.get("effective_date")), _month(d.get("expiry_date"))
    if start is None and end is None:
        entry = vocab_entry("follow_on_titles")
        issued = _month(d.get("date"))
        if issued and any(w in title for w in entry["words"]) \
                and not any(w in (question or "") for w in entry["later_asked"]["words"]):
            return set(range(issued, 13))
        return set()
    return set(range(start or 1, (end or 12) + 1))


def _rounds(text: str) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for ordinal, kind in pattern("round_ordinal").findall(norm(text or "")):
        n = cn_to_int(ordinal)
        if n:
            out.setdefault(kind, set()).add(n)
    return out


def period_mismatch(question: str, d: dict) -> str:
    """Why the document's period or round does not cover the one asked (a note), or ''."""
    asked, covered = asked_months(question), doc_months(d, question)
    if asked and covered and not asked & covered:
        return f"文件时段为{min(covered)}—{max(covered)}月"
    title_rounds = _rounds((d.get("title") or "") + " " + (d.get("file_name") or ""))
    for kind, wanted in _rounds(question).items():
        have = title_rounds.get(kind)
        if have and not wanted & have:
            return f"文件为第{min(have)}{kind}"
    return ""
