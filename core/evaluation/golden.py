"""Golden-set records (spec/cli.md): one JSON object per line, ``kind`` docs | kg."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import BadInputError


@dataclass
class GoldenCase:
    id: str
    kind: str
    question: str
    user: str | None = None
    expect_files: list[str] = field(default_factory=list)
    expect_answer_contains: list[str] = field(default_factory=list)
    expect_refusal: bool = False
    expect_rows: int | None = None
    thread: str | None = None
    history: list[str] = field(default_factory=list)  # earlier turns asked first on the same thread


def load_golden(path: Path) -> list[GoldenCase]:
    """Parse a golden JSONL file; every bad line is reported with its number, none skipped."""
    if not Path(path).is_file():
        raise BadInputError(f"评测集文件不存在：{path}")
    cases, problems, seen = [], [], set()
    for i, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            if not isinstance(rec, dict):
                raise ValueError("不是 JSON 对象")
            kind = rec.get("kind")
            if kind not in ("docs", "kg"):
                raise ValueError(f"kind 的取值“{kind}”无效，可选值：docs、kg")
            if not str(rec.get("question") or "").strip():
                raise ValueError("缺少 question")
            case = GoldenCase(id=str(rec.get("id") or f"line-{i}"), kind=kind, question=rec["question"],
                              user=rec.get("user"), expect_files=list(rec.get("expect_files") or []),
                              expect_answer_contains=list(rec.get("expect_answer_contains") or []),
                              expect_refusal=bool(rec.get("expect_refusal", False)),
                              expect_rows=rec.get("expect_rows"), thread=rec.get("thread"),
                              history=[str(q) for q in rec.get("history") or []])
            if case.id in seen:
                raise ValueError(f"id {case.id} 重复")
            seen.add(case.id)
            cases.append(case)
        except ValueError as exc:
            problems.append(f"第 {i} 行：{exc}")
    if problems:
        raise BadInputError("评测集有误：" + "；".join(problems[:10]) + ("……" if len(problems) > 10 else ""))
    if not cases:
        raise BadInputError(f"评测集为空：{path}")
    return cases
