"""Words for figures the templates do not have ("加班费"): answered from the columns that exist,
with a note that says so — never the overtime hours."""

from __future__ import annotations

import re

# word the user says → (column answered, further columns of the same meaning)
FIELD_ALIASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "加班费": ("加班超时费", ("国定加班费",)),
}
_ALIAS_RE = {w: re.compile(r"(?<!国定)" + w) for w in FIELD_ALIASES}


def field_alias(q: str) -> tuple[str, dict | None]:
    """("3月加班超时费一共多少", alias) for "3月加班费一共多少"; the question unchanged when it names
    an existing column."""
    for word, (main, more) in FIELD_ALIASES.items():
        if _ALIAS_RE[word].search(q) and main not in q and not any(m in q for m in more):
            return _ALIAS_RE[word].sub(main, q), {"word": word, "field": main, "also": list(more)}
    return q, None


def alias_note(alias: dict) -> str:
    fields = [alias["field"], *alias["also"]]
    return (f"数据中没有“{alias['word']}”这一字段；与之相关的费用字段有：{'、'.join(fields)}"
            f"（加班小时是时长，不是费用）。以下按{alias['field']}统计，并给出{'、'.join(alias['also'])}。")
