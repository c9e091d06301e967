"""Golden-set records (spec/cli.md): one JSON object per line, ``kind`` docs | kg."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    category: str = ""  # for the report's breakdown (the bad-case class, a topic …)


def _record_to_case(rec: Any, i: int) -> GoldenCase:
    if not isinstance(rec, dict):
        raise ValueError("不是 JSON 对象")
    kind = rec.get("kind")
    if kind not in ("docs", "kg"):
        raise ValueError(f"kind 的取值“{kind}”无效，可选值：docs、kg")
    if not str(rec.get("question") or "").strip():
        raise ValueError("缺少 question")
    for key in ("expect_files", "expect_answer_contains", "history"):
        if rec.get(key) is not None and not isinstance(rec[key], list):
            raise ValueError(f"{key} 应为列表")
    if rec.get("expect_rows") is not None and not isinstance(rec["expect_rows"], int):
        raise ValueError("expect_rows 应为整数")
    return GoldenCase(id=str(rec.get("id") or f"line-{i}"), kind=kind, question=rec["question"],
                      user=rec.get("user"), expect_files=list(rec.get("expect_files") or []),
                      expect_answer_contains=[str(x) for x in rec.get("expect_answer_contains") or []],
                      expect_refusal=bool(rec.get("expect_refusal", False)),
                      expect_rows=rec.get("expect_rows"), thread=rec.get("thread"),
                      history=[str(q) for q in rec.get("history") or []],
                      category=str(rec.get("category") or ""))


def parse_golden_text(text: str) -> tuple[list[GoldenCase], list[dict], list[str]]:
    """Cases, their raw records and the problems (each "第 N 行：…"), nothing skipped silently."""
    cases, records, problems, seen = [], [], [], set()
    for i, line in enumerate((text or "").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            case = _record_to_case(rec, i)
            if case.id in seen:
                raise ValueError(f"id {case.id} 重复")
            seen.add(case.id)
            cases.append(case)
            records.append(rec)
        except ValueError as exc:
            problems.append(f"第 {i} 行：{exc}")
    return cases, records, problems


def load_golden(path: Path) -> list[GoldenCase]:
    """Parse a golden JSONL file; every bad line is reported with its number, none skipped."""
    if not Path(path).is_file():
        raise BadInputError(f"评测集文件不存在：{path}")
    cases, _records, problems = parse_golden_text(Path(path).read_text(encoding="utf-8"))
    if problems:
        raise BadInputError("评测集有误：" + "；".join(problems[:10]) + ("……" if len(problems) > 10 else ""))
    if not cases:
        raise BadInputError(f"评测集为空：{path}")
    return cases


# ---- golden sets: built-in (data/eval) and the workspace's own (eval/sets) ----------------
BUILTIN_DIR = Path(__file__).resolve().parents[2] / "data" / "eval"
_NAME = re.compile(r"^[A-Za-z0-9_\-\u4e00-\u9fff]{1,64}$")


def workspace_sets_dir() -> Path:
    from core.config import get_settings

    return get_settings().dir("eval", "sets")


def check_set_name(name: str) -> str:
    name = (name or "").strip()
    if not _NAME.match(name):
        raise BadInputError("评测集名称只能包含字母、数字、汉字、下划线和连字符（最长 64 个字符）")
    return name


def list_sets() -> list[dict]:
    """``[{"name", "builtin", "path"}]``: workspace sets first (they are the editable ones)."""
    out = [{"name": p.stem, "builtin": False, "path": p} for p in sorted(workspace_sets_dir().glob("*.jsonl"))]
    names = {s["name"] for s in out}
    out += [{"name": p.stem, "builtin": True, "path": p} for p in sorted(BUILTIN_DIR.glob("*.jsonl"))
            if p.stem not in names]
    return out


def builtin_records(name: str) -> list[dict]:
    """The records of the built-in set ``name`` as shipped (``[]`` when there is none)."""
    path = BUILTIN_DIR / f"{name}.jsonl"
    return read_records(path) if path.is_file() else []


def set_path(name: str) -> Path:
    """The file of set ``name`` (a workspace set shadows a built-in one of the same name)."""
    name = check_set_name(name)
    for s in list_sets():
        if s["name"] == name:
            return s["path"]
    from core.errors import NotFoundError

    raise NotFoundError(f"评测集 {name} 不存在")


def read_records(path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def write_records(name: str, records: list[dict]) -> Path:
    """Write (replace) the workspace set ``name``; every record is validated first."""
    name = check_set_name(name)
    problems = []
    seen = set()
    for i, rec in enumerate(records, 1):
        try:
            case = _record_to_case(rec, i)
            if case.id in seen:
                raise ValueError(f"id {case.id} 重复")
            seen.add(case.id)
        except ValueError as exc:
            problems.append(f"第 {i} 条：{exc}")
    if problems:
        raise BadInputError("评测用例有误：" + "；".join(problems[:10]))
    path = workspace_sets_dir() / f"{name}.jsonl"
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    tmp.replace(path)
    return path


def upsert_record(name: str, record: dict) -> Path:
    """Add ``record`` to the workspace set ``name`` (created when new; a record with the same
    id is replaced in place)."""
    name = check_set_name(name)
    path = workspace_sets_dir() / f"{name}.jsonl"
    records = read_records(path) if path.is_file() else []
    for i, r in enumerate(records):
        if r.get("id") == record.get("id"):
            records[i] = record
            break
    else:
        records.append(record)
    return write_records(name, records)
