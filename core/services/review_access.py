"""Who may review what, for the weekly review (:mod:`core.services.review`) and the evaluation
reports: the reviewing roles, whether a record of some tenant is a reviewer's to see, and a
recorded answer masked as the reviewer's own role would see it on the Q&A pages (citations of
documents they may not read hidden, KG answers about sensitive data hidden)."""

from __future__ import annotations

import re
from typing import Iterable

from core.errors import PermissionDenied
from core.storage.db import get_db

REVIEW_ROLES = ("admin", "manager", "reviewer")


def require_reviewer(principal) -> None:
    role = getattr(getattr(principal, "role", None), "value", None)
    if role not in REVIEW_ROLES:
        raise PermissionDenied("只有评测员、部门经理和管理员可以使用每周复盘和评测报告")


def tenant_visible(principal, tenant: str | None) -> bool:
    """Whether a record stored for ``tenant`` (comma-separated tenants) is ``principal``'s to
    see: administrators see all, others the records of one of their tenants."""
    if principal.is_admin:
        return True
    return bool(set(filter(None, str(tenant or "").split(","))) & set(principal.tenants))


def _hidden_docs(principal, doc_ids: Iterable[str]) -> set[str]:
    """Cited documents ``principal`` may not see (tenant, domain, pending review)."""
    ids = sorted({d for d in doc_ids if d})
    if not ids:
        return set()
    from core.documents.models import DocMeta
    from core.retrieval.filters import doc_visible

    rows = get_db().query(f"SELECT doc_id, file_name, tenant, domain, review_state FROM documents WHERE doc_id IN "
                          f"({', '.join('?' * len(ids))})", ids)
    hidden = set()
    for r in rows:
        meta = DocMeta(doc_id=r["doc_id"], file_name=r["file_name"], tenant=r["tenant"] or "", domain=r["domain"] or "",
                       review_state=r["review_state"])
        if not doc_visible(meta, principal):
            hidden.add(r["doc_id"])
    return hidden


HIDDEN_TEXT = "（按您的权限已隐藏）"


def _visible_conflicts(conflicts: list[dict], hidden: set[str]) -> list[dict]:
    return [c for c in conflicts if not {(c.get("answer_side") or {}).get("doc_id"),
                                          (c.get("other_side") or {}).get("doc_id")} & hidden]


def _masked_detail(principal, kind: str, detail: dict) -> dict:
    """The recorded question detail as ``principal`` may see it (as on the Q&A pages):
    citations of documents they may not read, and the sentences citing them, hidden; a KG
    answer about sensitive data (收费/工资) hidden from roles without that right."""
    d = dict(detail)
    if kind in ("docs", "task"):  # a task report cites documents like an answer
        cites = d.get("citations") or []
        sides = [s.get("doc_id") for c in d.get("conflicts") or [] for s in (c.get("answer_side") or {}, c.get("other_side") or {})]
        hidden = _hidden_docs(principal, [*(c.get("doc_id") for c in cites), *sides])
        if hidden:
            d["conflicts"] = _visible_conflicts(d.get("conflicts") or [], hidden)
            hidden_n = {str(c.get("n")) for c in cites if c.get("doc_id") in hidden}
            d["citations"] = [c if c.get("doc_id") not in hidden else
                              {"n": c.get("n"), "file_name": HIDDEN_TEXT, "hidden": True} for c in cites]
            parts = re.split(r"(?<=[。！？\n])", str(d.get("answer") or ""))
            d["answer"] = "".join(HIDDEN_TEXT if any(f"[{n}]" in p for n in hidden_n) else p for p in parts)
            trace = []
            for t in d.get("trace") or []:
                t = dict(t)
                if t.get("conflicts"):
                    t["conflicts"] = _visible_conflicts(t["conflicts"], hidden)
                if t.get("grades"):
                    t["grades"] = [g for g in t["grades"] if not any(str(g.get("chunk_id", "")).startswith(h) for h in hidden)]
                trace.append(t)
            d["trace"] = trace
        return d
    from core.security.permissions import SENSITIVE_INTENTS, can_see_sensitive, category_of

    intent = (d.get("slots") or {}).get("intent")
    if intent and category_of(str(intent)) in SENSITIVE_INTENTS and not can_see_sensitive(principal):
        d["answer"] = HIDDEN_TEXT + "（该回答涉及敏感数据）"
        d["queries"] = [{k: v for k, v in q.items() if k != "executed_params"} for q in d.get("queries") or []]
    return d
