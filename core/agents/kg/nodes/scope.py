"""⑧ scope: more than 30 result rows → interrupt with options (one project / filter by
position / summary / all); asked once per question, then back to plan."""

from __future__ import annotations

from collections import Counter

from langgraph.types import interrupt

from core.agents.kg.state import SCOPE_LIMIT, trace

ALL = "返回全部"
SUMMARY = "只看汇总"


def scope_options(rows: list[dict]) -> list[str]:
    opts = []
    projects = Counter(r.get("项目编号") for r in rows if r.get("项目编号"))
    if len(projects) > 1:
        code, _ = projects.most_common(1)[0]
        name = next((r.get("项目名称") for r in rows if r.get("项目编号") == code), "") or code
        opts.append(f"只看项目：{name}（{code}）")
    positions = Counter(r.get("岗位名称") for r in rows if r.get("岗位名称"))
    if len(positions) > 1:
        opts.append(f"按岗位筛选：{positions.most_common(1)[0][0]}")
    opts += [SUMMARY, ALL]
    return opts


def parse_scope(reply, rows: list[dict]) -> dict:
    text = str(reply.get("choice") if isinstance(reply, dict) else reply or "").strip()
    if text.startswith("只看项目"):
        code = text.rsplit("（", 1)[-1].rstrip("）") if "（" in text else text.split("：", 1)[-1]
        return {"projects": [code], "label": text}
    if text.startswith("按岗位筛选"):
        return {"positions": [text.split("：", 1)[-1].strip()], "label": text}
    if SUMMARY in text or text == "汇总":
        return {"summary": True, "label": text}
    return {"all": True, "label": ALL}


def scope(state: dict, *, config) -> dict:
    rows = (state.get("steps") or [{}])[-1].get("rows") or []
    reply = interrupt({"kind": "scope", "text": f"查询结果共 {len(rows)} 行（超过 {SCOPE_LIMIT} 行），请选择范围：",
                       "options": scope_options(rows)})
    choice = parse_scope(reply, rows)
    return {"scope": choice, "scope_offered": True, "trace": trace(state, "scope", choice=choice.get("label"))}
