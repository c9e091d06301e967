"""Concept tables for the rules path: intents, generic concepts (员工/人数/在职年限 → labels /
properties / tools), derived attributes (年龄 ← 出生日期 …) and numeric conditions
("50岁以下", "3个月内到期", "满10年", "加班超过20小时").

Everything here is data plus small pure functions; extend the tables to teach the agent new
wording without touching the nodes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from core.text.numerals import apply_magnitude, cn_to_int


def _intent_rows() -> list[dict]:
    """The intent keyword table, ``data/rules/kg_intents.json`` (order = priority on ties)."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "data" / "rules" / "kg_intents.json"
    return json.loads(path.read_text(encoding="utf-8"))["rows"]


# intent -> (description used for embedding similarity, keywords). Order = priority on ties.
INTENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    r["intent"]: (r["description"], tuple(r["keywords"])) for r in _intent_rows()}

GENERIC_INTENTS = frozenset(r["intent"] for r in _intent_rows() if r.get("generic"))

CHAT_PATTERNS = re.compile(r"^(你好|您好|hi|hello|嗨|谢谢|多谢|感谢|再见|拜拜|你是谁|你能做什么|你会什么|早上好|晚上好)"
                           r"[\s!！。,.，?？呀啊呢吧]*$", re.I)

# Generic concepts → label / property / tool (concept grounding).
CONCEPTS: dict[str, dict] = {
    "员工": {"label": "人员", "tool": "staff"},
    "人员": {"label": "人员", "tool": "staff"},
    "人数": {"label": "人员", "tool": "staff", "agg": "count"},
    "在职年限": {"label": "人员", "property": "司龄", "derived": True},
    "工龄": {"label": "人员", "property": "司龄", "derived": True},
    "司龄": {"label": "人员", "property": "司龄", "derived": True},
    "年龄": {"label": "人员", "property": "年龄", "derived": True},
    "出勤": {"label": "考勤", "property": "出勤天数", "tool": "attendance"},
    "加班": {"label": "考勤", "property": "加班小时", "tool": "attendance"},
    "上班天数": {"label": "考勤", "property": "上班天数", "tool": "attendance"},
    "开票": {"label": "财务", "property": "开票金额", "tool": "finance"},
    "收款": {"label": "财务", "property": "收款金额", "tool": "finance"},
    "剩余服务期": {"label": "项目", "property": "剩余服务期", "derived": True},
    "年纪": {"label": "人员", "property": "年龄", "derived": True},
    "多大": {"label": "人员", "property": "年龄", "derived": True},
    "几岁": {"label": "人员", "property": "年龄", "derived": True},
    "年长": {"label": "人员", "property": "年龄", "derived": True},
    "年轻": {"label": "人员", "property": "年龄", "derived": True},
    "最老": {"label": "人员", "property": "年龄", "derived": True},
    "入职最早": {"label": "人员", "property": "司龄", "derived": True},
    "最早入职": {"label": "人员", "property": "司龄", "derived": True},
    "资历": {"label": "人员", "property": "司龄", "derived": True},
    "电话": {"label": "人员", "property": "联系电话"},
    "手机": {"label": "人员", "property": "联系电话"},
    "身份证": {"label": "人员", "property": "身份证号码"},
    "政治面貌": {"label": "人员", "property": "政治面貌"},
    "党员": {"label": "人员", "property": "政治面貌"},
    "出生": {"label": "人员", "property": "出生日期"},
    "生日": {"label": "人员", "property": "出生日期"},
    "职级": {"label": "人员", "property": "职级"},
    "到期": {"label": "项目", "property": "剩余服务期", "derived": True},
}



# Numeric fields users put conditions on: (wording, property, unit). The wording comes from
# data/rules/kg_numeric_words.json; the units, and every numeric schema column with a unit under its
# own name, from the catalog generated from core/graph/schema.py.
def _numeric_fields() -> list[tuple[str, str, str]]:
    import json
    from pathlib import Path

    from core.agents.kg import catalog

    path = Path(__file__).resolve().parents[3] / "data" / "rules" / "kg_numeric_words.json"
    words = [(w, p) for w, p in json.loads(path.read_text(encoding="utf-8"))["words"]]
    have = {w for w, _ in words}
    words += [(f, f) for f in catalog.numeric_fields() if f not in have]
    words += _day_code_words({w for w, _ in words}, set(catalog.numeric_fields()))
    return [(w, p, "" if catalog.unit(p) == "%" else catalog.unit(p)) for w, p in words]


