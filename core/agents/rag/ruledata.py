"""Rules-mode knowledge of the policy engine, read from data files under ``data/rules/``:

* ``rag_vocabulary.json`` — word lists (stopwords, generic terms, cue words), the synonym
  table, the domain words jieba must keep whole;
* ``rag_patterns.json`` — regex tables (question forms, answer shapes, slots, colloquial
  rewrites);
* ``answer_weights.json`` — named score weights and thresholds of grading and extraction.

Each file carries a ``version`` and a ``说明``. Everything is read once and cached; code asks
for an entry by name (:func:`words`, :func:`pattern`, :func:`weights` …), so a new phrasing or
synonym is a row in a data file. :func:`reload` drops the caches (tests point ``RULES_DIR`` at
a copy of the files)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parents[3] / "data" / "rules"
_DERIVED: list = []  # caches of results computed from the rules (registered by their modules)


def derived_caches(*functions) -> None:
    """Register ``lru_cache``d functions whose results depend on the rules: :func:`reload`
    clears them too."""
    _DERIVED.extend(functions)


@lru_cache(maxsize=8)
def rules_file(name: str) -> dict:
    """The parsed ``data/rules/<name>.json``."""
    return json.loads((RULES_DIR / f"{name}.json").read_text(encoding="utf-8"))


def _vocab(key: str) -> dict:
    return rules_file("rag_vocabulary")[key]


@lru_cache(maxsize=64)
def words(key: str) -> frozenset[str]:
    """A word list of the vocabulary file as a set."""
    return frozenset(_vocab(key)["words"])


@lru_cache(maxsize=64)
def word_list(key: str) -> tuple[str, ...]:
    """A word list of the vocabulary file in its written order."""
    return tuple(_vocab(key)["words"])


def vocab_entry(key: str) -> dict:
    """A whole entry of the vocabulary file (``chars``, ``map``, ``pairs``, ``families`` …)."""
    return _vocab(key)


@lru_cache(maxsize=1)
def synonyms() -> dict[str, list[str]]:
    """Colloquial word → the wordings documents use for it (in the file's order), then the
    category a rule about it is written for (冰箱 → 电冰箱, 家电: "家电产品…应在15日内完成送货"
    answers a question about a 冰箱; table ``categories``)."""
    out = {k: list(v) for k, v in _vocab("synonyms")["map"].items()}
    for category, members in _vocab("categories")["map"].items():
        for m in members:
            ws = out.setdefault(m, [])
            if category not in ws:
                ws.append(category)
    return out


def _patterns() -> dict:
    return rules_file("rag_patterns")


@lru_cache(maxsize=128)
def pattern(key: str) -> re.Pattern:
    """A named regex of ``rag_patterns.json`` (its ``patterns`` table), compiled."""
    return re.compile(_patterns()["patterns"][key]["pattern"])


@lru_cache(maxsize=1)
def meta_questions() -> dict[str, re.Pattern]:
    """Document field → the questions its metadata answers (文号 / 发文机关 / 日期)."""
    return {k: re.compile(p) for k, p in _patterns()["meta_questions"]["fields"].items()}


@lru_cache(maxsize=1)
def answer_types() -> tuple[tuple[re.Pattern, re.Pattern], ...]:
    """(question pattern, pattern of a sentence giving that kind of value), first match wins."""
    return tuple((re.compile(r["question"]), re.compile(r["sentence"])) for r in _patterns()["answer_types"]["rows"])


@lru_cache(maxsize=1)
def intent_terms() -> tuple[tuple[re.Pattern, tuple[str, ...]], ...]:
    """(colloquial intent pattern, the words documents use for it)."""
    return tuple((re.compile(r["question"]), tuple(r["words"])) for r in _patterns()["intent_terms"]["rows"])


@lru_cache(maxsize=1)
def slot_kinds() -> tuple[tuple[str, re.Pattern, re.Pattern], ...]:
    """(slot name, question pattern, pattern of a sentence filling it); ``{ORG}`` in a sentence
    pattern stands for the table's organisation-name pattern."""
    table = _patterns()["slot_kinds"]
    org = table["org"]
    return tuple((r["name"], re.compile(r["question"]), re.compile(r["sentence"].replace("{ORG}", org)))
                 for r in table["rows"])


@lru_cache(maxsize=1)
def colloquial_rewrites() -> tuple[tuple[re.Pattern, str], ...]:
    """(pattern, replacement) of colloquial forms → the forms documents write, applied in order."""
    return tuple((re.compile(r["pattern"]), r["replace"]) for r in _patterns()["colloquial"]["rows"])


@lru_cache(maxsize=1)
def weights() -> dict[str, float]:
    """Every named weight of ``answer_weights.json`` (its groups flattened; names are unique)."""
    out: dict[str, float] = {}
    for group, table in rules_file("answer_weights").items():
        if not isinstance(table, dict):
            continue
        for name, row in table.items():
            if name == "说明":
                continue
            if name in out:
                raise ValueError(f"answer_weights.json: weight {name!r} named twice")
            out[name] = row["value"] if isinstance(row, dict) else row
    return out


def weight(name: str) -> float:
    return weights()[name]


def reload() -> None:
    """Forget every cached rule so the next call reads the files again (from ``RULES_DIR``)."""
    for f in (rules_file, words, word_list, pattern, meta_questions, answer_types, intent_terms, slot_kinds,
              colloquial_rewrites, weights, synonyms, *_DERIVED):
        f.cache_clear()
