"""Computed kinds of a question (rules mode): the aggregation asked (count / sum / avg / max /
min / top-N / grouping), nested averages, ratios, earliest / latest records, conditions on a
computed figure ("人数超过5人的项目"), "哪个片区的项目最多" and one figure per named value."""

from __future__ import annotations

import re
from datetime import date

from core.agents.kg.concepts import NUMERIC_FIELDS, ground_concepts
from core.agents.kg.cues import (AVG_RE, COUNT_ANY_RE, COUNT_PERSON_RE, COUNT_PROJECT_RE, GROUP_RE,
                                 HEADCOUNT_PROPS, LIST_RE, MAX_RE, MIN_RE, NUMERIC_PROPS, SUM_RE, TOP_RE,
                                 _CMP_WORD, _VS_AVG_RE, _WHICH_KEYS, _default_numeric, _numeric_field, _th_op)
from core.text.numerals import cn_to_int
from core.agents.kg import kgrules, phrasing
from core.agents.kg.condition_gate import _rx



def _sum_after_count(q: str, end: int, field: str) -> bool:
    """"张丽娟负责的几个项目，合同面积加起来多大": the 几个项目 names the records, the total of a field
    named after it is what is asked (not "合同面积合计超过10万的项目有几个", counted last)."""
    tail = q[end:]
    words = [w for w, p, _ in NUMERIC_FIELDS if p == field]
    return bool(SUM_RE.search(tail)) and any(w in tail for w in words)


