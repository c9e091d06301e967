"""A document's own outline as the answer, when the question asks for headings, not content:
济南家电细则分为哪四章 → its 第一章 … 第四章; 第二章包括哪几条 → the articles under it; 审核流程部分包括哪几项
→ the （一）（二）… items that open its paragraphs; 讲仅限本人核销的是哪一部分 → the heading path of the
passage that says it. Headings are the chunks' heading paths (core/documents/chunk.py) of a document the
search found for this asker and scenario (the best-supported one, or the one whose title the question
names), its chunks read through the index after the permission check of ``AgentRuntime.list_docs``.

The line starts with 按文件目录 (the final check's row 文件的章节 asks for it) and cites one chunk per
heading, so the citation check finds every heading in what it cites. No line when the outline cannot be
trusted: numbered headings that skip one (一、三、 — a page OCR lost), another count than the question
states (哪五项 and four found), or an asked level the document does not have (哪几章 of a document without
章). The forms are data (``outline`` in data/rules/rag_patterns.json)."""

from __future__ import annotations

import re
from functools import lru_cache

from core.agents.rag.ruledata import rules_file, vocab_entry
from core.agents.rag.state import hit_to_doc
from core.agents.rag.textutil import display, key_terms, ngram_containment, norm, split_sentences
from core.retrieval.protocol import Hit
from core.text.numerals import cn_to_int

LEAD = "按文件目录，"
_QUOTE = re.compile(r"[“\"「『]([^”\"」』]{4,60})[”\"」』]")


@lru_cache(maxsize=1)
def _rules() -> dict:
    entry = rules_file("rag_patterns")["outline"]
    row = next(r for r in vocab_entry("final_checks")["rows"] if r["name"] == "文件的章节")
    return {"asked": re.compile(row["question"]), "locate": re.compile(entry["locate"]),
            "count": re.compile(entry["count"]), "item": re.compile(entry["item"], re.M),
            "kinds": {k: re.compile(p) for k, p in entry["kinds"].items()},
            "units": entry["units"], "generic": frozenset(entry["generic"]),
            "count_term": re.compile(entry["count_term"]), "loose_quote": float(entry["loose_quote"])}


def asks_outline(question: str) -> bool:
    return bool(_rules()["asked"].search(norm(question)))


def _kind(heading: str) -> tuple[str, int | None]:
    """(章 / 节 / 部分 / 条 / "", its number) of a heading line."""
    for kind, rx in _rules()["kinds"].items():
        m = rx.match(heading)
        if m:
            groups = m.groupdict()
            return kind, cn_to_int(groups.get("n") or groups.get("m") or "")
    return "", None


def _consecutive(headings: list[str]) -> bool:
    """Numbered headings run 1, 2, 3 … without a gap (articles from any number on; unnumbered pass)."""
    numbered = [(k, n) for k, n in map(_kind, headings) if n is not None]
    if not numbered:
        return True
    numbers = [n for _, n in numbered]
    first = numbers[0] if numbered[0][0] == "条" else 1
    return numbers == list(range(first, first + len(numbers)))


def _doc_chunks(rt, doc_id: str) -> list[dict]:
    """Every chunk of a document the asker may read, in document order (none otherwise)."""
    meta = next((m for m in rt.list_docs() if m.doc_id == doc_id), None)
    if meta is None:
        return []
    chunks = sorted(rt.index.chunks_of(doc_id), key=lambda c: c.ord)
    return [hit_to_doc(Hit(rank=0, chunk=c, meta=meta, score=0.0, evidence={})) for c in chunks]


def _children(chunks: list[dict], depth: int, parent: str | None) -> list[tuple[str, dict]]:
    """(heading at ``depth`` of the path, its first chunk) in order, under ``parent`` at depth − 1."""
    out: dict[str, dict] = {}
    for d in chunks:
        path = d.get("path") or []
        if len(path) > depth and (parent is None or path[depth - 1] == parent):
            out.setdefault(path[depth], d)
    return list(out.items())


def _inline_items(chunks: list[dict], parent: str) -> list[tuple[str, dict]]:
    """（一）严格审核校验。… — the short titles that open the paragraphs under ``parent``."""
    out: dict[str, dict] = {}
    for d in chunks:
        if parent in (d.get("path") or []):
            for m in _rules()["item"].finditer(d.get("body") or ""):
                out.setdefault(m.group("item").strip(), d)
    return list(out.items())


