"""Real health checks of every component, for the 设置与状态 page and the CLI.

Each check actually touches its component (opens the database, counts graph nodes, reads the
index, loads the model folder, calls the LLM server) and reports ok / warn / error / info.
Administrators only; secrets in the details are masked."""

from __future__ import annotations

import time
from typing import Callable

from core.config import get_settings


def _app_db() -> tuple[str, str]:
    from core.storage.db import get_db

    db = get_db()
    names = db.applied_migrations()
    users = db.one("SELECT COUNT(*) AS n FROM users")["n"]
    where = "PostgreSQL" if db.dialect == "postgres" else f"SQLite（{get_settings().sqlite_path.name}）"
    return "ok", f"{where} · 已应用迁移 {len(names)} 个 · 用户 {users} 个"


def _checkpoints() -> tuple[str, str]:
    from core.storage.checkpoint import get_checkpointer

    saver = get_checkpointer()
    return "ok", type(saver).__name__


def _graph() -> tuple[str, str]:
    from core.graph.store import get_graph_store, graph_tenants

    backend = "Neo4j" if get_settings().graph_backend == "neo4j" else "LadybugDB（内嵌）"
    parts = []
    for tenant in graph_tenants():
        store = get_graph_store(tenant=tenant)
        generation = store.generation
        counts = store.counts()
        nodes = sum(counts.get("nodes", {}).values())
        edges = sum(counts.get("edges", {}).values())
        parts.append(f"租户 {tenant}（第 {generation} 版）节点 {nodes} · 关系 {edges}")
    if not parts:
        return "warn", f"{backend} · 图谱为空（请在“数据导入与建图”上传模板，或运行 python -m core.cli demo）"
    return "ok", f"{backend} · " + "；".join(parts)


def _index() -> tuple[str, str]:
    from core.retrieval import vector_model
    from core.retrieval.index import get_index

    index = get_index()
    docs = index.list_docs()
    pending = sum(1 for d in docs if d.review_state == "pending")
    if not docs:
        return "warn", "文档索引为空（请在“文档库”上传文档，或运行 python -m core.cli demo）"
    extra = f" · 待审核 {pending}" if pending else ""
    recorded = index.vector_model()
    if not vector_model.usable(recorded):
        return "warn", (f"文档 {len(docs)} 篇{extra} · 文档向量由 {vector_model.describe(recorded)} 生成，与当前向量模型不一致，"
                        "检索暂只用关键词和标题：请在本页“文档向量”中重建")
    return "ok", f"文档 {len(docs)} 篇{extra}"


def _embedding() -> tuple[str, str]:
    from core.retrieval.embed import embedding_status

    return embedding_status()


def _llm() -> tuple[str, str]:
    s = get_settings()
    if not s.llm_enabled:
        return "info", "离线规则模式（未配置 ZHICE_LLM_API_KEY）"
    from core.llm.client import get_llm

    ok, detail = get_llm().ping()
    return ("ok" if ok else "error"), f"{s.llm_model} @ {s.llm_base_url} · {detail}"


CHECKS: list[tuple[str, Callable[[], tuple[str, str]]]] = [
    ("应用数据库", _app_db),
    ("对话检查点", _checkpoints),
    ("业务图谱", _graph),
    ("文档索引", _index),
    ("向量模型", _embedding),
    ("大模型", _llm),
]


def check_all(actor) -> list[dict]:
    """Every check, for administrators only (details name every tenant's data); secrets in the
    details (URL credentials, API key, passwords) are masked."""
    from core.security.redact import mask_secrets
    from core.services.settings_view import require_settings_access

    require_settings_access(actor)
    results = []
    for name, check in CHECKS:
        t0 = time.perf_counter()
        try:
            state, detail = check()
        except Exception as exc:  # noqa: BLE001 - a failing component is a status, not a crash
            message = getattr(exc, "user_message", None) or f"{type(exc).__name__}: {exc}"
            state, detail = "error", message
        results.append({"component": name, "state": state, "detail": mask_secrets(detail),
                        "ms": round((time.perf_counter() - t0) * 1000, 1)})
    return results