def _aggregation(q: str, intent: str, conditions: list[dict]) -> dict | None:
    for row in kgrules.rules_file("kg_patterns")["count_distinct"]["rows"]:
        if re.search(row["pattern"], q):  # "一线员工的岗位一共几种": distinct 岗位名称, not the people
            return {"op": "count", "field": row["field"], "distinct": True, "explicit": True}
    field = _numeric_field(q)
    cond_fields = {c["field"] for c in conditions}
    if field in cond_fields:  # "满意度不到90分的项目，客户投诉加起来几次": the figure asked is the other field
        rest = q
        for c in conditions:
            rest = rest.replace(c.get("text") or "\0", "□")
        field = _numeric_field(rest) or field
    if field and field.endswith("人数") and field in q:
        q = q.replace(field, "□")  # 在岗人数 is a numeric field, not a head count
    counting = COUNT_PROJECT_RE.search(q) or COUNT_PERSON_RE.search(q) or COUNT_ANY_RE.search(q)
    if counting and field and _sum_after_count(q, counting.end(), field):
        return {"op": "sum", "field": field, "explicit": True}
    if field and field not in cond_fields and not AVG_RE.search(q) and any(
            re.search(rf"(?:多少|几)[个次天]?(?:{re.escape(w)}{'|小时' * (u == '小时')})", q)
            or re.search(rf"{re.escape(w)}(?:一共|总共|合计|加起来|加在一起|共)有?(?:多少|几){u}", q)
                                                  for w, p, u in NUMERIC_FIELDS if p == field and u in ("天", "小时", "次")):
        return {"op": "sum", "field": field, "explicit": True}  # "排了多少个夜班", "投诉加起来几次": summed
    if field in HEADCOUNT_PROPS and field not in cond_fields and COUNT_PERSON_RE.search(q) and not AVG_RE.search(q):
        return {"op": "sum", "field": field, "explicit": True}  # "岗位编制是多少人": the posts' 编制 summed
    if counting and not AVG_RE.search(q) and not (field and field not in cond_fields and not COUNT_PERSON_RE.search(q)
                                                    and not COUNT_PROJECT_RE.search(q)):
        if COUNT_PROJECT_RE.search(q):
            return {"op": "count", "field": "项目编号", "distinct": True, "explicit": True}
        if COUNT_PERSON_RE.search(q):
            return {"op": "count", "field": "工号", "distinct": True, "explicit": True}
        if not LIST_RE.search(q):
            key = {"设备": "设备编号", "项目": "项目编号", "项目缺口": "项目编号", "人员": "工号",
                   "证书": "工号" if re.search(r"人|谁|员工", q) else "证书名称", "投标": "项目编号"}.get(intent)
            if key in ("项目编号", "证书名称", None) and re.search(r"几条|多少条|几次|多少次|几张|多少张|记录", q) \
                    and not COUNT_PROJECT_RE.search(q):
                # "中标的投标记录有几条", "2025年投标几次": records, not distinct projects
                return {"op": "count", "field": None, "distinct": False, "explicit": True, "records": True}
            return {"op": "count", "field": key, "distinct": bool(key), "explicit": True}
    if field and any(rx.search(q) for rx, _ in GROUP_RE) and not AVG_RE.search(q):
        return {"op": "sum", "field": field, "explicit": True}
    if AVG_RE.search(q):
        if field is None:
            field = "年龄" if re.search(r"年龄|年纪|岁", q) else "司龄" if re.search(r"司龄|工龄|在职年限", q) else None
        return {"op": "avg", "field": field or _default_numeric(intent), "explicit": True}
    if SUM_RE.search(q) and (field or _default_numeric(intent)):
        return {"op": "sum", "field": field or _default_numeric(intent), "explicit": True}
    if field is None and re.search(r"(?:年龄|年纪|岁数)最(?:大|小|高|低)|最年长|最年轻|年龄最|最老", q):
        return {"op": "min" if re.search(r"最小|最低|最年轻", q) else "max", "field": "年龄", "explicit": True}
    if field is None and re.search(r"(?:司龄|工龄|在职年限)最(?:长|短|大|小)|入职最早|最早入职|资历最老", q):
        return {"op": "min" if re.search(r"最短|最小", q) else "max", "field": "司龄", "explicit": True}
    if MAX_RE.search(q) and field:
        return {"op": "max", "field": field, "explicit": True}
    if MIN_RE.search(q) and field:
        return {"op": "min", "field": field, "explicit": True}
    if COUNT_PROJECT_RE.search(q):
        return {"op": "count", "field": "项目编号", "distinct": True, "explicit": True}
    if COUNT_PERSON_RE.search(q):
        return {"op": "count", "field": "工号", "distinct": True, "explicit": True}
    if COUNT_ANY_RE.search(q) and not LIST_RE.search(q):
        key = {"设备": "设备编号", "项目": "项目编号", "项目缺口": "项目编号", "证书": "证书名称"}.get(intent)
        if key is None and re.search(r"几条|多少条|几次|多少次|几张|多少张|记录", q):
            return {"op": "count", "field": None, "distinct": False, "explicit": True, "records": True}
        return {"op": "count", "field": key, "distinct": bool(key), "explicit": True}
    if re.search(r"有?多少|是多少", q) and field and field not in cond_fields:
        return {"op": "sum", "field": field, "explicit": True}
    if field and intent in ("收费", "投标") and not LIST_RE.search(q) and not re.search(r"明细|每月|各月|逐月", q):
        return {"op": "sum", "field": field, "explicit": True}  # "科创大厦Q1开票金额" asks for the total
    attribute_asked = any(c.get("property") and not c.get("derived") and c.get("label") == "人员"
                          for c in ground_concepts(q))
    attribute_asked = attribute_asked or bool(kgrules.cue("asked_attribute").search(q))  # 负责人工号是多少
    if not attribute_asked and re.search(r"(?:有|共有|一共有|总共有)?多少[个位名条家台]?\s*[？?。！!]?\s*$", q):
        key = {"设备": "设备编号", "项目": "项目编号", "项目缺口": "项目编号", "收费": "项目编号", "证书": "工号",
               "检查": None, "采购": None, "编制": None}.get(intent, "工号")
        return {"op": "count", "field": key, "distinct": bool(key), "explicit": True}
    return None



# ---- grouped / nested averages, ratios, earliest-latest (rules mode) ----------------------
# "平均每个项目…" first: in "各片区平均每个项目多少人" the average is per project
_PERSON_UNITS = r"人|员工|位员工|名员工|保安员?|保洁员?|客服|项目经理|工程维修|维修工|领班"

NESTED_AVG_RES = (re.compile(r"平均(?:下来)?(?:每个|每一个|每家|每位|每名|每|各个|各|一个|单个)(项目|片区|岗位|"
                             + _PERSON_UNITS + r"|月)(?:的)?(每个?月)?|(人均|月均)(?:的)?(每个?月)?"),
                  re.compile(r"(?:每个|每一个|每家|各个|各)(项目|片区|岗位)(每个?月)?(?:的)?平均"))

