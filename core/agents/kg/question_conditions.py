"""The record conditions a question states (part of :mod:`core.agents.kg.understanding`): its
numeric, date, figure and existence conditions, a negated value ("不是保安", "完好以外") as a
``not in`` condition, and the conditions a state word implies (出勤, 有加班, 考勤异常, 缺编, 已离职 …)."""

from __future__ import annotations

import re

from core.agents.kg import field_conditions, field_figures, kgrules, phrasing, state_words
from core.agents.kg.concepts import NUMERIC_FIELDS, parse_conditions
from core.agents.kg.cues import LIST_RE, PEOPLE_RE, TOP_RE
from core.agents.kg.timeparse import TimeRange


def stated_conditions(q: str, filters: dict, tr: TimeRange | None
                      ) -> tuple[list[dict], dict, TimeRange | None]:
    """(conditions, filters, time) of ``q``: its numeric, date, figure and existence conditions and
    its negated values, taken out of ``filters``; the time ``tr`` unless it was a date bound."""
    conditions = [c.to_dict() for c in parse_conditions(q)]
    dated, span = field_conditions.date_thresholds(q)
    if dated:  # "2020年及以后启用": a bound on 启用日期, not the year 2020 as the asked period
        conditions += dated
        tr = None if tr is not None and tr.text and tr.text in q[span[0]:span[1]] else tr
    conditions += field_figures.figure_conditions(q, NUMERIC_FIELDS, {c["field"] for c in conditions})
    conditions += field_conditions.existence_conditions(q, NUMERIC_FIELDS, {c["field"] for c in conditions})
    conditions += field_conditions.surname_conditions(q)
    filters, negated = negated_values(q, filters)
    conditions += negated
    return conditions, filters, tr


_NEG_BEFORE = re.compile(r"(?:不是|不为|并非|非|除了?|不属于|不)\s*$")

_NEG_AFTER = re.compile(r"^\s*(?:以外|之外)")

# value columns where "不是X" / "非X" / "X以外" means every other value
_NEGATABLE = kgrules.word_list("negatable_fields")


def negated_values(q: str, filters: dict) -> tuple[dict, list[dict]]:
    """"哪些设备不是完好状态", "除了保安以外的员工": the value becomes a ``not in`` condition."""
    out, conds = dict(filters), []
    for f, vals in filters.items():
        if f not in _NEGATABLE or not vals:
            continue
        hit = False
        for v in vals:
            for form in dict.fromkeys((v, str(v).split("_")[0], str(v)[:2])):
                # every occurrence: in "完好状况不是完好" the first "完好" is the field's own name
                if any(_NEG_BEFORE.search(q[:m.start()]) or _NEG_AFTER.match(q[m.end():])
                       for m in re.finditer(re.escape(form), q)):
                    hit = True
                    break
            if hit:
                break
        if hit:
            out.pop(f)
            conds.append({"field": f, "op": "not in", "value": 0, "text": f"{f}不是{'、'.join(vals)}",
                          "derived": None, "expr": f"{f} not in {sorted(vals)!r}"})
    return out, conds


def implied_conditions(q: str, intent: str, agg: dict | None, conditions: list[dict], consecutive) -> None:
    """Record conditions a state word implies (appended to ``conditions``): 出勤 / 有加班 / 考勤异常 /
    缺编 / 超编 / 未整改 / 已离职 / 在职."""
    if intent in ("考勤",) and "出勤" in q and agg and not any(c["field"] in ("出勤天数", "上班天数")
                                                           for c in conditions):
        conditions.append({"field": "出勤天数", "op": ">", "value": 0, "text": "出勤", "derived": None,
                           "expr": "出勤天数 > 0 or 上班天数 > 0"})
    for word, prop, want in (("加班", "加班小时", "考勤"), ("旷工", "旷工天数", "考勤"), ("病假", "病假天数", "考勤"),
                             ("事假", "事假天数", "考勤"), ("年假", "年假天数", "考勤"), ("调休", "调休天数", "考勤"),
                             ("请假", "请假天数", "考勤"),
                             ("休假", "请假天数", "考勤"), ("夜班", "夜班天数", "排班")):
        if intent == want and word in q and not any(c["field"] == prop for c in conditions) \
                and not (agg and agg.get("field") == prop) and not TOP_RE.search(q) \
                and (consecutive or LIST_RE.search(q) or PEOPLE_RE.search(q) or re.search(r"有" + word + r"|有没有|是否有|有无|有人", q)
                     or (agg and agg.get("field") in ("工号", None))):
            conditions.append({"field": prop, "op": ">", "value": 0, "text": f"有{word}", "derived": None,
                               "expr": f"{prop} > 0"})
    if intent == "考勤" and re.search(r"异常|不正常|有问题", q) and not conditions:
        conditions.append({"field": "旷工天数", "op": ">", "value": 0, "text": "考勤异常（有请假或旷工）",
                           "derived": None, "expr": "请假天数 > 0 or 旷工天数 > 0"})
    if intent == "编制" and re.search(r"缺编|缺员|缺人|空缺|不足|不够|没配满|未配满|没配齐|缺口", q):
        conditions.append({"field": "在岗人数", "op": "<", "value": 0, "text": "缺编（在岗人数少于项目编制）",
                           "derived": None, "expr": "在岗人数 < 项目编制"})
    elif intent == "编制" and re.search(r"超编|超员", q):
        conditions.append({"field": "在岗人数", "op": ">", "value": 0, "text": "超编（在岗人数多于项目编制）",
                           "derived": None, "expr": "在岗人数 > 项目编制"})
    conditions += state_words.state_conditions(q, intent, conditions)  # 没发现问题, 没拿下来, 未整改
    employment = phrasing.employment(q) if intent in ("人员", "人员无") else None
    if employment == "left":
        conditions.append({"field": "离职日期", "op": "!=", "value": 0, "text": "已离职", "derived": None,
                           "expr": "离职日期 != None"})
    elif employment == "employed" and not re.search(r"在职年限", q):
        conditions.append({"field": "离职日期", "op": "==", "value": 0, "text": "在职", "derived": None,
                           "expr": "离职日期 == None"})
