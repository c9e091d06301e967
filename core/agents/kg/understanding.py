"""Rules path of ``understand``: classify chat vs graph and fill the slots
(projects, people, time range, intent, granularity, filters, numeric conditions), merging a
follow-up ("改成4月", "换成青浦-体育馆") into the previous turn's slots."""

from __future__ import annotations

import re
from datetime import date

from core.agents.kg.comparison import _followup_kinds, _growth, change_select
from core.agents.kg.computed import (_aggregation, _extended_kinds, _group_by_values, _groups_having, _having_kinds,
                                     _top_per_group, _which_group_most)
from core.agents.kg.concepts import CHAT_PATTERNS, GENERIC_INTENTS, detect_intents, ground_concepts
from core.agents.kg.cues import (COMPARE_RE, CONSEC_RE, ELLIPTICAL_MAX, ELLIPTICAL_RE, FOLLOWUP_RE, GROUP_RE,
                                 LIST_RE, MANAGED_PROJECT_INTENTS, MANAGED_RE, PEOPLE_RE, PROJECT_ATTRS,
                                 PRONOUN_RE, RATIO_RE, REFERS_RE, TOP_RE, _BARE_THRESHOLD, _WHICH_KEYS,
                                 _default_numeric, _numeric_field)
from core.agents.kg.cues import intent_description  # noqa: F401 - re-exported (confirm node)
from core.agents.kg.question_conditions import implied_conditions, stated_conditions
from core.agents.kg.timeparse import parse_time
from core.agents.kg.unknown_names import titled_person, unknown_person, unknown_place
from core.text.numerals import apply_magnitude, cn_to_int
from core.agents.kg import field_joins, kgrules, phrasing
from core.agents.kg.catalog import unit
from core.agents.kg.twofield import top_group, two_field_slot

# a verb split by 了/过 and a count: "请过假" → 请假, "投了几次标" → 投标几次, "加了多少小时班" → 加班多少小时
_SPLIT_VERB_RE = re.compile(kgrules.rules_file("kg_patterns")["split_verbs"]["pattern"])

_VERB_OK = {(p[0], p[1:]) for p in kgrules.rules_file("kg_patterns")["split_verbs"]["pairs"]}



def normalize_question(q: str) -> str:
    """Rejoin split verbs so the vocabulary matches: 请过假 → 请假, 投了几次标 → 投标几次."""
    def fix(m: re.Match) -> str:
        if (m.group(1), m.group(3)) not in _VERB_OK:
            return m.group(0)
        return m.group(1) + m.group(3) + (m.group(2) or "")
    q = re.sub(r"(\d)\s*[–—－～〜~]\s*(\d)", r"\1-\2", q)  # "1–3月", "1～3月" → "1-3月"
    return phrasing.rewrite(_SPLIT_VERB_RE.sub(fix, q))



def is_chat(question: str) -> bool:
    """Small talk (你好, 谢谢 …): answered without a plan."""
    return bool(CHAT_PATTERNS.match(question.strip()))


def refers_back(q: str) -> bool:
    """Does ``q`` point back at the previous turn: a follow-up opener (那/改成/只看/其中…), a
    reference word (这些/他们/上述…), a leading pronoun (他/这个项目…) or a short elliptical
    question ending in 呢 ("4月呢", "保安呢")."""
    q = (q or "").strip()
    return bool(FOLLOWUP_RE.match(q) or REFERS_RE.search(q) or PRONOUN_RE.search(q)
                or (ELLIPTICAL_RE.search(q) and len(q) <= ELLIPTICAL_MAX))



