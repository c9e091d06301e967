"""The weekly review's summary and exports (the page 每周复盘): cases by class, status and
source, 👍/👎, the refusal rate, the documents and intents asked about most and the trend over
the last weeks, and the week as an .xlsx workbook or a Markdown report (both audited)."""

from __future__ import annotations

import io
from collections import Counter
from datetime import datetime

from core.services.review import (CATEGORY_LABELS, KIND_LABELS, SOURCE_LABELS, STATUS_LABELS, _feedback_event,
                                  _user_tenant, _week_events, _week_feedback, week_queue, weeks_back)
from core.services.review_access import _hidden_docs, tenant_visible
from core.storage.db import get_db


def _visible_feedback(principal, rows: list[dict]) -> list[dict]:
    """Ratings of answers ``principal`` may review: the tenant of the rated answer's event,
    else the rater's tenants."""
    if principal.is_admin:
        return rows
    users: dict[str | None, str | None] = {}
    cache: dict = {}
    out = []
    for r in rows:
        eid = _feedback_event(r, cache)
        tenant = None
        if eid is not None:
            ev = get_db().one("SELECT tenant FROM audit_log WHERE id = ?", (eid,))
            tenant = ev["tenant"] if ev else None
        if tenant is None:
            if r["user_name"] not in users:
                users[r["user_name"]] = _user_tenant(r["user_name"])
            tenant = users[r["user_name"]]
        if tenant_visible(principal, tenant):
            out.append(r)
    return out


def week_summary(principal, week: str | None = None, *, weeks: int = 12, now: datetime | None = None) -> dict:
    """Counts by class and status, 👍/👎, refusal rate, top documents and intents, and the
    trend over the last ``weeks`` weeks."""
    queue = week_queue(principal, week, now=now)
    week = queue["week"]
    trend = []
    top_docs: Counter = Counter()
    top_intents: Counter = Counter()
    for w in weeks_back(week, weeks):
        events = [e for e in _week_events(w) if tenant_visible(principal, e["tenant"])]
        fb = _visible_feedback(principal, _week_feedback(w))
        answered = [e for e in events if e["outcome"] != "waiting"]
        refused = sum(1 for e in answered if e["outcome"] == "refused")
        up, down = sum(1 for f in fb if int(f["rating"]) == 1), sum(1 for f in fb if int(f["rating"]) == -1)
        cases = get_db().query("SELECT tenant, category FROM bad_cases WHERE week = ?", (w,))
        cases = [c for c in cases if tenant_visible(principal, c["tenant"])]
        trend.append({"week": w, "questions": len(answered), "refused": refused,
                      "refusal_rate": round(refused / len(answered), 4) if answered else None,
                      "up": up, "down": down, "cases": len(cases),
                      "classified": sum(1 for c in cases if c["category"])})
        if w == week:
            hidden = _hidden_docs(principal, (c.get("doc_id") for e in events for c in e["detail"].get("citations") or []))
            for e in events:
                if e["kind"] == "docs":
                    top_docs.update({c.get("file_name") for c in e["detail"].get("citations") or []
                                     if c.get("file_name") and c.get("doc_id") not in hidden})
                elif (e["detail"].get("slots") or {}).get("intent"):
                    top_intents[e["detail"]["slots"]["intent"]] += 1
    this = trend[-1]
    counts = queue["counts"]
    return {
        "week": week, "cases": counts["total"],
        "by_category": {CATEGORY_LABELS.get(k, "未分类"): v for k, v in counts["by_category"].items()},
        "by_status": {STATUS_LABELS.get(k, k): v for k, v in counts["by_status"].items()},
        "by_source": {SOURCE_LABELS.get(k, k): v for k, v in counts["by_source"].items()},
        "questions": this["questions"], "refused": this["refused"], "refusal_rate": this["refusal_rate"],
        "thumbs_up": this["up"], "thumbs_down": this["down"],
        "up_ratio": round(this["up"] / (this["up"] + this["down"]), 4) if this["up"] + this["down"] else None,
        "top_documents": [{"name": k, "count": v} for k, v in top_docs.most_common(10)],
        "top_intents": [{"name": k, "count": v} for k, v in top_intents.most_common(10)],
        "trend": trend,
    }


def _pct(v) -> str:
    return "—" if v is None else f"{v:.1%}"


EXPORT_COLUMNS = (("id", "编号"), ("kind", "类型"), ("source", "来源"), ("question", "问题"), ("answer", "回答"),
                  ("user", "提问人"), ("tenant", "租户"), ("category", "分类"), ("status", "状态"),
                  ("expected", "期望答案"), ("evidence", "依据"), ("assignee", "负责人"), ("feedback", "用户反馈"))


