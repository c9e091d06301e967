"""Second-pass rules over the extracted slots, kept apart from understanding.py:

- field aliases: words for figures the templates do not have ("加班费" → the fee columns that
  exist, with a note that says so, never the overtime hours);
- two periods named on both sides of "比" ("一季度比去年四季度", "4月比1-3月平均高多少");
- the percentage-point gap between two periods' ratios ("3月出勤率比2月高还是低");
- "平均每个员工…" / "每个项目平均…": the denominator is every in-service person / project, not
  only those with records;
- compound questions ("…是谁，他负责几个项目"): split, the second part asked after the first.
"""

from __future__ import annotations

import re
from datetime import date

from core.agents.kg.formatting import fmt_value, ym_cn

# word the user says → (column answered, further columns of the same meaning)
FIELD_ALIASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "加班费": ("加班超时费", ("国定加班费",)),
}
_ALIAS_RE = {w: re.compile(r"(?<!国定)" + w) for w in FIELD_ALIASES}


def field_alias(q: str) -> tuple[str, dict | None]:
    """("3月加班超时费一共多少", alias) for "3月加班费一共多少"; the question unchanged when it names
    an existing column."""
    for word, (main, more) in FIELD_ALIASES.items():
        if _ALIAS_RE[word].search(q) and main not in q and not any(m in q for m in more):
            return _ALIAS_RE[word].sub(main, q), {"word": word, "field": main, "also": list(more)}
    return q, None


def alias_note(alias: dict) -> str:
    fields = [alias["field"], *alias["also"]]
    return (f"数据中没有“{alias['word']}”这一字段；与之相关的费用字段有：{'、'.join(fields)}"
            f"（加班小时是时长，不是费用）。以下按{alias['field']}统计，并给出{'、'.join(alias['also'])}。")


# ---- compound questions -------------------------------------------------------------------------

_COMPOUND_RE = re.compile(r"^(?P<first>.{2,}?(?:是谁|是哪位|是哪个人|是哪个项目|是哪一个|是什么|叫什么))\s*[，,；;。？?]\s*"
                          r"(?P<rest>(?:那)?(?:(?:他|她|此人|这个人|这位|该员工|该人|这个项目|该项目|它)\S{2,}"
                          r"|(?:负责|管|在|有|多大|几岁|电话|手机|入职|持有|的)\S{1,}))$")


def split_who_then_followup(q: str) -> tuple[str, str] | None:
    """A "who / which is X, and then about them" question in its two parts:
    ("青浦-区图书馆的项目负责人是谁", "他负责几个项目？"), the second asking about the first's answer
    (a missing pronoun supplied); None otherwise. Not the policy engine's ``split_compound``, which
    splits independent sub-questions."""
    m = _COMPOUND_RE.match((q or "").strip())
    if not m:
        return None
    rest = m.group("rest").rstrip("？?。")
    if not re.match(r"(?:那)?(?:他|她|此人|这个人|这位|该员工|该人|这个项目|该项目|它)", rest):
        rest = ("该项目" if m.group("first").endswith("是哪个项目") else "他") + rest.lstrip("的")  # "…是谁？负责几个项目"
    return m.group("first"), rest + "？"


def answer_subjects(steps: list[dict]) -> dict:
    """The person / project a finished answer names (one, or a tie of at most three), so that "他…" /
    "该项目…" in the next question means it."""
    if not steps:
        return {}
    last = steps[-1]
    rows = last.get("rows") or []
    src = rows
    if last.get("tool") in ("aggregate", "pick") and rows:
        gb = (last.get("executed_params") or {}).get("group_by")
        if last.get("tool") == "aggregate" and not gb:
            res = rows[0]
            if res.get("统计") not in ("max", "min"):
                return {}
            of = (last.get("executed_params") or {}).get("of")
            base = next((s for s in steps if s.get("id") == of), {})
            from core.agents.kg.expr import to_number

            src = [r for r in base.get("rows") or [] if to_number(r.get(res.get("字段"))) == res.get("值")]
        elif last.get("tool") == "aggregate":
            of = (last.get("executed_params") or {}).get("of")
            base = next((s for s in steps if s.get("id") == of), {})
            keep = {r.get(gb) for r in rows}
            if len(keep) > 3:
                return {}
            src = [r for r in base.get("rows") or [] if r.get(gb) in keep]
    if not src:
        return {}
    people = list(dict.fromkeys(str(r["姓名"]) for r in src if r.get("姓名") and r.get("工号")))
    if last.get("tool") == "project" or (not people and "项目负责人" in src[0]):
        # "…的项目负责人是谁": the project row names its manager
        people = list(dict.fromkeys(str(r["项目负责人"]) for r in src if r.get("项目负责人")))
    projects = list(dict.fromkeys(str(r["项目名称"]) for r in src if r.get("项目名称")))
    out = {}
    if 0 < len(people) <= 3:
        out["people"] = people
    if 0 < len(projects) <= 3:
        out["projects"] = projects
    return out


