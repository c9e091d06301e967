"""How every command prints its result: the contract JSON on one line (``--json``) or a short
human summary."""

from __future__ import annotations

import json
from typing import Any, Callable


def emit(result: Any, as_json: bool, human: Callable[[Any], str] | None = None) -> None:
    if as_json:
        print(json.dumps(result, ensure_ascii=False, default=str))
    else:
        print(human(result) if human else json.dumps(result, ensure_ascii=False, indent=2, default=str))


def citation_lines(res: dict) -> list[str]:
    """The ``[n] file number page：quote`` lines and ``提示：`` notices under an answer or report."""
    lines = []
    for c in res.get("citations") or []:
        loc = f"第{c['page']}页" if c.get("page") else ""
        lines.append(f"[{c['n']}] {c.get('file_name')} {c.get('doc_number') or ''} {loc}：{(c.get('quote') or '')[:80]}")
    lines += [f"提示：{n}" for n in res.get("notices") or []]
    return lines
