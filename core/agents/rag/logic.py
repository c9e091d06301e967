"""Deterministic logic of the rules path, one import for callers that want all of it. The code
lives in modules named by what they do:

* :mod:`core.agents.rag.followup` — follow-up resolution, vagueness;
* :mod:`core.agents.rag.compound` — sub-question split;
* :mod:`core.agents.rag.scoring` — chunk grading;
* :mod:`core.agents.rag.amounts` — stated amounts and amount tiers;
* :mod:`core.agents.rag.slots` — the slot a question asks to fill and whether evidence fills it;
* :mod:`core.agents.rag.answer_extraction` — the extractive answer;
* :mod:`core.agents.rag.claims` — rendering claims and the citation check;
* :mod:`core.agents.rag.gaps` — what the evidence leaves unanswered, refusal suggestions.

Vocabularies, regex tables and score weights are data under ``data/rules/`` (rag_vocabulary.json,
rag_patterns.json, answer_weights.json), read by :mod:`core.agents.rag.ruledata`."""

from __future__ import annotations

from core.agents.rag.amounts import amount_fits, question_amounts, tier_spans, without_tiers
from core.agents.rag.answer_extraction import (
    MAX_SENTENCES, MAX_USED, SENT_MIN, answer_shape, compact_row, extract_answer,
)
from core.agents.rag.claims import (
    SUPPORT_MIN, best_quote, check_citations, claim_support, drop_failed_claims, heading_line, render_claims,
    split_claims,
)
from core.agents.rag.compound import split_compound, split_subquestions
from core.agents.rag.followup import ORDINAL, is_followup, is_vague, resolve_followup
from core.agents.rag.gaps import (
    generic_topic, how_verb_gap, question_gaps, related_documents, title_term_gaps, top_authorities, topic_terms,
    uncovered_nouns,
)
from core.agents.rag.ruledata import pattern
from core.agents.rag.scoring import (
    REL_THRESHOLD, STRONG_THRESHOLD, cn_date, doc_context, doc_named_in, evidence_strength, merge_pool,
    own_docno_named, part_pool, score_chunk,
)
from core.agents.rag.slots import (
    _names_org, amount_owner, event_predicate, heading_org, slot_gaps, slot_kind, slot_predicate,
)
from core.agents.rag.textutil import article_refs, expand_terms

BASIS_Q = pattern("basis_q")
COMPARE_Q = pattern("compare_q")


__all__ = [
    "amount_fits", "question_amounts", "tier_spans", "without_tiers", "MAX_SENTENCES", "MAX_USED",
    "SENT_MIN", "answer_shape", "compact_row", "extract_answer", "SUPPORT_MIN", "best_quote",
    "check_citations", "claim_support", "drop_failed_claims", "heading_line", "render_claims",
    "split_claims", "split_compound", "split_subquestions", "ORDINAL", "is_followup", "is_vague",
    "resolve_followup", "generic_topic", "how_verb_gap", "question_gaps", "related_documents",
    "title_term_gaps", "top_authorities", "topic_terms", "uncovered_nouns", "REL_THRESHOLD",
    "STRONG_THRESHOLD", "cn_date", "doc_context", "doc_named_in", "evidence_strength", "merge_pool",
    "own_docno_named", "part_pool", "score_chunk", "_names_org", "amount_owner", "event_predicate",
    "heading_org", "slot_gaps", "slot_kind", "slot_predicate", "article_refs", "expand_terms",
    "BASIS_Q", "COMPARE_Q",
]
