"""Rules path of ``understand``: classify chat vs graph and fill the slots
(projects, people, time range, intent, granularity, filters, numeric conditions), merging a
follow-up ("改成4月", "换成青浦-体育馆") into the previous turn's slots."""

from __future__ import annotations

import re
from datetime import date

from core.agents.kg.concepts import (CHAT_PATTERNS, CONCEPTS, GENERIC_INTENTS, INTENTS, NUMERIC_FIELDS,
                                     detect_intents, ground_concepts, parse_conditions)
from core.agents.kg import phrasing
from core.agents.kg.timeparse import parse_time
from core.text.numerals import apply_magnitude, cn_to_int

PRONOUN_RE = re.compile(r"^(?:那)?(?:他|她|此人|这个人|这位|该员工|该人|这个项目|该项目|那个项目|这个片区|该片区)")
FOLLOWUP_RE = re.compile(r"^\s*(?:那|那么|改成|换成|改为|换为|改查|再看|如果是|还有|只看|其中|把)")
# words that point back at the previous result ("这些人里…", "他们当中…", "上述项目…")
REFERS_RE = re.compile(r"其中|这些|那些|他们|她们|它们|上述|刚才|上面|这几|那几")
# a short elliptical question that only makes sense after another ("4月呢", "超过30小时的呢")
ELLIPTICAL_RE = re.compile(r"呢\s*[？?]?\s*$")
ELLIPTICAL_MAX = 14
COUNT_PERSON_RE = re.compile(r"多少人|几位|几个人|几人|人数|总人数|几名|多少名|多少位|多少员工|多少个员工")
COUNT_PROJECT_RE = re.compile(r"多少个项目|几个项目|项目数|多少项目")
COUNT_ANY_RE = re.compile(r"多少条|几条|多少台|几台|多少次|几次|多少张|几张|多少个|几个|数量|总数|"
                          r"多少(?:设备|证书|记录|份|家|笔)")
LIST_RE = re.compile(r"哪些|哪几|名单|列出|明细|分别|是谁|有谁|清单|列表|都有")
SUM_RE = re.compile(r"总共|一共|合计|总计|总额|总和|累计|总数|总人数|总(?:时长|工时|时间|金额|天数|小时)|"
                    r"总(?=[\u4e00-\u9fa5]{0,4}(?:小时|金额|天数|工资|费))")
PEOPLE_RE = re.compile(r"哪些人|哪几个人|谁|人员|员工|多少人|几个人|几位|人数|名单|的人")
AVG_RE = re.compile(r"平均|人均")
MAX_RE = re.compile(r"最高|最多|最大|最长")
MIN_RE = re.compile(r"最低|最少|最小|最短")
# ratios the templates hold no column for: answered with the underlying figures, flagged as not computed
RATIO_RE = re.compile(r"出勤率|回款率|收款率|增长率|占比|百分比|同比|满编率|完好率|中标率|离职率|流失率")
TOP_RE = re.compile(r"(?:排名|排行)?前\s*(\d{1,2}|[一二两三四五六七八九十])\s*(?:名|位|个|大)?|[Tt][Oo][Pp]\s*(\d{1,2})|排名|排行"
                    r"|最(?:多|高|大|少|低|小)的?\s*(\d{1,2}|[两三四五六七八九十])\s*(?:个|名|位|家|人)")
COMPARE_RE = re.compile(r"分别|对比|比较|各自|相比|增长|减少|下降|上升|变化|环比|哪个多|哪个高|哪个少|哪个低|差多少|谁的|谁多|谁高|谁少|更多|更高|更少|更低|哪家")
PROJECT_ATTRS: dict[str, str] = {"甲方": "甲方名称", "委托方": "甲方名称", "客户是": "甲方名称", "满意度": "客户满意度",
                                 "投诉": "客户投诉", "合同金额": "合同金额", "合同额": "合同金额", "年化": "年化合同额",
                                 "面积": "合同面积", "毛利": "实际毛利率", "业态": "细分业态", "在哪个区": "市区",
                                 "哪个区": "市区", "开始日期": "开始日期", "什么时候开始": "开始日期", "结束日期": "结束日期",
                                 "什么时候到期": "结束日期", "到期时间": "结束日期", "什么时候结束": "结束日期", "何时结束": "结束日期",
                                 "何时到期": "结束日期", "计费": "计费方式", "委托方式": "委托方式",
                                 "上级项目": "上级项目编号", "负责人": "项目负责人", "状态": "服务状态"}
