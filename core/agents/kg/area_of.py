"""Which 片区 a project or a person belongs to ("王志强是哪个片区的", "工业园区属于哪个片区"): the
project (or the person's project) is looked up in the areas' 项目编号列表 and the area is said
first. The records alone never answer it — without a matching area the answer's headline does
not mention 片区 and the asked-slot gate refuses. The cue is data (``area_of`` in
``data/rules/kg_vocabulary.json``)."""

from __future__ import annotations

import re

from core.agents.kg import kgrules


def _asks_area(question: str, slots: dict) -> bool:
    spec = kgrules.rules_file("kg_vocabulary")["area_of"]
    return bool(re.search(spec["pattern"], question or "")) and not slots.get("areas")


def _subject(row: dict) -> str:
    if row.get("姓名"):
        return f"{row['姓名']}（{row['工号']}）" if row.get("工号") else str(row["姓名"])
    name, code = row.get("项目名称"), row.get("项目编号")
    return f"{name}（{code}）" if name and code else str(name or code or "")


def statement(question: str, slots: dict, steps: list[dict], areas: list[dict]) -> str:
    """"王志强（KWL2003003）所在项目青浦-工业园区（XMSQ0105）属于青浦片区" lines, or "" when not asked
    or when no named record's project is in an area."""
    if not steps or not _asks_area(question, slots):
        return ""
    rows = steps[-1].get("rows") or []
    if not rows or len(rows) > 10 or "片区名称" in rows[0]:  # area records name their area already
        return ""
    lines = []
    for r in rows:
        code = r.get("项目编号")
        names = [str(a.get("片区名称")) for a in areas if code and code in (a.get("项目编号列表") or [])]
        if len(names) != 1:
            continue
        via = f"所在项目{r.get('项目名称')}（{code}）" if r.get("姓名") and r.get("项目名称") else ""
        lines.append(f"{_subject(r)}{via}属于{names[0]}")
    return "；".join(dict.fromkeys(lines)) + "。" if lines else ""