_GROUP_KEYS = {"项目": "项目编号", "片区": "片区编号", "岗位": "岗位名称", "月": "年月", "月均": "年月"}

_MONTHLY_PAY = frozenset({"税后工资", "餐费", "值班费", "加班超时费", "国定加班费"})



def _unit_key(unit: str) -> str:
    """平均每<unit>: 项目 → 项目编号, 月 → 年月, 人 / 保安 / 员工 … → 工号."""
    return _GROUP_KEYS.get(unit, "工号")



# ratio name → (intent, numerator fields, denominator fields): both sums over the same rows
FIELD_RATIOS: dict[str, tuple[str, list[str], list[str]]] = {
    "出勤率": ("考勤", ["出勤天数"], ["出勤天数", "请假天数", "旷工天数"]),
    "回款率": ("收费", ["收款金额"], ["开票金额"]), "收款率": ("收费", ["收款金额"], ["开票金额"]),
    "满编率": ("编制", ["在岗人数"], ["项目编制"]), "到岗率": ("编制", ["在岗人数"], ["项目编制"]),
}

# ratio name → (intent, numerator condition when no grounded filter says it, condition text)
SUBSET_RATIOS: dict[str, tuple[str, str, str]] = {
    "中标率": ("投标", "中标结果 == '中标'", "中标"), "完好率": ("设备", "完好状况 == '完好'", "完好"),
    "离职率": ("人员", "离职日期 != None", "已离职"), "流失率": ("人员", "离职日期 != None", "已离职"),
}

SHARE_RE = re.compile(r"占比|比例|比重|百分之几|百分比|占.{0,12}(?:的)?(?:多少|几成|百分)|所占")

DATE_EXTREME_RE = re.compile(r"(最早|最先|最晚|最迟|最新|最后一次|最近一次|最近的一次|最近|下一个|下一次)"
                             r"(?!\s*[\d一二两三四五六七八九十半]+\s*个?(?:月|年|季度?|周|天|日))")

DATE_FIELDS: tuple[tuple[re.Pattern, str, str], ...] = kgrules.date_fields()

_INTENT_DATE = kgrules.mapping("intent_dates")

_PICK_N_RE = re.compile(r"(\d{1,2}|[两三四五六七八九十])\s*(?:个|名|位|家|条|台|次|人|项)")



