"""The asked-column gate: a question that asks for one column of the records (姜雨婷是哪天生的 →
出生日期, 多少钱一瓶 → 单价, 哪家厂 → 制造厂商) gets that column in the answer, or a refusal
saying it was not found — never the records without it, as if they answered the question.

The words and their columns are data (``data/rules/kg_column_words.json``, the table the planner
reads to add the column to the rows); a word right after a name the answer's scope already
states (徐汇管理处 → 市区：徐汇区) names that thing and asks for nothing."""

from __future__ import annotations

import json

from core.agents.kg import kgrules
from core.agents.kg.asked_slot import headline
from core.agents.kg.condition_gate import _rx


def _words() -> list[tuple[str, str]]:
    words = kgrules.rules_file("kg_column_words")["words"]
    return sorted(words.items(), key=lambda kv: -len(kv[0]))


def missing_column(question: str, answer: str, values: dict | None = None,
                   slots: dict | None = None) -> tuple[str, str] | None:
    """``(word, column)`` of the first column the question asks for and the answer does not show:
    neither its name, nor the word, nor one of its stored ``values`` (a supplier list names each
    supplier under 名称). A column some condition or filter of ``slots`` already uses (在职 = no
    离职日期) is a condition, not an asked column."""
    q, rest, head = question or "", question or "", headline(answer)
    if _rx("no_data").search(head):
        return None  # already says nothing was found
    for word, column in _words():
        at = rest.find(word)
        if at < 0:
            continue
        rest = rest[:at] + "□" * len(word) + rest[at + len(word):]
        if column in json.dumps([(slots or {}).get("conditions"), (slots or {}).get("filters")],
                                ensure_ascii=False, default=str):
            continue
        shown = [column, word, *kgrules.rules_file("kg_column_words").get("shown_as", {}).get(column, [])]
        if any(w in (answer or "") for w in shown) \
                or any(str(v) in (answer or "") for v in (values or {}).get(column, []) if len(str(v)) >= 2):
            continue
        before = q[max(0, at - 2):at]
        if len(before) == 2 and before in head:
            continue  # 徐汇管理处: the word is part of a name the scope states
        return word, column
    return None


def column_refusal(word: str, column: str, found: str) -> str:
    text = (f"未找到所问的“{column}”：查到的记录中没有给出这一项（问的是“{word}”），"
            "因此不给出这些记录代替答案。请换个说法。")
    first = headline(found).strip().splitlines()[:1]
    if first and first[0].startswith("查询范围"):
        text += f"\n已理解的{first[0]}"
    return text