CONSEC_RE = re.compile(r"连续\s*(\d{1,2}|[一二两三四五六七八九十]{1,2})\s*个?月|每个月都|各月都|每月都|每个月均")
GROUP_RE = [(re.compile(r"各片区|每个片区|按片区|分片区|各个片区|每一个片区"), "片区编号"),
            (re.compile(r"各项目|每个项目|按项目|分项目|各个项目|各自项目"), "项目编号"),
            (re.compile(r"各月|每月(?!都)|每个月(?!都|均)|按月|分月|逐月|月度趋势"), "年月"),
            (re.compile(r"各岗位|按岗位|每个岗位|分岗位"), "岗位名称")]


# a verb split by 了/过 and a count: "请过假" → 请假, "投了几次标" → 投标几次, "加了多少小时班" → 加班多少小时
_SPLIT_VERB_RE = re.compile(r"(请|加|旷|投|值|调|休|倒|排|中)(?:了|过)((?:几|多少|[\d一二两三四五六七八九十]+)\s*(?:个)?\s*"
                            r"(?:次|天|个|小时|回)?)?(假|班|工|标|休)")
_VERB_OK = {("请", "假"), ("加", "班"), ("旷", "工"), ("投", "标"), ("值", "班"), ("调", "休"), ("休", "假"), ("倒", "班"),
            ("排", "班"), ("中", "标")}


def normalize_question(q: str) -> str:
    """Rejoin split verbs so the vocabulary matches: 请过假 → 请假, 投了几次标 → 投标几次."""
    def fix(m: re.Match) -> str:
        if (m.group(1), m.group(3)) not in _VERB_OK:
            return m.group(0)
        return m.group(1) + m.group(3) + (m.group(2) or "")
    q = re.sub(r"(\d)\s*[–—－～〜~]\s*(\d)", r"\1-\2", q)  # "1–3月", "1～3月" → "1-3月"
    return phrasing.rewrite(_SPLIT_VERB_RE.sub(fix, q))


_NEG_BEFORE = re.compile(r"(?:不是|不为|并非|非|除了?|不属于|不)\s*$")
_NEG_AFTER = re.compile(r"^\s*(?:以外|之外)")
# value columns where "不是X" / "非X" / "X以外" means every other value
_NEGATABLE = ("完好状况", "服务状态", "中标结果", "设备类型", "岗位名称", "检查类型", "记录类型", "投标类型", "细分业态",
              "汇总业态", "市区", "委托方式", "性别", "员工层级")


def _negated_values(q: str, filters: dict) -> tuple[dict, list[dict]]:
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


def is_chat(question: str, has_entities: bool) -> bool:
    q = question.strip()
    if CHAT_PATTERNS.match(q):
        return True
    return False


def _numeric_field(question: str) -> str | None:
    question = re.sub(r"(中|投|落|续|新)标的", r"\1标□", question)  # "中标的记录": not 标的 (投标金额)
    for word, prop, _ in NUMERIC_FIELDS:
        if word in question:
            return prop
    return None


def refers_back(q: str) -> bool:
    """Does ``q`` point back at the previous turn: a follow-up opener (那/改成/只看/其中…), a
    reference word (这些/他们/上述…), a leading pronoun (他/这个项目…) or a short elliptical
    question ending in 呢 ("4月呢", "保安呢")."""
    q = (q or "").strip()
    return bool(FOLLOWUP_RE.match(q) or REFERS_RE.search(q) or PRONOUN_RE.search(q)
                or (ELLIPTICAL_RE.search(q) and len(q) <= ELLIPTICAL_MAX))


def extract_slots(question: str, index, today: date, previous: dict | None = None) -> dict:
    """Slots for ``question``; ``previous`` = last turn's slots for follow-ups. The second-pass
    rules of refine.py (field aliases, two named periods, per-all averages) run on the result."""
    from core.agents.kg import coverage, refine

    q0 = normalize_question((question or "").strip())
    q1, alias = refine.field_alias(q0)
    chained = refine.resolve_pronoun(q1, previous)
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
        two = refine.two_periods(q1, today)
        if two:
            from core.agents.kg.timeparse import TimeRange

            both = sorted(two["base_months"] + two["current_months"])
            field = (agg or {}).get("field") if (agg or {}).get("op") in ("sum", "avg") else None
            field = field or _numeric_field(q1) or _default_numeric(intent)
            slots["time"] = TimeRange(both[0], both[-1], "、".join(two["labels"]), False).to_dict()
            if (agg or {}).get("op") == "count":  # "3月比2月多几个人出勤": each month's head count
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
            slots["granularity"] = "汇总"
    ratio = slots.get("ratio")
    if ratio and not ratio.get("group_by") and not ratio.get("compare"):
        two = refine.two_periods(q1, today)
        if two and len(two["base_months"]) == 1 and len(two["current_months"]) == 1:
            # "4月出勤率比3月低了多少": each month's ratio and the percentage-point gap
            from core.agents.kg.timeparse import TimeRange

            b, c = two["base_months"][0], two["current_months"][0]
            lo, hi = sorted((b, c))
            slots["time"] = TimeRange(lo, hi, "、".join(two["labels"]), False).to_dict()
            slots["ratio"] = {**ratio, "group_by": "年月", "compare": {"base": b, "current": c}}
    if refine.per_all(q1, intent or "", slots.get("agg")):
        slots["agg"] = {**slots["agg"], "per_all": True}
    return slots


