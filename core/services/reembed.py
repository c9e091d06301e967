"""The document index's vector model (administrators): which model built the vectors, whether it
is the configured one, and re-embedding every chunk after ``ZHICE_EMBED_MODEL`` changed — the
设置与状态 page's 重建文档向量 and ``python -m core.cli reembed``.

Until the rebuild, searches use keywords and titles only and say why, and new documents are
indexed without vectors (:mod:`core.retrieval.vector_model`); the rebuild reuses the vector
cache, so running it again after an interruption embeds only what is still missing."""

from __future__ import annotations

from typing import Callable

from core.errors import PermissionDenied
from core.retrieval import vector_model
from core.retrieval.index import get_index
from core.security.audit import audit
from core.security.principals import Principal

#: progress of the rebuild: (chunks embedded, chunks to embed)
Progress = Callable[[int, int], None]


def _require_admin(principal: Principal) -> None:
    if not principal.is_admin:
        raise PermissionDenied("只有管理员可以重建文档向量")


def vector_state(principal: Principal) -> dict:
    """{"recorded", "configured", "matches", "text"} — ``text`` is the sentence the status page
    and the CLI show."""
    _require_admin(principal)
    recorded = get_index().vector_model()
    configured = vector_model.configured()
    matches = vector_model.usable(recorded)
    if matches:
        text = f"文档向量由当前模型生成（{vector_model.describe(recorded or configured)}）"
    else:
        text = (f"文档向量由 {vector_model.describe(recorded)} 生成，当前配置为 {configured or '（不可用）'}："
                "检索暂只用关键词和标题，请重建文档向量")
    return {"recorded": recorded, "configured": configured, "matches": matches, "text": text}


def reembed_documents(principal: Principal, on_progress: Progress | None = None) -> dict:
    """Re-embed every chunk of the workspace's document index with the configured model.
    Returns {"documents", "chunks", "embedded", "cached", "seconds", "model"}."""
    from core.progress import reporting

    _require_admin(principal)

    def stage(name: str, done: int = 0, total: int = 0) -> None:
        if name == "embed" and on_progress is not None:
            on_progress(done, total)

    with reporting(stage):
        result = get_index().reembed()
    audit(principal.name, "doc_reembed", target=result["model"],
          detail={**result, "summary": f"重建文档向量：{result['chunks']} 块，新向量化 {result['embedded']} 块"})
    return result
