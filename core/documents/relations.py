"""Relations a document states about other documents — 代替 (supersedes), 修订 (amends),
补充 (supplements), 延期 (extends) — read from its sentences with the patterns of
``data/rules/doc_relations.json``; 废止 (repeals) stays with
:func:`core.documents.metadata.extract_repeals`. Targets are the 《titles》 and 文号s inside a
matching span; core.retrieval.metastore resolves them to documents (within a tenant, or from
an issuer the target's tenant trusts) and keeps them in ``doc_relations``."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from core.documents.doc_numbers import find_doc_numbers

RULES_FILE = Path(__file__).resolve().parents[2] / "data" / "rules" / "doc_relations.json"
_SENTENCE = re.compile(r"[^。；\n]+")
_TITLE = re.compile(r"《[^》]{2,80}》")


@lru_cache(maxsize=1)
def relation_rules() -> list[dict]:
    rows = json.loads(RULES_FILE.read_text(encoding="utf-8"))["kinds"]
    return [{**r, "compiled": [re.compile(p) for p in r["patterns"]]} for r in rows]


def relation_label(kind: str) -> str:
    """废止 / 代替 / 修订 / 补充 / 延期 (the kind itself when unknown)."""
    return next((r["label"] for r in relation_rules() if r["kind"] == kind), kind)


def retiring_kinds() -> set[str]:
    """Kinds whose target is no longer in effect once the relation holds."""
    return {r["kind"] for r in relation_rules() if r["retires"]}


def _targets(span: str) -> list[str]:
    return _TITLE.findall(span) + find_doc_numbers(_TITLE.sub("", span))


def extract_relations(text: str, title: str = "") -> list[dict]:
    """``[{"kind", "target"}]`` in order of appearance, each pair once."""
    out: list[dict] = []
    compact = re.sub(r"[ \t]+", "", text or "")
    for sent in [title, *_SENTENCE.findall(compact)]:
        for row in relation_rules():
            if not row["compiled"] or any(re.search(x, sent) for x in row["exclude"]):
                continue
            for pat in row["compiled"]:
                for m in pat.finditer(sent):
                    for target in _targets(m.group(0)):
                        rel = {"kind": row["kind"], "target": target}
                        if rel not in out:
                            out.append(rel)
    return out
