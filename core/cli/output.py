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
