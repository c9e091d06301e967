"""Optional cross-encoder reranking (``ZHICE_RERANK_MODEL``: a sentence-transformers
``CrossEncoder`` folder). Without one, or when it fails or runs past its time budget, the
fused order is kept and the caller is told why."""

from __future__ import annotations

import concurrent.futures as cf
import threading
from pathlib import Path
from typing import Callable, Sequence, TypeVar

from core.config import get_settings

_models: dict[str, object] = {}
_lock = threading.Lock()
_pool = cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix="rerank")


def _model(folder: str):
    with _lock:
        m = _models.get(folder)
        if m is None:
            if not Path(folder).expanduser().is_dir():
                raise FileNotFoundError(folder)
            from sentence_transformers import CrossEncoder  # noqa: PLC0415

            m = _models[folder] = CrossEncoder(str(Path(folder).expanduser()), device="cpu")
        return m


def rerank(query: str, texts: Sequence[str], *, timeout_s: float | None = None) -> tuple[list[int] | None, str | None]:
    """New order (indices into ``texts``, best first) or ``(None, notice)`` when no reranker
    is configured (notice None) or it failed / timed out (notice says so)."""
    folder = get_settings().rerank_model
    if not folder or not texts:
        return None, None
    timeout_s = timeout_s if timeout_s is not None else max(1.0, get_settings().dense_timeout_ms / 1000 * 2)

    def run():
        scores = _model(folder).predict([(query, t) for t in texts], show_progress_bar=False)
        return sorted(range(len(texts)), key=lambda i: -float(scores[i]))

    fut = _pool.submit(run)
    try:
        return fut.result(timeout=timeout_s), None
    except cf.TimeoutError:
        return None, "重排模型超时，已按融合排序返回"
    except Exception:  # noqa: BLE001 - any reranker failure keeps the fused order
        return None, "重排模型不可用，已按融合排序返回"


T = TypeVar("T")


def rerank_pool(query: str, pool: list[T], text_of: Callable[[T], str], notices: list[str]) -> list[T]:
    """``pool`` reordered by the cross-encoder when one is configured (its notice, if any, is
    appended to ``notices``); unchanged otherwise."""
    order, note = rerank(query, [text_of(item) for item in pool])
    if note:
        notices.append(note)
    return [pool[i] for i in order] if order is not None else pool
