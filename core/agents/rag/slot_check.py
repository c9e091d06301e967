"""The extracted answer must fill the slot the question asks (a date, a duration, a count, an
amount, an organisation …): when its sentences do not, the sentence of the used chunks that
does (found by :func:`core.agents.rag.slots.slot_gaps`) leads the answer; when no used chunk
fills it either, the answer is no answer to that question."""

from __future__ import annotations

from core.agents.rag.ruledata import weight, words
from core.agents.rag.slots import slot_gaps, slot_kind
from core.agents.rag.textutil import display, norm, split_sentences


def _claim_docs(claims: list[dict], used: list[dict]) -> list[dict]:
    """Each claim as a one-sentence chunk of its document (title, heading, dates kept)."""
    out = []
    for cl in claims:
        d = used[cl["n"] - 1]
        out.append({**d, "body": cl["text"], "text": cl["text"]})
    return out


def _filling_claim(question: str, docs: list[dict]) -> tuple[dict, dict] | None:
    """(the chunk, its sentence) that fills the asked slot, or None."""
    explain: list = []
    if slot_gaps(question, docs, max_docs=len(docs), explain=explain):
        return None
    hit = next((e for e in reversed(explain) if "sentence" in e), None)
    d = next((d for d in docs if hit and d.get("chunk_id") == hit.get("chunk_id")), None)
    return (d, hit) if d is not None else None


def fill_asked_slot(question: str, claims: list[dict], used: list[dict],
                    pool: list[dict] | None = None) -> tuple[list[dict], list[dict], bool]:
    """``(claims, used, answered)``: when the claims leave the asked slot empty, the sentence
    of the used chunks (else of the relevant pool, whose chunk then joins ``used``) that fills
    it leads the claims; ``answered`` is False when none does."""
    kind, _ = slot_kind(question)
    if not claims or kind not in words("checked_answer_slots"):
        return claims, used, True
    if not slot_gaps(question, _claim_docs(claims, used), max_docs=len(claims)):
        return claims, used, True
    found = _filling_claim(question, used)
    if found is None and pool:
        have = {d.get("chunk_id") for d in used}
        found = _filling_claim(question, [d for d in pool[:int(weight("slot_fill_pool_chunks"))]
                                          if d.get("chunk_id") not in have])
        if found is not None:
            used = used + [found[0]]
    if found is None:
        return claims, used, False
    d, hit = found
    n = next(i for i, u in enumerate(used, 1) if u.get("chunk_id") == d.get("chunk_id"))
    sents = split_sentences(d.get("body") or d.get("text") or "")
    pos = next((i for i, s in enumerate(sents) if norm(display(s)) == norm(hit["sentence"])), 0)
    extra = {"text": hit["sentence"], "cites": [n], "source": sents[pos] if sents else hit["sentence"], "n": n, "pos": pos}
    rest = [c for c in claims if norm(c["text"]) != norm(extra["text"])]
    return [extra] + rest[:int(weight("value_answer_max_sentences")) - 1], used, True
