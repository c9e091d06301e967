"""Policy Q&A (agentic RAG) — the API the 政策问答 page and ``ask-docs`` call.

``ask_docs(question, principal, thread_id=..., scenario=...)`` runs the graph in
core.agents.rag (checkpointed per thread, so follow-ups and clarification replies continue
the conversation) and returns the contract dict of shared/spec/cli.md::

    {"answer", "refused", "citations": [{"n","chunk_id","doc_id","file_name","doc_number","page",
     "bbox","quote", ...}], "rounds", "trace": [{"node", ...}], "latency_ms",
     "checks", "notices", "clarify", "thread_id", "mode", "tokens",
     "conflicts": [{"slot", "answer_side", "other_side", "prevails", "rule", "reason", ...}]}

``tokens`` is what the model servers reported for this answer's LLM calls (0 in rules mode).
"""

from __future__ import annotations

import time
import uuid
from typing import Any, Callable

from core.errors import AppError
from core.security.injection import screen_question
from core.security.principals import Principal

NodeCallback = Callable[[str, dict], None]


def new_thread_id() -> str:
    return uuid.uuid4().hex[:16]


def _thread_key(principal: Principal, thread_id: str) -> str:
    from core.agents.runtime import thread_key

    return thread_key("docs", principal, thread_id)


def _graph():
    from core.agents.rag.graph import build_graph
    from core.storage.checkpoint import get_checkpointer

    return build_graph(checkpointer=get_checkpointer())


def _index():
    try:
        from core.retrieval.index import get_index
    except ImportError as exc:  # pragma: no cover - the index ships with the product
        raise AppError("文档索引模块不可用", detail=str(exc)) from exc
    return get_index()


def _summary(node: str, update: dict) -> dict:
    """A small, UI-friendly description of a node's update (for streaming progress)."""
    last = (update.get("trace") or [{}])[-1] if update.get("trace") else {}
    return {k: v for k, v in last.items() if k not in ("grades", "chunks")}


def ask_docs(question: str, principal: Principal, *, thread_id: str | None = None, scenario: str | None = None,
             index: Any = None, llm: Any = "default", on_node: NodeCallback | None = None,
             live: Any = None) -> dict:
    """Answer one question in a thread. ``llm="default"`` uses core.llm.client.current_llm()
    (None = offline rules mode). ``live``: a core.agents.live_answer.LiveAnswer that receives
    the model's draft as it is written (streaming callers). Raises BadInputError for an empty /
    over-long question."""
    from core.agents.rag.aliases import alias_map
    from core.agents.rag.state import turn_input
    from core.agents.runtime import RUNTIME_KEY, AgentRuntime, check_principal
    from core.llm.budget import Budget
    from core.llm.client import current_llm
    from core.llm.usage import metering

    t0 = time.perf_counter()
    check_principal(principal)
    screened = screen_question(question)
    if scenario is not None and scenario not in ("window", "research"):
        from core.errors import enum_error

        raise enum_error("场景", scenario, ["window", "research"])
    principal.check_scenario(scenario)  # a scenario is a permission: PermissionDenied if not granted
    thread_id = (thread_id or "").strip() or new_thread_id()
    client = current_llm() if llm == "default" else llm
    rt = AgentRuntime(index=index if index is not None else _index(), principal=principal, llm=client,
                    budget=Budget.from_settings() if client is not None else None, aliases=alias_map(), live=live)
    inp = turn_input(screened["question"], scenario=scenario)
    if screened["pii"]:
        inp["notices"] = ["问题中的个人信息（" + "、".join(screened["pii"]) + "）已脱敏，不会被记录"]
    graph = _graph()
    config = {"configurable": {"thread_id": _thread_key(principal, thread_id), RUNTIME_KEY: rt},
              "recursion_limit": 60}
    with metering(rt.usage):
        for chunk in graph.stream(inp, config, stream_mode="updates"):
            for node, update in (chunk or {}).items():
                if on_node is not None and isinstance(update, dict):
                    try:
                        on_node(node, _summary(node, update))
                    except Exception:  # noqa: BLE001 - a UI callback must not break the answer
                        pass
    st = graph.get_state(config).values
    res = {**_result(st, thread_id, (time.perf_counter() - t0) * 1000), "tokens": rt.usage.total}
    _audit(principal, screened["question"], res, scenario)
    return res


def _audit(principal: Principal, question: str, res: dict, scenario: str | None) -> None:
    """The question, its answer and its trace into the audit log (core.security.audit)."""
    from core.security.audit import record_question

    trace = {"scenario": scenario or principal.scenario.value, "mode": res["mode"], "rounds": res["rounds"],
             "checks": res["checks"], "notices": res["notices"], "clarify": bool(res["clarify"]),
             "citations": [{k: c.get(k) for k in ("n", "chunk_id", "doc_id", "file_name", "doc_number", "page", "role")}
                           for c in res["citations"]],
             "conflicts": res["conflicts"],
             "trace": res["trace"]}
    record_question(principal, "docs", thread=res["thread_id"], question=question, answer=res["answer"],
                    refused=res["refused"], tenant=",".join(principal.tenants) or None,
                    latency_ms=res["latency_ms"], trace=trace)


