"""Cue tables of the KG question side shared by the understanding modules: question-form
regexes (count / list / sum / top / compare / group), the project attribute words, numeric-field
lookups and the threshold-word reader. The regexes, group words and attribute words are rows of
data/rules/kg_patterns.json (``cues``, ``group_words``, ``project_attrs``), each with the example
that motivated it: a new phrasing is a data row plus a test case."""

from __future__ import annotations

import re

from core.agents.kg import kgrules
from core.agents.kg.concepts import INTENTS, NUMERIC_FIELDS

PRONOUN_RE = kgrules.cue("pronoun")
FOLLOWUP_RE = kgrules.cue("followup_opener")
# words that point back at the previous result ("这些人里…", "他们当中…", "上述项目…")
REFERS_RE = kgrules.cue("refers_back")
# a short elliptical question that only makes sense after another ("4月呢", "超过30小时的呢")
ELLIPTICAL_RE = kgrules.cue("elliptical")
ELLIPTICAL_MAX = 14
COUNT_PERSON_RE = kgrules.cue("count_person")
COUNT_PROJECT_RE = kgrules.cue("count_project")
COUNT_ANY_RE = kgrules.cue("count_any")
LIST_RE = kgrules.cue("list")
SUM_RE = kgrules.cue("sum")
PEOPLE_RE = kgrules.cue("people")
AVG_RE = kgrules.cue("avg")
MAX_RE = kgrules.cue("max")
MIN_RE = kgrules.cue("min")
# ratios the templates hold no column for: answered with the underlying figures, flagged as not computed
RATIO_RE = kgrules.cue("ratio")
TOP_RE = kgrules.cue("top")
COMPARE_RE = kgrules.cue("compare")
PROJECT_ATTRS: dict[str, str] = dict(kgrules.rules_file("kg_patterns")["project_attrs"]["map"])
CONSEC_RE = kgrules.cue("consecutive")
GROUP_RE = kgrules.group_words()


def _numeric_field(question: str) -> str | None:
    question = re.sub(r"(中|投|落|续|新)标的", r"\1标□", question)  # "中标的记录": not 标的 (投标金额)
    for word, prop, _ in NUMERIC_FIELDS:
        if word in question:
            return prop
    return None


_BARE_THRESHOLD = kgrules.cue("bare_threshold")


def _default_numeric(intent: str) -> str | None:
    return {"考勤": "加班小时", "工资": "税后工资", "收费": "开票金额", "检查": "检查得分", "编制": "在岗人数",
            "采购": "金额", "设备": "原值"}.get(intent)


EXTRA_INTENTS = {"从属上级": "子项目的上级项目", "片区": "片区及片区负责人", "项目无": "没有某类记录的项目", "人员无": "没有某种证书的人员"}


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


_VS_AVG_RE = kgrules.cue("vs_average")

NUMERIC_PROPS = frozenset(p for _w, p, _u in NUMERIC_FIELDS)

#: numeric fields that are themselves head counts: "多少人" asks for their sum, not a count of rows
MANAGED_RE = kgrules.cue("managed_projects")

#: intents whose records are keyed by project: a manager's projects can stand for the anchor
MANAGED_PROJECT_INTENTS = frozenset({"收费", "设备", "检查", "采购", "编制", "投标", "考勤", "排班", "服务期", "工资"})

HEADCOUNT_PROPS = frozenset(p for _w, p, u in NUMERIC_FIELDS if u == "人")
