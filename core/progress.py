"""Fine-grained progress of long steps (parse, OCR page i/n, chunk, embed i/n) without threading a
callback through every layer: a service installs a reporter with :func:`reporting`; deep code
calls :func:`report`, which does nothing when no reporter is installed (CLI, tests, batch)."""

from __future__ import annotations

import contextvars
from contextlib import contextmanager
from typing import Callable, Iterator

StageFn = Callable[[str, int, int], None]  # (stage, done, total)

_reporter: contextvars.ContextVar[StageFn | None] = contextvars.ContextVar("zhice_progress", default=None)

STAGE_LABELS = {"parse": "解析", "ocr": "OCR", "chunk": "切分", "embed": "向量化", "index": "写入索引",
                "done": "完成"}


def report(stage: str, done: int = 0, total: int = 0) -> None:
    fn = _reporter.get()
    if fn is None:
        return
    try:
        fn(stage, done, total)
    except Exception:  # noqa: BLE001 - a broken progress display never stops the work
        pass


@contextmanager
def reporting(fn: StageFn | None) -> Iterator[None]:
    token = _reporter.set(fn)
    try:
        yield
    finally:
        _reporter.reset(token)


def stage_text(stage: str, done: int = 0, total: int = 0) -> str:
    """解析 / OCR 第 3/8 页 / 切分 / 向量化 120/340."""
    label = STAGE_LABELS.get(stage, stage)
    if stage == "ocr" and total:
        return f"OCR 第 {done}/{total} 页"
    if total:
        return f"{label} {done}/{total}"
    return label
