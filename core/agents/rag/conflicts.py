"""Conflicting evidence: passages of different documents that fill the asked slot (an amount, a
percentage, a date, a period, a count, a phone number, the responsible department, an
eligibility condition) with different values.

The slot and the sentence filling it come from the answer check's own slot extraction
(:func:`core.agents.rag.logic.slot_kind` / :func:`slot_gaps` with ``explain``). Two documents
conflict when their slot sentences state values of the same unit that share none (15% vs 20%,
2月12日 vs 2月26日) for the same tier. Which one prevails is decided by
:func:`core.documents.precedence.decide`; :func:`reconcile_answer` then states the prevailing
value with its citation and adds a short "另有规定" note with the other value, its citation and
why it does not prevail (or, when no rule decides, shows both without choosing).

Departments are compared as organisations (:func:`core.documents.orgs.org_mentions`: 市发改委 =
济南市发展和改革委员会 = 各市发展改革委), only at the same level (a province's 商务厅 and a city's
商务局 each do their own level's part) and only when the two sentences say the same thing up to
the organisation. Conditions are compared facet by facet (data/rules/condition_facets.json:
户籍, 申领主体, 社保 months, age): a facet conflicts only when both sentences state it and share
no value — a facet one passage leaves unsaid is never a difference."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from core.agents.rag.amounts import amount_fits, question_amounts, tier_spans, without_tiers
from core.agents.rag.claims import drop_failed_claims, split_claims
from core.agents.rag.followup import ORDINAL
from core.agents.rag.ruledata import pattern
from core.agents.rag.slots import heading_org, slot_gaps, slot_kind
from core.agents.rag.runtime import doc_title
from core.agents.rag.textutil import key_terms, ngram_containment, norm, place_words
from core.documents.orgs import OrgKey, org_mentions, same_org
from core.documents.precedence import decide, precedence_rules

FACETS_FILE = Path(__file__).resolve().parents[3] / "data" / "rules" / "condition_facets.json"

MAX_OTHERS = 6  # documents of the pool compared with the answer's


def slot_sentence(question: str, chunks: list[dict]) -> dict | None:
    """The sentence of ``chunks`` (one document) that fills the asked slot, as the answer check
    finds it: ``{"chunk_id", "sentence"}`` or None."""
    explain: list = []
    if slot_gaps(question, chunks, max_docs=len(chunks), explain=explain):
        return None
    return next((e for e in explain if e.get("sentence") and e.get("chunk_id")), None)


def slot_values(sentence: str, shape: re.Pattern) -> dict[str, set[str]]:
    """The values a slot sentence states, by unit ({"元": {"2000元"}, "月日": {"2月26日"}}); the
    amounts bounding a stated tier are conditions, not values."""
    out: dict[str, set[str]] = {}
    for m in shape.finditer(without_tiers(sentence)):
        value = norm(m.group(0))
        unit = re.sub(r"[\d.\s]", "", value)
        if unit and re.search(r"\d", value):
            out.setdefault(unit, set()).add(value)
    return out


def values_differ(a: dict[str, set[str]], b: dict[str, set[str]]) -> list[str]:
    """The units both sentences give a value in, without a value in common."""
    return [u for u in a if u in b and not (a[u] & b[u])]


# ---- departments and conditions: the same slot sentences, other values ---------------------------
def org_keys(sentence: str, chunk: dict | None = None) -> list[OrgKey]:
    """The organisations a slot sentence names; a sentence under an article headed by its
    department ("第十三条 市发展改革委" / "负责加强统筹协调…") names it through the heading."""
    found = [k for _, k in org_mentions(sentence)]
    if not found and chunk is not None:
        found = [k for _, k in org_mentions(heading_org(chunk))]
    return list(dict.fromkeys(found))


def org_values(keys: list[OrgKey]) -> dict[str, set[str]]:
    """Organisations by level ({"市": {"市发展和改革委员会"}}); a name without a level is kept under ""."""
    out: dict[str, set[str]] = {}
    for k in keys:
        out.setdefault(k.level, set()).add(f"{k.level}{k.body}")
    return out


def orgs_differ(a: list[OrgKey], b: list[OrgKey]) -> list[str]:
    """The levels at which both sentences name an organisation, when no organisation of one is
    (up to a place or level left unsaid) an organisation of the other; [] = they agree or cannot
    be compared (another level: a province's 商务厅 and a city's 商务局 each do their own part)."""
    if not a or not b or any(same_org(x, y) for x in a for y in b):
        return []
    return sorted({x.level for x in a if x.level} & {y.level for y in b if y.level})


def without_orgs(sentence: str) -> str:
    out = norm(sentence)
    for written, _ in org_mentions(sentence):
        out = out.replace(norm(written), "")
    return out


@lru_cache(maxsize=1)
def condition_facets() -> dict:
    return json.loads(FACETS_FILE.read_text(encoding="utf-8"))["facets"]


def condition_values(sentence: str) -> dict[str, set[str]]:
    """The eligibility conditions a sentence states, by facet ({"户籍": {"不限户籍"},
    "社保": {"至少6个月"}}); a facet the sentence does not state is absent."""
    text = norm(sentence)
    out: dict[str, set[str]] = {}
    for facet, row in condition_facets().items():
        for value, regex in (row.get("values") or {}).items():
            if re.search(regex, text):
                out.setdefault(facet, set()).add(value)
        if row.get("threshold"):
            factors = row["unit_factor"]
            base = next(iter(factors))
            for m in re.finditer(row["threshold"], text):
                amount = float(m.group(1)) * factors.get(m.group(2), 1)
                out.setdefault(facet, set()).add(f"{row.get('bound', '')}{amount:g}{base}")
    return out


def side_values(kind: str, shape: re.Pattern, sentence: str, chunk: dict | None = None) -> dict[str, set[str]]:
    """The values a slot sentence states, keyed by what makes two values comparable: the unit
    of a number, the level of a department, the facet of a condition."""
    if kind == "部门":
        return org_values(org_keys(sentence, chunk))
    if kind == "条件":
        return condition_values(sentence)
    return slot_values(sentence, shape)


def asked_facets(question: str) -> set[str]:
    """The condition facets a question names (对户籍有什么要求 → {户籍}); every facet when it names none."""
    named = {f for f, row in condition_facets().items() if any(w in (question or "") for w in row.get("asked_by", []))}
    return named or set(condition_facets())


def _differ(kind: str, question: str, a: dict, b: dict) -> list[str]:
    if kind == "部门":
        if not same_framing(without_orgs(a["sentence"]), without_orgs(b["sentence"])):
            return []  # the two sentences say different things about the organisations
        return orgs_differ(a["orgs"], b["orgs"])
    if kind == "条件":
        return [f for f in values_differ(a["values"], b["values"]) if f in asked_facets(question)]
    return values_differ(a["values"], b["values"])


def states(kind: str, shape: re.Pattern, side: dict, text: str) -> bool:
    """Does ``text`` (the answer) state a value of ``side``?"""
    if kind == "部门":
        return any(same_org(k, m) for k in side["orgs"] for _, m in org_mentions(text))
    if kind == "条件":
        said = condition_values(text)
        return any(vs & said.get(f, set()) for f, vs in side["values"].items())
    text_n = norm(text)
    return any(v in text_n for vs in side["values"].values() for v in vs)


def _ordinal_word(text: str) -> str:
    m = ORDINAL.search(text or "")
    return m.group(0) if m else ""


def _place_core(place: str) -> str:
    return re.sub(r"(省|市|区|县)$", "", place)


def _covers(title_place: str, asked: str) -> bool:
    """Does a document of ``title_place`` apply to ``asked`` (itself or a place within it)?"""
    within = precedence_rules()["places_within"]
    place, seen = _place_core(asked), set()
    while place and place not in seen:
        if place == _place_core(title_place):
            return True
        seen.add(place)
        place = within.get(place, "")
    return False


def _applies(question: str, d: dict) -> bool:
    """A document of another round (第二轮 when 第一轮 is asked) or of another place (淮安 when
    洪泽区 is asked) does not answer the question at all: it cannot conflict with the answer."""
    asked, own = _ordinal_word(question), _ordinal_word(d.get("title") or "")
    if asked and own and asked != own:
        return False
    q_places, t_places = place_words(question), place_words(d.get("title") or "")
    return not (q_places and t_places) or any(_covers(t, q) for t in t_places for q in q_places)


def _same_subject(question: str, a: dict, b: dict) -> bool:
    """A word of the question that ``a``'s title has and ``b``'s lacks (政府汽车消费补贴 vs 下半年…;
    places aside: the place rule weighs those) says the question is about ``a`` only."""
    ta, tb = norm(a.get("title") or ""), norm(b.get("title") or "")
    places = set(place_words(question))
    return not any(t in ta and t not in tb for t in key_terms(question) if t not in places and len(t) >= 2)


def same_framing(a: str, b: str) -> bool:
    """Do two sentences say the same thing up to their numbers ("申报时间：7月10日…" / "申报时间：8月6日…")?"""
    fa, fb = (re.sub(r"[\d.]", "", norm(x)) for x in (a, b))
    short, long = sorted((fa, fb), key=len)
    return ngram_containment(short, long, 2) >= precedence_rules()["same_framing_share"]


def _by_doc(chunks: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for d in chunks:
        if not any(x["chunk_id"] == d["chunk_id"] for x in out.get(d["doc_id"], [])):
            out.setdefault(d["doc_id"], []).append(d)
    return out


def detect_conflicts(question: str, answer: str, used: list[dict], pool: list[dict], ctx: dict) -> list[dict]:
    """Conflicts between the document(s) the answer cites for the asked slot and other relevant
    documents: ``[{"slot", "units", "a": side, "b": side, "decision"}]`` where a side is
    ``{"doc", "chunk_id", "sentence", "values"}`` and ``a`` is the answer's."""
    kind, shape = slot_kind(question)
    if kind not in precedence_rules()["slot_kinds"] or shape is None or pattern("compare_q").search(question or ""):
        return []
    cited = list(dict.fromkeys(used[n - 1]["doc_id"] for c in split_claims(answer) for n in c["cites"]
                               if 1 <= n <= len(used)))
    docs = _by_doc([*used, *pool])
    amounts = question_amounts(question)
    sides: dict[str, dict] = {}
    for doc_id, chunks in list(docs.items())[:MAX_OTHERS + len(cited)]:
        if not _applies(question, chunks[0]):
            continue
        hit = slot_sentence(question, chunks)
        if hit is None or (amounts and amount_fits(amounts, hit["sentence"]) is False):
            continue
        chunk = next((d for d in chunks if d["chunk_id"] == hit["chunk_id"]), chunks[0])
        sentence = hit["sentence"]
        orgs = org_keys(sentence, chunk) if kind == "部门" else []
        if orgs and not org_mentions(sentence):
            sentence = f"{heading_org(chunk)}：{sentence}"  # the department its article heading names
        values = side_values(kind, shape, sentence, chunk)
        if values:
            sides[doc_id] = {"doc": chunks[0], "chunk_id": hit["chunk_id"], "sentence": sentence, "values": values,
                             "orgs": orgs}
    out: list[dict] = []
    for a_id in [d for d in cited if d in sides]:
        a = sides[a_id]
        if not states(kind, shape, a, answer):
            continue  # the answer does not state this document's value
        for b_id, b in sides.items():
            if b_id == a_id or not _same_subject(question, a["doc"], b["doc"]):
                continue  # a document about another subject
            if tier_spans(a["sentence"]) != tier_spans(b["sentence"]):
                continue  # another tier of a table
            if kind not in ("部门", "条件") and not same_framing(a["sentence"], b["sentence"]):
                continue  # a sentence about something else
            units = _differ(kind, question, a, b)
            if units and not any({c["a"]["doc"]["doc_id"], c["b"]["doc"]["doc_id"]} == {a_id, b_id} for c in out):
                out.append({"slot": kind, "shape": shape, "units": units, "a": a, "b": b,
                            "decision": decide(a["doc"], b["doc"], ctx)})
    return out


