"""Cue tables of the KG question side shared by the understanding modules: question-form
regexes (count / list / sum / top / compare / group), the project attribute words, numeric-field
lookups and the threshold-word reader. Moved out of understanding.py unchanged (issue #15);
new phrasings belong in data/rules/kg_*.json."""

from __future__ import annotations

import re

from core.agents.kg.concepts import INTENTS, NUMERIC_FIELDS

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



def _numeric_field(question: str) -> str | None:
    question = re.sub(r"(中|投|落|续|新)标的", r"\1标□", question)  # "中标的记录": not 标的 (投标金额)
    for word, prop, _ in NUMERIC_FIELDS:
        if word in question:
            return prop
    return None



_BARE_THRESHOLD = re.compile(r"(超过|大于|多于|高于|不少于|不低于|至少|少于|小于|低于|不足|不到|不超过)\s*(\d+(?:\.\d+)?)\s*(万)?"
                             r"|(\d+(?:\.\d+)?)\s*(万)?\s*(?:个)?\s*(?:小时|天|元|分|次|人)?\s*(以上|以下)")



def _default_numeric(intent: str) -> str | None:
    return {"考勤": "加班小时", "工资": "税后工资", "收费": "开票金额", "检查": "检查得分", "编制": "在岗人数",
            "采购": "金额", "设备": "原值"}.get(intent)



EXTRA_INTENTS = {"从属上级": "子项目的上级项目", "片区": "片区及片区负责人", "项目无": "没有某类记录的项目"}



def intent_description(intent: str) -> str:
    return INTENTS.get(intent, (EXTRA_INTENTS.get(intent, ""), ()))[0]



_WHICH_KEYS = {"项目": "项目编号", "月": "年月", "片区": "片区编号", "岗位": "岗位名称"}

_CMP_WORD = r"(超过|多于|大于|高于|不少于|不低于|至少|少于|小于|低于|不足|不到|不超过|未达到|未达|达到)"



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



_VS_AVG_RE = re.compile(r"(高于|超过|大于|多于|低于|少于|小于|不到|不足)\s*(?:全公司|全体|所有人|大家|整体|总体)?(?:的)?"
                        r"平均(?:水平|值|数|线)?")

NUMERIC_PROPS = frozenset(p for _w, p, _u in NUMERIC_FIELDS)

#: numeric fields that are themselves head counts: "多少人" asks for their sum, not a count of rows
MANAGED_RE = re.compile(r"(?:负责|管理|主管|名下)的?(?:那些|这些|几个|所有|全部|各个?)?项目")

#: intents whose records are keyed by project: a manager's projects can stand for the anchor
MANAGED_PROJECT_INTENTS = frozenset({"收费", "设备", "检查", "采购", "编制", "投标", "考勤", "排班", "服务期", "工资"})

HEADCOUNT_PROPS = frozenset(p for _w, p, u in NUMERIC_FIELDS if u == "人")
