"""Follow-up questions and vagueness: does a question lean on the previous turn ("那第二条呢？",
"要交哪些材料？"), what it means in full, and is it too vague to retrieve on. Cue patterns are
data (data/rules/rag_patterns.json "followup", "follow_start", "numeric_q")."""

from __future__ import annotations

import re

from core.agents.rag.ruledata import pattern, words
from core.agents.rag.textutil import article_refs, entities, norm, specific_terms, term_in

# an ordinal of the same kind in a follow-up replaces the previous one (第一轮 → 第二轮)
ORDINAL = re.compile(r"第[一二三四五六七八九十\d]{1,3}(轮|批次|批|期|阶段|档)")
_SHORT_FOLLOW = 12  # a question this short, naming no document's subject, leans on the thread


def is_followup(question: str, history: list[dict], titles: list[str] | None = None) -> bool:
    if not history:
        return False
    last = next((h for h in reversed(history) if h.get("doc_ids")), None)
    if last is None:
        return False
    spec = specific_terms(question)
    if not spec:
        return True
    q = question.strip()
    if pattern("follow_start").search(q) and len(spec) <= 6 and not entities(q):
        return True  # "其中…" / "那第二轮呢" lean on the previous turn whatever they add
    if all(t in words("attribute_terms") for t in spec) and not entities(q):
        return True  # only an attribute (有效期 / 电话): of the thing asked about before
    if pattern("followup").search(q) and len(spec) <= 2:
        return True
    if titles and len(re.sub(r"\W", "", q)) <= _SHORT_FOLLOW and not entities(q) and not article_refs(q):
        # "空调能补几台？" / "要交哪些材料？" after a question about one programme: none of its
        # terms names any document, so it asks about the one discussed
        tn = [norm(t) for t in titles]
        named = [t for t in spec if len(t) >= 2 and any(term_in(t, x) for x in tn)]
        return not named
    return False


def resolve_followup(question: str, history: list[dict]) -> tuple[str, list[str], str]:
    """(resolved question, focus doc ids, subject) for a follow-up; the subject is the
    previous turn's main cited document title."""
    last = next((h for h in reversed(history) if h.get("doc_ids")), None)
    if last is None:
        return question, [], ""
    q = re.sub(r"^(那么|那|还有|另外|再问一下|再问|然后|此外)[，,、\s]*", "", question.strip())
    q = re.sub(r"[呢吗]?[?？。!！]*$", "", q) or question.strip()
    titles = last.get("titles") or []
    subject = titles[0] if titles else ""
    prev_q = last.get("resolved") or last.get("question") or ""
    new_ord = ORDINAL.search(q)
    old_ord = next((m for m in ORDINAL.finditer(prev_q) if new_ord and m.group(1) == new_ord.group(1)), None)
    if new_ord and old_ord:
        # same question about another round: drop the previous round's documents from focus
        rest = re.sub(r"^(那么|那)|[呢吗]?[?？。]*$", "", q.replace(new_ord.group(0), "")).strip()
        resolved = prev_q.replace(old_ord.group(0), new_ord.group(0)) + (f" {rest}" if rest else "")
        return resolved.strip(), [], subject
    if article_refs(q):
        resolved = (f"《{subject}》" if subject else "") + q
    else:
        prev_terms = [t for t in specific_terms(last.get("resolved") or last.get("question") or "")
                      if not pattern("numeric_q").fullmatch(t)]
        resolved = " ".join(prev_terms[:4] + [q]) if prev_terms else (f"《{subject}》{q}" if subject else q)
    return resolved.strip(), list(last.get("doc_ids") or []), subject


def is_vague(question: str) -> bool:
    """Too vague to retrieve on: no specific term, no article, no entity."""
    if specific_terms(question) or article_refs(question) or entities(question):
        return False
    return True
