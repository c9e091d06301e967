"""Rules-mode knowledge of the KG question side, read from data files under ``data/rules/``:

* ``kg_vocabulary.json`` — word lists (known ways of naming stored data, non-content words,
  generic words before 片区, intent → graph label);
* ``kg_patterns.json`` — regex tables (the asked-field forms, the 片区 name form).

Each file carries a ``version`` and a ``说明``; every pattern row carries the example that
motivated it. Read once and cached; :func:`reload` drops the caches (tests may point
``RULES_DIR`` at a copy)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parents[3] / "data" / "rules"


@lru_cache(maxsize=8)
def rules_file(name: str) -> dict:
    """The parsed ``data/rules/<name>.json``."""
    return json.loads((RULES_DIR / f"{name}.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=32)
def words(key: str) -> frozenset[str]:
    """A word list of ``kg_vocabulary.json`` as a set."""
    return frozenset(rules_file("kg_vocabulary")[key]["words"])


def mapping(key: str) -> dict[str, str]:
    """A ``map`` entry of ``kg_vocabulary.json``."""
    return dict(rules_file("kg_vocabulary")[key]["map"])


@lru_cache(maxsize=32)
def patterns(key: str) -> tuple[re.Pattern, ...]:
    """The compiled regexes of one table of ``kg_patterns.json``, in the file's order."""
    return tuple(re.compile(row["pattern"]) for row in rules_file("kg_patterns")[key]["rows"])


def examples(key: str) -> list[str]:
    """The motivating example of every row of a pattern table (tests ask each one)."""
    return [row["example"] for row in rules_file("kg_patterns")[key]["rows"]]


def reload() -> None:
    for f in (rules_file, words, patterns, cue, date_fields):
        f.cache_clear()


@lru_cache(maxsize=64)
def cue(name: str) -> re.Pattern:
    """One named cue regex of ``kg_patterns.json`` (``cues``: count_person, list, top …)."""
    return re.compile(rules_file("kg_patterns")["cues"]["rows"][name]["pattern"])


def cue_examples() -> dict[str, str]:
    """Every named cue's motivating example (tests ask each one)."""
    return {k: row["example"] for k, row in rules_file("kg_patterns")["cues"]["rows"].items()}


def group_words() -> list[tuple[re.Pattern, str]]:
    """(regex, grouping field) rows: 各片区 → 片区编号, 按月 → 年月 …"""
    rows = rules_file("kg_patterns")["group_words"]["rows"]
    return [(re.compile(r["pattern"]), r["field"]) for r in rows]


def word_list(key: str) -> tuple[str, ...]:
    """A word list of ``kg_vocabulary.json`` in its written order."""
    return tuple(rules_file("kg_vocabulary")[key]["words"])


@lru_cache(maxsize=1)
def date_fields() -> tuple[tuple[re.Pattern, str, str], ...]:
    """(regex, date field, intent) rows for earliest / latest records, in the file's order."""
    rows = rules_file("kg_patterns")["date_fields"]["rows"]
    return tuple((re.compile(r["pattern"]), r["field"], r["intent"]) for r in rows)


def lookalike_spellings(name: str) -> list[str]:
    """``name`` with one of its characters written as its common look-alike (青浦-体育馆 →
    青浦-体育管), from ``lookalike_chars`` of ``kg_vocabulary.json``."""
    out = []
    for right, wrong in rules_file("kg_vocabulary")["lookalike_chars"]["pairs"]:
        for i, ch in enumerate(name):
            if ch == right:
                out.append(name[:i] + wrong + name[i + 1:])
    return out