def _extract_slots(question: str, index, today: date, previous: dict | None = None) -> dict:
    q = normalize_question(question.strip())
    mentions = index.find_mentions(q) if index is not None else []
    projects = [m["text"] for m in mentions if m["kind"] == "project"]
    people = [m["text"] for m in mentions if m["kind"] == "person"]
    unknown = unknown_person(q, mentions, index)
    if unknown:
        people.append(unknown)  # grounding reports it as 数据中未找到人员“…”
    areas = [m["text"] for m in mentions if m["kind"] == "area"]
    tr = parse_time(q, today)
    if tr is not None and tr.relative and re.search(r"到期|届满|合同结束|快结束", q) \
            and tr.end < f"{today.year:04d}-{today.month:02d}" and re.fullmatch(r"[\d一二三四五六七八九十两]+\s*月份?", tr.text):
        # "12月到期的项目" asked in November means the coming December, not last year's
        from core.agents.kg.timeparse import TimeRange, add_months

        tr = TimeRange(add_months(tr.start, 12), add_months(tr.end, 12), tr.text, True)
    filters = index.ground_values(q, [m["text"] for m in mentions]) if index is not None else {}
    # a person-like mention that is really a position value (项目经理) is a filter, not a person
    if projects:
        filters.pop("市区", None)  # "青浦区图书馆": the named project already fixes the district
    pos_vals = set(filters.get("岗位名称", []))
    people = [p for p in people if p not in pos_vals]
    conditions = [c.to_dict() for c in parse_conditions(q)]
    filters, negated = _negated_values(q, filters)
    conditions += negated
    # a position value names no data kind: 采购专员 is a 岗位名称, not 采购 records
    neutral = {i for i, _ in detect_intents(phrasing.intent_text(q, filters))}
    intents = [i for i, _ in detect_intents(q) if i in GENERIC_INTENTS or i in neutral]
    specific = [i for i in intents if i not in GENERIC_INTENTS]
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
    if projects and not people and intent in ("人员", "项目", "") and any(w in q for w in PROJECT_ATTRS) \
            and not re.search(r"员工|人员|名单|哪些人|多少人", q):
        intent = "项目"  # "科创大厦的甲方是谁", "人民医院的客户满意度"
    if areas and not projects and re.search(r"负责|谁管|主管|管理者|经理", q) and intent in ("人员", "项目", ""):
        intent = "片区"
    without = None
    m_without = re.search(r"(?:哪些|哪个|什么)[^，。？?]{0,6}项目(?:还|目前|至今)?(?:没有|没|无|未)", q)
    if m_without and intent in ("设备", "采购", "检查", "投标", "编制", "考勤", "排班", "收费", "证书", "服务期"):
        without, intent = intent, "项目无"  # "哪些项目没有维保合同": projects minus those with records
    children_of = False
    if intent == "从属" and areas and not projects:
        intent = "项目"  # "青浦片区包含哪些项目": the area's projects, not a parent project's children
    if intent == "从属" and re.search(r"上级|父项目|母项目|属于哪个项目|隶属", q):
        intent = "从属上级"
    elif intent == "从属" and projects and [i for i in specific if i != "从属"]:
        # "文体中心的子项目3月一共开票多少": the data intent over the parent's children
        intent, children_of = [i for i in specific if i != "从属"][0], True
    concepts = ground_concepts(q)

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
    if followup and previous:
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

    agg = _aggregation(q, intent, conditions)
    granularity = "汇总" if agg else "明细"
    consecutive = None
    m = CONSEC_RE.search(q)
    if m and intent in ("考勤", "工资", "排班"):
        tok = m.group(1)
        consecutive = cn_to_int(tok, 0) if tok else -1  # -1 = every month
        if tr is not None and tok and tr.text and tr.text in m.group(0):
            tr = None  # "连续三个月" is a run length, not a time range
    if agg:
        for rx, key in GROUP_RE:
            if rx.search(q):
                agg["group_by"] = key
                break
        by_field = None if agg.get("group_by") else phrasing.group_field(q, intent)
        if by_field and by_field != agg.get("field"):
            agg["group_by"] = by_field  # "按汇总业态统计各有多少个项目"
    owned = phrasing.responsible_condition(q, intent, people, index)
    if owned:  # "华国栋负责多少台设备": the records whose person field is the named person
        conditions.append(owned)
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
    if intent == "编制" and re.search(r"缺编|缺员|缺人|空缺|不足|没配满|未配满|缺口", q):
        conditions.append({"field": "在岗人数", "op": "<", "value": 0, "text": "缺编（在岗人数少于项目编制）",
                           "derived": None, "expr": "在岗人数 < 项目编制"})
    elif intent == "编制" and re.search(r"超编|超员", q):
        conditions.append({"field": "在岗人数", "op": ">", "value": 0, "text": "超编（在岗人数多于项目编制）",
                           "derived": None, "expr": "在岗人数 > 项目编制"})
    if intent == "检查" and re.search(r"(?:没|未|尚未|还没|没有)(?:完成)?整改|整改未完成|未完成整改|没整改完|待整改", q):
        conditions.append({"field": "整改情况", "op": "!=", "value": 0, "text": "有问题且未整改",
                           "derived": None, "expr": "问题描述 != None and 整改情况 != '已整改'"})
    employment = phrasing.employment(q) if intent == "人员" else None
    if employment == "left":
        conditions.append({"field": "离职日期", "op": "!=", "value": 0, "text": "已离职", "derived": None,
                           "expr": "离职日期 != None"})
    elif employment == "employed" and not re.search(r"在职年限", q):
        conditions.append({"field": "离职日期", "op": "==", "value": 0, "text": "在职", "derived": None,
                           "expr": "离职日期 == None"})
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
    # "王志强负责的项目3月开票多少": the person names the projects (those they manage), not the rows
    managed_by = bool(people) and not projects and intent in MANAGED_PROJECT_INTENTS and bool(MANAGED_RE.search(q))
    if intent == "项目" and people and re.search(r"负责", q):
        conditions.append({"field": "项目负责人工号", "op": "in", "value": 0, "text": "项目负责人：" + "、".join(people),
                           "derived": None,
                           "expr": "项目负责人工号 in " + repr(_person_keys(index, people))})
        people = []
    if intent == "服务期" and re.search(r"现在|目前|当前|仍在|正在", q):
        cov_end = index.coverage[1] if index is not None and index.coverage else "9999-99"
        conditions.append({"field": "结束", "op": "==", "value": 0, "text": "目前仍在服务", "derived": None,
                           "expr": f"结束 == None or 结束 >= '{cov_end}'"})
    intent, agg, conditions, filters, ratio = _extended_kinds(q, intent, agg, conditions, filters, today, areas,
                                                              projects)
    intent, agg, conditions, ratio = _having_kinds(q, intent, agg, conditions, ratio)
    intent, agg = _which_group_most(q, intent, agg, ratio)
    if (agg is None or (agg.get("op") in ("sum", "avg") and not agg.get("group_by"))) and ratio is None \
            and (len(people) > 1 or len(projects) > 1) and \
            re.search(r"(?:谁|哪个|哪家|哪一个|哪位)[^，。？?]{0,8}?(?:多|高|少|低|长|短|大|小)", q):
        field = _numeric_field(q) or _default_numeric(intent)
        if field:  # "郑晓东和朱俊杰谁加班多": each one's total, side by side
            agg = {"op": (agg or {}).get("op") or "sum", "field": (agg or {}).get("field") or field, "explicit": True,
                   "group_by": "工号" if len(people) > 1 else "项目编号"}
    if re.search(r"(?:年底前|年底之前|年内|今年内|今年底前|本年度内)\s*(?:到期|结束|届满)", q) and \
            not any(c["field"] in ("结束日期", "剩余服务期") for c in conditions):
        if intent in ("", "人员", "项目"):
            intent = "项目"
        tr = None  # "年内" is the window below, not a month filter
        conditions.append({"field": "结束日期", "op": "<=", "value": 0, "text": f"{today.year}年底前到期",
                           "derived": None, "expr": f"结束日期 >= '{today.isoformat()}' and "
                                                    f"结束日期 <= '{today.year}-12-31'"})
    growth, tr, agg = _growth(q, intent, agg, tr, today)
    if growth and ratio:  # "3月出勤率比2月高还是低": the ratio of each compared month, side by side
        ratio = {**ratio, "group_by": "年月", "compare": {"base": growth["base"], "current": growth["current"]}}
        agg, growth = None, None
    agg, filters = _group_by_values(q, agg, filters)
    if intent == "设备" and "完好状况" not in filters and not any(c["field"] == "完好状况" for c in conditions):
        if re.search(r"需要维修|需维修|要维修|待维修|要修|需要修|在修", q):
            filters = {**filters, "完好状况": ["待修"]}
        elif re.search(r"坏了|坏的|损坏|故障|不能用|不好用", q):
            filters = {**filters, "完好状况": ["待修", "报废"]}
    if growth or (agg and agg.get("having")):
        granularity = "汇总"
    if ratio:
        granularity = "汇总"
    elif agg and agg.get("op") in ("earliest", "latest"):
        granularity = "明细"
    unsupported = sorted(set(RATIO_RE.findall(q)) - ({ratio["name"]} if ratio else set()))
    if ratio:
        unsupported = [u for u in unsupported if u not in ("占比", "百分比")]
    if growth:
        unsupported = [u for u in unsupported if u not in ("同比", "增长率", "环比")]
    return {
        "question": q, "base_question": q, "followup": False,
        "kind": "graph",
        "intent": intent, "intents": intents,
        "projects": projects, "people": people, "areas": areas,
        "time": tr.to_dict() if tr else None,
        "filters": filters,
        "conditions": conditions,
        "granularity": granularity,
        "agg": agg,
        "consecutive": consecutive,
        "concepts": concepts,
        "children_of": children_of,
        "managed_by": managed_by,
        "without": without,
        "unsupported": unsupported,
        "ratio": ratio,
        "growth": growth,
    }