def _extended_kinds(q: str, intent: str, agg: dict | None, conditions: list[dict], filters: dict, today: date,
                    areas: list[str] | None = None, projects: list[str] | None = None
                    ) -> tuple[str, dict | None, list[dict], dict, dict | None]:
    """Nested averages (平均每个项目…), ratios (出勤率, 占比) and earliest / latest records."""
    ratio = None
    areas, projects = areas or [], projects or []
    if not intent and "片区" in q and re.search(r"负责|谁管|主管|经理|是谁", q):
        intent = "片区"  # "各片区的负责人是谁"
    intent, agg, m = _nested_average(q, intent, agg, conditions, filters)
    group_key = next((key for rx, key in GROUP_RE if rx.search(q)), None) if not m else None
    if not m and group_key and agg is None and (COUNT_ANY_RE.search(q) or COUNT_PERSON_RE.search(q)
                                                or COUNT_PROJECT_RE.search(q)):
        # "各片区分别有多少台设备": a per-group count even though "分别" reads like a listing
        key = "工号" if COUNT_PERSON_RE.search(q) else "项目编号" if COUNT_PROJECT_RE.search(q) else {
            "设备": "设备编号", "项目": "项目编号", "证书": "工号", "投标": "项目编号", "收费": "项目编号"}.get(intent)
        agg = {"op": "count", "field": key, "distinct": bool(key), "explicit": True, "group_by": group_key}
    if not m and len(areas) > 1 and re.search(r"各|分别|各自|对比|比较|哪个", q):
        group_key = group_key or "片区编号"  # "青浦片区和徐汇片区各有几个项目"
        if agg and agg.get("op") in ("count", "sum", "avg") and not agg.get("group_by"):
            agg["group_by"] = "片区编号"
    if agg and agg.get("group_by") == "片区编号" and intent == "片区":
        intent = "项目"  # "各片区有多少个项目": the projects, grouped by their area
    for name, (r_intent, num, den) in FIELD_RATIOS.items():
        if name in q:
            intent = r_intent
            ratio = {"kind": "fields", "name": name, "num": num, "den": den, "group_by": group_key}
            conditions = [c for c in conditions if c.get("text") != "出勤"]
            break
    if ratio is None:
        for name, (r_intent, cond, text) in SUBSET_RATIOS.items():
            if name in q:
                intent = r_intent  # 中标率 is about bids, 完好率 about equipment, whatever else was matched
                # the rate's own field filtered (中标的…) says the subset; any other filter (续标的中标率,
                # 保安的离职率) is the population, kept on both sides of the ratio (planner._ratio_steps)
                has_filter = bool(filters.get(cond.split()[0]))
                if not has_filter and not any(c["expr"] == cond for c in conditions):
                    conditions.append({"field": cond.split()[0], "op": "==", "value": 0, "text": text,
                                       "derived": None, "expr": cond})
                ratio = {"kind": "subset", "name": name, "group_by": group_key}
                break
    if ratio is None and SHARE_RE.search(q) and intent in ("考勤", "排班") and not conditions:
        for word, prop in (("加班", "加班小时"), ("请假", "请假天数"), ("旷工", "旷工天数"), ("夜班", "夜班天数")):
            if word in q:  # "3月加班的人占比多少": the people with any of it, out of everyone
                conditions.append({"field": prop, "op": ">", "value": 0, "text": f"有{word}", "derived": None,
                                   "expr": f"{prop} > 0"})
                agg = {"op": "count", "field": "工号", "distinct": True, "explicit": True}
                break
    if ratio is None and SHARE_RE.search(q) and (any(v for v in filters.values()) or conditions or (
            re.search(r"占(?:全部|所有|全体|全公司|公司|总)", q) and (projects or areas))):
        ratio = {"kind": "subset", "name": "占比", "group_by": group_key}
    if ratio is not None:
        _shape_ratio(q, ratio, agg)
        agg = None
        return intent, agg, conditions, filters, ratio
    intent, agg = _date_extreme(q, intent, agg, conditions, today)
    return intent, agg, conditions, filters, ratio


def _nested_average(q: str, intent: str, agg: dict | None, conditions: list[dict], filters: dict):
    """(intent, agg, match): "平均每个项目有多少人", "各片区平均每个项目开票多少" — a figure per inner
    group, then averaged (optionally per outer group)."""
    m = NESTED_AVG_RES[0].search(q) or NESTED_AVG_RES[1].search(q)
    outer = None
    if m:
        first = m.re is NESTED_AVG_RES[0]
        unit = (m.group(1) or m.group(3)) if first else m.group(1)
        per_month = bool(m.group(2) or (m.group(4) if first else None))
        key = _unit_key(unit)
        if per_month and key != "年月":
            key += "+年月"
        rest = q[:m.start()] + "□" + q[m.end():]
        if first:  # "各片区平均每个项目…", "各项目平均每月…": the other grouping word is the outer group
            outer = next((k for rx, k in GROUP_RE if rx.search(rest)), None)
            if outer and outer in key.split("+"):
                outer = None
        field = _numeric_field(rest)
        if COUNT_PROJECT_RE.search(rest) or (unit == "片区" and re.search(r"几个|多少个|项目", rest) and not field):
            inner, f = "count", "项目编号"
            if intent in ("", "片区", "人员"):
                intent = "项目"
        elif COUNT_PERSON_RE.search(rest) or re.search(r"多少人|几人|几个人|人数|员工数", rest) or (
                not field and re.search(r"员工|人员|保安|保洁", rest)):
            inner, f = "count", "工号"
            if intent in ("", "片区", "项目"):
                intent = "人员"
        elif not field and (COUNT_ANY_RE.search(rest) or re.search(r"多少|几", rest)):
            # 设备 → 设备编号; 检查 / 采购 records have no single key: count rows (field None)
            inner, f = "count", {"设备": "设备编号", "证书": "工号", "投标": "项目编号", "收费": "项目编号",
                                 "检查": "", "采购": ""}.get(intent, "工号")
            if f and f in key.split("+"):
                f = ""  # "平均每个员工有几张证书": the records per person, not the person itself
        else:
            inner, f = "sum", field or _default_numeric(intent)
        if inner == "sum" and key == "年月" and intent in ("考勤", "工资", "排班") and first and (
                filters.get("岗位名称") or re.search(r"员工|人员|职工|大家", q[:m.start()])):
            key = "工号+年月"  # "保安平均每月加班多少小时": the average guard's month, not all guards' month
        if inner == "sum" and key == "工号" and f in _MONTHLY_PAY:
            key = "工号+年月"  # "人均税后工资": pay is monthly, so per person per month
        if f is not None:
            agg = {"op": inner, "field": f or None, "distinct": inner == "count" and bool(f), "group_by": key,
                   "then": "avg", "explicit": True}
            agg = {"op": inner, "field": f, "distinct": inner == "count", "group_by": key, "then": "avg",
                   "explicit": True}
            if outer:
                agg["outer"] = outer
            if intent == "考勤" and "出勤" in q and inner == "count" and not any(
                    c["field"] in ("出勤天数", "上班天数") for c in conditions):
                conditions.append({"field": "出勤天数", "op": ">", "value": 0, "text": "出勤", "derived": None,
                                   "expr": "出勤天数 > 0 or 上班天数 > 0"})
    return intent, agg, m


