"""The entity gate: every person and project the question names, once grounded, must be used by
the plan that ran (a step's people / projects / condition), or the answer is a refusal naming it
— never a figure over records the name did not select ("陈慧敏那几个还在服务的项目，1月一共收了
多少钱" → 收款 of all 11 serving projects, 陈慧敏 dropped)."""

from __future__ import annotations

import json

# projects the grounding put in for another name (a manager's projects, a parent's children) stand
# for that name, which is checked itself
_STAND_INS = ("子项目", "负责项目")


def dropped(grounded: dict, steps: list[dict]) -> list[str]:
    """The display names of the grounded people / projects no step of the plan used."""
    if not steps:
        return []
    used = json.dumps([[s.get("params"), s.get("executed_params"), s.get("conditions")] for s in steps],
                      ensure_ascii=False, default=str)
    out: list[str] = []
    named = [*(grounded.get("people") or []),
             *[p for p in grounded.get("projects") or [] if p.get("method") not in _STAND_INS]]
    for m in grounded.get("managers") or []:  # "X那几个项目" for someone who manages none
        if not any(p.get("matched") == m.get("key") for p in grounded.get("projects") or []):
            out.append(m.get("name") or str(m.get("key")))
    for e in named:
        key = str(e.get("key") or "")
        if key and key not in used and (e.get("name") or key) not in out:
            out.append(e.get("name") or key)
    return out


def refusal(names: list[str]) -> str:
    return ("未找到按" + "、".join(f"“{n}”" for n in names) + "筛选的结果：所执行的查询没有用到这一条件，"
            "因此不给出忽略它的答案。请换个说法，例如写明与它的关系（负责的、所在的、经办的）。")