_BARE_THRESHOLD = re.compile(r"(超过|大于|多于|高于|不少于|不低于|至少|少于|小于|低于|不足|不到|不超过)\s*(\d+(?:\.\d+)?)\s*(万)?"
                             r"|(\d+(?:\.\d+)?)\s*(万)?\s*(?:个)?\s*(?:小时|天|元|分|次|人)?\s*(以上|以下)")


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


SURNAMES = set("王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
               "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
               "常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕"
               "单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦"
               "麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖"
               "巩明佘池查麻苑迟邝")
_NAME_AFTER = (r"(?=\d|[一二三四五六七八九十]月|的|在|有|今年|去年|上个|这个|本月|上月|近|哪|最|是|服务|负责|持有|加班|出勤|"
               r"考勤|排班|工资|多大|几岁|入职|离职|什么|现在|目前|\s*[？?]|$)")
_NOT_NAMES = ("全公司", "所有人", "多少人", "哪些人")
_COMMON_WORDS = frozenset({"单价", "周末", "平均", "合计", "总共", "一共", "明细", "最近", "目前", "现在", "今天", "昨天",
                           "明年", "后年", "前年", "全年", "全部", "所有", "每个", "各个", "各位", "哪个", "哪位", "那个",
                           "这个", "上周", "本周", "下周", "同比", "环比", "单位", "金牌", "安全", "华东", "华北", "华南"})


