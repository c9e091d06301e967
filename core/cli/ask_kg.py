"""``ask-kg "QUESTION"`` (also ``--batch`` and ``--plan-file``) and ``source-row TEMPLATE FILE
ROW``: business-graph Q&A and the spreadsheet row behind a provenance entry —
core.services.ask_kg."""

from __future__ import annotations

import json
from pathlib import Path

from core.cli.batch import run_batch
from core.cli.output import emit
from core.errors import BadInputError
from core.security.principals import Principal, resolve_user
from core.services import ask_kg as service


def human(res: dict) -> str:
    if res.get("need_confirm"):
        nc = res["need_confirm"]
        return (f"{nc['text']}\n选项：{' / '.join(nc.get('options') or [])}\n"
                f"（继续：ask-kg \"确认\" --thread {res['thread']}）")
    lines = [res.get("answer") or ""]
    lines.append(f"（{res['latency_ms']} ms，thread {res['thread']}）")
    return "\n".join(lines)


def read_plan_file(path: Path) -> dict:
    """``--plan-file``: an edited plan ``{"plan": [{"id", "tool", "params", "depends"}, …]}``,
    the reply the 图谱问答 page sends."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BadInputError(f"计划文件无法读取或不是有效的 JSON：{Path(path).name}（{exc}）") from None
    if not isinstance(data, dict) or not isinstance(data.get("plan"), list):
        raise BadInputError("计划文件应为 {\"plan\": [{\"id\", \"tool\", \"params\", \"depends\"}, …]}")
    return data


def cmd_ask_kg(args) -> int:
    auto = bool(getattr(args, "auto", False))
    debug = bool(getattr(args, "debug", False))
    if getattr(args, "batch", None):
        users: dict[str, Principal] = {}

        def one(rec: dict) -> dict:
            name = rec.get("user") or args.user
            if name not in users:
                users[name] = resolve_user(name)
            return service.ask_kg(rec["question"], principal=users[name], thread_id=rec.get("thread"), auto=auto,
                                  debug=debug)

        return run_batch(args, one)
    question: str | dict | None = args.question
    if getattr(args, "plan_file", None):
        if not args.thread:
            raise BadInputError("--plan-file 需要配合 --thread（等待计划确认的会话）使用")
        question = read_plan_file(args.plan_file)
    if not question:
        raise BadInputError("请提供问题，或使用 --batch 文件")
    res = service.ask_kg(question, principal=resolve_user(args.user), thread_id=args.thread, auto=auto, debug=debug)
    emit(res, args.json, human)
    return 0


def human_row(res: dict) -> str:
    lines = [f"{res['template']} · {res['file']} · 第 {res['row']} 行"]
    lines += [f"  {k}：{'' if v is None else v}" for k, v in res["values"].items()]
    if res["masked_fields"]:
        lines.append(f"（按您的权限已隐藏：{'、'.join(res['masked_fields'])}）")
    return "\n".join(lines)


def cmd_source_row(args) -> int:
    res = service.source_row(resolve_user(args.user), args.template, args.file, args.row)
    emit(res, args.json, human_row)
    return 0