def _result(st: dict, thread_id: str, latency_ms: float) -> dict:
    clarify = st.get("clarify") if isinstance(st.get("clarify"), dict) and st["clarify"].get("options") is not None else None
    return {
        "answer": st.get("generation") or "",
        "refused": bool(st.get("refused")),
        "citations": [{k: c.get(k) for k in ("n", "chunk_id", "doc_id", "file_name", "doc_number", "page", "bbox",
                                             "quote", "title", "authority", "date", "status", "heading", "spans",
                                             "source_type", "para", "page_end", "role")}
                      for c in st.get("citations") or []],
        "rounds": int(st.get("attempt") or 0),
        "trace": st.get("trace") or [],
        "latency_ms": round(latency_ms, 1),
        "checks": st.get("checks") or {},
        "notices": st.get("notices") or [],
        "clarify": clarify,
        "thread_id": thread_id,
        "mode": st.get("mode") or "rules",
        "conflicts": [] if st.get("refused") else (st.get("conflicts") or []),
    }


def thread_history(principal: Principal, thread_id: str) -> list[dict]:
    """The turns recorded in a thread (question, answer excerpt, cited documents)."""
    graph = _graph()
    st = graph.get_state({"configurable": {"thread_id": _thread_key(principal, thread_id)}}).values
    return list(st.get("history") or [])


def thread_transcript(principal: Principal, thread_id: str, *, limit: int = 20) -> list[dict]:
    """The newest ``limit`` turns of one of ``principal``'s threads, oldest first, rebuilt from
    the checkpointer for the page after a reload: ``[{"question", "result"}]`` with each result
    as :func:`ask_docs` returned it (whole answer, citations, checks, trace). Another user's
    thread id names an empty thread of one's own: ``[]``."""
    from core.services.transcript import checkpoint_turns

    turns = checkpoint_turns(_graph(), _thread_key(principal, thread_id), limit=limit)
    return [{"question": t.question, "result": _result(t.values, thread_id, t.seconds * 1000)}
            for t in turns if t.waiting is None]


def thread_exists(principal: Principal, thread_id: str) -> bool:
    """Whether one of ``principal``'s threads has any state (a turn, a clarification asked);
    another user's thread id names an empty thread of one's own, so it never exists."""
    graph = _graph()
    return bool(graph.get_state({"configurable": {"thread_id": _thread_key(principal, thread_id)}}).values)


def citation_preview(citation: dict, principal: Principal, *, index: Any = None) -> dict:
    """What the citation card shows when clicked: the PDF page(s) rendered with the cited
    passage highlighted, or the DOCX/MD/TXT paragraphs with the cited ones marked."""
    from core.agents.rag.preview import render_citation

    idx = index if index is not None else _index()
    meta = idx.get_meta(citation.get("doc_id"))
    if meta is None:
        raise AppError("引用的文档已不在索引中")
    from core.retrieval.filters import doc_visible

    if not doc_visible(meta, principal):
        from core.errors import PermissionDenied

        raise PermissionDenied("当前账号无权查看该文档")
    return render_citation(citation, meta, idx)


# ---- empty state ----------------------------------------------------------------------
def docs_overview(principal: Principal, scenario: str | None = None, *, index: Any = None, limit: int = 5) -> dict:
    """What the asker can search, for the empty 政策问答 page: ``{"total", "by_tenant":
    [{"tenant", "status", "label", "count"}], "examples": [questions]}``. Examples come from
    data/rules/docs_examples.json and are offered only when a document they need is
    retrievable by this asker in this scenario."""
    import json
    from collections import Counter
    from pathlib import Path

    from core.retrieval.filters import STATUS_LABELS, current_status, doc_allowed, doc_visible

    idx = index if index is not None else _index()
    try:
        metas = [m for m in idx.list_docs() if doc_visible(m, principal)]
    except Exception:  # noqa: BLE001 - an unreadable index reads as empty
        metas = []
    counts = Counter((m.tenant or "", current_status(m) if m.review_state == "approved" else "pending") for m in metas)
    rows = [{"tenant": t, "status": st, "label": STATUS_LABELS.get(st, "待审核" if st == "pending" else st), "count": n}
            for (t, st), n in sorted(counts.items())]
    usable = [f"{m.title} {m.file_name}" for m in metas if doc_allowed(m, principal, scenario)]
    rules = json.loads((Path(__file__).resolve().parents[2] / "data" / "rules" / "docs_examples.json")
                       .read_text(encoding="utf-8"))
    examples = [e["question"] for e in rules["examples"]
                if any(all(w in t for w in e["needs"]) for t in usable)]
    return {"total": len(metas), "by_tenant": rows, "examples": examples[:limit]}
