"""An answer's claims: rendered under a 依据《…》 heading per document, split back into
sentences with their [n] markers, and checked against the cited chunks (every number and
文号/《title》 present, char-bigram containment at least ``claim_support_min``)."""

from __future__ import annotations

import re

from core.agents.rag.arith import verify_difference
from core.agents.rag.calc import verify_calculation
from core.agents.rag.ruledata import weight
from core.agents.rag.scoring import doc_context
from core.agents.rag.textutil import (
    citation_numbers, display, entities, ngram_containment, norm, numbers_in, split_sentences, strip_citations,
)

SUPPORT_MIN = weight("claim_support_min")  # claim bigram containment in its cited chunk(s)


def render_claims(claims: list[dict], used: list[dict]) -> str:
    """Claims as answer lines, grouped under a 依据《…》 heading per document."""
    lines: list[str] = []
    current = None
    for cl in claims:
        d = used[cl["n"] - 1]
        if d["doc_id"] != current:
            current = d["doc_id"]
            lines.append(heading_line(d))
        body = cl["text"].rstrip().rstrip("，、,")
        if not re.search(r"[。！？；.!?;：:]$", body):
            body += "。"
        lines.append(f"- {body}" + "".join(f"[{n}]" for n in sorted(cl["cites"])))
    return "\n".join(lines)


def heading_line(d: dict) -> str:
    from core.agents.rag.runtime import doc_title

    bits = [b for b in (d.get("doc_number"), d.get("date")) if b]
    return f"依据《{doc_title(d)}》" + (f"（{'，'.join(bits)}）" if bits else "") + "："


_HEADING = re.compile(r"^\s*依据《[^》]*》[^\n]*：\s*$")
_CLAIM = re.compile(r"[^。！？!?\n]+(?:[。！？!?]|(?=\n)|$)(?:\s*\[\d{1,3}\])*")


def split_claims(text: str) -> list[dict]:
    """Claims of an answer: sentences with the [n] markers that follow or end them.
    Heading lines (依据《…》：) are not claims."""
    out = []
    for line in (text or "").split("\n"):
        if not line.strip() or _HEADING.match(line):
            continue
        line_body = re.sub(r"^\s*(?:[-*•]|\d+[.、)]|（[一二三四五六七八九十\d]+）)\s*", "", line)
        for m in _CLAIM.finditer(line_body):
            seg = m.group(0).strip()
            if not seg:
                continue
            # markers right after the punctuation belong to this sentence
            out.append({"text": seg, "plain": strip_citations(seg).strip(), "cites": citation_numbers(seg),
                        "line": line})
    # a marker-only fragment ("[1]") glued to the previous claim
    merged: list[dict] = []
    for c in out:
        if not re.sub(r"\W", "", c["plain"]) and merged:
            merged[-1]["cites"] += c["cites"]
            merged[-1]["text"] += c["text"]
            continue
        merged.append(c)
    return merged


def claim_support(claim: str, sources: list[dict]) -> tuple[bool, str]:
    """Is the claim supported by the union of its cited chunks? Char-bigram containment of
    the normalised claim, every number and 文号/《title》 present in the sources."""
    text = " ".join(doc_context(d) for d in sources)
    computed = verify_calculation(claim, text)  # 按所引规定计算：6000元×15%＝900元 — redo the arithmetic
    if computed is None:
        computed = verify_difference(claim, text)  # 按所引标准相减：300元−75元＝225元
    if computed is not None:
        return computed
    cont = ngram_containment(claim, text, 2)
    if cont < weight("claim_support_min"):
        return False, f"与所引片段重合度低（{cont:.2f}）"
    src_nums = numbers_in(text)
    missing = [n for n in numbers_in(claim) if n not in src_nums]
    if missing:
        return False, "数字未出现在所引片段中：" + "、".join(missing[:5])
    tn = norm(text)
    for e in entities(claim):
        if ("〔" in e or len(e) >= 6) and not e.isdigit() and norm(e) not in tn:
            return False, f"“{e}”未出现在所引片段中"
    return True, f"重合度 {cont:.2f}"


def check_citations(answer: str, used: list[dict]) -> dict:
    """Every [n] must exist and its sentence must be supported by chunk n. Returns
    ``{"ok", "citations_exist", "claims_supported", "uncited_claims", "claims": [...]}``."""
    claims = split_claims(answer)
    results = []
    exist_ok = support_ok = True
    uncited = 0
    for c in claims:
        plain = c["plain"]
        content = re.sub(r"\W", "", plain)
        r = {"text": c["text"], "cites": c["cites"], "ok": True, "why": ""}
        if not c["cites"]:
            if numbers_in(plain) or len(content) > 30:
                r.update(ok=False, why="无引用的事实陈述")
                uncited += 1
                support_ok = False
            results.append(r)
            continue
        bad = [n for n in c["cites"] if n < 1 or n > len(used)]
        if bad:
            r.update(ok=False, why="引用编号不存在：" + "、".join(f"[{n}]" for n in bad))
            exist_ok = False
            results.append(r)
            continue
        ok, why = claim_support(plain, [used[n - 1] for n in c["cites"]])
        if not ok:
            support_ok = False
        r.update(ok=ok, why=why)
        results.append(r)
    supported = sum(1 for r in results if r["ok"] and r["cites"])
    return {"ok": exist_ok and support_ok and supported > 0, "citations_exist": exist_ok,
            "claims_supported": support_ok, "uncited_claims": uncited, "claims_total": len(results),
            "supported_claims": supported, "claims": results}


def drop_failed_claims(answer: str, report: dict) -> str:
    """Remove unsupported claims from the answer; drop heading lines left without claims."""
    out = answer
    for r in report["claims"]:
        if not r["ok"]:
            out = out.replace(r["text"], "", 1)
    lines = []
    for line in out.split("\n"):
        if not re.sub(r"[\W\-*•]", "", strip_citations(line)):
            continue
        lines.append(line.rstrip())
    # a heading followed by another heading or nothing lost all its claims
    kept = []
    for i, line in enumerate(lines):
        if _HEADING.match(line) and (i + 1 >= len(lines) or _HEADING.match(lines[i + 1])):
            continue
        kept.append(line)
    return "\n".join(kept).strip()


def best_quote(claim_plain: str, d: dict) -> str:
    """The source sentence of chunk ``d`` that best supports a claim."""
    best, best_s = "", -1.0
    for s in split_sentences(d.get("body") or d.get("text") or ""):
        sc = ngram_containment(claim_plain, s, 2)
        if sc > best_s:
            best, best_s = display(s), sc
    return best
