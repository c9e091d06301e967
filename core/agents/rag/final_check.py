"""The last check before an extractive answer is shown: its cited sentences must answer *this*
question, not a neighbouring one.

- every amount the question states as a condition (满500元减多少, 保费3500元) appears in a cited
  sentence, falls in a tier one states (40（含）万元以上), or is used by a computed line;
- the asked slot is filled (``final_checks`` in data/rules/rag_vocabulary.json): a difference
  asked (比额度多多少) needs a computed subtraction, a name asked (叫什么名字) a proper name, a
  which-X asked (哪个部门 / 哪位领导 / 哪个县区) a named X — as many as asked (哪两个 → two) —,
  a when asked (啥时候) a date;
- the article the question names (第二十二条) is the cited chunk's or stated in it, and a choice asked
  (A还是B) names one of its options;
- the subject the question names (体育消费券, 汽车下乡, 1月那轮, 网上申请: ``final_checks.subjects``)
  is in a cited sentence or a cited document's title, so a neighbouring campaign's passage
  (泉城购 for 体育消费券, 首保 for 1月那轮) is not passed off as its answer.

What is missing is returned as the words the refusal names (500元, 差额, 名称)."""

from __future__ import annotations

import re
from functools import lru_cache

from core.agents.rag.amounts import AMOUNT, question_amounts, tier_spans
from core.agents.rag.ruledata import vocab_entry
from core.agents.rag.runtime import doc_title
from core.agents.rag.textutil import article_refs, norm
from core.text.numerals import apply_magnitude

COMPUTED = re.compile(r"^按所引(标准|规定)")


@lru_cache(maxsize=1)
def _rows() -> tuple[tuple[str, re.Pattern, re.Pattern, bool], ...]:
    return tuple((r["name"], re.compile(r["question"]), re.compile(r["answer"]), bool(r.get("counted")))
                 for r in vocab_entry("final_checks")["rows"])


def count_asked(question: str) -> int:
    """How many members the question asks for (哪两个部门 → 2); 1 when it states no count."""
    entry = vocab_entry("final_checks").get("count_asked") or {}
    m = re.search(entry["pattern"], norm(question)) if entry else None
    return int(entry["numbers"].get(m.group("n"), 1)) if m else 1


def _members(a_pat: re.Pattern, claims: list[dict]) -> int:
    """How many different members the answer sentences name: the pieces between 、，和及与 (or
    sentence ends) that hold a match, each counted once (发展改革委办公厅 is one, not two)."""
    text = "。".join(norm(c["text"]) for c in claims)
    pieces = {p for p in re.split(r"[、，,；;。:：和及与/\n]", text) if a_pat.search(p)}
    return len({a_pat.search(p).group(0) for p in pieces})


def _cited(claims: list[dict], used: list[dict]) -> list[dict]:
    """The chunks of ``used`` the answer's sentences cite, in order."""
    return [used[n - 1] for n in sorted({n for c in claims for n in c.get("cites") or [] if 1 <= n <= len(used)})]


def _cited_texts(claims: list[dict], used: list[dict]) -> list[str]:
    """The answer's sentences and the chunks they cite (a sentence continuing its chunk's
    previous one: 8500元的汽车消费礼包 … 其中，每辆可领取额度5000元的加油储值卡)."""
    return [norm(c["text"]) for c in claims] + [norm(d.get("body") or d.get("text") or "") for d in _cited(claims, used)]


def unmet_amounts(question: str, claims: list[dict], used: list[dict]) -> list[str]:
    """Amounts the question states that no cited sentence or chunk states or covers by a tier."""
    q = norm(question)
    texts = _cited_texts(claims, used)
    stated = {round(apply_magnitude(v, u), 2) for t in texts for v, u in AMOUNT.findall(t)}
    spans = [s for t in texts for s in tier_spans(t)]
    computed = any(COMPUTED.match(t) for t in texts)
    missing = []
    for (v, u), amount in zip(AMOUNT.findall(q), question_amounts(question)):
        if round(amount, 2) in stated or any(lo <= amount <= hi for lo, hi in spans):
            continue
        if computed and v in " ".join(texts):
            continue
        missing.append(f"{v}{u}")
    return missing


