"""A leading name in a question that is no known person: "张三3月出勤几天" must say
数据中未找到人员“张三”, not list everybody (part of :mod:`core.agents.kg.understanding`)."""

from __future__ import annotations

import re

from core.agents.kg import kgrules
from core.agents.kg.concepts import CONCEPTS, INTENTS, NUMERIC_FIELDS

SURNAMES = set("王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
               "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
               "常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕"
               "单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦"
               "麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖"
               "巩明佘池查麻苑迟邝")

_NAME_AFTER = (r"(?=\d|[一二三四五六七八九十]月|的|在|有|今年|去年|上个|这个|本月|上月|近|哪|最|是|服务|负责|持有|加班|出勤|"
               r"考勤|排班|工资|多大|几岁|入职|离职|什么|现在|目前|手上|手里|名下|经办|\s*[？?]|$)")

_NOT_NAMES = ("全公司", "所有人", "多少人", "哪些人")

_COMMON_WORDS = frozenset({"单价", "周末", "平均", "合计", "总共", "一共", "明细", "最近", "目前", "现在", "今天", "昨天",
                           "明年", "后年", "前年", "全年", "全部", "所有", "每个", "各个", "各位", "哪个", "哪位", "那个",
                           "这个", "上周", "本周", "下周", "同比", "环比", "单位", "金牌", "安全", "华东", "华北", "华南",
                           "包括", "包含", "除了", "连同"})



def _vocabulary() -> set[str]:
    return {w for _d, ws in INTENTS.values() for w in ws} | set(CONCEPTS) | {w for w, _p, _u in NUMERIC_FIELDS}


def _known_value(name: str, index) -> bool:
    """Is ``name`` (part of) a value, a project name or a person the data holds?"""
    return _stored_value(name, index) or _in_project_name(name, index)


def _stored_value(name: str, index) -> bool:
    known = set()
    for vals in (index.values or {}).values():
        known.update(vals)
    return name in known or any(name in v for v in known)


def _in_project_name(name: str, index) -> bool:
    return any(name in str(p.get("项目名称") or "") for p in index.projects)


def _in_place_name(name: str, index) -> bool:
    """Is ``name`` part of a project's own name, after its district (区图书馆 of 青浦-区图书馆; not 青浦)?"""
    return any(name in str(p.get("项目名称") or "").split("-")[-1] or name in str(p.get("项目简称") or "")
               for p in index.projects)


def unknown_place(q: str, mentions: list[dict], index) -> str | None:
    """The X of "X那边" when no mention took it and it is no stored value or data word: part of a
    project's name (图书馆那边) or a place the data does not know (人医那边), resolved as a project or
    refused, never dropped for a company-wide answer (``unknown_place`` in ``kg_patterns.json``)."""
    rule = kgrules.rules_file("kg_patterns")["unknown_place"]
    m = re.search(rule["pattern"], q or "") if index is not None else None
    if not m or m.group(1) in rule["not_places"]:
        return None
    start, end = m.span(1)
    if any(x["start"] < end and start < x["end"] for x in mentions):
        return None  # 科创那边, 徐汇那边: a known name
    name = m.group(1)
    if _in_place_name(name, index):
        return name  # 图书馆那边: part of a project's name no mention took, resolved as a project
    if _stored_value(name, index) or any(w in name for w in _vocabulary() if len(w) >= 2):
        return None
    return name


def titled_person(q: str, index) -> str | None:
    """A surname with a form of address (魏师傅, 周老师): the one person of that surname, else the
    words as said (reported as 数据中未找到人员“…”); ``titled_person`` in ``kg_patterns.json``."""
    m = re.search(kgrules.rules_file("kg_patterns")["titled_person"]["pattern"], q or "") if index is not None else None
    if not m or m.group(1) not in SURNAMES:
        return None
    names = {str(p.get("姓名") or "") for p in index.people if str(p.get("姓名") or "").startswith(m.group(1))}
    return next(iter(names)) if len(names) == 1 else m.group(0)


def unknown_person(q: str, mentions: list[dict], index) -> str | None:
    """A leading 2–3 character name (surname first) that is no known person, project or value:
    "张三3月出勤几天" must say 数据中未找到人员“张三”, not list everybody."""
    if index is None or any(m["start"] == 0 for m in mentions):
        return None
    m = re.match(r"([\u4e00-\u9fa5]{2,3}?)" + _NAME_AFTER, q)
    if not m or m.group(1)[0] not in SURNAMES or m.group(1) in _NOT_NAMES:
        return None
    name = m.group(1)
    if re.search(r"[龄数额费率量期类型况号码段级层部门的了吗呢么价末周总计均区市县省镇]", name[1:]) \
            or re.match(r"周[一二三四五六七日天]", name) or name[:2] in _COMMON_WORDS:  # 周 leads a name, or a weekday
        return None
    if any(len(w) >= 2 and q.find(w) != -1 and q.find(w) < len(name) for w in _vocabulary()):
        return None  # "司龄满5年…", "保安员…": a vocabulary word, not a name
    if _known_value(name, index):
        return None
    from core.agents.kg.value_words import worded_values

    if worded_values(name, ["女", "男"]):
        return None  # "包干制的项目": a value said in words (计费方式), not a person
    if re.search(r"项目|员工|人员|设备|片区|公司|部门|岗位|合同|季度|年|月", name):
        return None
    return name