def extract_slots(question: str, index, today: date, previous: dict | None = None) -> dict:
    """Slots for ``question``; ``previous`` = last turn's slots for follow-ups. The second-pass
    rules (field aliases, a pronoun for the last answer's subject, two named periods, per-all
    averages) run on the result."""
    from core.agents.kg import compound, coverage, field_aliases, population, quantifier, role_holder, two_periods, twofield

    q0 = role_holder.head_area(role_holder.rewrite(normalize_question((question or "").strip()), index), index)  # 青浦片区负责人的电话
    q1, alias = field_aliases.field_alias(q0)
    chained = compound.resolve_pronoun(q1, previous)
    if chained:  # "他在哪个项目" after "3月加班最多的人是谁": a new question about the person it named
        q1, previous = chained, None
    slots = _extract_slots(q1, index, today, previous)
    missing = coverage.check(q0, index, index.find_mentions(q0) if index is not None else [])
    if missing:  # asked for a field or a 片区 the data does not hold: say so, never the whole record
        slots["missing"] = missing
    if alias:
        slots["field_alias"] = alias
        slots["question"] = q0
    if slots.get("followup"):
        cmp = (slots.get("ratio") or {}).get("compare")
        tm = (slots.get("time") or {}).get("months") or []
        if cmp and len(tm) == 1 and tm[0] != cmp["current"] and previous and slots.get("time") != previous.get("time"):
            # "那4月呢" after "3月出勤率比2月高还是低": both compared months move by the same step
            from core.agents.kg.timeparse import TimeRange, add_months, month_span

            step = len(month_span(cmp["current"], tm[0])) - 1 if tm[0] > cmp["current"] else \
                -(len(month_span(tm[0], cmp["current"])) - 1)
            b, c = add_months(cmp["base"], step), tm[0]
            lo, hi = sorted((b, c))
            slots["time"] = TimeRange(lo, hi, slots["time"].get("text") or "", False).to_dict()
            slots["ratio"] = {**slots["ratio"], "compare": {"base": b, "current": c}}
        return slots
    intent, agg = slots.get("intent"), slots.get("agg")
    if not slots.get("growth") and not slots.get("ratio") and intent in ("考勤", "工资", "排班", "收费"):
        two = two_periods.two_periods(q1, today)
        if two:
            from core.agents.kg.timeparse import TimeRange

            both = sorted(two["base_months"] + two["current_months"])
            field = (agg or {}).get("field") if (agg or {}).get("op") in ("sum", "avg") else None
            field = field or _numeric_field(q1) or _default_numeric(intent)
            slots["time"] = TimeRange(both[0], both[-1], "、".join(two["labels"]), False).to_dict()
            if (agg or {}).get("op") == "count" and not (change_select(q1) and _numeric_field(q1)):  # 几个人出勤
                slots["agg"] = {k: v for k, v in agg.items() if k not in ("group_by", "top", "order", "then",
                                                                          "outer", "having")}
            else:
                slots["agg"] = {"op": "sum", "field": field, "explicit": True}
            from core.agents.kg.timeparse import add_months

            b0, c0 = two["base_months"], two["current_months"]
            kind = "对比"
            if len(b0) == len(c0) and not two["base_avg"]:
                kind = "环比" if add_months(b0[0], len(b0)) == c0[0] else \
                    "同比" if add_months(b0[0], 12) == c0[0] else "对比"
            slots["growth"] = {"base": two["base_months"][0], "current": two["current_months"][0], "kind": kind,
                               "base_months": two["base_months"], "current_months": two["current_months"],
                               **({"base_avg": True} if two["base_avg"] else {})}
            sel = change_select(q1)
            if sel:  # "4月开票比3月多的项目有哪些": per project, only those that went up
                slots["growth"].update(by=sel[0], select=sel[1])
            slots["granularity"] = "汇总"
    ratio = slots.get("ratio")
    if ratio and not ratio.get("group_by") and not ratio.get("compare"):
        two = two_periods.two_periods(q1, today)
        if two and len(two["base_months"]) == 1 and len(two["current_months"]) == 1:
            # "4月出勤率比3月低了多少": each month's ratio and the percentage-point gap
            from core.agents.kg.timeparse import TimeRange

            b, c = two["base_months"][0], two["current_months"][0]
            lo, hi = sorted((b, c))
            slots["time"] = TimeRange(lo, hi, "、".join(two["labels"]), False).to_dict()
            slots["ratio"] = {**ratio, "group_by": "年月", "compare": {"base": b, "current": c}}
    if population.per_all(q1, intent or "", slots.get("agg")):
        slots["agg"] = {**slots["agg"], "per_all": True}
    # "开票和收款差了多少", "收款少于开票的项目", "累计开票最高的项目"; "每个月…都…" on every row
    return quantifier.apply(twofield.apply(slots))



