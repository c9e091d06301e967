"""``--batch QUESTIONS.jsonl`` for ``retrieve``, ``ask-docs`` and ``ask-kg``: one JSON object per
input line, in order; a failing line prints ``{"id", "error"}`` and the batch goes on."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Callable

from core.errors import AppError, BadInputError


def read_batch(path: Path) -> list[dict]:
    """Parse a ``--batch`` JSONL file; a bad line becomes ``{"id", "error"}``."""
    if not path.is_file():
        raise BadInputError(f"批量文件不存在：{path}")
    records = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            if not isinstance(rec, dict) or not str(rec.get("question", "")).strip():
                raise ValueError("缺少 question")
            rec.setdefault("id", str(i))
        except ValueError as exc:
            rec = {"id": str(i), "error": f"第 {i} 行无法解析：{exc}"}
        records.append(rec)
    return records


def run_batch(args: argparse.Namespace, one: Callable[[dict], dict]) -> int:
    """Shared ``--batch`` loop: one JSON object per input line, in order; a failing line
    prints ``{"id", "error"}`` and the batch goes on."""
    for rec in read_batch(args.batch):
        if "error" in rec:
            out = rec
        else:
            try:
                out = {"id": rec["id"], **one(rec)}
            except AppError as exc:
                out = {"id": rec["id"], "error": exc.user_message}
            except Exception as exc:  # noqa: BLE001 - one bad line must not stop the batch
                out = {"id": rec["id"], "error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps(out, ensure_ascii=False, default=str), flush=True)
    return 0