def _shape_ratio(q: str, ratio: dict, agg: dict | None) -> None:
    """A ratio's grouping, ranking and field from the question's wording (updates ``ratio``)."""
    ratio["whole"] = bool(re.search(r"占(?:全部|所有|全体|全公司|公司|总)", q))
    best = re.search(r"最(低|少|小|差)|最(高|多|大|好)|倒数", q)
    which = re.search(r"(谁|哪位|哪些人|哪个人|哪名|哪个员工)|哪(?:个|些|一个)?(项目|月|片区|岗位)", q) or \
        re.search(r"最(?:低|少|小|差|高|多|大|好)的(?:是)?((?:员工|人员|人))|最(?:低|少|小|差|高|多|大|好)的(?:是)?"
                  r"(项目|月|片区|岗位)", q)
    ranking = re.search(r"排名|排行|排序|从高到低|从低到高|由高到低|由低到高", q)
    if (ranking or best) and which and not ratio.get("group_by"):
        ratio["group_by"] = "工号" if which.group(1) else _WHICH_KEYS[which.group(2)]
    if ranking and not best and ratio.get("group_by"):
        ratio["top"], ratio["order"] = 999, "asc" if re.search(r"从低到高|由低到高", q) else "desc"
    if best and ratio.get("group_by"):
        tm = TOP_RE.search(q)
        tok = (tm.group(1) or tm.group(2) or tm.group(3)) if tm else None
        ratio["top"] = cn_to_int(tok, 1) if tok else 1
        ratio["order"] = "desc" if best.group(2) else "asc"
    explicit_field = _numeric_field(q)
    ratio["field"] = explicit_field if ratio["name"] == "占比" and explicit_field and \
        (agg or {}).get("op") != "count" else None


def _date_extreme(q: str, intent: str, agg: dict | None, conditions: list[dict], today: date):
    """(intent, agg): the earliest / latest records by a date field ("最早入职", "出厂日期最早的设备",
    "最近到期的项目")."""
    dm = DATE_EXTREME_RE.search(q)
    if dm and not (agg and agg.get("field") in ("司龄", "年龄")):
        field, d_intent = phrasing.named_date_field(q) or (None, None)
        for rx, f, fi in DATE_FIELDS if field is None else ():
            if rx.search(q):
                field, d_intent = f, fi
                break
        if field is None and intent in _INTENT_DATE and dm.group(1) != "最近":
            field, d_intent = _INTENT_DATE[intent], intent
        if agg and (agg.get("group_by") or agg.get("top") or agg.get("op") in ("max", "min", "avg")):
            field = None  # "最近加班最多的是谁": a ranking, not the latest record
        if field and intent in ("", "人员", "项目", d_intent):
            intent = d_intent
            word = dm.group(1)
            order = "asc" if word in ("最早", "最先") else "desc"
            n_m = _PICK_N_RE.search(q[dm.start():]) or _PICK_N_RE.search(q[:dm.start()])
            n = cn_to_int(n_m.group(1), 1) if n_m else 1
            if word in ("下一个", "下一次") and field != "结束日期":
                return intent, agg  # the data holds no future inspections
            if word in ("最近", "下一个", "下一次") and field == "结束日期":  # "最近到期": the next one still ahead
                order = "asc"
                conditions.append({"field": "结束日期", "op": ">=", "value": 0, "text": "尚未到期", "derived": None,
                                   "expr": f"结束日期 >= '{today.isoformat()}'"})
            agg = {"op": "earliest" if order == "asc" else "latest", "field": field, "top": n, "explicit": True}
    return intent, agg



