"""How an entity name or a field value is compared with what a user wrote (part of
:mod:`core.agents.kg.entity_index`, which re-exports both)."""

from __future__ import annotations

import re
from typing import Any

_DASHES = str.maketrans({"－": "-", "—": "-", "–": "-", "―": "-", "（": "(", "）": ")", "　": " "})


def name_key(text: Any) -> str:
    """How an entity name is compared: dashes / brackets / ideographic space unified, lower case,
    no whitespace (青浦－区 → 青浦-区). Not the policy engine's matching form (RAG ``textutil.norm``,
    which also folds full-width digits and rewrites counts)."""
    s = str(text or "").translate(_DASHES).lower()
    return re.sub(r"\s+", "", s)


def loose(text: Any) -> str:
    """Normalised without separators: 青浦-区图书馆 == 青浦区图书馆."""
    return re.sub(r"[-_()·.,，、]", "", name_key(text))