def _export_value(case: dict, key: str):
    v = case.get(key)
    if key == "kind":
        return KIND_LABELS.get(v, v)
    if key == "source":
        return "、".join(SOURCE_LABELS.get(s, s) for s in case.get("sources") or [v])
    if key == "category":
        return CATEGORY_LABELS.get(v or "", "未分类")
    if key == "status":
        return STATUS_LABELS.get(v, v)
    if key == "feedback":
        return ("👎 " + (v.get("reason") or "")) if v and v.get("rating") == -1 else ("👍" if v else "")
    return v


def export_excel(principal, week: str | None = None) -> bytes:
    """The week's summary and cases as an .xlsx (every cell through safe_cell). Audited."""
    from openpyxl import Workbook

    from core.security.audit import audit
    from core.security.export import safe_row

    s = week_summary(principal, week)
    cases = week_queue(principal, s["week"])["cases"]
    wb = Workbook()
    ws = wb.active
    ws.title = "汇总"
    for row in _summary_rows(s):
        ws.append(safe_row(row))
    ws2 = wb.create_sheet("复盘用例")
    ws2.append([label for _k, label in EXPORT_COLUMNS])
    for c in cases:
        ws2.append(safe_row(_export_value(c, k) for k, _label in EXPORT_COLUMNS))
    ws3 = wb.create_sheet("近12周趋势")
    ws3.append(["周", "提问数", "拒答数", "拒答率", "👍", "👎", "复盘用例", "已分类"])
    for t in s["trend"]:
        ws3.append(safe_row([t["week"], t["questions"], t["refused"], t["refusal_rate"], t["up"], t["down"],
                             t["cases"], t["classified"]]))
    buf = io.BytesIO()
    wb.save(buf)
    audit(principal.name, "export.review_xlsx", detail={"week": s["week"], "rows": len(cases)})
    return buf.getvalue()


def _summary_rows(s: dict) -> list[list]:
    rows = [["周", s["week"]], ["复盘用例", s["cases"]], ["提问数", s["questions"]], ["拒答率", _pct(s["refusal_rate"])],
            ["👍", s["thumbs_up"]], ["👎", s["thumbs_down"]], ["👍 占比", _pct(s["up_ratio"])]]
    rows += [[f"分类：{k}", v] for k, v in s["by_category"].items()]
    rows += [[f"状态：{k}", v] for k, v in s["by_status"].items()]
    rows += [[f"来源：{k}", v] for k, v in s["by_source"].items()]
    rows += [[f"文档：{d['name']}", d["count"]] for d in s["top_documents"]]
    rows += [[f"意图：{d['name']}", d["count"]] for d in s["top_intents"]]
    return rows


def export_markdown(principal, week: str | None = None) -> str:
    """The weekly summary as Markdown (for a weekly report mail or wiki page). Audited."""
    from core.security.audit import audit

    s = week_summary(principal, week)
    cases = week_queue(principal, s["week"])["cases"]
    cell = lambda v: str("" if v is None else v).replace("\n", " ").replace("|", "｜")[:80]  # noqa: E731
    lines = [f"# 每周复盘 {s['week']}", "",
             f"提问 {s['questions']} 个，拒答率 {_pct(s['refusal_rate'])}；👍 {s['thumbs_up']} / 👎 {s['thumbs_down']}"
             f"（👍 占比 {_pct(s['up_ratio'])}）；复盘用例 {s['cases']} 个。", ""]
    for title, key in (("按分类", "by_category"), ("按状态", "by_status"), ("按来源", "by_source")):
        if s[key]:
            lines += [f"## {title}", "", "| 项 | 数量 |", "|---|---|"] + [f"| {k} | {v} |" for k, v in s[key].items()] + [""]
    for title, key in (("涉及最多的文档", "top_documents"), ("涉及最多的意图", "top_intents")):
        if s[key]:
            lines += [f"## {title}", ""] + [f"- {cell(d['name'])}：{d['count']}" for d in s[key]] + [""]
    lines += ["## 近 12 周趋势", "", "| 周 | 提问 | 拒答率 | 👍 | 👎 | 复盘用例 |", "|---|---|---|---|---|---|"]
    lines += [f"| {t['week']} | {t['questions']} | {_pct(t['refusal_rate'])} | {t['up']} | {t['down']} | {t['cases']} |"
              for t in s["trend"]]
    if cases:
        lines += ["", "## 用例", "", "| 编号 | 来源 | 问题 | 分类 | 状态 | 负责人 |", "|---|---|---|---|---|---|"]
        lines += [f"| {c['id']} | {cell(_export_value(c, 'source'))} | {cell(c['question'])} | "
                  f"{_export_value(c, 'category')} | {_export_value(c, 'status')} | {cell(c['assignee'])} |" for c in cases]
    audit(principal.name, "export.review_md", detail={"week": s["week"], "rows": len(cases)})
    return "\n".join(lines) + "\n"