def _section_items(chunks: list[dict], depth: int, heading: str) -> list[tuple[str, dict]]:
    """The headings under a section: its sub-sections or articles; its （一）（二）… items from the
    paragraphs as well when those are all it has (a chunk continuing inside （三） carries （三） in its
    path, and the items before it are in the previous chunk's text)."""
    below = _children(chunks, depth + 1, heading)
    if below and any(_kind(h)[0] != "项" for h, _ in below):
        return below
    items = dict(_inline_items(chunks, heading))
    for h, d in below:
        items.setdefault(h, d)
    order = {d["chunk_id"]: i for i, d in enumerate(chunks)}
    return sorted(items.items(), key=lambda kv: (_kind(kv[0])[1] or 0, order[kv[1]["chunk_id"]]))


def _named_section(question: str, chunks: list[dict], title: str) -> tuple[int, str] | None:
    """(depth, heading) of the section the question names: by its number (第二章 → 第二章 补贴规则及流程),
    else by a heading word (审核流程部分 → 三、审核流程) that is neither an outline word, a count (四章) nor a
    word of the document's title."""
    rules = _rules()
    refs = _refs(question)
    terms = [t for t in key_terms(question) if len(t) >= 2 and t not in rules["generic"] and t not in title
             and not rules["count_term"].search(t)]
    best = None
    for d in chunks:
        for depth, h in enumerate((d.get("path") or [])[1:], 1):
            score = 100 if _kind(h) in refs else sum(len(t) for t in terms if t in norm(h))
            if score and (best is None or score > best[0]):
                best = (score, depth, h)
    return (best[1], best[2]) if best else None


def _target_doc(question: str, used: list[dict], pool: list[dict]) -> str:
    """The document whose title the question names best (手机购新补贴实施细则), else the best-supported
    one — among those the search found, i.e. those this asker may read in this scenario."""
    q = norm(question)

    def named(title: str) -> int:
        t = norm(title)
        return len({t[i:i + 2] for i in range(len(t) - 1)} & {q[i:i + 2] for i in range(len(q) - 1)})

    best = max([*used, *pool], key=lambda d: named(d.get("title") or ""))
    return best["doc_id"] if named(best.get("title") or "") > named(used[0].get("title") or "") + 1 else used[0]["doc_id"]


def _asked(question: str) -> tuple[str | None, int | None]:
    """(the heading kind the question asks for — 哪几章 → 章, None when any will do: 哪几项 / 哪几部分 —,
    the count it states — 哪四章 → 4 —, or None)."""
    m = _rules()["count"].search(norm(question))
    unit = m.group("unit") if m else next((u for u in ("章", "节") if u in question), None)
    return _rules()["units"].get(unit or ""), (cn_to_int(m.group("n")) if m and m.group("n") else None)


def _listing(question: str, chunks: list[dict]) -> tuple[str | None, list[tuple[str, dict]]] | None:
    """(the section named or None for the whole document, its headings with a chunk each)."""
    title = norm(chunks[0].get("title") or "")
    named = _named_section(question, chunks, title)
    heading = None
    if named:
        depth, heading = named
        items = _section_items(chunks, depth, heading)
    else:
        items = _children(chunks, 1, None)
    level, count = _asked(question)
    if level and any(_kind(h)[0] != level for h, _ in items):
        return None
    if not items or not _consecutive([h for h, _ in items]) or (count and count != len(items)):
        return None
    return heading, items


def _refs(question: str) -> set[tuple[str, int | None]]:
    """The numbered headings a question names: 第二章 → (章, 2), 第六部分 → (部分, 6)."""
    q = norm(question)
    return {(kind, cn_to_int(m.group("n") or "")) for kind, rx in _rules()["kinds"].items() if kind != "项"
            for m in re.finditer(rx.pattern.lstrip("^"), q) if m.groupdict().get("n")}


