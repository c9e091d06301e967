"""Review: user feedback on answers (👍/👎 with an optional reason) into the ``feedback``
table — the source of the weekly bad-case queue."""

from __future__ import annotations

import json
from typing import Any

from core.errors import BadInputError, enum_error
from core.security.injection import mask_pii
from core.storage.db import get_db

FEEDBACK_KINDS = ("docs", "kg", "task")
MAX_REASON_CHARS = 500


def record_feedback(principal, kind: str, thread_id: str | None, question: str, answer: str, rating: int,
                    reason: str | None = None, payload: Any = None) -> int:
    """Store one rating (1 = 👍, -1 = 👎) and return its id. PII in the question, answer and
    reason is masked before it is stored."""
    if kind not in FEEDBACK_KINDS:
        raise enum_error("反馈类型", kind, FEEDBACK_KINDS)
    try:
        rating = int(rating)
    except (TypeError, ValueError):
        raise BadInputError("评分只能是 1（有帮助）或 -1（没帮助）") from None
    if rating not in (1, -1):
        raise BadInputError("评分只能是 1（有帮助）或 -1（没帮助）")
    if not (question or "").strip():
        raise BadInputError("反馈缺少对应的问题")
    reason = (reason or "").strip()
    if len(reason) > MAX_REASON_CHARS:
        raise BadInputError(f"反馈原因最多 {MAX_REASON_CHARS} 个字符")
    body = json.dumps(payload, ensure_ascii=False, default=str) if payload is not None else None
    return get_db().insert(
        "INSERT INTO feedback (user_name, kind, thread_id, question, answer, rating, reason, payload)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (getattr(principal, "name", None), kind, thread_id, mask_pii(question), mask_pii(answer or ""), rating,
         mask_pii(reason) or None, body))
