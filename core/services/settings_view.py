"""What the settings page shows: the effective configuration with secrets hidden. Only
administrators may see it (the page is admin-only in ``app.py`` and checked here again)."""

from __future__ import annotations

import re

from core.config import SETTINGS_SPEC, get_settings
from core.errors import PermissionDenied
from core.security.principals import Principal
from core.security.redact import mask_secrets

_SECRET = ("password", "api_key")


def require_settings_access(actor: Principal | None) -> None:
    """Settings, component status and all-tenant counts are for administrators only."""
    if actor is None or not actor.is_admin:
        raise PermissionDenied("只有管理员可以查看设置与状态")


def effective_settings(actor: Principal | None) -> list[dict]:
    require_settings_access(actor)
    s = get_settings()
    rows = []
    for name, var, _typ, default, desc in SETTINGS_SPEC:
        value = getattr(s, name)
        if any(k in name for k in _SECRET):
            shown = "已设置" if value else "未设置"
        else:
            shown = mask_secrets(str(value), s)
        rows.append({"变量": var, "当前值": shown, "说明": desc})
    return rows


def split_list(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[,，、;；\s]+", text or "") if p.strip()]
