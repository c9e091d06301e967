"""State of the policy-RAG graph (seed 002's reflection loop).

Per-turn fields are reset by the service at the start of each question; ``history`` and
``pending_clarify`` persist in the thread's checkpoint so follow-ups and clarification
replies continue the conversation.

Document dicts (``documents``, ``graded_docs``, ``used_documents``) are plain JSON-able
dicts made by :func:`hit_to_doc` so they checkpoint cleanly.
"""

from __future__ import annotations

from typing import Any, TypedDict

MAX_ROUNDS = 3


class RagState(TypedDict, total=False):
    # ---- the turn's input (never overwritten by nodes) ----
    question: str                 # the user's question as asked (PII masked)
    scenario: str | None          # window | research | None (principal's default)
    # ---- rewrite ----
    resolved_question: str        # self-contained form: coreference / clarify reply filled in
    rewritten_question: str       # this round's retrieval query (sub-queries joined by "\n")
    sub_queries: list[str]
    parts: list[str]              # sub-questions of a compound question (each answered on its own)
    unanswered_parts: list[str]   # sub-questions the evidence does not answer (partial refusal)
    focus_doc_ids: list[str]      # documents of the previous turn a follow-up refers to
    excluded_doc_ids: list[str]   # documents the reflection step excluded as noise
    # ---- loop ----
    attempt: int                  # rounds done so far (rewrite increments)
    max_attempts: int
    documents: list[dict]         # this round's retrieved chunks
    graded_docs: list[dict]       # this round's chunks judged relevant
    relevant_pool: list[dict]     # relevant chunks kept across rounds (best score wins)
    reflection_feedback: str      # what to add / exclude next round
    missing_terms: list[str]
    final_gaps: list[str]         # what the answer's sentences left unanswered (500元, 差额)
    uncovered_terms: list[str]    # salient nouns of the question no relevant chunk mentions
    guessed_terms: list[str]      # those of them that are no real word (价算): never a reason to refuse
    # ---- answer ----
    used_documents: list[dict]    # the chunks the final answer cites, in [n] order
    generation: str               # the answer text shown (after checks and filters)
    draft: str                    # last generated draft (before the citation check)
    claims: list[dict]
    citations: list[dict]
    conflicts: list[dict]         # passages of other documents filling the asked slot differently (reconcile)
    refused: bool
    clarify: dict | None
    checks: dict
    regenerations: int
    check_feedback: str
    # ---- bookkeeping ----
    mode: str                     # llm | rules
    llm_failed: bool
    notices: list[str]
    trace: list[dict]
    blocked: bool
    # ---- persistent across turns ----
    history: list[dict]           # [{question, resolved, answer, doc_ids, titles, refused}]
    pending_clarify: dict | None  # {question, options} of a clarifying question awaiting reply


def turn_input(question: str, *, scenario: str | None = None, max_attempts: int = MAX_ROUNDS) -> dict:
    """The input of one turn: resets every per-turn field, leaves history alone."""
    return {
        "question": question, "scenario": scenario, "resolved_question": "", "rewritten_question": "",
        "sub_queries": [], "parts": [], "unanswered_parts": [], "focus_doc_ids": [], "excluded_doc_ids": [], "attempt": 0,
        "max_attempts": max_attempts, "documents": [], "graded_docs": [], "relevant_pool": [],
        "reflection_feedback": "", "missing_terms": [], "uncovered_terms": [], "final_gaps": [], "guessed_terms": [], "used_documents": [], "generation": "", "draft": "",
        "claims": [], "citations": [], "conflicts": [], "refused": False, "clarify": None, "checks": {}, "regenerations": 0,
        "check_feedback": "", "mode": "rules", "llm_failed": False, "notices": [], "trace": [], "blocked": False,
    }


def _get(obj: Any, name: str, default: Any = None) -> Any:
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def _spans(chunk: Any) -> list[dict]:
    out = []
    for s in _get(chunk, "spans", None) or []:
        bbox = _get(s, "bbox")
        out.append({"page": int(_get(s, "page", 1) or 1), "bbox": list(bbox) if bbox else None,
                    "para": _get(s, "para")})
    return out


def _evidence(ev: Any) -> dict:
    out = {}
    for k, v in (ev or {}).items():
        out[k] = list(v) if isinstance(v, tuple) else v
    return out


def _status(meta: Any) -> str:
    """The document's status as of today (an in-effect campaign whose period ended is 已到期)."""
    if meta is None:
        return ""
    if isinstance(meta, dict):
        return meta.get("status") or ""
    from core.retrieval.filters import current_status

    return current_status(meta) or ""


def hit_to_doc(hit: Any, query: str = "") -> dict:
    """A retrieval hit (core.retrieval.index.Hit) as a JSON-able dict."""
    chunk, meta = _get(hit, "chunk"), _get(hit, "meta")
    authorities = _get(meta, "authorities", None) or []
    return {
        "chunk_id": _get(chunk, "chunk_id"), "doc_id": _get(chunk, "doc_id"),
        "file_name": _get(meta, "file_name", ""), "title": _get(meta, "title", "") or "",
        "doc_number": _get(meta, "doc_number", "") or "", "authority": "、".join(authorities),
        "authorities": list(authorities),
        "date": _get(meta, "publish_date", "") or _get(meta, "sign_date", "") or "",
        "effective_date": _get(meta, "effective_date", "") or "", "status": _status(meta),
        "expiry_date": _get(meta, "expiry_date", "") or "",
        "level": _get(meta, "level", "") or "", "domain": _get(meta, "domain", "") or "",
        "tenant": _get(meta, "tenant", "") or "",
        "source_type": _get(meta, "source_type", "") or "",
        "page": int(_get(chunk, "page_start", 1) or 1), "page_end": int(_get(chunk, "page_end", 1) or 1),
        "heading": _get(chunk, "heading", "") or "", "path": list(_get(chunk, "path", None) or []),
        "text": _get(chunk, "text", "") or "", "body": _get(chunk, "body", "") or _get(chunk, "text", "") or "",
        "kind": _get(chunk, "kind", "prose"), "spans": _spans(chunk),
        "rank": int(_get(hit, "rank", 0) or 0), "score": float(_get(hit, "score", 0.0) or 0.0),
        "evidence": _evidence(_get(hit, "evidence", {})), "query": query,
    }