def _passage(question: str, claims: list[dict], used: list[dict], chunks: list[dict]) -> tuple[dict, str] | None:
    """(chunk, the heading or sentence the question points at): a phrase it quotes (“严格防范拆分发票”,
    “补贴资格核销”) where a heading or the text holds it (a PDF line may break inside it), else the
    answer's best sentence."""
    for phrase in (norm(p) for p in _QUOTE.findall(question)):
        for d in [*used, *chunks]:
            head = next((h for h in (d.get("path") or [])[1:] if phrase in norm(h)), None)
            if head:
                return d, head
            if phrase in norm(d.get("body") or ""):
                text = d.get("body") or ""
                said = next((x for x in [*split_sentences(text), *split_sentences(text.replace("\n", ""))]
                             if phrase in norm(x)), phrase)
                return d, said
        # a phrase quoted loosely (补贴资格须在2个自然日内使用 for …须在2个自然日（即…）内使用): the sentence
        # that holds most of its character pairs, if it holds nearly all
        best = max(((ngram_containment(phrase, x, 2), d, x) for d in [*used, *chunks]
                    for x in split_sentences(d.get("body") or "")), key=lambda t: t[0], default=None)
        if best and best[0] >= _rules()["loose_quote"]:
            return best[1], best[2]
    return (used[claims[0]["n"] - 1], claims[0]["text"]) if claims else None


def _path_of(d: dict, said: str) -> list[str]:
    """The heading path down to ``said``: a heading ends it there; a sentence adds the （一）… item
    that opens its paragraph in the chunk's text (the chunk's path stops at the section)."""
    path = [p for p in (d.get("path") or [])[1:] if p]
    if said in path:
        return path[:path.index(said) + 1]
    body = d.get("body") or ""
    at = norm(body).find(norm(said)[:12])
    items, offset = [], 0
    for line in body.split("\n"):
        if at >= 0 and offset > at:
            break
        m = _rules()["item"].match(line)
        if m:
            items.append(m.group("item").strip())
        offset += len(norm(line))
    if items and items[-1] not in path:
        path = path[:-1] + [items[-1]] if path and _kind(path[-1])[0] == "项" else path + [items[-1]]
    return path


def _located(question: str, claims: list[dict], used: list[dict], pool: list[dict],
             rt) -> tuple[list[dict], list[dict]] | None:
    """讲…的是哪一部分 / “…”属于哪一项 / 第五条的标题是什么: the heading path of what the question points
    at, with the sentence that says it; a numbered heading the document lacks (第六部分) is none."""
    chunks = _doc_chunks(rt, _target_doc(question, used, pool))
    refs = _refs(question)
    named = None if _QUOTE.search(question) or not refs else next(
        ((h, d) for d in chunks for h in (d.get("path") or [])[1:] if _kind(h) in refs), ())
    if named == ():
        return None
    found = (named[1], named[0]) if named else _passage(question, claims, used, chunks)
    if not found:
        return None
    d, said = found
    path = _path_of(d, said)
    if not path:
        return None
    used = used if any(u["chunk_id"] == d["chunk_id"] for u in used) else [*used, d]
    n = next(i for i, u in enumerate(used, 1) if u["chunk_id"] == d["chunk_id"])
    line = {"text": f"{LEAD}这一内容在《{d.get('title') or ''}》的“{' > '.join(path)}”。", "cites": [n], "n": n, "pos": -1}
    out = [line]
    if said not in path:
        out.append({"text": display(said), "cites": [n], "n": n, "pos": 0})
    return out, used


def outline_answer(question: str, claims: list[dict], used: list[dict], pool: list[dict],
                   rt) -> tuple[list[dict], list[dict]] | None:
    """(claims, used) answering from the outline of a document of ``used`` or of the retrieved
    ``pool``, or None. The outline line comes first; a located passage keeps the sentence that says
    what was asked as its second line."""
    if not used or not asks_outline(question):
        return None
    if _rules()["locate"].search(norm(question)):
        return _located(question, claims, used, pool, rt)
    chunks = _doc_chunks(rt, _target_doc(question, used, pool))
    listing = _listing(question, chunks) if chunks else None
    if not listing:
        return None
    section, items = listing
    cited = list({d["chunk_id"]: d for _, d in items}.values())
    # no count in the line: the citation check finds every figure of a claim in what it cites
    whole = f"《{chunks[0].get('title') or ''}》" + (f"的“{section}”包括" if section else "分为")
    line = {"text": f"{LEAD}{whole}：{'；'.join(h for h, _ in items)}。",
            "cites": list(range(1, len(cited) + 1)), "n": 1, "pos": -1}
    return [line], cited
