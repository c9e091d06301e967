"""The 首页 (home page) figures for managers and administrators, scoped to the asker's tenants:
documents by tenant and status, the business graph's size by label, questions this week,
👍/👎 ratio, refusal rate and the latest evaluation against its baseline. Plain JSON-able dicts;
the page draws them with plotly."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from core.errors import AppError, PermissionDenied
from core.security.audit import QUESTION_KINDS
from core.security.principals import Principal, Role
from core.storage.db import get_db

HOME_ROLES = (Role.admin, Role.manager)


def require_home(principal: Principal) -> None:
    if principal is None or principal.role not in HOME_ROLES:
        raise PermissionDenied("首页只对管理员和部门经理开放")


def _in_scope(principal: Principal, tenant_field: str | None) -> bool:
    """Admins see every tenant; others the rows recorded for one of their tenants."""
    if principal.is_admin and not principal.tenants:
        return True
    tenants = {t for t in (tenant_field or "").split(",") if t}
    return bool(tenants & set(principal.tenants))


def _scoped_users(principal: Principal) -> set[str] | None:
    """Names of users sharing a tenant with ``principal`` (None = everyone, for admins)."""
    if principal.is_admin and not principal.tenants:
        return None
    out = set()
    for r in get_db().query("SELECT name, tenants FROM users"):
        try:
            theirs = set(json.loads(r["tenants"] or "[]"))
        except ValueError:
            theirs = set()
        if theirs & set(principal.tenants):
            out.add(r["name"])
    return out


def week_start(now: datetime | None = None) -> datetime:
    now = now or datetime.now(timezone.utc)
    monday = (now - timedelta(days=now.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)
    return monday


def question_stats(principal: Principal, *, since: datetime | None = None) -> dict:
    """Questions since ``since`` (default: Monday of this week, UTC) by kind, refusal rate, and
    👍/👎 counts from the feedback table, all within the principal's tenants."""
    require_home(principal)
    since = since or week_start()
    since_s = since.isoformat(timespec="seconds")
    marks = ",".join("?" for _ in QUESTION_KINDS)
    rows = get_db().query(f"SELECT action, outcome, tenant, at FROM audit_log WHERE action IN ({marks}) AND at >= ?",
                          (*QUESTION_KINDS, since_s))
    rows = [r for r in rows if _in_scope(principal, r["tenant"])]
    by_kind = {"docs": 0, "kg": 0}
    refused = 0
    by_day: dict[str, int] = {}
    for r in rows:
        by_kind[r["action"].split(".", 1)[1]] = by_kind.get(r["action"].split(".", 1)[1], 0) + 1
        refused += r["outcome"] == "refused"
        day = str(r["at"])[:10]
        by_day[day] = by_day.get(day, 0) + 1
    users = _scoped_users(principal)
    fb = get_db().query("SELECT user_name, rating FROM feedback WHERE at >= ?", (since_s,))
    fb = [f for f in fb if users is None or f["user_name"] in users]
    up = sum(1 for f in fb if int(f["rating"]) > 0)
    down = sum(1 for f in fb if int(f["rating"]) < 0)
    total = len(rows)
    return {"since": since_s[:10], "questions": total, "by_kind": by_kind, "by_day": dict(sorted(by_day.items())),
            "refused": refused, "refusal_rate": round(refused / total, 3) if total else None,
            "thumbs_up": up, "thumbs_down": down, "up_ratio": round(up / (up + down), 3) if up + down else None}


def document_stats(principal: Principal) -> dict:
    """Documents the principal may see, counted by tenant × status (and pending review)."""
    require_home(principal)
    from core.services.ingest import list_documents

    rows: dict[tuple[str, str], int] = {}
    pending = 0
    docs = list_documents(principal)
    for d in docs:
        key = (d["tenant"], d["status_label"])
        rows[key] = rows.get(key, 0) + 1
        pending += d["review_state"] == "pending"
    return {"total": len(docs), "pending": pending,
            "by_tenant_status": [{"tenant": t, "status": s, "count": n} for (t, s), n in sorted(rows.items())]}


def graph_stats(principal: Principal) -> dict:
    """The size of the graph the principal reads (their tenant's), by node label."""
    require_home(principal)
    from core.services.ask_kg import graph_tenant, kg_store

    try:
        counts = kg_store(principal).counts()
        tenant = graph_tenant(principal)
    except AppError:
        counts, tenant = {"nodes": {}, "edges": {}}, None
    nodes = {k: v for k, v in (counts.get("nodes") or {}).items() if v}
    edges = {k: v for k, v in (counts.get("edges") or {}).items() if v}
    return {"tenant": tenant, "nodes": nodes, "edges": edges, "node_total": sum(nodes.values()),
            "edge_total": sum(edges.values())}


def eval_stats(principal: Principal) -> dict | None:
    """The latest finished evaluation run ``principal`` may see (their tenants'; administrators
    all) and its comparison with the set's baseline (None when nothing has been evaluated yet)."""
    require_home(principal)
    from core.services import eval as E

    runs = [r for r in E.list_runs(principal, limit=20) if r["status"] == "done"]
    if not runs:
        return None
    latest = runs[0]
    cmp = E.compare(principal, latest["id"])
    return {"run": latest["id"], "set": latest["set"], "at": latest["at"], "baseline": cmp["baseline"],
            "rows": cmp["rows"], "regressions": cmp["regressions"]}


def home(principal: Principal) -> dict:
    """Everything the 首页 shows, in one call."""
    require_home(principal)
    return {"documents": document_stats(principal), "graph": graph_stats(principal),
            "questions": question_stats(principal), "eval": eval_stats(principal)}


def workspace_empty() -> bool:
    """No policy document and no business graph yet (the first login offers the demo data)."""
    from core.graph.store import graph_tenants
    from core.retrieval import index as index_module

    try:
        has_docs = bool(index_module.get_index().list_docs())
    except AppError:
        has_docs = False
    try:
        has_graph = bool(graph_tenants())
    except AppError:
        has_graph = False
    return not has_docs and not has_graph