def unknown_person(q: str, mentions: list[dict], index) -> str | None:
    """A leading 2–3 character name (surname first) that is no known person, project or value:
    "张三3月出勤几天" must say 数据中未找到人员“张三”, not list everybody."""
    if index is None or any(m["start"] == 0 for m in mentions):
        return None
    m = re.match(r"([\u4e00-\u9fa5]{2,3}?)" + _NAME_AFTER, q)
    if not m or m.group(1)[0] not in SURNAMES or m.group(1) in _NOT_NAMES:
        return None
    name = m.group(1)
    if re.search(r"[龄数额费率量期类型况号码段级层部门的了吗呢么价末周总计均区市县省镇]", name) or name[:2] in _COMMON_WORDS:
        return None
    vocab = {w for _d, ws in INTENTS.values() for w in ws} | set(CONCEPTS) | {w for w, _p, _u in NUMERIC_FIELDS}
    if any(len(w) >= 2 and q.find(w) != -1 and q.find(w) < len(name) for w in vocab):
        return None  # "司龄满5年…", "保安员…": a vocabulary word, not a name
    known = set()
    for vals in (index.values or {}).values():
        known.update(vals)
    if name in known or any(name in v for v in known) or any(name in str(p.get("项目名称") or "")
                                                            for p in index.projects):
        return None
    if re.search(r"项目|员工|人员|设备|片区|公司|部门|岗位|合同|季度|年|月", name):
        return None
    return name


def _person_keys(index, people: list[str]) -> list[str]:
    keys = []
    for p in people:
        keys += [c.key for c in index.resolve("person", p)] if index is not None else []
    return keys


def _aggregation(q: str, intent: str, conditions: list[dict]) -> dict | None:
    field = _numeric_field(q)
    cond_fields = {c["field"] for c in conditions}
    if field and field.endswith("人数") and field in q:
        q = q.replace(field, "□")  # 在岗人数 is a numeric field, not a head count
    counting = COUNT_PROJECT_RE.search(q) or COUNT_PERSON_RE.search(q) or COUNT_ANY_RE.search(q)
    if field and field not in cond_fields and any(re.search(rf"(?:多少|几)[个次天]?{re.escape(w)}", q)
                                                  for w, p, u in NUMERIC_FIELDS if p == field and u in ("天", "小时", "次")):
        return {"op": "sum", "field": field, "explicit": True}  # "排了多少个夜班": the 夜班天数 summed
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
            if key in ("项目编号", "证书名称") and re.search(r"几条|多少条|几次|多少次|几张|多少张|记录", q) \
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
    if not attribute_asked and re.search(r"(?:有|共有|一共有|总共有)?多少[个位名条家台]?\s*[？?。！!]?\s*$", q):
        key = {"设备": "设备编号", "项目": "项目编号", "项目缺口": "项目编号", "收费": "项目编号", "证书": "工号",
               "检查": None, "采购": None, "编制": None}.get(intent, "工号")
        return {"op": "count", "field": key, "distinct": bool(key), "explicit": True}
    return None


