"""``task "REQUEST"``: the policy task agent (core.services.task), with optional Markdown and
Excel exports of its report."""

from __future__ import annotations

from pathlib import Path

from core.agents.task.state import FUSE_LABELS
from core.cli.output import citation_lines, emit
from core.errors import AppError, BadInputError
from core.security.principals import resolve_user
from core.services import task as service


def human(res: dict) -> str:
    lines = [res["report"]]
    lines += citation_lines(res)
    c = res["counters"]
    lines.append(f"（{len(res['steps'])} 步，{c['tokens']} Token，{res['latency_ms']:.0f} ms，"
                 f"{FUSE_LABELS.get(res['stopped_by'], '') + '熔断' if res['stopped_by'] else '已完成'}，"
                 f"会话 {res['thread_id']}）")
    return "\n".join(lines)


def cmd_task(args) -> int:
    if not (getattr(args, "request", "") or "").strip():
        raise BadInputError("请提供任务描述")
    principal = resolve_user(getattr(args, "user", None))
    res = service.run_task(args.request, principal, thread_id=getattr(args, "thread", None),
                           max_steps=getattr(args, "max_steps", None), deadline_s=getattr(args, "deadline_s", None))
    for attr, write in (("out_md", lambda p: Path(p).write_text(service.export_markdown(res), encoding="utf-8")),
                        ("out_xlsx", lambda p: Path(p).write_bytes(service.export_excel(res)))):
        path = getattr(args, attr, None)
        if path:
            try:
                write(path)
            except OSError as exc:
                raise AppError(f"无法写出导出文件：{path}", detail=str(exc)) from exc
    emit(res, args.json, human)
    return 0