_PERSON_PRON = re.compile(r"^(?:那)?(?:他|她|此人|这个人|这位|该员工|该人)")
_PROJECT_PRON = re.compile(r"^(?:那)?(?:这个项目|该项目|那个项目|它)")


def resolve_pronoun(q: str, previous: dict | None) -> str | None:
    """"刘德明在哪个项目" for "他在哪个项目" when the last answer named 刘德明 (and the last question
    named no person itself): the chain's second question, asked afresh."""
    subj = (previous or {}).get("subjects") or {}
    m = _PERSON_PRON.match(q)
    if m and subj.get("people") and not previous.get("people"):
        return "和".join(subj["people"]) + q[m.end():]
    m = _PROJECT_PRON.match(q)
    if m and subj.get("projects") and not previous.get("projects"):
        return "和".join(subj["projects"]) + q[m.end():]
    return None


# ---- two named periods ----------------------------------------------------------------------------

_CMP_WORD = re.compile(r"比")
_MORE_RE = re.compile(r"(?:多|高|少|低|增加|减少|增长|下降|差)")
_AVG_SIDE = re.compile(r"(?:的)?(?:月)?平均|月均")


def two_periods(q: str, today: date) -> dict | None:
    """{"base_months", "current_months", "base_avg"} for "一季度比去年四季度多多少" / "4月比1-3月平均
    高多少"; None unless both sides of "比" name a period and the periods differ."""
    from core.agents.kg.timeparse import parse_time

    m = _CMP_WORD.search(q)
    if not m or not _MORE_RE.search(q[m.end():]):
        return None
    left, right = q[:m.start()], q[m.end():]
    cut = _MORE_RE.search(right)
    right_time = right[:cut.start()] if cut else right
    a, b = parse_time(left, today), parse_time(right_time, today)
    if a is None or b is None or a.months == b.months:
        return None
    return {"current_months": list(a.months), "base_months": list(b.months),
            "base_avg": bool(_AVG_SIDE.search(right_time)) and len(b.months) > 1,
            "labels": (a.text, b.text)}


# ---- every person / project as the denominator -----------------------------------------------------

_PER_ALL_RE = {"工号": re.compile(r"每(?:个|位|名|一个|一位)?(?:员工|职工|人)(?!均)"),
               "项目编号": re.compile(r"每(?:个|一个)项目")}
STOCK_INTENTS = frozenset({"证书", "人员", "设备", "服务期", "编制"})


def per_all(q: str, intent: str, agg: dict | None) -> bool:
    """"平均每个员工有几张证书": every in-service person counts, 0 for those without records."""
    if not agg or agg.get("then") != "avg" or agg.get("outer") or intent not in STOCK_INTENTS:
        return False
    rx = _PER_ALL_RE.get(str(agg.get("group_by") or ""))
    return bool(rx and rx.search(q))


def population(store, key: str, scope: dict | None = None) -> list[str]:
    """In-service people (no 离职日期) or projects in service — within the asked positions /
    projects (``scope``) — the groups of a per-all average."""
    from core.agents.kg.entity_index import get_entity_index

    idx = get_entity_index(store)
    scope = scope or {}
    pos, projs = set(scope.get("positions") or []), {str(x) for x in scope.get("projects") or []}
    if key == "工号":
        return [str(p["工号"]) for p in idx.people if not p.get("离职日期")
                and (not pos or p.get("岗位名称") in pos)
                and (not projs or str(p.get("当前服务项目编号")) in projs)]
    return [str(p["项目编号"]) for p in idx.projects if p.get("服务状态") == "服务中"
            and (not projs or str(p["项目编号"]) in projs)]


def widen_avg(res: dict, groups: list[str]) -> dict:
    """The nested-average row recomputed over every group of the population (missing ones = 0)."""
    have = {str(g.get(res.get("分组"))) for g in res.get("各组") or [] if g.get("值") is not None}
    total = res.get("合计") or 0
    n = len(set(groups) | have)
    if not n:
        return res
    return {**res, "值": round(total / n, 2), "组数": n, "有记录组数": len(have), "全员口径": True,
            "无记录组数": n - len(have)}


def pp_sentence(rows: list[dict], base: str, current: str, name: str) -> str:
    """"2026年3月出勤率比2026年2月高 0.38 个百分点" from per-month ratio rows."""
    by = {str(r.get("年月")): r.get("比率") for r in rows}
    b, c = by.get(base), by.get(current)
    if b is None or c is None:
        miss = [m for m, v in ((current, c), (base, b)) if v is None]
        return f"数据中未找到{'、'.join(ym_cn(m) for m in miss)}的{name}，无法比较。"
    d = round(float(c) - float(b), 2)
    if d == 0:
        return f"{ym_cn(current)}{name}与{ym_cn(base)}持平（均为 {fmt_value(c)}%）。"
    word = "高" if d > 0 else "低"
    return (f"{ym_cn(current)}{name}比{ym_cn(base)}{word} {fmt_value(abs(d))} 个百分点"
            f"（{fmt_value(c)}% − {fmt_value(b)}% = {fmt_value(d)} 个百分点）。")
