"""The KG alias table: 简称 / 曾用名 / common miswritings → 项目编号 or 工号, a JSON file in the
workspace (``kg/aliases.json``) that the entity index grounds names with. Whoever saves it
invalidates the entity index (core.services.ask_kg.save_kg_aliases)."""

from __future__ import annotations

import json
import os

from core.config import get_settings
from core.errors import BadInputError


def _alias_path():
    return get_settings().path("kg", "aliases.json")


def load_aliases() -> dict[str, str]:
    p = _alias_path()
    if not p.is_file():
        return {}
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items() if str(k).strip() and str(v).strip()}


def save_aliases(aliases: dict[str, str]) -> None:
    """Replace the table (atomically: a failed write leaves the old table)."""
    clean = {}
    for k, v in aliases.items():
        k, v = str(k).strip(), str(v).strip()
        if not k or not v:
            raise BadInputError("别名和目标编号都不能为空")
        clean[k] = v
    path = _alias_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(clean, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def add_alias(alias: str, target: str) -> None:
    data = load_aliases()
    data[alias] = target
    save_aliases(data)