def _extract_slots(question: str, index, today: date, previous: dict | None = None) -> dict:
    q = normalize_question(question.strip())
    mentions = index.find_mentions(q) if index is not None else []
    projects, people, areas = _named(q, mentions, index)
    tr = _expiry_year(q, parse_time(q, today), today)
    filters = index.ground_values(q, [m["text"] for m in mentions]) if index is not None else {}
    if projects:
        filters.pop("市区", None)  # "青浦区图书馆": the named project already fixes the district
    # a person-like mention that is really a position value (项目经理) is a filter, not a person
    people = [p for p in people if p not in set(filters.get("岗位名称", []))]
    conditions, filters, tr = stated_conditions(q, filters, tr)
    intents, specific = _asked_intents(q, filters)
    intent, without, children_of = _decide_intent(q, intents, specific, conditions, filters, people, projects,
                                                   areas)
    filters = phrasing.drop_qualifiers(q, intent, filters)
    concepts = ground_concepts(q)

    people, projects, areas, followup = _refer_back(q, previous, people, projects, areas, specific)
    if followup and previous:
        return _merge_followup(q, previous, projects, areas, people, tr, filters, conditions, specific)

    agg = _aggregation(q, intent, conditions)
    granularity = "汇总" if agg else "明细"
    consecutive, tr = _consecutive(q, intent, tr)
    _grouping(q, intent, agg)
    named_people = people
    people, areas = _responsible(q, intent, people, areas, conditions, index)
    implied_conditions(q, intent, agg, conditions, consecutive)
    agg, granularity = _ranking(q, intent, agg, granularity, tr, projects)
    # "王志强负责的项目3月开票多少": the person names the projects (those they manage), not the rows
    managed_by = bool(people) and not projects and intent in MANAGED_PROJECT_INTENTS and bool(MANAGED_RE.search(q))
    people = _anchor_conditions(q, intent, people, conditions, index)
    intent, agg, conditions, filters, ratio = _extended_kinds(q, intent, agg, conditions, filters, today, areas,
                                                              projects)
    intent, agg, conditions, ratio = _having_kinds(q, intent, agg, conditions, ratio)
    agg = _groups_having(q, intent, agg, conditions, ratio)
    intent, agg = _which_group_most(q, intent, agg, ratio, filters.get("岗位名称"))
    agg = _side_by_side(q, intent, agg, ratio, people, projects, _two_valued(intent, filters, named_people, people))
    intent, tr = _year_end_expiry(q, intent, tr, conditions, today)
    growth, tr, agg = _growth(q, intent, agg, tr, today)
    if growth and ratio:  # "3月出勤率比2月高还是低": the ratio of each compared month, side by side
        ratio = {**ratio, "group_by": "年月", "compare": {"base": growth["base"], "current": growth["current"]}}
        agg, growth = None, None
    agg, filters = _group_by_values(q, _top_per_group(q, agg, filters), filters)
    agg = _extreme_group(q, agg)
    if agg and agg.get("field") and " " not in agg["field"]:  # "科创大厦各岗位一共编了几个人": a 编制 column
        intent = phrasing.intent_of_filters(intent, {agg["field"]: []})
    if agg and agg.get("group_by") in filters:  # "中标和未中标的投标各有几次": the values named are the groups
        conditions = [c for c in conditions if c.get("field") != agg["group_by"]]
    filters = _joined_conditions(q, intent, filters, conditions, index)
    return {
        "question": q, "base_question": q, "followup": False,
        "kind": "graph",
        "intent": intent, "intents": intents,
        "projects": projects, "people": people, "areas": areas,
        "time": tr.to_dict() if tr else None,
        "filters": filters,
        "conditions": conditions,
        "granularity": _granularity(granularity, agg, ratio, growth),
        "agg": agg,
        "consecutive": consecutive,
        "concepts": concepts,
        "children_of": children_of,
        "with_parent": children_of and bool(kgrules.cue("children_with_parent").search(q)),
        "managed_by": managed_by,
        "without": without,
        "unsupported": _unsupported(q, ratio, growth),
        "ratio": ratio,
        "growth": growth,
    }


