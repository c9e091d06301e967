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


def _asked_codes(question: str, legend: dict[str, str]) -> list[str] | None:
    """The codes the question names: a code's meaning (夜班, 年假), a word for it (加班, 请假) or the
    code quoted (记“加”的). None when a named code is negated (谁没来上班): who lacks a code is not
    read here."""
    words = {meaning: [c] for c, meaning in legend.items()}
    words.update({f"“{c}”": [c] for c in legend} | {f'"{c}"': [c] for c in legend})
    words.update(_rules()["words"])
    named: list[str] = []
    for word, codes in words.items():
        if word in question:
            if re.search(_rules()["negated"] + re.escape(word), question):
                return None
            named += [c for c in codes if c in legend and c not in named]
    return named


def statement(question: str, steps: list[dict]) -> str | None:
    """What the records of one month say of the asked day, or None when the question asks no
    day or no step's rows carry that day's codes (records of one month, of one template)."""
    day = asked_day(question)
    col = f"{day}日" if day else None
    step = next((s for s in reversed(steps) if col and any(col in r for r in s.get("rows") or [])), None)
    rows = [r for r in (step or {}).get("rows") or [] if col in r]
    months = {r.get("年月") for r in rows}
    legends = {r.get("来源模板") for r in rows}
    if not rows or len(months) != 1 or len(legends) != 1 or next(iter(legends)) not in _LEGENDS:
        return None
    month = str(next(iter(months)))
    if not re.fullmatch(r"\d{4}-\d{2}", month) or day > calendar.monthrange(int(month[:4]), int(month[5:]))[1]:
        return None  # 4月31日: no such day (the refusal says the records do not give it)
    legend, date = _LEGENDS[next(iter(legends))], f"{month}-{day:02d}（{col}）"
    wanted = _asked_codes(question, legend)
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
