"""What a query names, for the title list of the hybrid search (both backends rank with
these): documents by their title or 文号 (:func:`title_matches`), and articles by number
(:func:`article_of` reads a chunk's 第N条, so the articles a query names come first)."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Hashable, Sequence

from core.documents.models import Chunk, DocMeta
from core.retrieval.metastore import title_core
from core.retrieval.tokenize import ARTICLE_RE, bigrams, fold, query_entities
from core.text.numerals import cn_to_int


def title_matches(query: str, metas: list[DocMeta], agencies: list[str] | None = None) -> list[tuple[str, float]]:
    """Documents whose title / 文号 the query names, best first: (doc_id, strength).
    3 = 文号 match, 2 = 《name》 or the title's core named in the query, else the share of the
    query's character bigrams found in the title (kept when ≥ 0.5)."""
    ents = query_entities(query, agencies or [])
    numbers, named = ents["doc_numbers"], [x.removeprefix("中华人民共和国") for x in ents["titles"]]
    q = fold(query)
    qbg = bigrams(query)
    out = []
    for m in metas:
        core, core_bigrams = _title_keys(m.title)
        s = 0.0
        if numbers and m.doc_number and any(e.endswith(m.doc_number) for e in numbers):
            s = 3.0
        elif named and core and any(t and (t in core or (len(core) >= 3 and core in t)) for t in named):
            s = 2.0
        elif core and len(core) >= 3 and core in q:
            s = 2.0
        elif core and qbg:
            cov = len(qbg & core_bigrams) / len(qbg)
            if cov >= 0.5:
                s = cov
        if s > 0 and ents["agencies"] and any(a in "".join(m.authorities) for a in ents["agencies"]):
            s += 0.1
        if s > 0:
            out.append((m.doc_id, s))
    out.sort(key=lambda x: (-x[1], x[0]))  # ties by doc_id: the same order on every backend
    return out[:5]


@lru_cache(maxsize=65536)
def _title_keys(title: str) -> tuple[str, frozenset[str]]:
    """A title's core and the core's character bigrams (read per query for every document)."""
    core = title_core(title) if title else ""
    return core, frozenset(bigrams(core))


def article_of(chunk: Chunk) -> int | None:
    """The article number (第N条) a chunk's heading names, None when it names none."""
    return article_of_heading(chunk.heading)


def article_of_heading(heading: str | None) -> int | None:
    m = ARTICLE_RE.match(fold(heading or "")) or ARTICLE_RE.search(fold(heading or ""))
    return cn_to_int(m.group(1)) if m else None


def title_list(query: str, matched: Sequence[str], chunks_of: Callable[[str], list[tuple[Hashable, str]]],
               content_lists: Sequence[Sequence[Hashable]]) -> list:
    """The title list of the hybrid search: for each document the query names (``matched``, best
    first), the chunks of the articles it names, then its chunks best ranked by the content lists
    (up to 10), else its first chunk. ``chunks_of(doc)`` gives ``(key, heading)`` in reading order."""
    content_rank: dict = {}
    for lst in content_lists:
        for r, key in enumerate(lst):
            content_rank[key] = min(content_rank.get(key, 10**6), r)
    arts = query_entities(query)["articles"]
    out: list = []
    for doc in matched:
        items = chunks_of(doc)
        first = [k for k, heading in items if arts and article_of_heading(heading) in arts]
        ranked = sorted((k for k, _ in items if k in content_rank and k not in first), key=content_rank.__getitem__)
        out.extend(first + ranked[:10] or [k for k, _ in items[:1]])
    return out
