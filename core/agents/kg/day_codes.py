"""A single day of a month asked of the 考勤 / 排班 records, answered from their 1日…31日 codes:
科创那边上个月13号夜班是哪俩人 → the people whose 13日 code that month is 夜; 郑晓东上个月25号考勤上记的是啥
→ his 25日 code. The day pattern and the words that name a code are data (``day_codes`` in
``kg_asked_slot.json``); the codes and their meanings are the templates' (core.graph.schema)."""

from __future__ import annotations

import calendar
import re

from core.agents.kg import kgrules
from core.agents.kg.answer_rows import person_name
from core.graph.schema import ATTENDANCE_CODES, DAY_COLUMNS, SHIFT_CODES

_LEGENDS = {"考勤与人员财务": ATTENDANCE_CODES, "排班月报": SHIFT_CODES}


def _rules() -> dict:
    return kgrules.rules_file("kg_asked_slot")["day_codes"]


def asked_day(question: str) -> int | None:
    """The day of the month the question asks about (上个月13号 → 13), else None."""
    m = re.search(_rules()["day"], question or "")
    if not m or re.search(_rules()["not_when"], question):
        return None  # 3月2日那天加班了几个小时: an amount, which a day's code does not hold
    day = int(m.group(1))
    return day if 1 <= day <= 31 else None


def _asked_codes(question: str, legend: dict[str, str], one_person: bool = False) -> list[str] | None:
    """The codes the question names: a code's meaning (夜班, 年假), a word for it (加班, 请假) or the
    code quoted (记“加”的). None when a named code is negated (谁没来上班): who lacks a code is not
    read here; of ``one_person``'s record a negated word only sets the scene (郑晓东4月28号没来上班，
    请的是什么假 → his code that day)."""
    words = {meaning: [c] for c, meaning in legend.items()}
    words.update({f"“{c}”": [c] for c in legend} | {f'"{c}"': [c] for c in legend})
    words.update(_rules()["words"])
    named: list[str] = []
    for word, codes in words.items():
        if word in question:
            if re.search(_rules()["negated"] + re.escape(word), question):
                if one_person:
                    continue
                return None
            named += [c for c in codes if c in legend and c not in named]
    return named


def _month_rows(steps: list[dict], col: str) -> tuple[list[dict], str, dict[str, str]] | None:
    """(the rows, their month, their codes' legend) of the last step whose rows carry ``col``:
    records of one month and of one template with day codes, else None."""
    step = next((s for s in reversed(steps) if any(col in r for r in s.get("rows") or [])), None)
    rows = [r for r in (step or {}).get("rows") or [] if col in r]
    months = {r.get("年月") for r in rows}
    legends = {r.get("来源模板") for r in rows}
    if not rows or len(months) != 1 or len(legends) != 1 or next(iter(legends)) not in _LEGENDS:
        return None
    month = str(next(iter(months)))
    return (rows, month, _LEGENDS[next(iter(legends))]) if re.fullmatch(r"\d{4}-\d{2}", month) else None


def _days_of_code(question: str, steps: list[dict]) -> str | None:
    """Which days of the month carry the code the question names (张凤英4月调休是几号 → 2026-04-02)."""
    found = _month_rows(steps, DAY_COLUMNS[0]) if re.search(_rules()["asks_day"], question or "") else None
    if not found:
        return None
    rows, month, legend = found
    wanted = _asked_codes(question, legend, one_person=len(rows) == 1)
    if not wanted:
        return None  # no code named: the days of what? (the refusal says no day was found)
    what = "、".join(legend[c] for c in wanted)
    said = [f"{person_name(r)} " + "、".join(f"{month}-{int(c[:-1]):02d}" for c in DAY_COLUMNS if r.get(c) in wanted)
            for r in rows if any(r.get(c) in wanted for c in DAY_COLUMNS)]
    if not said:
        return f"{month} 没有记为{what}的日子（查到的 {len(rows)} 条记录中）。"
    return f"{month} 记为{what}的日子：" + "；".join(said) + "。"


def statement(question: str, steps: list[dict]) -> str | None:
    """What the records of one month say of the asked day (or, asked which day, the days of the
    asked code), or None when the question asks neither or no step's rows carry the day codes
    (records of one month, of one template)."""
    day = asked_day(question)
    if not day:
        return _days_of_code(question, steps)
    col = f"{day}日"
    found = _month_rows(steps, col)
    if not found:
        return None
    rows, month, legend = found
    if day > calendar.monthrange(int(month[:4]), int(month[5:]))[1]:
        return None  # 4月31日: no such day (the refusal says the records do not give it)
    date = f"{month}-{day:02d}（{col}）"
    wanted = _asked_codes(question, legend, one_person=len(rows) == 1)
    if wanted is None:
        return None
    if wanted:
        who = [person_name(r) for r in rows if r.get(col) in wanted]
        what = "、".join(legend[c] for c in wanted)
        return (f"{date}记为{what}的：{'、'.join(who)}（共 {len(who)} 人）。" if who
                else f"{date}没有人记为{what}（查到的 {len(rows)} 条记录中）。")
    said = [f"{person_name(r)} {r[col]}（{legend.get(r[col], '未知代码')}）" if r.get(col) else
            f"{person_name(r)} 空（当天不在册）" for r in rows]
    return f"{date}的记录：" + "；".join(said) + "。"


def shown(rows: list[dict], question: str) -> list[dict]:
    """``rows`` as the result table and the thread keep them: the 1日…31日 codes only when the
    question asks a day (they are read for that answer; 31 columns of codes are noise otherwise)."""
    if asked_day(question) or not any(DAY_COLUMNS[0] in r for r in rows):
        return rows
    return [{k: v for k, v in r.items() if k not in DAY_COLUMNS} for r in rows]