# ---- conditions on a computed figure, two-period comparisons (rules mode) ------------------
# the thing a "having" condition selects: "…的员工", "哪些项目", "谁"
_TARGET_RE = re.compile(r"(?:的|哪些|哪个|哪几个|哪几位|哪位|哪一个|哪几)(员工|人员|人|保安员?|保洁员?|项目|片区|月份?|岗位)|(谁)")

_TARGET_KEYS = {"项目": "项目编号", "片区": "片区编号", "月": "年月", "月份": "年月", "岗位": "岗位名称"}

_RATIO_TH_RE = re.compile(r"(出勤率|回款率|收款率|满编率|到岗率|中标率|完好率|离职率|流失率|占比|比例)\s*(?:在|为|是)?\s*"
                          + _CMP_WORD + r"?\s*(\d+(?:\.\d+)?)\s*%?\s*(及以上|及以下|以上|以下)?")

_COUNT_TH_RE = re.compile(r"(人数|员工数|人员数|员工|人员|设备数量|设备数|设备|检查次数|检查|证书数量|证书数|证书|记录数|记录)"
                          r"\s*(?:有|共)?\s*" + _CMP_WORD + r"\s*(\d+)\s*(?:个|人|台|次|名|位|条|张|家)?\s*(以上|以下)?")

_COUNT_WHAT = {"人数": ("工号", "人员"), "员工数": ("工号", "人员"), "人员数": ("工号", "人员"), "员工": ("工号", "人员"),
               "人员": ("工号", "人员"), "设备数量": ("设备编号", "设备"), "设备数": ("设备编号", "设备"),
               "设备": ("设备编号", "设备"), "检查次数": (None, "检查"), "检查": (None, "检查"),
               "证书数量": (None, "证书"), "证书数": (None, "证书"), "证书": (None, "证书"),
               "记录数": (None, None), "记录": (None, None)}

_TOTAL_RE = re.compile(r"总|合计|累计|一共|总共|加起来|总和|总额|总计|全年|整体")



def _target_key(q: str) -> str | None:
    m = _TARGET_RE.search(q)
    if not m:
        return None
    return "工号" if m.group(2) else _TARGET_KEYS.get(m.group(1), "工号")



def _groups_having(q: str, intent: str, agg: dict | None, conditions: list[dict], ratio: dict | None) -> dict | None:
    """"值班费都发给了哪些岗位的人", "国定加班费是在哪几个月发的": the groups (岗位, 月, 项目, 片区) whose
    total of the named field is above 0, when nothing else is computed and no condition holds it (not
    for 编制 rows, one per project and 岗位 already)."""
    m = kgrules.cue("which_groups_have").search(q)
    field = _numeric_field(q) if m and agg is None and ratio is None and intent != "编制" else None
    # the field named in full (上班 of 在哪个项目上班 is no 上班天数), with no comparison (在岗人数不够编制)
    if not field or field not in q or any(c.get("field") == field for c in conditions) \
            or _rx("comparison").search(q):
        return agg
    return {"op": "sum", "field": field, "group_by": _WHICH_KEYS[m.group(1)], "having": "值 > 0",
            "having_text": f"有{field}", "explicit": True}


