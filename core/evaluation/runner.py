"""Run a golden set through the real services (rules mode unless an LLM is configured)."""

from __future__ import annotations

import time
import uuid
from typing import Callable

from core.errors import AppError
from core.evaluation.golden import GoldenCase
from core.evaluation.metrics import score_case
from core.security.principals import resolve_user


def _ask(case: GoldenCase) -> dict:
    """Ask the case (after its ``history`` turns, on one thread) as the case's user."""
    principal = resolve_user(case.user)
    thread = case.thread or f"eval-{case.id}-{uuid.uuid4().hex[:8]}"
    result: dict = {}
    for question in [*case.history, case.question]:
        if case.kind == "docs":
            from core.services.ask_docs import ask_docs

            result = ask_docs(question, principal, thread_id=thread)
        else:
            from core.services.ask_kg import ask_kg

            result = ask_kg(question, principal=principal, thread_id=thread, auto=True)
    return result


def run_cases(cases: list[GoldenCase], ask: Callable[[GoldenCase], dict] = _ask,
              progress: Callable[[int, int], None] | None = None) -> list[dict]:
    out = []
    for i, case in enumerate(cases, 1):
        t0 = time.perf_counter()
        row = {"id": case.id, "kind": case.kind, "question": case.question}
        try:
            result = ask(case)
            row.update(score_case(case, result))
            row["answer"] = result.get("answer", "")
            row["refused"] = bool(result.get("refused"))
            row["cited_files"] = sorted({c.get("file_name") for c in result.get("citations") or []})
        except AppError as exc:
            row.update({"ok": False, "checks": {}, "error": exc.user_message})
        except Exception as exc:  # noqa: BLE001 - one broken case must not stop the run
            row.update({"ok": False, "checks": {}, "error": f"{type(exc).__name__}: {exc}"})
        row["latency_ms"] = round((time.perf_counter() - t0) * 1000, 1)
        out.append(row)
        if progress:
            progress(i, len(cases))
    return out