def _default_numeric(intent: str) -> str | None:
    return {"考勤": "加班小时", "工资": "税后工资", "收费": "开票金额", "检查": "检查得分", "编制": "在岗人数",
            "采购": "金额", "设备": "原值"}.get(intent)


EXTRA_INTENTS = {"从属上级": "子项目的上级项目", "片区": "片区及片区负责人", "项目无": "没有某类记录的项目"}


def intent_description(intent: str) -> str:
    return INTENTS.get(intent, (EXTRA_INTENTS.get(intent, ""), ()))[0]


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
DATE_FIELDS: list[tuple[re.Pattern, str, str]] = [
    (re.compile(r"到期|结束|届满|截止|终止"), "结束日期", "项目"),
    (re.compile(r"开始|启动|进场|开工|签约|成立"), "开始日期", "项目"),
    (re.compile(r"入职|加入|进公司|来公司"), "入职日期", "人员"),
    (re.compile(r"离职"), "离职日期", "人员"),
    (re.compile(r"出生|生日"), "出生日期", "人员"),
    (re.compile(r"整改"), "整改完成日期", "检查"),
    (re.compile(r"检查|巡检|抽检|检"), "检查日期", "检查"),
    (re.compile(r"中标"), "中标日期", "投标"),
    (re.compile(r"启用|投用"), "启用日期", "设备"),
    (re.compile(r"采购|维保|购买|买"), "日期", "采购"),
]
_INTENT_DATE = {"检查": "检查日期", "采购": "日期", "投标": "中标日期", "考勤": "年月", "排班": "年月", "收费": "年月"}
_WHICH_KEYS = {"项目": "项目编号", "月": "年月", "片区": "片区编号", "岗位": "岗位名称"}
_PICK_N_RE = re.compile(r"(\d{1,2}|[两三四五六七八九十])\s*(?:个|名|位|家|条|台|次|人|项)")


def _extended_kinds(q: str, intent: str, agg: dict | None, conditions: list[dict], filters: dict, today: date,
                    areas: list[str] | None = None, projects: list[str] | None = None
                    ) -> tuple[str, dict | None, list[dict], dict, dict | None]:
    """Nested averages (平均每个项目…), ratios (出勤率, 占比) and earliest / latest records."""
    ratio = None
    areas, projects = areas or [], projects or []
    if not intent and "片区" in q and re.search(r"负责|谁管|主管|经理|是谁", q):
        intent = "片区"  # "各片区的负责人是谁"
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
                has_filter = any(v for v in filters.values())
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
        agg = None
        return intent, agg, conditions, filters, ratio
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
                return intent, agg, conditions, filters, ratio  # the data holds no future inspections
            if word in ("最近", "下一个", "下一次") and field == "结束日期":  # "最近到期": the next one still ahead
                order = "asc"
                conditions.append({"field": "结束日期", "op": ">=", "value": 0, "text": "尚未到期", "derived": None,
                                   "expr": f"结束日期 >= '{today.isoformat()}'"})
            agg = {"op": "earliest" if order == "asc" else "latest", "field": field, "top": n, "explicit": True}
    return intent, agg, conditions, filters, ratio



# ---- conditions on a computed figure, two-period comparisons (rules mode) ------------------
# the thing a "having" condition selects: "…的员工", "哪些项目", "谁"
_TARGET_RE = re.compile(r"(?:的|哪些|哪个|哪几个|哪几位|哪位|哪一个|哪几)(员工|人员|人|保安员?|保洁员?|项目|片区|月份?|岗位)|(谁)")
_TARGET_KEYS = {"项目": "项目编号", "片区": "片区编号", "月": "年月", "月份": "年月", "岗位": "岗位名称"}
_CMP_WORD = r"(超过|多于|大于|高于|不少于|不低于|至少|少于|小于|低于|不足|不到|不超过|未达到|未达|达到)"
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


def _th_op(word: str | None, after: str | None) -> str:
    if word in ("超过", "多于", "大于", "高于"):
        return ">"
    if word in ("不少于", "不低于", "至少", "达到"):
        return ">="
    if word in ("少于", "小于", "低于", "不足", "不到", "未达到", "未达"):
        return "<"
    if word == "不超过":
        return "<="
    if after:
        return ">=" if "上" in after else "<="
    return ""


