"""Ingestion progress with the stage and an ETA (解析 / OCR 第 3/8 页 / 切分 / 向量化 120/340)."""

from __future__ import annotations

import time

import streamlit as st

# where each stage sits inside one file's share of the bar
_STAGE_SPAN = {"parse": (0.0, 0.1), "ocr": (0.1, 0.5), "chunk": (0.6, 0.05), "embed": (0.65, 0.3),
               "index": (0.95, 0.05), "done": (1.0, 0.0)}


def eta_text(seconds: float) -> str:
    if seconds < 60:
        return f"约 {max(int(seconds), 1)} 秒"
    return f"约 {int(seconds // 60)} 分 {int(seconds % 60)} 秒"


class StageProgress:
    """A progress bar fed by ``core.services.ingest`` ``on_stage`` events."""

    def __init__(self, label: str = "准备导入…"):
        self.bar = st.progress(0.0, text=label)
        self.t0 = time.monotonic()

    def __call__(self, ev: dict) -> None:
        total = max(int(ev.get("total") or 1), 1)
        start, span = _STAGE_SPAN.get(ev.get("stage"), (0.0, 0.0))
        within = start + span * (ev["done"] / ev["of"] if ev.get("of") else 0.0)
        frac = min((int(ev.get("index") or 0) + within) / total, 1.0)
        if ev.get("stage") == "done":
            self.bar.progress(1.0, text=f"完成，用时 {int(time.monotonic() - self.t0)} 秒")
            return
        elapsed = time.monotonic() - self.t0
        eta = f"，剩余{eta_text(elapsed * (1 - frac) / frac)}" if frac > 0.03 and elapsed > 2 else ""
        self.bar.progress(frac, text=f"第 {int(ev['index']) + 1}/{total} 个文件 {ev.get('file', '')}："
                                     f"{ev.get('text', '')}{eta}")
