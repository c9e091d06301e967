"""Rules path of ``understand``: classify chat vs graph and fill the slots
(projects, people, time range, intent, granularity, filters, numeric conditions), merging a
follow-up ("改成4月", "换成青浦-体育馆") into the previous turn's slots."""

from __future__ import annotations

import re
from datetime import date

from core.agents.kg.concepts import (CHAT_PATTERNS, CONCEPTS, GENERIC_INTENTS, INTENTS, NUMERIC_FIELDS,
                                     detect_intents, ground_concepts, parse_conditions)
from core.agents.kg.timeparse import parse_time

PRONOUN_RE = re.compile(r"^(?:那)?(?:他|她|此人|这个人|这位|该员工|该人|这个项目|该项目|那个项目|这个片区|该片区)")
FOLLOWUP_RE = re.compile(r"^\s*(?:那|那么|改成|换成|改为|换为|改查|再看|如果是|还有|只看|其中|把)")
COUNT_PERSON_RE = re.compile(r"多少人|几位|几个人|几人|人数|总人数|几名|多少名|多少位|多少员工|多少个员工")
COUNT_PROJECT_RE = re.compile(r"多少个项目|几个项目|项目数|多少项目")
COUNT_ANY_RE = re.compile(r"多少条|几条|多少台|几台|多少次|几次|多少张|几张|多少个|几个|数量|总数")
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
                                 "什么时候到期": "结束日期", "到期时间": "结束日期", "计费": "计费方式", "委托方式": "委托方式",
                                 "上级项目": "上级项目编号", "负责人": "项目负责人", "状态": "服务状态"}
CONSEC_RE = re.compile(r"连续\s*(\d{1,2}|[一二两三四五六七八九十]{1,2})\s*个?月|每个月都|各月都|每月都|每个月均")
_CN_N = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
GROUP_RE = [(re.compile(r"各片区|每个片区|按片区|分片区|各个片区|每一个片区"), "片区编号"),
            (re.compile(r"各项目|每个项目|按项目|分项目|各个项目|各自项目"), "项目编号"),
            (re.compile(r"各月|每月(?!都)|每个月(?!都|均)|按月|分月|逐月|月度趋势"), "年月"),
            (re.compile(r"各岗位|按岗位|每个岗位|分岗位"), "岗位名称")]


def is_chat(question: str, has_entities: bool) -> bool:
    q = question.strip()
    if CHAT_PATTERNS.match(q):
        return True
    return False


def _numeric_field(question: str) -> str | None:
    for word, prop, _ in NUMERIC_FIELDS:
        if word in question:
            return prop
    return None


