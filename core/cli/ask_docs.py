"""``ask-docs "QUESTION"`` (also ``--batch``): policy Q&A — core.services.ask_docs."""

from __future__ import annotations

from core.cli.batch import run_batch
from core.cli.output import citation_lines, emit
from core.errors import BadInputError
from core.security.principals import Principal, resolve_user
from core.services import ask_docs as service


def human(res: dict) -> str:
    lines = [res["answer"]]
    lines += citation_lines(res)
    lines.append(f"（{res['rounds']} 轮检索，{res['latency_ms']:.0f} ms，会话 {res['thread_id']}）")
    return "\n".join(lines)


def cmd_ask_docs(args) -> int:
    scenario = getattr(args, "scenario", None)
    if getattr(args, "batch", None):
        default_user = getattr(args, "user", None)
        users: dict[str, Principal] = {}

        def one(rec: dict) -> dict:
            name = rec.get("user") or default_user or ""
            if name not in users:
                users[name] = resolve_user(name or None)
            return service.ask_docs(rec["question"], users[name], thread_id=rec.get("thread"), scenario=scenario)

        return run_batch(args, one)
    if not (args.question or "").strip():
        raise BadInputError("请提供问题，或用 --batch 指定批量文件")
    principal = resolve_user(getattr(args, "user", None))
    res = service.ask_docs(args.question, principal, thread_id=getattr(args, "thread", None), scenario=scenario)
    emit(res, args.json, human)
    return 0