def unfilled_slots(question: str, claims: list[dict]) -> list[str]:
    """The asked slots (差额, 名称) no answer sentence fills."""
    q = norm(question)
    want = count_asked(question)
    return [name for name, q_pat, a_pat, counted in _rows()
            if q_pat.search(q) and (not any(a_pat.search(norm(c["text"])) for c in claims)
                                    or (counted and _members(a_pat, claims) < want))]


@lru_cache(maxsize=1)
def _subjects() -> tuple[tuple[str, re.Pattern, re.Pattern, bool], ...]:
    return tuple((r["name"], re.compile(r["question"]), re.compile(r["found"]), bool(r.get("decides_document")))
                 for r in vocab_entry("final_checks").get("subjects") or [])


def unmet_subjects(question: str, claims: list[dict], used: list[dict]) -> list[str]:
    """The subjects the question names that neither an answer sentence nor a cited document's
    title speaks of (体育消费券 asked, 泉城购 sentences cited)."""
    q = norm(question)
    texts = [norm(c["text"]) for c in claims] + [norm(doc_title(d)) for d in _cited(claims, used)]
    return [name for name, q_pat, found, _ in _subjects()
            if q_pat.search(q) and not any(found.search(t) for t in texts)]


def off_subject(question: str, pool: list[dict]) -> list[bool]:
    """For each chunk of ``pool``: is its document of another campaign than the one the question
    names by a row deciding the document, while some document of the pool is titled by it
    (1月那轮 asked: the 首保 notice)?"""
    q = norm(question)
    titles = [norm(doc_title(d)) for d in pool]
    named = [found for _, q_pat, found, decides in _subjects()
             if decides and q_pat.search(q) and any(found.search(t) for t in titles)]
    return [any(not found.search(t) for found in named) for t in titles]


def unmet_places(question: str, claims: list[dict], used: list[dict]) -> list[str]:
    """The places the question names at one level (淮安区, a district) that the cited sentences,
    chunks and titles only name at another (淮安市, the city): the figures are the city's, not
    the district's. Levels are data (``place_levels`` in data/rules/rag_vocabulary.json)."""
    entry = vocab_entry("place_levels")
    levels: dict[str, int] = entry["levels"]
    skip = set(vocab_entry("place_not_names")["words"])
    q = norm(question)
    cited = {n for c in claims for n in c.get("cites") or [] if 1 <= n <= len(used)}
    text = " ".join(_cited_texts(claims, used) + [norm(doc_title(used[n - 1])) for n in sorted(cited)])
    missing = []
    for m in re.finditer("|".join(map(re.escape, entry["asked"])), q):
        for size in (2, 3):
            stem = q[max(0, m.start() - size):m.start()]
            place = stem + m.group(0)
            if len(stem) < size or place in skip or place[-2:] in skip or not re.fullmatch(r"[\u4e00-\u9fff]+", stem):
                continue
            if place in text:
                break
            if any(stem + other in text for other in levels if levels[other] != levels[m.group(0)]):
                missing.append(place)
                break
    return missing


def unmet_phrases(question: str, claims: list[dict]) -> list[str]:
    """The negated items the question's last clause asks (无法提供, 尚未审结) that no answer
    sentence names as such (a table row that lost its 无: 法提供; 还没审结 is written 尚未审结:
    ``same``); an earlier clause only frames the question (不予公开里，A和B加起来)."""
    entry = vocab_entry("final_checks").get("kept_phrases") or {}
    if not entry:
        return []
    text = " ".join(norm(c["text"]) for c in claims)
    missing = []
    asked = re.split(r"[，,；;：:]", norm(question).rstrip("？?。！!"))[-1]  # 不予公开里，…: a frame, not the item
    for m in re.finditer(entry["pattern"], asked):
        phrase = m.group(0)
        written = entry["same"].get(m.group(1), m.group(1)) + phrase[len(m.group(1)):]
        if phrase not in text and written not in text:
            missing.append(phrase)
    return missing


def unmet_terms(question: str, claims: list[dict]) -> list[str]:
    """The words the question asks the meaning of (勾稽关系是啥意思) that no answer sentence contains:
    those sentences explain something else."""
    entry = vocab_entry("final_checks").get("defined_terms") or {}
    text = " ".join(norm(c["text"]) for c in claims)
    terms = [re.split(entry["trim"], m.group("term"))[-1] for m in re.finditer(entry["pattern"], norm(question))] \
        if entry else []
    return [t for t in terms if len(t) >= 2 and t not in text]


