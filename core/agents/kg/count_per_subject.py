""""持有2个以上证书的人": a count per person (or project) of the records listed, as a condition
on that count. When the plan lists the records without it, the answer first names the subjects
whose record count meets the bound (the listed records stay as its evidence), so the figure is
applied, not dropped. The form is data (``count_per_subject`` of ``kg_condition_gate.json``)."""

from __future__ import annotations

import re

from core.agents.kg import kgrules


def _rule() -> dict:
    return kgrules.rules_file("kg_condition_gate")["count_per_subject"]


def _bound(num: str) -> int | None:
    from core.agents.kg.condition_gate import _value

    v = _value(num)
    return None if v is None else int(v)


def qualifying(question: str, rows: list[dict]) -> tuple[str, list[str]] | None:
    """(the condition's words, the subjects that meet it) when ``question`` bounds a per-subject
    record count and ``rows`` carry the subject's key; ``None`` otherwise."""
    m = re.search(_rule()["pattern"], question or "")
    if not m or not rows:
        return None
    key, name = _rule()["subjects"][m.group(4)]
    n = _bound(m.group(1))
    if n is None or key not in rows[0]:
        return None
    counts: dict[str, int] = {}
    names: dict[str, str] = {}
    for r in rows:
        k = str(r.get(key) or "")
        if k:
            counts[k] = counts.get(k, 0) + 1
            names[k] = str(r.get(name) or k)
    below = (m.group(2) or "").endswith("以下")
    keep = [k for k, c in counts.items() if (c <= n if below else c >= n)]
    return m.group(0), [f"{names[k]}（{k}）" for k in sorted(keep)]


def headline(words: str, subjects: list[str]) -> str:
    """The answer's first line: who (or which projects) meet the per-subject count."""
    if not subjects:
        return f"数据中未找到符合“{words}”的记录。"
    return f"符合“{words}”的共 {len(subjects)} 个：" + "、".join(subjects) + "。以下是查到的全部记录。"
