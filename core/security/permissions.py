"""Role × intent permissions for business-graph Q&A (seed 003 §11.4).

Default deny: an intent not in a role's row is refused. The sensitive intents are 收费 and 工资;
roles without them also get the sensitive fields stripped from result rows
(:mod:`core.security.masking`).
"""

from __future__ import annotations

from core.errors import PermissionDenied
from core.security.principals import ROLE_LABELS, Principal, Role

#: Every KG intent and the permission category that guards it.
INTENT_CATEGORY: dict[str, str] = {
    "考勤": "考勤", "缺勤": "考勤",
    "排班": "排班",
    "设备": "设备",
    "服务期": "服务期", "从属": "服务期", "续签": "服务期", "项目缺口": "服务期",
    "证书": "证书",
    "人员": "人员", "编制": "人员",
    "项目": "项目", "检查": "项目", "采购": "项目",
    # bids are 市场部 project records, areas are 运营部 project groupings, a parent is 从属
    "投标": "项目", "片区": "项目", "从属上级": "服务期",
    "收费": "收费",
    "工资": "工资",
}
CATEGORIES = ("考勤", "排班", "设备", "服务期", "证书", "人员", "项目", "收费", "工资")
SENSITIVE_INTENTS = frozenset({"收费", "工资"})

MATRIX: dict[Role, frozenset[str]] = {
    Role.admin: frozenset(CATEGORIES),
    Role.manager: frozenset(CATEGORIES),
    Role.staff: frozenset(c for c in CATEGORIES if c not in SENSITIVE_INTENTS),
    Role.guest: frozenset({"考勤", "排班"}),
    # reviewers read other people's answers in the review queue; they ask no KG questions of
    # their own, and see what they review masked as this row allows (no sensitive fields)
    Role.reviewer: frozenset(),
}


def category_of(intent: str) -> str:
    return INTENT_CATEGORY.get(intent, intent)


def allowed_intent(principal: Principal, intent: str) -> bool:
    return category_of(intent) in MATRIX.get(principal.role, frozenset())


def can_see_sensitive(principal: Principal) -> bool:
    """Sensitive fields (工资/费用/联系方式/身份证/政治面貌) are for roles holding 工资."""
    return "工资" in MATRIX.get(principal.role, frozenset())


def denial_message(principal: Principal, intent: str) -> str:
    role = ROLE_LABELS.get(principal.role.value, principal.role.value)
    allowed = [c for c in CATEGORIES if c in MATRIX.get(principal.role, frozenset())]
    return (f"抱歉，您的角色（{role}）无权查询“{category_of(intent)}”类数据。"
            f"您可以查询：{'、'.join(allowed) or '（无）'}。如需更多权限请联系管理员。")


def check_intent(principal: Principal, intent: str) -> None:
    """Raise :class:`PermissionDenied` with a clear Chinese message when not allowed."""
    if not allowed_intent(principal, intent):
        raise PermissionDenied(denial_message(principal, intent))