def _named(q: str, mentions: list[dict], index) -> tuple[list[str], list[str], list[str]]:
    """(projects, people, areas) the question names; a leading unknown name is a person too
    (grounding reports it as 数据中未找到人员“…”)."""
    projects = [m["text"] for m in mentions if m["kind"] == "project"]
    people = [m["text"] for m in mentions if m["kind"] == "person"]
    unknown = unknown_person(q, mentions, index) or (titled_person(q, index) if not people else None)
    if unknown:
        people.append(unknown)
    place = unknown_place(q, mentions, index)
    if place and not projects:
        projects.append(place)  # grounding reports 数据中未找到项目“…”
    return projects, people, [m["text"] for m in mentions if m["kind"] == "area"]


def _asked_intents(q: str, filters: dict) -> tuple[list[str], list[str]]:
    """(intents, the specific ones among them): the data kinds the question's words ask; a
    position value names no data kind (采购专员 is a 岗位名称, not 采购 records)."""
    neutral = {i for i, _ in detect_intents(phrasing.intent_text(q, filters))}
    intents = [i for i, _ in detect_intents(q) if i in GENERIC_INTENTS or i in neutral]
    return intents, [i for i in intents if i not in GENERIC_INTENTS]


def _responsible(q: str, intent: str, people: list[str], areas: list[str], conditions: list[dict],
                 index) -> tuple[list[str], list[str]]:
    """(people, areas): "华国栋负责多少台设备" is the records whose person field is the named person
    (a condition appended to ``conditions``), which consumes the person (or the 片区 naming its head)."""
    owned, via_area = phrasing.responsible_condition(q, intent, people, index, areas)
    if owned:
        conditions.append(owned)
        people, areas = ([], areas) if not via_area else (people, [])
    return people, areas


def _joined_conditions(q: str, intent: str, filters: dict, conditions: list[dict], index) -> dict:
    """The filters left once a value of another kind of record becomes a condition through a join
    (appended to ``conditions``): "服务中项目的电梯" (a project column through the records' 项目编号),
    "采购专员经办的维保合同" (a post through the records' 经办人工号)."""
    filters, joined = phrasing.project_join(intent, _repair_state(q, intent, filters, conditions), index)
    conditions += joined
    filters, joined = field_joins.person_value_join(intent, filters, index)
    conditions += joined
    return filters


def _granularity(granularity: str, agg: dict | None, ratio: dict | None, growth: dict | None) -> str:
    """汇总 for a growth, a having, a ratio; 明细 for an earliest / latest record."""
    if growth or (agg and agg.get("having")):
        granularity = "汇总"
    if ratio:
        granularity = "汇总"
    elif agg and agg.get("op") in ("earliest", "latest"):
        granularity = "明细"
    return granularity


def _ranking(q: str, intent: str, agg: dict | None, granularity: str, tr, projects: list[str]
             ) -> tuple[dict | None, str]:
    """Rankings and side-by-side figures: "哪个月开票最多", "加班前3名", "2月和3月哪个月开票多",
    "两个项目开票对比"."""
    top = TOP_RE.search(q)
    field = _numeric_field(q) or _default_numeric(intent)
    which = re.search(r"(哪个|哪一个|哪|什么)(月|项目|人|位|员工)|谁", q) or \
        re.search(r"(最(?:多|高|大|少|低|小|长|短)的(?:是)?)(月份?|项目|人|员工)", q)  # "上半年开票最多的项目"
    if not top and which and agg and agg.get("op") in ("max", "min") and intent in ("考勤", "工资", "排班", "收费"):
        # "哪个月开票最多", "一季度哪个项目开票最多", "谁的加班时间最长": totals per month / project / person
        key = "年月" if "月" in (which.group(2) or "") else "项目编号" if (which.group(2) or "") == "项目" else "工号"
        agg = {"op": "sum", "field": agg.get("field") or field, "group_by": key, "top": 1, "explicit": True,
               **({"order": "asc"} if agg["op"] == "min" else {})}
    if not top and which and "月" in (which.group(2) or "") and agg and agg.get("op") in ("sum", "avg") \
            and not agg.get("group_by") and tr is not None and len(tr.months) > 1 \
            and intent in ("考勤", "工资", "排班", "收费"):
        agg = {**agg, "group_by": "年月"}  # "2月和3月哪个月开票多": each month's figure, side by side
    if top and field and intent in ("考勤", "工资", "排班", "收费", "检查", "编制", "采购", "设备", "项目", "投标"):
        tok = top.group(1) or top.group(2) or top.group(3)
        n = cn_to_int(tok, 3) if tok else 3
        key = "项目编号" if intent in ("收费", "项目", "投标", "编制", "检查", "采购", "设备") and "人" not in q and \
            "员工" not in q else "工号"
        agg = {"op": "sum", "field": field, "group_by": key, "top": n, "explicit": True}
        if re.search(r"最(?:少|低|小)|倒数|末尾", q):
            agg["order"] = "asc"
        granularity = "汇总"
    elif agg and not agg.get("group_by") and agg.get("op") in ("sum", "avg", "max", "min") and COMPARE_RE.search(q):
        if len(projects) > 1:
            agg["group_by"] = "项目编号"
        elif tr is not None and len(tr.months) > 1:
            agg["group_by"] = "年月"
    return agg, granularity