def _day_code_words(have: set[str], numeric: set[str]) -> list[tuple[str, str]]:
    """The day codes' own names (休 = 休息, 事 = 事假: core/graph/schema.py) as wordings of the day
    counts the builder keeps for them ("排了几天休息" → 休息天数), the longest first."""
    from core.graph.schema import ATTENDANCE_CODES, SHIFT_CODES

    names = set(ATTENDANCE_CODES.values()) | set(SHIFT_CODES.values())
    return [(n, f"{n}天数") for n in sorted(names, key=len, reverse=True)
            if n not in have and f"{n}天数" in numeric]


NUMERIC_FIELDS: list[tuple[str, str, str]] = _numeric_fields()

_NUM = r"(\d+(?:\.\d+)?)\s*(万)?"
_GT = r"(?:超过|大于|多于|高于|以上|不少于|不低于|至少|>=|>|≥)"
_LT = r"(?:少于|小于|低于|不足|以下|不到|未满|不超过|至多|<=|<|≤)"


@dataclass(frozen=True)
class Condition:
    field: str       # property or derived concept name
    op: str          # > >= < <= ==
    value: float
    text: str        # the user's words
    derived: str | None = None  # derived rule name when field is derived

    def expr(self) -> str:
        v = int(self.value) if float(self.value).is_integer() else self.value
        return f"{self.field} {self.op} {v}"

    def to_dict(self) -> dict:
        return {"field": self.field, "op": self.op, "value": self.value, "text": self.text,
                "derived": self.derived, "expr": self.expr()}

    @classmethod
    def from_dict(cls, d: dict) -> "Condition":
        return cls(d["field"], d["op"], float(d["value"]), d.get("text", ""), d.get("derived"))


def _op(word: str, after: bool) -> str:
    inclusive = word in ("以上", "以下", "不少于", "不低于", "至少", "不超过", "至多", ">=", "<=", "≥", "≤")
    big = word in ("超过", "大于", "多于", "高于", "以上", "不少于", "不低于", "至少", ">=", ">", "≥")
    # 以上/以下 are inclusive in Chinese usage except for ages ("50岁以下" = under 50).
    if big:
        return ">=" if inclusive else ">"
    return "<=" if inclusive else "<"


@lru_cache(maxsize=1024)
def _field_patterns(word: str) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """A numeric field word's three patterns, compiled once: "值班费不为0", "加班超过20小时" and
    "税后工资5000以上". A question is read against these for every field word — more patterns than
    the ``re`` module's own cache holds, which then recompiled them for every question."""
    w = re.escape(word)
    unit = r"\s*(?:个)?\s*(?:小时|天|元|分|次|平方米|平米|%|％)?"
    return (re.compile(w + r"[^\d，。？?,;；]{0,4}?(?:不为|不是|不等于|非)\s*(?:0|零)"),
            re.compile(w + r"[^\d，。？?,;；]{0,6}?" + r"(" + _GT[3:-1] + "|" + _LT[3:-1] + r")\s*" + _NUM + unit),
            re.compile(w + r"[^\d，。？?,;；]{0,4}?" + _NUM + unit + r"\s*(以上|以下|及以上|及以下)"))