# ---- the answer ---------------------------------------------------------------------------------
def _number(used: list[dict], chunk: dict) -> tuple[list[dict], int]:
    for i, d in enumerate(used, 1):
        if d["chunk_id"] == chunk["chunk_id"]:
            return used, i
    return [*used, chunk], len(used) + 1


def _chunk(side: dict, pool: list[dict]) -> dict:
    return next(d for d in pool if d["chunk_id"] == side["chunk_id"])


def _changed(side: dict, against: dict) -> list[str]:
    """The values of ``side`` that differ from the other side's."""
    return [v for u, vs in side["values"].items() for v in vs if v not in against["values"].get(u, set())]


def _quote(sentence: str) -> str:
    return re.sub(r"[。；;，,\s]+$", "", sentence.strip())


def reconcile_answer(answer: str, used: list[dict], pool: list[dict], conflicts: list[dict]) -> tuple[str, list[dict], dict]:
    """The answer with the prevailing value stated (with its citation) and one "另有规定" note per
    conflict; returns ``(answer, used, roles)`` where roles maps chunk ids to 采用 / 另有规定 / 并列."""
    roles: dict[str, str] = {}
    lead: list[str] = []
    notes: list[str] = []
    everything = [*used, *pool]
    for c in conflicts:
        dec = c["decision"]
        win, other = (c["a"], c["b"]) if dec["winner"] != "b" else (c["b"], c["a"])
        used, nw = _number(used, _chunk(win, everything))
        used, no = _number(used, _chunk(other, everything))
        if dec["winner"] is None:
            roles.setdefault(win["chunk_id"], "并列")
            roles[other["chunk_id"]] = "另有规定"
            notes.append(f"另有规定：《{doc_title(other['doc'])}》规定“{_quote(other['sentence'])}”[{no}]，"
                         f"与《{doc_title(win['doc'])}》[{nw}]不一致；{dec['reason']}。")
            continue
        roles[win["chunk_id"]] = "采用"
        roles[other["chunk_id"]] = "另有规定"
        # the answer stated the value that does not prevail: it moves into the note
        stale = [cl for cl in split_claims(answer) if cl["cites"] and
                 all(1 <= n <= len(used) and used[n - 1]["doc_id"] == other["doc"]["doc_id"] for n in cl["cites"])
                 and set(side_values(c["slot"], c["shape"], cl["plain"])) & set(c["units"])]
        answer = drop_failed_claims(answer, {"claims": [{"ok": False, "text": cl["text"]} for cl in stale]})
        numeric = c["slot"] not in ("部门", "条件")
        if (numeric and not all(v in norm(answer) for v in _changed(win, other))) or \
                (not numeric and not states(c["slot"], c["shape"], win, answer)):
            lead.append(f"以《{doc_title(win['doc'])}》为准：{_quote(win['sentence'])}。[{nw}]")
        settle = "" if "为准" in dec["reason"] else f"，以《{doc_title(win['doc'])}》为准"
        notes.append(f"另有规定：《{doc_title(other['doc'])}》规定“{_quote(other['sentence'])}”[{no}]；"
                     f"{dec['reason']}{settle}。")
    text = "\n".join(x for x in ("\n".join(lead), answer.strip(), "\n".join(notes)) if x)
    return text, used, roles


def conflict_trace(conflicts: list[dict], roles: dict[str, str]) -> list[dict]:
    """What reviewers see (trace, audit log): the slot, both sides, the deciding rule and the
    role of each side's passage on the citation cards."""
    def side(s: dict) -> dict:
        return {"doc_id": s["doc"]["doc_id"], "title": doc_title(s["doc"]), "chunk_id": s["chunk_id"],
                "sentence": s["sentence"][:160], "values": sorted(v for vs in s["values"].values() for v in vs)}

    out = []
    for c in conflicts:
        dec = c["decision"]
        out.append({"slot": c["slot"], "answer_side": side(c["a"]), "other_side": side(c["b"]),
                    "prevails": {"a": "answer_side", "b": "other_side"}.get(dec["winner"] or "", ""),
                    "rule": dec["rule"], "rule_label": dec["label"], "reason": dec["reason"],
                    "roles": {s["chunk_id"]: roles.get(s["chunk_id"], "") for s in (c["a"], c["b"])}})
    return out