def _decide_intent(q: str, intents: list[str], specific: list[str], conditions: list[dict], filters: dict,
                   people: list[str], projects: list[str], areas: list[str]) -> tuple[str, str | None, bool]:
    """(intent, without, children_of): the data kind asked, from the intent keywords, the named
    entities and the grounded values ("科创大厦的甲方是谁" → 项目, "哪些项目没有维保合同" → 项目无)."""
    if any(c["derived"] in ("年龄", "司龄") for c in conditions) and not specific:
        intent = "人员"
    elif specific:
        intent = specific[0]
    elif intents:
        intent = intents[0]
    else:
        intent = ""
    if not intent and people:
        intent = "人员"  # "刘德明的手机号是多少", "陈慧敏多大年纪"
    if projects and not people and "负责人" in q and intent in ("项目", "人员", ""):
        intent = "项目"  # the project's 项目负责人 column
    elif intent in ("项目", "") and projects and PEOPLE_RE.search(q):
        intent = "人员"  # "青浦-北斗园区有哪些人" asks about the people of a project
    # a grounded value names its own data: 消防安全检查 → 检查, 保安员（三级） → 证书, 耗材采购 → 采购
    for fkey, fint in (("检查类型", "检查"), ("证书名称", "证书"), ("专业类别", "证书"), ("中标结果", "投标"),
                       ("记录类型", "采购"), ("供应商名称", "采购"), ("名称", "采购")):
        if filters.get(fkey) and intent in ("人员", "项目", "设备", "", "考勤") and fint != intent:
            if fkey == "中标结果" and intent not in ("项目", ""):
                continue
            intent = fint
    intent = phrasing.owner_of_which(q, phrasing.intent_of_filters(intent, filters), people)
    if projects and not people and intent in ("人员", "项目", "") and any(w in q for w in PROJECT_ATTRS) \
            and not re.search(r"员工|人员|名单|哪些人|多少人", q):
        intent = "项目"  # "科创大厦的甲方是谁", "人民医院的客户满意度"
    if areas and not projects and re.search(r"负责|谁管|主管|管理者|经理", q) and intent in ("人员", "项目", "") \
            and not phrasing.area_head_owns(q, intent):
        intent = "片区"
    without = None
    m_without = any(rx.search(q) for rx in kgrules.patterns("projects_without"))
    if m_without and intent in ("设备", "采购", "检查", "投标", "编制", "考勤", "排班", "收费", "证书", "服务期"):
        without, intent = intent, "项目无"  # "哪些项目没有维保合同": projects minus those with records
    elif intent == "证书" and any(rx.search(q) for rx in kgrules.patterns("people_without")):
        without, intent = intent, "人员无"  # "没有保安员证的保安": people minus the certificate's holders
    children_of = False
    if intent == "从属" and areas and not projects:
        intent = "项目"  # "青浦片区包含哪些项目": the area's projects, not a parent project's children
    if intent == "从属" and re.search(r"上级|父项目|母项目|属于哪个项目|隶属", q) and not kgrules.cue("parent_is").search(q):
        intent = "从属上级"
    elif intent == "从属" and projects and [i for i in specific if i != "从属"]:
        # "文体中心的子项目3月一共开票多少": the data intent over the parent's children
        intent, children_of = [i for i in specific if i != "从属"][0], True
    return intent, without, children_of