def _having_kinds(q: str, intent: str, agg: dict | None, conditions: list[dict], ratio: dict | None
                  ) -> tuple[str, dict | None, list[dict], dict | None]:
    """A condition on a figure computed per person / project / month rather than on a record:
    "出勤率低于95%的员工", "人数超过5人的项目", "加班总时长超过50小时的人", "加班时长高于平均的人"."""
    target = _target_key(q) or ("工号" if intent in ("考勤", "工资", "排班") and re.search(r"哪些|谁|名单|有哪", q)
                                else None)
    am = _VS_AVG_RE.search(q)
    if am and target:
        op = _th_op(am.group(1), None)
        if ratio is not None:
            ratio = {**ratio, "having": f"比率 {op} 平均值", "having_text": am.group(0), "group_by": target,
                     "order": "asc" if op.startswith("<") else "desc"}
            ratio.pop("top", None)
            return intent, agg, conditions, ratio
        rest = q[:am.start()] + q[am.end():]
        field = _numeric_field(rest) or _default_numeric(intent)
        if field and field != target:
            conditions = [c for c in conditions if c["field"] != field]
            return intent, {"op": "sum", "field": field, "group_by": target, "having": f"值 {op} 平均值",
                            "having_text": am.group(0), "explicit": True}, conditions, ratio
    if ratio is not None:
        m = _RATIO_TH_RE.search(q)
        if m and m.group(1) == ratio["name"] or (m and ratio["name"] == "占比" and m.group(1) == "比例"):
            op = _th_op(m.group(2), m.group(4))
            if op:
                v = float(m.group(3))
                v_txt = int(v) if v.is_integer() else v
                ratio = {**ratio, "having": f"比率 {op} {v_txt}", "having_text": m.group(0).strip()}
                ratio["group_by"] = target or ratio.get("group_by") or (
                    "工号" if ratio.get("kind") == "fields" and intent == "考勤" else "项目编号")
                ratio.pop("top", None)
                ratio["order"] = "asc" if op.startswith("<") else "desc"
                fields = set(ratio.get("num") or []) | set(ratio.get("den") or [])
                conditions = [c for c in conditions if not (c.get("value") == v or c["field"] in fields
                                                             and c.get("op") in ("<", ">", "<=", ">="))]
        return intent, agg, conditions, ratio
    if not target:
        return intent, agg, conditions, ratio
    m = _COUNT_TH_RE.search(q)
    if m:
        what = m.group(1)
        field, c_intent = _COUNT_WHAT[what]
        key = target
        if field == key or (field is None and c_intent is None):
            return intent, agg, conditions, ratio
        op = _th_op(m.group(2), m.group(4))
        v = int(m.group(3))
        if c_intent and (intent in ("", "人员", "项目", "片区") or c_intent == "设备"):
            intent = c_intent
        conditions = [c for c in conditions if c.get("value") != float(v)]
        agg = {"op": "count", "field": field, "distinct": bool(field), "group_by": key,
               "having": f"值 {op} {v}", "having_text": m.group(0).strip(), "explicit": True}
        return intent, agg, conditions, ratio
    for c in list(conditions):
        if c.get("derived") or c.get("op") not in (">", ">=", "<", "<=") or c["field"] not in NUMERIC_PROPS:
            continue
        at = q.find(c.get("text") or "\x00")
        head = q[max(0, at - 8):at + len(c.get("text") or "")] if at >= 0 else ""
        avg = bool(AVG_RE.search(head))
        # a per-person monthly fact asked of a project / month / area, a project's monthly figure asked of a
        # month / area: the target's total is meant even without 合计
        implied = (intent in ("考勤", "工资", "排班") and target != "工号") or \
            (intent == "收费" and target in ("年月", "片区编号"))
        if not (_TOTAL_RE.search(head) or avg or implied):
            continue
        if c["field"] == target:
            continue
        v = c["value"]
        v_txt = int(v) if float(v).is_integer() else v
        conditions = [x for x in conditions if x is not c and not (x.get("value") == v and x.get("op") == c["op"])]
        agg = {"op": "avg" if avg else "sum", "field": c["field"], "group_by": target,
               "having": f"值 {c['op']} {v_txt}", "having_text": c.get("text"), "explicit": True}
        break
    return intent, agg, conditions, ratio



_WHICH_MOST_RE = re.compile(r"哪(?:个|一个|家)?(片区|项目|岗位|月份?)(?:的)?([^，。？?]{0,6}?)(最多|最少)|"
                            r"(片区|项目|岗位|月份?)([^，。？?]{0,6}?)(最多|最少)的是(?:哪|谁)|"
                            r"([^，。？?的]{1,6}?)(最多|最少)的(片区|项目|岗位|月份?)(?:是|有)?(?:哪|谁)")

_MOST_WHAT = tuple(tuple(row) for row in kgrules.rules_file("kg_vocabulary")["counted_things"]["rows"])



