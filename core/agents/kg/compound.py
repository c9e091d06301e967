"""Questions that lean on an answer: a compound "…是谁，他负责几个项目" split in two, the person /
project a finished answer names, and "他…" / "该项目…" in the next question resolved to it."""

from __future__ import annotations

import re

_COMPOUND_RE = re.compile(r"^(?P<first>.{2,}?(?:是谁(?:去)?(?:投|经办|负责|做|报)?的?|是哪位|是哪个人|是哪个项目|是哪一个|是什么|叫什么)"
                          r"|(?:请问)?谁(?:在|来)?(?:负责|管)[^，,；;。？?]{2,20})\s*[，,；;。？?]\s*"
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
            keep = {k for r in rows for k in (r.get(gb) if isinstance(r.get(gb), list) else [r.get(gb)])}
            if len(keep) > 3:
                return {}
            src = [r for r in base.get("rows") or [] if r.get(gb) in keep]
    if not src:
        return {}
    people = list(dict.fromkeys(str(r["姓名"]) for r in src if r.get("姓名") and r.get("工号")))
    if last.get("tool") == "project" or (not people and "项目负责人" in src[0]):
        # "…的项目负责人是谁": the project row names its manager
        people = list(dict.fromkeys(str(r["项目负责人"]) for r in src if r.get("项目负责人")))
    if not people:  # "人民医院那个标是谁投的？他电话多少？": the person a record holds by id, named
        people = list(dict.fromkeys(str(r[f[:-2] + "姓名"]) for r in src for f in r
                                    if f.endswith("工号") and f != "工号" and r.get(f[:-2] + "姓名")))
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
