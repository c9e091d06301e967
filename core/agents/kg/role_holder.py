"""The holder of a role, asked about as a person: "青浦片区负责人的联系电话", "徐汇-滨江公园所在片区的
负责人是谁". The named area or project is looked up in the entity index, its head (片区负责人工号 /
项目负责人工号, or the head of the 片区 a project belongs to) replaces the role words, and the
question is read about that person — never answered from the area/project record, which has no
such field. Cue words are data (``role_holder`` in ``data/rules/kg_vocabulary.json``)."""

from __future__ import annotations

import re
from functools import lru_cache

from core.agents.kg import kgrules
from core.graph.schema import NODE_BY_LABEL


@lru_cache(maxsize=1)
def _person_words() -> tuple[str, ...]:
    """Wordings of a person's own fields: 人员 property names and the 人员 concept words (电话, 生日)."""
    from core.agents.kg.concepts import CONCEPTS

    skip = ("显示名", "来源模板", "来源文件", "行号", "工号", "姓名")  # the record names its head already
    props = {p for p in NODE_BY_LABEL["人员"].property_names if p not in skip}
    words = props | {w for w, c in CONCEPTS.items() if c.get("label") == "人员" and c.get("property")}
    return tuple(sorted(words, key=len, reverse=True))


def _head_of(index, kind: str, key: str, role: str | None) -> str | None:
    """工号 of the head: of the area, of the project, or of the area a project belongs to."""
    fields = kgrules.rules_file("kg_vocabulary")["role_holder"]["holder_fields"]
    if kind == "area" or (kind == "project" and role == "片区"):
        areas = [index.area_by_code.get(key)] if kind == "area" else \
            [a for a in index.areas if key in (a.get("项目编号列表") or [])]
        heads = {str(a.get(fields["area"])) for a in areas if a and a.get(fields["area"])}
    else:
        row = index.project_by_code.get(key) or {}
        heads = {str(row[fields["project"]])} if row.get(fields["project"]) else set()
    return heads.pop() if len(heads) == 1 else None


def rewrite(question: str, index) -> str:
    """``question`` with "<area/project>(所在片区)的负责人" replaced by the head's 工号 when a person's
    own field (or, through another record kind, 是谁) is asked of them; unchanged otherwise."""
    from core.agents.kg.entity_index import name_key

    if index is None or len(name_key(question)) != len(question):
        return question  # mention offsets are in the blank-free form: only rewrite when they line up
    spec = kgrules.rules_file("kg_vocabulary")["role_holder"]
    for m in reversed(index.find_mentions(question)):
        if m["kind"] not in ("area", "project"):
            continue
        tail = question[m["end"]:]
        role = re.match(spec["pattern"], tail)
        if not role or not re.search(r"负责人|经理|主管", role.group(0)):
            continue
        rest = tail[role.end():]
        other_kind = role.group(1) and role.group(1) != {"area": "片区", "project": "项目"}[m["kind"]]
        own_date = bool(re.match(spec["when"], rest))  # 负责人是哪天入职的: the head's own 入职日期
        if not (rest.startswith(_person_words()) or own_date or (other_kind and re.match(spec["who"], rest))):
            continue
        cands = index.resolve(m["kind"], m["text"], allow_embedding=False)
        head = _head_of(index, m["kind"], cands[0].key, role.group(1)) if cands and cands[0].score >= 0.9 else None
        if head:
            joint = "的" if rest.startswith(_person_words()) else ""
            question = question[:m["start"]] + head + joint + rest
    return question


def head_area(question: str, index) -> str:
    """``question`` with "<person>那片(的)" replaced by the 片区 that person heads ("李晓峰那片的项目" →
    "徐汇片区的项目"); unchanged when the person heads no area or more than one."""
    from core.agents.kg.entity_index import name_key

    if index is None or len(name_key(question)) != len(question):
        return question
    spec = kgrules.rules_file("kg_vocabulary")["role_holder"]
    field = spec["holder_fields"]["area"]
    for m in reversed(index.find_mentions(question)):
        if m["kind"] != "person":
            continue
        tail = re.match(spec["head_area"], question[m["end"]:])
        cands = index.resolve("person", m["text"], allow_embedding=False) if tail else []
        if not cands or cands[0].score < 0.9:
            continue
        names = [str(a["片区名称"]) for a in index.areas if str(a.get(field) or "") == cands[0].key and a.get("片区名称")]
        if not names:  # not an area head: the area of the project the person serves
            code = (index.person_by_id.get(cands[0].key) or {}).get("当前服务项目编号")
            names = [str(a["片区名称"]) for a in index.areas if code and code in (a.get("项目编号列表") or [])]
        if len(names) == 1:
            question = question[:m["start"]] + names[0] + "的" + question[m["end"] + tail.end():]
    return question