def _which_group_most(q: str, intent: str, agg: dict | None, ratio: dict | None,
                      positions: list | None = None) -> tuple[str, dict | None]:
    """"哪个片区的项目最多", "哪个项目的人最多", "保安最多的项目是哪个" (a position the question names
    counts its people): a count per group, the top (or bottom) one."""
    m = _WHICH_MOST_RE.search(q)
    if not m or ratio is not None or (agg and (agg.get("group_by") or agg.get("op") in ("sum", "avg"))):
        return intent, agg
    unit, what, word = next((m.group(u), m.group(w), m.group(o)) for u, w, o in ((1, 2, 3), (4, 5, 6), (9, 7, 8))
                            if m.group(u))
    key = _WHICH_KEYS.get(unit[:2] if unit.startswith("月") else unit, _WHICH_KEYS.get(unit))
    if key is None:
        key = "年月"
    if positions and what and not any(w in what for w, _, _ in _MOST_WHAT):
        what = "人"  # "哪个项目的保安最多": the named position's people
    for w, field, c_intent in _MOST_WHAT:
        if w in what and field != key:
            if intent in ("", "人员", "项目", "片区") or c_intent in ("设备", "证书", "检查"):
                intent = c_intent if not (c_intent == "项目" and intent not in ("", "片区", "人员", "项目")) else intent
            agg = {"op": "count", "field": field, "distinct": bool(field), "group_by": key, "top": 1,
                   "explicit": True, **({"order": "asc"} if word == "最少" else {})}
            return intent, agg
    return intent, agg



_SPLIT_FIELDS = kgrules.word_list("split_fields")


def _field_of_named_values(filters: dict) -> str | None:
    """The field the question names two or more values of (电梯和空调 → 设备类型): the ``split_fields``
    order first, then any field."""
    return next((f for f in dict.fromkeys([*_SPLIT_FIELDS, *filters]) if len(filters.get(f) or []) >= 2), None)


def _top_per_group(q: str, agg: dict | None, filters: dict) -> dict | None:
    """"保洁员和客服3月税后工资最高的分别是谁", "每个月税后工资最高的分别是谁", "每个片区里…年化合同额
    最低的分别是哪个": in each group (the values named, or the 各/每个 grouping), the person or
    project with the extreme figure — not one extreme over all groups."""
    extreme = MAX_RE.search(q) or MIN_RE.search(q)
    if not agg or not extreme or not re.search(r"分别|各自", q[extreme.start():]) or agg.get("then") \
            or agg.get("outer") or agg.get("op") not in ("sum", "max", "min", "avg"):
        return agg
    who = "工号" if re.search(r"谁|哪位|哪个人|哪些人|员工", q[extreme.start():]) else "项目编号"
    named = _field_of_named_values(filters)
    inner, outer = (agg.get("group_by"), named) if agg.get("group_by") in ("工号", "项目编号") \
        else (who, agg.get("group_by"))
    if not outer or not inner or inner == outer or "+" in str(outer):
        return agg
    then = "min" if MIN_RE.search(extreme.group(0)) else "max"
    op = "sum" if agg["op"] in ("max", "min") else agg["op"]
    return {"op": op, "field": agg.get("field"), "group_by": inner, "outer": outer, "then": then, "explicit": True}



def _group_by_values(q: str, agg: dict | None, filters: dict) -> tuple[dict | None, dict]:
    """"男员工和女员工各有多少人", "电梯和空调分别有几台": one figure per named value (the field becomes
    the grouping; the rows stay cut to the named values)."""
    if not re.search(r"各|分别|各自|对比|比较|哪个多|哪个少", q):
        return agg, filters
    if agg is None and (COUNT_ANY_RE.search(q) or COUNT_PERSON_RE.search(q)):
        agg = {"op": "count", "field": "工号" if COUNT_PERSON_RE.search(q) else None, "distinct": True,
               "explicit": True, "_split": True}
    if not agg or agg.get("group_by") or agg.get("op") not in ("count", "sum", "avg") or agg.get("then"):
        return agg if not (agg or {}).get("_split") else None, filters
    split = agg.pop("_split", False)
    if re.search(r"男.{0,6}女|女.{0,6}男|男女|按性别|各性别|不同性别", q):
        filters = {k: v for k, v in filters.items() if k != "性别"}
        return {**agg, "group_by": "性别"}, filters
    named = _field_of_named_values(filters)
    if named:
        return {**agg, "group_by": named}, filters
    return (None if split else agg), filters