def _merge_followup(q: str, previous: dict, projects: list[str], areas: list[str], people: list[str], tr,
                    filters: dict, conditions: list[dict], specific: list[str]) -> dict:
    """The previous turn's slots with what the follow-up changes ("改成4月", "那收款呢？",
    "超过30小时的呢")."""
    merged = dict(previous)
    merged["question"] = q
    merged["followup"] = True
    merged["base_question"] = previous.get("base_question") or previous.get("question", "")
    if projects or areas:
        merged["projects"], merged["areas"] = projects, areas
    if people:
        merged["people"] = people
    if tr:
        merged["time"] = tr.to_dict()
    if filters:
        merged["filters"] = {**(previous.get("filters") or {}), **filters}
    if not conditions and previous.get("conditions"):
        conditions = _rethreshold(q, previous["conditions"])  # "超过30小时的呢" after "加班超过20小时"
    if conditions:
        merged["conditions"] = conditions
    if specific:
        merged["intent"] = specific[0]
    new_field = _numeric_field(q)
    agg = _aggregation(q, merged["intent"], conditions)
    prev_agg = merged.get("agg") or {}
    if agg is not None and agg.get("explicit") and (prev_agg.get("then") or prev_agg.get("outer")
                                                    or prev_agg.get("having")) \
            and agg.get("op") == prev_agg.get("op") and not agg.get("group_by") and agg.get("field") \
            and prev_agg.get("field") not in (None, "工号", "项目编号", "设备编号"):
        # "那收款呢？" after "各片区平均每个项目开票多少": the same computation over the new field
        merged["agg"], merged["granularity"] = {**prev_agg, "field": agg["field"]}, "汇总"
    elif agg is not None and agg.get("explicit"):
        merged["agg"], merged["granularity"] = agg, "汇总"
    elif new_field and merged.get("agg") and merged["agg"].get("field") not in (None, "工号", "项目编号", "设备编号"):
        merged["agg"] = {**merged["agg"], "field": new_field}  # "那收款呢？" after a 开票 total
    elif LIST_RE.search(q) and not (merged.get("agg") or {}).get("having"):
        merged["agg"], merged["granularity"] = None, "明细"
    _followup_kinds(q, merged, previous, tr, bool(conditions and not previous.get("conditions")))
    return merged


def _expiry_year(q: str, tr, today: date):
    """"12月到期的项目" asked in November means the coming December, not last year's."""
    if tr is not None and tr.relative and re.search(r"到期|届满|合同结束|快结束", q) \
            and tr.end < f"{today.year:04d}-{today.month:02d}" and re.fullmatch(r"[\d一二三四五六七八九十两]+\s*月份?", tr.text):
        from core.agents.kg.timeparse import TimeRange, add_months

        tr = TimeRange(add_months(tr.start, 12), add_months(tr.end, 12), tr.text, True)
    return tr


def _extreme_group(q: str, agg: dict | None) -> dict | None:
    """"按设备类型汇总，哪一类设备的原值合计最高": a per-group figure whose question asks the top (or
    bottom) group, not the table of all groups."""
    ranked = top_group(q, agg) if agg and agg.get("field") and not agg.get("group_by") and not agg.get("having") else {}
    if ranked and not _own_field(ranked["group_by"], agg["field"]) and re.search(r"最(?:多|少)", q) \
            and unit(agg["field"]) in ("元", "小时", "天", "次"):
        # "哪个岗位这四个月加班超时费拿得最多": the group's total, not the largest single record
        return {"op": "sum", "field": agg["field"], "explicit": True, **ranked}
    m = kgrules.cue("which_group_extreme").search(q)
    if not m or not agg or not agg.get("group_by") or agg.get("top") or agg.get("having") or agg.get("then") \
            or agg.get("op") not in ("sum", "avg", "count"):
        return agg
    word = (m.group(1) or m.group(2)).removeprefix("个")
    if _WHICH_KEYS.get(word, agg["group_by"]) != agg["group_by"]:
        return agg  # "耗材加固定资产，哪个项目买得最多": grouped by 记录类型, the project was asked
    return {**agg, "top": 1, **({"order": "asc"} if re.search(r"最(?:少|低|小)", q) else {})}