def _target_key(q: str) -> str | None:
    m = _TARGET_RE.search(q)
    if not m:
        return None
    return "工号" if m.group(2) else _TARGET_KEYS.get(m.group(1), "工号")


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


_VS_AVG_RE = re.compile(r"(高于|超过|大于|多于|低于|少于|小于|不到|不足)\s*(?:全公司|全体|所有人|大家|整体|总体)?(?:的)?"
                        r"平均(?:水平|值|数|线)?")
_WHICH_MOST_RE = re.compile(r"哪(?:个|一个|家)?(片区|项目|岗位|月份?)(?:的)?([^，。？?]{0,6}?)(最多|最少)|"
                            r"(片区|项目|岗位|月份?)([^，。？?]{0,6}?)(最多|最少)的是(?:哪|谁)")
_MOST_WHAT = (("项目", "项目编号", "项目"), ("人", "工号", "人员"), ("员工", "工号", "人员"), ("设备", "设备编号", "设备"),
              ("证书", None, "证书"), ("检查", None, "检查"))


def _which_group_most(q: str, intent: str, agg: dict | None, ratio: dict | None) -> tuple[str, dict | None]:
    """"哪个片区的项目最多", "哪个项目的人最多": a count per group, the top (or bottom) one."""
    m = _WHICH_MOST_RE.search(q)
    if not m or ratio is not None or (agg and (agg.get("group_by") or agg.get("op") in ("sum", "avg"))):
        return intent, agg
    unit, what, word = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(4), m.group(5), m.group(6))
    key = _WHICH_KEYS.get(unit[:2] if unit.startswith("月") else unit, _WHICH_KEYS.get(unit))
    if key is None:
        key = "年月"
    for w, field, c_intent in _MOST_WHAT:
        if w in what and field != key:
            if intent in ("", "人员", "项目", "片区") or c_intent in ("设备", "证书", "检查"):
                intent = c_intent if not (c_intent == "项目" and intent not in ("", "片区", "人员", "项目")) else intent
            agg = {"op": "count", "field": field, "distinct": bool(field), "group_by": key, "top": 1,
                   "explicit": True, **({"order": "asc"} if word == "最少" else {})}
            return intent, agg
    return intent, agg


NUMERIC_PROPS = frozenset(p for _w, p, _u in NUMERIC_FIELDS)
#: numeric fields that are themselves head counts: "多少人" asks for their sum, not a count of rows
MANAGED_RE = re.compile(r"(?:负责|管理|主管|名下)的?(?:那些|这些|几个|所有|全部|各个?)?项目")
#: intents whose records are keyed by project: a manager's projects can stand for the anchor
MANAGED_PROJECT_INTENTS = frozenset({"收费", "设备", "检查", "采购", "编制", "投标", "考勤", "排班", "服务期", "工资"})
HEADCOUNT_PROPS = frozenset(p for _w, p, u in NUMERIC_FIELDS if u == "人")
GROWTH_RE = re.compile(r"环比|同比|增长|增加|减少|下降|上升|变化|变动|多了|少了|多多少|少多少|涨|降|差多少|差额|相差|"
                       r"(?:多|高|少|低)还是(?:少|低|多|高)|有没有(?:增加|减少|增长|下降)")
_M = r"(\d{1,2}|十一|十二|十|[一二两三四五六七八九])"
_REL_BASE_RE = re.compile(r"(?:比|较|相比|对比|和|与|跟)?\s*(?:上个?月|前一个?月|上一个?月|去年同期|上年同期|同期)(?:相比|比较|对比)?")
_PAIR_RE = re.compile(r"(?:(\d{4})\s*年\s*)?" + _M + r"\s*月(?:份)?([^\d月，。？?]{0,8}?)(比|相比|对比|较|与|和|跟|到|至)\s*"
                      r"(?:(\d{4})\s*年\s*)?" + _M + r"\s*月")


def _ym_of(year: str | None, month: str, today: date) -> str:
    from core.agents.kg.timeparse import _n, _year_for_month, ym

    mm = _n(month)
    return ym(int(year) if year else _year_for_month(mm, today), mm)


