"""What the settings page shows: the effective configuration with secrets hidden."""

from __future__ import annotations

import re

from core.config import SETTINGS_SPEC, get_settings

_SECRET = ("password", "api_key")


def effective_settings() -> list[dict]:
    s = get_settings()
    rows = []
    for name, var, _typ, default, desc in SETTINGS_SPEC:
        value = getattr(s, name)
        if any(k in name for k in _SECRET):
            shown = "已设置" if value else "未设置"
        elif name == "database_url" and value:
            shown = re.sub(r"//([^:@/]+):[^@/]*@", r"//\1:***@", str(value))
        else:
            shown = str(value)
        rows.append({"变量": var, "当前值": shown, "说明": desc})
    return rows


def split_list(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[,，、;；\s]+", text or "") if p.strip()]