def _own_field(key: str, field: str) -> bool:
    """Is ``field`` a column of the record ``key`` identifies (合同金额 of a 项目编号: one value per group)?
    (The group total replaces a maximum only for such additive amounts as 元 / 小时 / 天 / 次 said with
    最多 / 最少: the lowest 检查得分 of a project is one inspection's, never a sum of scores.)"""
    from core.graph.schema import NODE_BY_LABEL

    return any(n.pk == key and field in n.property_names for n in NODE_BY_LABEL.values())


def _two_valued(intent: str, filters: dict, named_people: list[str], people: list[str]) -> str | None:
    """The field whose two named values are compared ("青浦区和徐汇区…哪个区更高" → 市区; "周建国和王志强，
    谁负责的项目…更多" → 项目负责人, the people having become the projects' 项目负责人)."""
    if intent == "项目" and len(named_people) == 2 and not people:
        return "项目负责人"  # other records' people fields (设备责任人, 检查人) are ids, not a column to group by
    return next((f for f, vals in filters.items() if len(vals) == 2), None)


def _side_by_side(q: str, intent: str, agg: dict | None, ratio: dict | None, people: list[str],
                  projects: list[str], two_valued: str | None = None) -> dict | None:
    """"郑晓东和朱俊杰谁加班多", "A和B的收款差了多少", "A比B多多少": each named one's total, side by side
    (of two people, two projects, or the two values of one field)."""
    if (agg is None or (agg.get("op") in ("sum", "avg") and not agg.get("group_by"))) and ratio is None \
            and (len(people) > 1 or len(projects) > 1 or two_valued) and kgrules.cue("side_by_side").search(q) \
            and not two_field_slot(q):  # "开票和收款差了多少": two fields of each record, not two records
        field = _numeric_field(q) or _default_numeric(intent)
        if field:  # "郑晓东和朱俊杰谁加班多": each one's total, side by side
            agg = {"op": (agg or {}).get("op") or "sum", "field": (agg or {}).get("field") or field, "explicit": True,
                   "group_by": "工号" if len(people) > 1 else "项目编号" if len(projects) > 1 else two_valued}
    return agg


def _year_end_expiry(q: str, intent: str, tr, conditions: list[dict], today: date):
    """(intent, time): "年底前到期的项目" is a window up to 31 December, not a month filter."""
    if re.search(r"(?:年底前|年底之前|年内|今年内|今年底前|本年度内)\s*(?:到期|结束|届满)", q) and \
            not any(c["field"] in ("结束日期", "剩余服务期") for c in conditions):
        if intent in ("", "人员", "项目"):
            intent = "项目"
        tr = None  # "年内" is the window below, not a month filter
        conditions.append({"field": "结束日期", "op": "<=", "value": 0, "text": f"{today.year}年底前到期",
                           "derived": None, "expr": f"结束日期 >= '{today.isoformat()}' and "
                                                    f"结束日期 <= '{today.year}-12-31'"})
    return intent, tr


def _repair_state(q: str, intent: str, filters: dict, conditions: list[dict]) -> dict:
    """Equipment state words (需要维修 → 待修, 坏了 → 待修 / 报废) as a 完好状况 filter."""
    if intent == "设备" and "完好状况" not in filters and not any(c["field"] == "完好状况" for c in conditions):
        if re.search(r"需要维修|需维修|要维修|待维修|要修|需要修|在修", q):
            filters = {**filters, "完好状况": ["待修"]}
        elif re.search(r"坏了|坏的|损坏|故障|不能用|不好用", q):
            filters = {**filters, "完好状况": ["待修", "报废"]}
    return filters


def _unsupported(q: str, ratio: dict | None, growth: dict | None) -> list[str]:
    """Ratio words the answer cannot compute (said, with the underlying figures)."""
    unsupported = sorted(set(RATIO_RE.findall(q)) - ({ratio["name"]} if ratio else set()))
    if ratio:
        unsupported = [u for u in unsupported if u not in ("占比", "百分比")]
    if growth:
        unsupported = [u for u in unsupported if u not in ("同比", "增长率", "环比")]
    return unsupported


