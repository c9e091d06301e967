"""Ground slots on the graph: project / person / area mentions → keys (with confidence and
the method that matched), time → months clipped to the data's coverage, filter words →
canonical values. The grounding record is kept for provenance and the confirm card."""

from __future__ import annotations

import re

from core.agents.kg.kgrules import rules_file
from core.agents.kg.timeparse import TimeRange, clip_to_coverage, coverage_label, coverage_note



def accept_score(rec: dict) -> float:
    """The score a match needs to be answered with (``grounding_scores`` in
    data/rules/kg_vocabulary.json). A look-alike name (edit similarity) whose asked form has
    characters the matched name lacks is never answered: 青浦-游泳馆 is not 青浦-体育馆, and
    徐汇-科技大厦 is not 徐汇-科创大厦 (the nearest names are offered instead); 那个图书馆项目 is
    青浦-区图书馆."""
    bars = rules_file("kg_vocabulary")["grounding_scores"]
    if rec.get("method") != "edit":
        return bars["accept"]
    asked = str(rec.get("text") or "")
    for word in bars["filler"]:
        asked = asked.replace(word, "")
    own = set(str(rec.get("matched") or "") + str(rec.get("name") or ""))
    return bars["accept"] if set(asked) <= own else float("inf")


# intents whose facts are monthly (考勤/排班/财务 …): their time is checked against the data's coverage
MONTHLY_INTENTS = frozenset({"考勤", "工资", "排班", "收费", "缺勤", "项目缺口", "服务期", "人员", ""})


def ground_slots(slots: dict, index) -> dict:
    out = {"projects": [], "people": [], "areas": [], "filters": dict(slots.get("filters") or {}),
           "ungrounded": [], "ambiguous": []}
    for text in slots.get("projects") or []:
        cands = index.resolve("project", text)
        if not cands:
            out["ungrounded"].append({"kind": "project", "text": text})
            continue
        best = cands[0]
        same = [c for c in cands if abs(c.score - best.score) < 1e-6]
        chosen = best
        if len(same) > 1:
            serving = [c for c in same if c.status == "服务中"]
            chosen = serving[0] if serving else best
        rec = {"text": text, **chosen.to_dict(), "candidates": [c.to_dict() for c in cands[:5]]}
        if chosen.score < accept_score(rec):
            # too uncertain to query with: report it with the nearest names instead of guessing
            out["ungrounded"].append({"kind": "project", "text": text, "nearest": [c.name for c in cands[:3]]})
            out["ambiguous"].append(rec)
            continue
        out["projects"].append(rec)
    if slots.get("children_of") and out["projects"]:
        parents = {p["key"] for p in out["projects"]}
        kids = [j for j in index.projects if str(j.get("上级项目编号") or "") in parents]
        if kids:
            out["parents"] = out["projects"]
            out["projects"] = [{"text": p["text"], "kind": "project", "key": str(j["项目编号"]),
                                "name": index.display("project", str(j["项目编号"])), "score": p["score"],
                                "method": "子项目", "matched": p["key"], "status": str(j.get("服务状态") or ""),
                                "candidates": []} for p in out["parents"] for j in kids
                               if str(j.get("上级项目编号")) == p["key"]]
            if slots.get("with_parent"):  # "文体中心连同它下属的子项目": the parent's own records too
                out["projects"] = [*out["parents"], *out["projects"]]
    for text in slots.get("areas") or []:
        cands = index.resolve("area", text)
        if cands:
            area = index.area_by_code.get(cands[0].key, {})
            rec = {"text": text, **cands[0].to_dict(), "projects": list(area.get("项目编号列表") or [])}
            out["areas"].append(rec)
        else:
            out["ungrounded"].append({"kind": "area", "text": text})
    for text in slots.get("people") or []:
        cands = index.resolve("person", text)
        if not cands:
            out["ungrounded"].append({"kind": "person", "text": text, "nearest": look_alike_people(text, index.people)})
            continue
        for c in cands:
            out["people"].append({"text": text, **c.to_dict()})
    if slots.get("managed_by") and out["people"]:
        # "王志强负责的项目…": the projects whose 项目负责人 is the named person stand for them
        bosses = {p["key"] for p in out["people"]}
        managed = [j for j in index.projects if str(j.get("项目负责人工号") or "") in bosses]
        out["managers"], out["people"] = out["people"], []
        out["projects"] += [{"text": m["text"], "kind": "project", "key": str(j["项目编号"]),
                             "name": index.display("project", str(j["项目编号"])), "score": m["score"],
                             "method": "负责项目", "matched": m["key"], "status": str(j.get("服务状态") or ""),
                             "candidates": []} for m in out["managers"] for j in managed
                            if str(j.get("项目负责人工号")) == m["key"]]
    tr = TimeRange.from_dict(slots.get("time"))
    cov = index.coverage
    out["coverage"] = list(cov) if cov else None
    out["coverage_label"] = coverage_label(cov)
    dated_people = slots.get("intent") in ("人员", "") and re.search(r"入职|离职", slots.get("question") or "")
    if tr and (slots.get("intent") not in MONTHLY_INTENTS or dated_people):
        # bids (年份), inspections/procurement (dates), projects: the monthly-fact coverage does not apply
        out["time"] = tr.to_dict()
        out["months"] = tr.months
        out["time_note"], out["time_outside"] = None, False
    elif tr:
        out["time"] = tr.to_dict()
        out["months"] = clip_to_coverage(tr, cov)
        out["time_note"] = coverage_note(tr, cov)
        out["time_outside"] = bool(cov) and not out["months"]
    else:
        out["time"], out["months"], out["time_note"], out["time_outside"] = None, [], None, False
    return out


def look_alike_people(text: str, people: list[dict], limit: int = 2) -> list[str]:
    """Known names as long as ``text`` differing from it in one character (周建明 → 周建国): offered
    as a suggestion only, never queried with."""
    names = sorted({str(p.get("姓名") or "") for p in people})
    return [n for n in names if len(n) == len(text) and sum(a != b for a, b in zip(n, text)) == 1][:limit]


def project_codes(grounded: dict) -> list[str]:
    codes = [p["key"] for p in grounded.get("projects") or []]
    for a in grounded.get("areas") or []:
        codes.extend(a.get("projects") or [])
    seen, out = set(), []
    for c in codes:
        if c not in seen:
            seen.add(c)
            out.append(c)
    return out


def person_ids(grounded: dict) -> list[str]:
    return [p["key"] for p in grounded.get("people") or []]


def confidence_ok(grounded: dict) -> bool:
    anchors = (grounded.get("projects") or []) + (grounded.get("people") or [])
    return (all(a.get("score", 0) >= accept_score(a) for a in anchors)
            and not grounded.get("ungrounded"))