def _growth(q: str, intent: str, agg: dict | None, tr, today: date):
    """Two-period comparisons: "4月开票环比增长多少" (vs the month before), "同比" (vs the same month a
    year before), "3月比2月出勤人数增加了多少". Returns (growth slot or None, time range, agg)."""
    from core.agents.kg.timeparse import TimeRange, add_months

    qy = q.replace("今年", f"{today.year}年").replace("去年", f"{today.year - 1}年")
    if intent not in ("考勤", "工资", "排班", "收费") or not (
            GROWTH_RE.search(q) or (re.search(r"相比|对比|比较|较", q) and _PAIR_RE.search(qy))):
        return None, tr, agg
    base = current = None
    periods = None
    kind = "环比" if "环比" in q else "同比" if "同比" in q else "对比"
    rel = _REL_BASE_RE.search(q)
    if rel:  # "4月比上个月…", "比去年同期…": the base is relative to the asked month, not to today
        kind = "同比" if "同期" in rel.group(0) or "去年" in rel.group(0) else "环比"
        from core.agents.kg.timeparse import parse_time as _pt

        tr = _pt(q[:rel.start()] + "，" + q[rel.end():], today) or tr
    pm = None if rel else _PAIR_RE.search(qy)
    if pm and 1 <= int(_ym_of(pm.group(1), pm.group(2), today)[5:]) <= 12:
        a = _ym_of(pm.group(1), pm.group(2), today)
        b = _ym_of(pm.group(5) or pm.group(1), pm.group(6), today)
        if pm.group(4) in ("比", "相比", "对比", "较"):
            current, base = a, b  # "3月比2月": 3月 against 2月
        else:
            base, current = sorted((a, b))  # "2月和3月相比", "2月到3月"
        if kind == "对比":
            kind = "环比" if add_months(base, 1) == current else "同比" if add_months(base, 12) == current else "对比"
    elif tr is not None and kind in ("环比", "同比") and tr.start == tr.end:
        current = tr.end
        base = add_months(current, -1 if kind == "环比" else -12)
    elif tr is not None and kind in ("环比", "同比") and len(tr.months) > 1:
        # "一季度开票比去年同期…": the period's total against the same-length period before / a year before
        if (agg or {}).get("op") not in (None, "sum"):
            return None, tr, agg  # monthly head counts or averages do not add up over a period
        cur_m = tr.months
        base_m = [add_months(m, -len(cur_m) if kind == "环比" else -12) for m in cur_m]
        periods = {"base_months": base_m, "current_months": cur_m}
        base, current = base_m[0], cur_m[0]
    if not base or not current or base == current:
        return None, tr, agg
    lo, hi = sorted((base, current))
    if periods:
        lo, hi = periods["base_months"][0], periods["current_months"][-1]
    tr = TimeRange(lo, hi, tr.text if tr else f"{lo}至{hi}", bool(tr and tr.relative))
    op = (agg or {}).get("op")
    if op not in ("sum", "count", "avg"):
        field = _numeric_field(q) or _default_numeric(intent)
        agg = {"op": "sum", "field": field, "explicit": True}
    agg = {k: v for k, v in agg.items() if k not in ("group_by", "top", "order", "then", "outer", "having")}
    by = next((k for rx, k in GROUP_RE if rx.search(q) and k != "年月"), None)
    return {"base": base, "current": current, "kind": kind, **(periods or {}), **({"by": by} if by else {})}, tr, agg



def _followup_kinds(q: str, merged: dict, previous: dict, tr, new_conditions: bool) -> None:
    """Follow-ups of the computed kinds: "那3月呢" after "4月开票环比增长多少" moves both compared
    months; "超过30小时的呢" after "加班总时长超过50小时的人" changes the threshold on the total."""
    from core.agents.kg.timeparse import TimeRange, add_months

    growth = previous.get("growth")
    if growth and tr is not None:
        kind = growth.get("kind")
        if kind in ("环比", "同比") and tr.start == tr.end:
            cur = tr.end
            base = add_months(cur, -1 if kind == "环比" else -12)
            lo, hi = sorted((base, cur))
            merged["growth"] = {**growth, "base": base, "current": cur}
            merged["time"] = TimeRange(lo, hi, tr.text, tr.relative).to_dict()
        else:
            merged["growth"] = None
    for key, slot in (("agg", "值"), ("ratio", "比率")):
        prev = merged.get(key) or {}
        if not prev.get("having"):
            continue
        m = _BARE_THRESHOLD.search(q)
        if not m:
            continue
        if m.group(1):
            op = _th_op(m.group(1), None)
            val = apply_magnitude(m.group(2), m.group(3))
        else:
            op, val = (">=" if m.group(6) == "以上" else "<="), apply_magnitude(m.group(4), m.group(5))
        if not op:
            continue
        v = int(val) if val.is_integer() else val
        merged[key] = {**prev, "having": f"{slot} {op} {v}"}
        if new_conditions:  # the bare threshold was also read as a record condition: it is the group's
            merged["conditions"] = list(previous.get("conditions") or [])



_SPLIT_FIELDS = ("岗位名称", "设备类型", "完好状况", "检查类型", "记录类型", "服务状态", "中标结果", "投标类型", "市区",
                 "细分业态", "汇总业态", "员工层级")


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
    for f in _SPLIT_FIELDS:
        if len(filters.get(f) or []) >= 2:
            return {**agg, "group_by": f}, filters
    return (None if split else agg), filters