def _refer_back(q: str, previous: dict | None, people: list[str], projects: list[str], areas: list[str],
                specific: list[str]) -> tuple[list[str], list[str], list[str], bool]:
    """(people, projects, areas, followup): a leading pronoun ("他有哪些证书") inherits the previous
    turn's anchors; only a question that refers back is a follow-up."""
    pronoun = bool(previous) and bool(PRONOUN_RE.search(q)) and not people and not projects
    # a follow-up must refer to the previous turn (那…/其中/这些/他/…呢); a complete new question
    # ("合同金额最高的项目是哪个") is understood afresh however short it is
    followup = bool(previous) and refers_back(q)
    if pronoun and previous:
        # "他有哪些证书" after a question about 刘德明: a new question about the same person / project
        if re.search(r"他|她|此人|这个人|这位|该员工|该人", q) and previous.get("people"):
            people = list(previous["people"])
        elif previous.get("projects") or previous.get("areas"):
            projects, areas = list(previous.get("projects") or []), list(previous.get("areas") or [])
        if specific and specific[0] != previous.get("intent"):
            followup = False  # a different kind of data: plan afresh with the inherited anchors
    return people, projects, areas, followup


def _consecutive(q: str, intent: str, tr):
    """(run length or None, time): "连续三个月都加班" — -1 means every month of the period."""
    consecutive = None
    m = CONSEC_RE.search(q)
    if m and intent in ("考勤", "工资", "排班"):
        tok = m.group(1)
        consecutive = cn_to_int(tok, 0) if tok else -1  # -1 = every month
        if tr is not None and tok and tr.text and tr.text in m.group(0):
            tr = None  # "连续三个月" is a run length, not a time range
    return consecutive, tr


def _grouping(q: str, intent: str, agg: dict | None) -> None:
    """The grouping an aggregate is computed by (各片区 / 按月 / 按汇总业态), set on ``agg``."""
    if agg:
        for rx, key in GROUP_RE:
            if rx.search(q):
                agg["group_by"] = key
                break
        by_field = None if agg.get("group_by") else phrasing.group_field(q, intent)
        if by_field and by_field != agg.get("field"):
            agg["group_by"] = by_field  # "按汇总业态统计各有多少个项目"


def _anchor_conditions(q: str, intent: str, people: list[str], conditions: list[dict], index) -> list[str]:
    """Conditions a named anchor implies (appended): a person who 负责 projects is their 项目负责人;
    "目前仍在服务" keeps open service periods. Returns the people still to ground."""
    if intent == "项目" and people and any(c["field"] == "项目负责人工号" for c in conditions):
        people = []  # the person is the projects' 项目负责人 (phrasing.responsible_condition)
    if intent == "服务期" and re.search(r"现在|目前|当前|仍在|正在", q):
        cov_end = index.coverage[1] if index is not None and index.coverage else "9999-99"
        conditions.append({"field": "结束", "op": "==", "value": 0, "text": "目前仍在服务", "derived": None,
                           "expr": f"结束 == None or 结束 >= '{cov_end}'"})
    return people


def _rethreshold(q: str, previous: list[dict]) -> list[dict]:
    """A follow-up that only changes a threshold keeps the earlier condition's field."""
    plain = [c for c in previous if not c.get("derived") and c.get("op") in (">", ">=", "<", "<=")]
    m = _BARE_THRESHOLD.search(q)
    if not m or len(plain) != 1:
        return []
    c = plain[0]
    if m.group(1):
        word, val = m.group(1), apply_magnitude(m.group(2), m.group(3))
        op = ">" if word in ("超过", "大于", "多于", "高于") else ">=" if word in ("不少于", "不低于", "至少") \
            else "<=" if word == "不超过" else "<"
    else:
        val, op = apply_magnitude(m.group(4), m.group(5)), ">=" if m.group(6) == "以上" else "<="
    v = int(val) if val.is_integer() else val
    out = [x for x in previous if x is not c]
    out.append({**c, "op": op, "value": val, "text": m.group(0), "expr": f"{c['field']} {op} {v}"})
    return out