def extract_slots(question: str, index, today: date, previous: dict | None = None) -> dict:
    """Slots for ``question``; ``previous`` = last turn's slots for follow-ups."""
    q = question.strip()
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
    intents = [i for i, _ in detect_intents(q)]
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
                       ("记录类型", "采购"), ("供应商名称", "采购")):
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
    if intent == "从属" and re.search(r"上级|父项目|母项目|属于哪个项目|隶属", q):
        intent = "从属上级"
    elif intent == "从属" and projects and [i for i in specific if i != "从属"]:
        # "文体中心的子项目3月一共开票多少": the data intent over the parent's children
        intent, children_of = [i for i in specific if i != "从属"][0], True
    concepts = ground_concepts(q)

    pronoun = bool(previous) and bool(PRONOUN_RE.search(q)) and not people and not projects
    followup = bool(previous) and (bool(FOLLOWUP_RE.match(q)) or (not specific and len(q) <= 14) or pronoun)
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
        if agg is not None and agg.get("explicit"):
            merged["agg"], merged["granularity"] = agg, "汇总"
        elif new_field and merged.get("agg") and merged["agg"].get("field") not in (None, "工号", "项目编号", "设备编号"):
            merged["agg"] = {**merged["agg"], "field": new_field}  # "那收款呢？" after a 开票 total
        elif LIST_RE.search(q):
            merged["agg"], merged["granularity"] = None, "明细"
        return merged

    agg = _aggregation(q, intent, conditions)
    granularity = "汇总" if agg else "明细"
    consecutive = None
    m = CONSEC_RE.search(q)
    if m and intent in ("考勤", "工资", "排班"):
        tok = m.group(1)
        consecutive = (int(tok) if tok.isdigit() else _CN_N.get(tok, 0)) if tok else -1  # -1 = every month
        if tr is not None and tok and tr.text and tr.text in m.group(0):
            tr = None  # "连续三个月" is a run length, not a time range
    if agg:
        for rx, key in GROUP_RE:
            if rx.search(q):
                agg["group_by"] = key
                break
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
                and (consecutive or LIST_RE.search(q) or PEOPLE_RE.search(q) or re.search(r"有" + word, q)
                     or (agg and agg.get("field") in ("工号", None))):
            conditions.append({"field": prop, "op": ">", "value": 0, "text": f"有{word}", "derived": None,
                               "expr": f"{prop} > 0"})
    if intent == "编制" and re.search(r"缺编|缺员|缺人|空缺|不足|没配满|未配满|缺口", q):
        conditions.append({"field": "在岗人数", "op": "<", "value": 0, "text": "缺编（在岗人数少于项目编制）",
                           "derived": None, "expr": "在岗人数 < 项目编制"})
    elif intent == "编制" and re.search(r"超编|超员", q):
        conditions.append({"field": "在岗人数", "op": ">", "value": 0, "text": "超编（在岗人数多于项目编制）",
                           "derived": None, "expr": "在岗人数 > 项目编制"})
    if intent == "检查" and re.search(r"(?:没|未|尚未|还没|没有)(?:完成)?整改|整改未完成|未完成整改|没整改完|待整改", q):
        conditions.append({"field": "整改情况", "op": "!=", "value": 0, "text": "有问题且未整改",
                           "derived": None, "expr": "问题描述 != None and 整改情况 != '已整改'"})
    if intent == "人员" and re.search(r"离职|已离开|不在职", q):
        conditions.append({"field": "离职日期", "op": "!=", "value": 0, "text": "已离职", "derived": None,
                           "expr": "离职日期 != None"})
    elif intent == "人员" and re.search(r"在职(?!年限)", q) and not re.search(r"在职年限", q):
        conditions.append({"field": "离职日期", "op": "==", "value": 0, "text": "在职", "derived": None,
                           "expr": "离职日期 == None"})
    top = TOP_RE.search(q)
    field = _numeric_field(q) or _default_numeric(intent)
    which = re.search(r"(哪个|哪一个|哪|什么)(月|项目|人|位|员工)|谁", q)
    if not top and which and agg and agg.get("op") in ("max", "min") and intent in ("考勤", "工资", "排班", "收费"):
        # "哪个月开票最多", "一季度哪个项目开票最多", "谁的加班时间最长": totals per month / project / person
        key = "年月" if "月" in (which.group(2) or "") else "项目编号" if (which.group(2) or "") == "项目" else "工号"
        agg = {"op": "sum", "field": agg.get("field") or field, "group_by": key, "top": 1, "explicit": True,
               **({"order": "asc"} if agg["op"] == "min" else {})}
    if top and field and intent in ("考勤", "工资", "排班", "收费", "检查", "编制", "采购", "设备", "项目", "投标"):
        tok = top.group(1) or top.group(2) or top.group(3)
        n = (int(tok) if tok.isdigit() else _CN_N.get(tok, 3)) if tok else 3
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
    if ratio:
        granularity = "汇总"
    elif agg and agg.get("op") in ("earliest", "latest"):
        granularity = "明细"
    unsupported = sorted(set(RATIO_RE.findall(q)) - ({ratio["name"]} if ratio else set()))
    if ratio:
        unsupported = [u for u in unsupported if u not in ("占比", "百分比")]
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
        "without": without,
        "unsupported": unsupported,
        "ratio": ratio,
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
        word, val = m.group(1), float(m.group(2)) * (10000 if m.group(3) else 1)
        op = ">" if word in ("超过", "大于", "多于", "高于") else ">=" if word in ("不少于", "不低于", "至少") \
            else "<=" if word == "不超过" else "<"
    else:
        val, op = float(m.group(4)) * (10000 if m.group(5) else 1), ">=" if m.group(6) == "以上" else "<="
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
    if counting and not AVG_RE.search(q) and not (field and field not in cond_fields and not COUNT_PERSON_RE.search(q)
                                                    and not COUNT_PROJECT_RE.search(q)):
        if COUNT_PROJECT_RE.search(q):
            return {"op": "count", "field": "项目编号", "distinct": True, "explicit": True}
        if COUNT_PERSON_RE.search(q):
            return {"op": "count", "field": "工号", "distinct": True, "explicit": True}
        if not LIST_RE.search(q):
            key = {"设备": "设备编号", "项目": "项目编号", "项目缺口": "项目编号", "人员": "工号",
                   "证书": "工号" if re.search(r"人|谁|员工", q) else "证书名称", "投标": "项目编号"}.get(intent)
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
NESTED_AVG_RES = (re.compile(r"平均(?:下来)?(?:每个|每一个|每家|每|各个|各|一个|单个)(项目|片区|岗位)(?:的)?(每个?月)?"),
                  re.compile(r"(?:每个|每一个|每家|各个|各)(项目|片区|岗位)(每个?月)?(?:的)?平均"))
_GROUP_KEYS = {"项目": "项目编号", "片区": "片区编号", "岗位": "岗位名称"}
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
    if m:
        unit = m.group(1)
        per_month = bool(m.group(2))
        key = _GROUP_KEYS[unit] + ("+年月" if per_month else "")
        rest = q[:m.start()] + "□" + q[m.end():]
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
        else:
            inner, f = "sum", field or _default_numeric(intent)
        if f is not None:
            agg = {"op": inner, "field": f or None, "distinct": inner == "count" and bool(f), "group_by": key,
                   "then": "avg", "explicit": True}
            agg = {"op": inner, "field": f, "distinct": inner == "count", "group_by": key, "then": "avg",
                   "explicit": True}
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
            ratio["top"] = (int(tok) if tok.isdigit() else _CN_N.get(tok, 1)) if tok else 1
            ratio["order"] = "desc" if best.group(2) else "asc"
        explicit_field = _numeric_field(q)
        ratio["field"] = explicit_field if ratio["name"] == "占比" and explicit_field and \
            (agg or {}).get("op") != "count" else None
        agg = None
        return intent, agg, conditions, filters, ratio
    dm = DATE_EXTREME_RE.search(q)
    if dm and not (agg and agg.get("field") in ("司龄", "年龄")):
        field, d_intent = None, None
        for rx, f, fi in DATE_FIELDS:
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
            n = (int(n_m.group(1)) if n_m.group(1).isdigit() else _CN_N.get(n_m.group(1), 1)) if n_m else 1
            if word in ("下一个", "下一次") and field != "结束日期":
                return intent, agg, conditions, filters, ratio  # the data holds no future inspections
            if word in ("最近", "下一个", "下一次") and field == "结束日期":  # "最近到期": the next one still ahead
                order = "asc"
                conditions.append({"field": "结束日期", "op": ">=", "value": 0, "text": "尚未到期", "derived": None,
                                   "expr": f"结束日期 >= '{today.isoformat()}'"})
            agg = {"op": "earliest" if order == "asc" else "latest", "field": field, "top": n, "explicit": True}
    return intent, agg, conditions, filters, ratio
