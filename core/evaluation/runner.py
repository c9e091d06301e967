"""Run a golden set through the real services (rules mode unless an LLM is configured)."""

from __future__ import annotations

import time
import uuid
from typing import Any, Callable

from core.errors import AppError, PermissionDenied
from core.evaluation.golden import GoldenCase
from core.evaluation.metrics import score_case
from core.security.principals import resolve_user


class CappedIndex:
    """The document index with every search capped at ``k`` hits (a run configured with a
    smaller retrieval depth, e.g. to check that the gate catches a worse configuration)."""

    def __init__(self, index: Any, k: int):
        self._index, self._k = index, max(1, int(k))

    def search(self, query, principal, k: int = 10, **kw):
        return self._index.search(query, principal, k=min(int(k), self._k), **kw)

    def __getattr__(self, name):
        return getattr(self._index, name)


def retrieved_files(result: dict) -> list[str]:
    """File names of the chunks the agent retrieved, best first (from its retrieve trace)."""
    chunks: list[str] = []
    for t in result.get("trace") or []:
        if t.get("node") == "retrieve":
            chunks += [c for c in t.get("chunks") or [] if c not in chunks]
    if not chunks:
        return []
    doc_ids = list(dict.fromkeys(c.rsplit("-", 1)[0] for c in chunks))
    names = {c.get("doc_id"): c.get("file_name") for c in result.get("citations") or []}
    missing = [d for d in doc_ids if d not in names]
    if missing:
        from core.storage.db import get_db

        rows = get_db().query(f"SELECT doc_id, file_name FROM documents WHERE doc_id IN ({', '.join('?' * len(missing))})",
                              missing)
        names.update({r["doc_id"]: r["file_name"] for r in rows})
    return list(dict.fromkeys(names[d] for d in doc_ids if names.get(d)))


def case_principal(case: GoldenCase, runner=None):
    """The user a case runs as: its ``user`` (default the administrator). Someone other than
    an administrator may only run cases of non-admin users of their own tenants."""
    principal = resolve_user(case.user)
    if runner is not None and not runner.is_admin:
        if principal.is_admin or not (set(principal.tenants) & set(runner.tenants)):
            raise PermissionDenied(f"无权以用户 {case.user or 'admin'} 的身份运行该用例（需要管理员运行）")
    return principal


def make_ask(runner=None, retrieval_k: int | None = None) -> Callable[[GoldenCase], dict]:
    def ask(case: GoldenCase) -> dict:
        """Ask the case (after its ``history`` turns, on one thread) as the case's user."""
        principal = case_principal(case, runner)
        thread = case.thread or f"eval-{case.id}-{uuid.uuid4().hex[:8]}"
        result: dict = {}
        try:
            for question in [*case.history, case.question]:
                if case.kind == "docs":
                    from core.services.ask_docs import _index, ask_docs

                    index = CappedIndex(_index(), retrieval_k) if retrieval_k else None
                    result = ask_docs(question, principal, thread_id=thread, index=index)
                else:
                    from core.services.ask_kg import ask_kg

                    result = ask_kg(question, principal=principal, thread_id=thread, auto=True)
        finally:
            if not case.thread:  # the case's own throwaway thread: its checkpoints go with it
                from core.agents.runtime import forget_thread

                forget_thread(case.kind, principal, thread)
        if case.kind == "docs":
            result["retrieved_files"] = retrieved_files(result)
        result["_tenant"] = ",".join(principal.tenants) or "全部"
        return result
    return ask


_ask = make_ask()


def run_cases(cases: list[GoldenCase], ask: Callable[[GoldenCase], dict] = _ask,
              progress: Callable[[int, int], None] | None = None,
              should_stop: Callable[[], bool] | None = None,
              judge: Callable[[GoldenCase, dict], float | None] | None = None) -> list[dict]:
    """Run the cases in order; ``should_stop`` is asked between cases (a cancelled run keeps
    the cases done so far). With ``judge`` (core.evaluation.llm_judge) every case gets a
    ``judge_score``: 0–1, or None when it could not be scored."""
    out = []
    for i, case in enumerate(cases, 1):
        if should_stop is not None and should_stop():
            break
        t0 = time.perf_counter()
        row = {"id": case.id, "kind": case.kind, "question": case.question, "category": case.category or "未分类",
               "user": case.user or "admin"}
        if judge is not None:
            row["judge_score"] = None
        try:
            result = ask(case)
            row.update(score_case(case, result))
            if judge is not None:
                row["judge_score"] = _judged(judge, case, result)
            row["answer"] = result.get("answer", "")
            row["refused"] = bool(result.get("refused"))
            row["cited_files"] = sorted({c.get("file_name") for c in result.get("citations") or []})
            row["tenant"] = result.get("_tenant")
            row["intent"] = (result.get("slots") or {}).get("intent") if case.kind == "kg" else "政策问答"
            row["thread"] = result.get("thread_id") or result.get("thread")
            row["trace"] = _trace(result)
        except AppError as exc:
            row.update({"ok": False, "checks": {}, "error": exc.user_message})
        except Exception as exc:  # noqa: BLE001 - one broken case must not stop the run
            row.update({"ok": False, "checks": {}, "error": f"{type(exc).__name__}: {exc}"})
        row["latency_ms"] = round((time.perf_counter() - t0) * 1000, 1)
        out.append(row)
        if progress:
            progress(i, len(cases))
    return out


def _judged(judge: Callable[[GoldenCase, dict], float | None], case: GoldenCase, result: dict) -> float | None:
    """The judge's score; a judge that breaks leaves the case unscored, the case itself stands."""
    try:
        return judge(case, result)
    except Exception:  # noqa: BLE001 - the judge is optional and never decides a case
        return None


def _trace(result: dict) -> dict:
    """What the report shows when a case is opened (kept small)."""
    keys = ("rounds", "checks", "notices", "mode", "citations", "trace", "slots", "plan", "queries", "provenance",
            "retrieved_files", "conflicts")
    out = {k: result.get(k) for k in keys if result.get(k) not in (None, [], {})}
    for c in out.get("citations") or []:
        c.pop("bbox", None)
        c.pop("spans", None)
    if isinstance(out.get("provenance"), list):
        out["provenance"] = out["provenance"][:50]
    return out
