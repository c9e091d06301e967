"""The editable alias table (app DB table ``rag_aliases``, seeded by migration
``0500_rag_aliases``): colloquial names → the names documents use (高新区 → 东湖高新区,
人社局 → 人力资源和社会保障局)."""

from __future__ import annotations

from core.errors import BadInputError
from core.storage.db import get_db


def list_aliases() -> list[dict]:
    return get_db().query("SELECT alias, canonical, note, updated_at FROM rag_aliases ORDER BY alias")


def alias_map() -> dict[str, str]:
    try:
        return {r["alias"]: r["canonical"] for r in get_db().query("SELECT alias, canonical FROM rag_aliases")}
    except Exception:  # noqa: BLE001 - a broken table must not stop question answering
        return {}


def set_alias(alias: str, canonical: str, note: str = "") -> None:
    alias, canonical = (alias or "").strip(), (canonical or "").strip()
    if not alias or not canonical:
        raise BadInputError("别名和标准名称都不能为空")
    if alias == canonical:
        raise BadInputError("别名与标准名称相同，无需添加")
    if len(alias) > 50 or len(canonical) > 100:
        raise BadInputError("别名最长 50 个字符，标准名称最长 100 个字符")
    db = get_db()
    with db.transaction():
        db.execute("DELETE FROM rag_aliases WHERE alias = ?", (alias,))
        db.execute("INSERT INTO rag_aliases (alias, canonical, note) VALUES (?, ?, ?)", (alias, canonical, note))


def delete_alias(alias: str) -> bool:
    return get_db().execute("DELETE FROM rag_aliases WHERE alias = ?", ((alias or "").strip(),)) > 0


def apply_aliases(text: str, table: dict[str, str] | None = None) -> tuple[str, list[tuple[str, str]]]:
    """Replace every alias with its canonical name (longest alias first). An occurrence that
    already sits inside its canonical name (东湖高新区 for 高新区) is left alone. Returns the
    new text and the (alias, canonical) pairs applied."""
    table = alias_map() if table is None else table
    applied: list[tuple[str, str]] = []
    out = text or ""
    for alias in sorted(table, key=len, reverse=True):
        canonical = table[alias]
        if alias not in out:
            continue
        pieces, i, changed = [], 0, False
        while True:
            j = out.find(alias, i)
            if j < 0:
                pieces.append(out[i:])
                break
            # inside an occurrence of the canonical name already?
            inside = False
            k = canonical.find(alias)
            while k >= 0:
                start = j - k
                if start >= 0 and out[start:start + len(canonical)] == canonical:
                    inside = True
                    break
                k = canonical.find(alias, k + 1)
            # a fragment of a longer word that already says it (车补 in 汽车补贴 → 汽车消费补贴):
            # replacing it would double the neighbours (汽汽车消费补贴贴)
            before, after = out[j - 1:j], out[j + len(alias):j + len(alias) + 1]
            if not inside and ((before and canonical.startswith(before + alias[0]))
                               or (after and canonical.endswith(alias[-1] + after))):
                inside = True
            pieces.append(out[i:j])
            pieces.append(alias if inside else canonical)
            changed = changed or not inside
            i = j + len(alias)
        if changed:
            out = "".join(pieces)
            applied.append((alias, canonical))
    return out, applied