def unmet_articles(question: str, claims: list[dict], used: list[dict]) -> list[str]:
    """The articles the question names (第二十二条) that no cited chunk is or states: a passage of
    another article is not what that article provides."""
    cited = {n for c in claims for n in c.get("cites") or [] if 1 <= n <= len(used)}
    heads = [(used[n - 1].get("heading") or "") + " ".join(used[n - 1].get("path") or []) for n in sorted(cited)]
    texts = _cited_texts(claims, used) + [norm(h) for h in heads]
    return [a for a in article_refs(question) if not any(norm(a) in t for t in texts)]


def unmet_choice(question: str, claims: list[dict]) -> list[str]:
    """A choice asked (按首期金额还是全年保费) that no answer sentence makes: neither option is named
    (each by its first two characters, after a leading 按 / 用 / 是), so the sentences answer something else."""
    entry = vocab_entry("final_checks").get("choice") or {}
    m = re.search(entry["pattern"], norm(question)) if entry else None
    if not m or re.search(entry["not_options"], m.group(1) + m.group(2)):
        return []  # 是商家先垫还是怎么弄: a question word is no option
    text = " ".join(norm(c["text"]) for c in claims)
    options = [re.sub(entry["lead"], "", o)[:2] for o in (m.group(1), m.group(2))]
    return [] if any(o and o in text for o in options) else [entry["name"]]


def _doc_name(d: dict) -> str:
    return norm(" ".join(str(d.get(k) or "") for k in ("title", "file_name", "doc_number")))


def _names(ref: str, name: str) -> bool:
    """Does ``ref`` (山东家电方案, 860号文) name the document called ``name`` (its title, file name and
    文号): every character and every number of it, less the filler characters, is in ``name``?"""
    entry = vocab_entry("document_reference")
    kind = next((k for k in entry["any_kind"] if ref.endswith(k)), "")  # 860号文: any kind of document
    body = "".join(ch for ch in ref[:len(ref) - len(kind)] if ch not in entry["fillers"])
    numbers = set(re.findall(r"\d+", name))
    return all(ch in name for ch in re.sub(r"\d+", "", body)) and all(n in numbers for n in re.findall(r"\d+", body))


def document_references(question: str, pool: list[dict]) -> list[str]:
    """The documents the question names, as it names them: for each document kind word (方案, 细则,
    860号文's 文) the longest run before it that names some document of ``pool``."""
    entry = vocab_entry("document_reference")
    q, names = norm(question), {_doc_name(d) for d in pool}
    out: list[str] = []
    for m in re.finditer("|".join(map(re.escape, sorted(entry["kinds"], key=len, reverse=True))), q):
        run = re.search(r"[\u4e00-\u9fff\d]*$", q[:m.start()]).group(0)
        for i in range(len(run) - entry["min_chars"] + 1):
            ref = run[i:] + m.group(0)
            content = [ch for ch in run[i:] if ch not in entry["fillers"]]
            if len(content) >= entry["min_chars"] and any(_names(ref, n) for n in names):
                if ref not in out:
                    out.append(ref)
                break
    return out


def unmet_documents(question: str, claims: list[dict], used: list[dict], pool: list[dict]) -> list[str]:
    """The documents the question names (省家电方案) when no cited document is one of them, while the
    retrieved pool holds one they name: the answer quotes another document (济南家电细则) for them. A
    question naming two (与省家电方案相比，济南细则…) is answered when one of them is cited."""
    cited = {_doc_name(d) for d in _cited(claims, used)}
    refs = document_references(question, [*pool, *used]) if cited else []
    return [] if any(_names(ref, n) for ref in refs for n in cited) else refs


def final_gaps(question: str, claims: list[dict], used: list[dict], pool: list[dict] = ()) -> list[str]:
    """What the answer leaves unanswered (``pool``: the retrieved chunks, for the documents the question
    names); ``[]`` = it answers the question."""
    if not claims:
        return []
    return unmet_articles(question, claims, used) + unmet_choice(question, claims) + unmet_places(question, claims, used) \
        + unmet_subjects(question, claims, used) + unmet_documents(question, claims, used, list(pool)) \
        + unfilled_slots(question, claims) + unmet_phrases(question, claims) + unmet_terms(question, claims) \
        + unmet_amounts(question, claims, used)
