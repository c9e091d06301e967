"""Conditions a plan could not apply: a step's records hold no field for them (服务状态 on 片区
records). The answer then says which condition it could not apply and gives no figure without
it — never the unfiltered records as if they answered the question."""

from __future__ import annotations

import ast

from core.agents.kg.tools import VALUE_FILTER_RE


def _words(expr: str, slots: dict) -> str:
    """A skipped condition in the asker's words: the understood condition's own text, or
    "字段：值" for a value filter, else the expression's field names."""
    for c in slots.get("conditions") or []:
        if isinstance(c, dict) and c.get("expr") == expr and c.get("text"):
            return str(c["text"])
    m = VALUE_FILTER_RE.match(expr)
    if m:
        try:
            return f"{m.group(1)}：{'、'.join(str(v) for v in ast.literal_eval(m.group(2)))}"
        except (ValueError, SyntaxError):
            return m.group(1)
    return expr.split()[0] if expr.split() else expr


def unapplied(slots: dict, steps: list[dict]) -> list[str]:
    """The conditions (in words) some query step of the plan could not apply."""
    out: list[str] = []
    for s in steps:
        for expr in s.get("conditions_skipped") or []:
            w = _words(str(expr), slots)
            if w not in out:
                out.append(w)
    return out


def refusal(words: list[str]) -> str:
    return ("数据中未找到能同时满足这些条件的记录：所查的记录中没有" + "、".join(f"“{w}”" for w in words)
            + "对应的字段，这个条件无法应用，因此不给出忽略它的结果。")
