"""Who may retrieve what: tenant, domain, validity (by scenario) and review state.

The filter produces the candidate set *before* any scoring: BM25 and dense scores are only
computed over allowed chunks, so a document the principal may not see can never take a slot
in the top-k (nothing is filtered after ranking).
"""

from __future__ import annotations

from core.documents.models import DocMeta
from core.security.principals import Principal, Scenario

# scenario -> document statuses it may see
SCENARIO_STATUSES: dict[str, frozenset[str]] = {
    "window": frozenset({"in_effect"}),                           # 窗口咨询: current documents only
    "research": frozenset({"in_effect", "repealed", "expired", "upcoming"}),  # 政策研究: history + upcoming
}
STATUS_LABELS = {"in_effect": "现行有效", "repealed": "已废止", "expired": "已到期", "upcoming": "即将实施", "draft": "草案"}


def current_status(meta: DocMeta, today: str | None = None) -> str:
    """The status as of today: a document stored as in effect whose 有效期 / campaign period
    has passed since is expired (statuses are recomputed on changes, not every midnight)."""
    status = getattr(meta, "status", "")
    expiry = getattr(meta, "expiry_date", "") or ""
    if status == "in_effect" and not getattr(meta, "status_override", False) and expiry:
        from core.documents.metadata import today as _today

        if expiry < (today or _today().isoformat()):
            return "expired"
    return status
REVIEW_LABELS = {"approved": "已审核", "pending": "待审核"}


def scenario_of(principal: Principal, scenario: str | Scenario | None) -> str:
    if scenario is None:
        scenario = principal.scenario
    return scenario.value if isinstance(scenario, Scenario) else str(scenario)


def tenant_allowed(meta: DocMeta, principal: Principal) -> bool:
    """Admins with no tenant list see every tenant; anyone else only listed tenants (a
    non-admin with no tenants sees nothing: fail closed)."""
    if principal.is_admin and not principal.tenants:
        return True
    return bool(meta.tenant) and meta.tenant in principal.tenants


def domain_allowed(meta: DocMeta, principal: Principal) -> bool:
    if not principal.domains:
        return True
    return bool(meta.domain) and meta.domain in principal.domains


def doc_allowed(meta: DocMeta, principal: Principal, scenario: str | Scenario | None = None) -> bool:
    """May ``principal`` retrieve chunks of this document in this scenario?"""
    return docs_allowed([meta], principal, scenario)[0]


def docs_allowed(metas: list[DocMeta], principal: Principal, scenario: str | Scenario | None = None) -> list[bool]:
    """:func:`doc_allowed` for many documents (the scenario and today read once)."""
    from core.documents.metadata import today

    statuses = SCENARIO_STATUSES.get(scenario_of(principal, scenario), SCENARIO_STATUSES["window"])
    day = today().isoformat()
    return [meta.review_state == "approved"  # 待审核: never retrievable until approved
            and tenant_allowed(meta, principal) and domain_allowed(meta, principal)
            and current_status(meta, day) in statuses for meta in metas]


def doc_visible(meta: DocMeta, principal: Principal) -> bool:
    """May ``principal`` see the document in listings (any status; pending only for admins)?"""
    if meta.review_state != "approved" and not principal.is_admin:
        return False
    return tenant_allowed(meta, principal) and domain_allowed(meta, principal)
