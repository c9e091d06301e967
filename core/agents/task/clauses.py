"""Per-document clause extraction for the task agent's tables and lists: the sentences of a
document's chunks that speak to a dimension (补贴标准, 申领流程, 有效期 …), scored by the
dimension's cue words and its chunk's heading (weights in data/rules/task_rules.json), each
kept with the chunk it came from so the report can cite it. Sentence splitting, display
normalisation and matching are the policy-RAG ones (core.agents.rag.textutil)."""

from __future__ import annotations

import re

from core.agents.rag.state import hit_to_doc
from core.agents.rag.textutil import display, ngram_containment, norm, split_sentences

CLAUSE_MIN = 3          # a sentence needs this much cue weight to fill a cell
HEADING_BONUS = 2       # its chunk's heading names the dimension
MAX_CLAUSE_CHARS = 220


def chunk_doc(chunk, meta) -> dict:
    """A stored chunk (not a search hit) as the JSON-able dict the RAG nodes use."""
    d = hit_to_doc({"chunk": chunk, "meta": meta, "rank": 0, "score": 0.0, "evidence": {}})
    return d


def sentences(d: dict) -> list[str]:
    return [display(s) for s in split_sentences(d.get("body") or d.get("text") or "")]


def _heading(d: dict) -> str:
    path = d.get("path") or []
    return norm(" ".join([d.get("heading") or "", *(path[1:] if len(path) > 1 else [])]))


def sentence_score(sentence: str, dim: dict, heading: str = "") -> float:
    s = norm(sentence)
    score = float(sum(w for cue, w in dim["cues"].items() if norm(cue) in s))
    if score and heading and any(norm(h) in heading for h in dim.get("heading_cues") or []):
        score += HEADING_BONUS
    return score


def _near_dup(a: str, b: str) -> bool:
    return ngram_containment(a, b) >= 0.8 or ngram_containment(b, a) >= 0.8


def _clip(text: str) -> str:
    text = text.strip()
    return text if len(text) <= MAX_CLAUSE_CHARS else text[:MAX_CLAUSE_CHARS - 1] + "…"


def dimension_clauses(chunks: list[dict], dim: dict, *, limit: int = 2) -> list[dict]:
    """The best ``limit`` sentences of one document for ``dim``, in document order:
    ``[{"text", "chunk_id", "score"}]``; empty = the document does not regulate it."""
    scored = []
    order = 0
    for d in chunks:
        head = _heading(d)
        for s in sentences(d):
            order += 1
            if re.fullmatch(r"[（(]?[一二三四五六七八九十\d]+[)）、.．]?.{0,16}", s):
                continue  # a bare heading line
            sc = sentence_score(s, dim, head)
            if sc >= CLAUSE_MIN:
                scored.append((sc, order, s, d["chunk_id"]))
    picked: list[tuple] = []
    for item in sorted(scored, key=lambda x: (-x[0], x[1])):
        if any(_near_dup(item[2], p[2]) for p in picked):
            continue
        picked.append(item)
        if len(picked) >= limit:
            break
    return [{"text": _clip(s), "chunk_id": cid, "score": sc} for sc, _, s, cid in sorted(picked, key=lambda x: x[1])]


_CN_DATE = "{y}年{m}月{d}日"


def date_chunk(chunks: list[dict], iso: str) -> tuple[str, str] | None:
    """The chunk (and sentence) whose text carries the date ``iso`` (YYYY-MM-DD) written the
    Chinese way — the citation of a metadata date."""
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", iso or "")
    if not m:
        return None
    target = _CN_DATE.format(y=int(m.group(1)), m=int(m.group(2)), d=int(m.group(3)))
    for d in reversed(chunks):  # the 印发 line sits at the end
        for s in sentences(d):
            if target in norm(s):
                return d["chunk_id"], _clip(s)
        body = norm(d.get("body") or "")
        if target in body:
            line = next((display(x) for x in (d.get("body") or "").split("\n") if target in norm(x)), target)
            return d["chunk_id"], _clip(line)
    return None


def supported(text: str, chunk: dict | None, threshold: float = 0.9) -> bool:
    """Is the clause really in its cited chunk (the Checker's citation check)?"""
    if not chunk:
        return False
    plain = text.rstrip("…")
    return ngram_containment(plain, display(chunk.get("body") or chunk.get("text") or "")) >= threshold
