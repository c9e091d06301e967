"""The audit log as administrators read it: the page 审计日志 and ``audit`` on the command line.
Events are written by the services themselves (core.security.audit)."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

from core.errors import BadInputError
from core.security import audit as A

#: event kinds an administrator filters by (prefixes of the recorded actions)
KIND_LABELS: dict[str, str] = {
    "question": "提问", "login": "登录", "users": "用户与权限", "ingest_docs": "文档导入", "doc": "文档审核与状态",
    "build": "图谱构建", "explore": "图谱浏览", "export": "导出", "demo": "示例数据", "audit": "审计日志维护",
    "conversations": "对话记录维护",
}
CSV_COLUMNS = (("at", "时间（UTC）"), ("kind", "类型"), ("user", "用户"), ("tenant", "租户"), ("target", "对象"),
               ("outcome", "结果"), ("summary", "摘要"))


def _day(value: str | date | None, field: str) -> str | None:
    if value in (None, ""):
        return None
    try:
        return (value if isinstance(value, date) else date.fromisoformat(str(value).strip())).isoformat()
    except ValueError:
        raise BadInputError(f"{field}应为日期（YYYY-MM-DD），收到“{value}”") from None


def list_events(principal, *, of: str | None = None, kind: str | None = None, since: str | date | None = None,
                until: str | date | None = None, limit: int = 200) -> list[dict]:
    """Events newest first; ``until`` is inclusive (the whole day)."""
    end = _day(until, "结束日期")
    if end is not None:
        end = (date.fromisoformat(end) + timedelta(days=1)).isoformat()
    rows = A.events(principal, of=(of or "").strip() or None, kind=(kind or "").strip() or None,
                    since=_day(since, "开始日期"), until=end, limit=limit)
    return [{**r, "summary": summary(r)} for r in rows]


def summary(event: dict) -> str:
    """One line a person can read: the question and how it ended, or the event's target."""
    d = event.get("detail") if isinstance(event.get("detail"), dict) else {}
    if str(event.get("kind", "")).startswith("question."):
        ans = str(d.get("answer") or "").replace("\n", " ")
        return f"{d.get('question', '')} → {ans[:60]}{'…' if len(ans) > 60 else ''}"
    return str(d.get("summary") or event.get("target") or "")


def event_detail(principal, event_id: int) -> dict:
    return A.event(principal, event_id)


def events_csv(principal, events: list[dict]) -> bytes:
    """The listed events as a CSV (UTF-8 with BOM for Excel); cells that look like formulas are
    defused. Recorded as an export."""
    from core.security.export import safe_row

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow([label for _k, label in CSV_COLUMNS])
    for e in events:
        w.writerow(safe_row(e.get(k) for k, _label in CSV_COLUMNS))
    A.audit(principal.name, "export.audit_csv", detail={"rows": len(events)})
    return ("\ufeff" + buf.getvalue()).encode("utf-8")


def purge(principal) -> int:
    return A.purge_expired(principal)