def parse_conditions(text: str) -> list[Condition]:
    """Numeric conditions in a question. Pure time words ("3月") never become conditions."""
    out: list[Condition] = []
    t = text or ""
    # age: 50岁以下 / 小于50岁 / 50岁以上 / 年龄超过40
    for m in re.finditer(r"(\d{1,3})\s*(?:周)?岁\s*(以下|以上|及以下|及以上|之下|之上)", t):
        word = m.group(2)
        op = {"以下": "<", "之下": "<", "及以下": "<=", "以上": ">=", "之上": ">", "及以上": ">="}[word]
        out.append(Condition("年龄", op, float(m.group(1)), m.group(0), "年龄"))
    for m in re.finditer(r"(?:年龄|岁数)?\s*" + r"(超过|大于|小于|低于|不满|不到|满)" + r"\s*(\d{1,3})\s*岁", t):
        word = m.group(1)
        op = {"超过": ">", "大于": ">", "满": ">=", "小于": "<", "低于": "<", "不满": "<", "不到": "<"}[word]
        out.append(Condition("年龄", op, float(m.group(2)), m.group(0), "年龄"))
    # remaining contract: 3个月内到期 / 半年内到期
    m = re.search(r"(\d{1,2}|半年|一年|[一二三四五六])\s*个?月?\s*(?:内|之内|以内)\s*(?:到期|结束|届满)", t)
    if not m and re.search(r"快到期|即将到期|临近到期|快要到期|马上到期", t):
        out.append(Condition("剩余服务期", "<=", 3.0, "即将到期（3个月内）", "剩余服务期"))
        out.append(Condition("剩余服务期", ">=", 0.0, "即将到期（3个月内）", "剩余服务期"))
    if m:
        tok = m.group(1)
        months = {"半年": 6, "一年": 12}.get(tok) or cn_to_int(tok)
        out.append(Condition("剩余服务期", "<=", float(months), m.group(0), "剩余服务期"))
        out.append(Condition("剩余服务期", ">=", 0.0, m.group(0), "剩余服务期"))
    # seniority: 满10年 / 司龄超过5年 / 工作10年以上
    for m in re.finditer(r"(?:司龄|工龄|在职年限|入职)?\s*(满|超过|不满|不足)\s*(\d{1,2})\s*年(?!\d|月)", t):
        if any(t[:m.start()].endswith(w) for w, _p, u in NUMERIC_FIELDS if u == "年"):
            continue  # "合同年限超过1年": that field's years, not the person's seniority
        op = {"满": ">=", "超过": ">", "不满": "<", "不足": "<"}[m.group(1)]
        out.append(Condition("司龄", op, float(m.group(2)), m.group(0), "司龄"))
    for m in re.finditer(r"(?:司龄|工龄|在职年限|入职|工作)\s*(\d{1,2})\s*年\s*(以上|以下)", t):
        op = ">=" if m.group(2) == "以上" else "<"
        out.append(Condition("司龄", op, float(m.group(1)), m.group(0), "司龄"))
    # generic numeric fields: 加班超过20小时 / 上班天数少于20天 / 得分低于80 / 税后工资 5000 以上
    for word, prop, _unit in NUMERIC_FIELDS:
        if any(c.field == prop for c in out):
            continue
        not_zero, compared, bounded = _field_patterns(word)
        m = not_zero.search(t)
        if m:  # "值班费不为0"
            out.append(Condition(prop, "!=", 0.0, m.group(0)))
            continue
        m = compared.search(t)
        if m:
            val = apply_magnitude(m.group(2), m.group(3))
            out.append(Condition(prop, _op(m.group(1), False), val, m.group(0)))
            continue
        m = bounded.search(t)
        if m:
            val = apply_magnitude(m.group(1), m.group(2))
            w = m.group(3)
            op = ">=" if "上" in w else "<="
            out.append(Condition(prop, op, val, m.group(0)))
    # 投标金额在500万以上 is one condition: not also 金额 (a shorter field word inside it) on the same figure
    return [c for c in out if not any(o is not c and c.text in o.text and len(o.text) > len(c.text)
                                      and o.op == c.op and o.value == c.value for o in out)]


def detect_intents(text: str) -> list[tuple[str, int]]:
    """Intents whose keywords occur, with a hit score (longest keyword length), best first."""
    scores = []
    for i, (intent, (_desc, words)) in enumerate(INTENTS.items()):
        hits = [w for w in words if w in text]
        if hits:
            scores.append((intent, max(len(w) for w in hits) * 10 + len(hits) - i * 0.01))
    # 人员/项目 are generic: a specific data intent (考勤, 排班, …) wins over them.
    scores = [(i, sc - (100 if i in GENERIC_INTENTS else 0)) for i, sc in scores]
    scores.sort(key=lambda x: -x[1])
    return [(s[0], s[1]) for s in scores]


def ground_concepts(text: str) -> list[dict]:
    """Generic concept words → label/property/tool entries (concept grounding)."""
    return [{"word": w, **spec} for w, spec in CONCEPTS.items() if w in text]
