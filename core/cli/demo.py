"""``demo [--reset]``: the bundled sample data and users (core.services.demo). With ``--json``
the one-time passwords go to stderr, so stdout stays one JSON document."""

from __future__ import annotations

import argparse
import sys

from core.cli.output import emit
from core.services import demo as service


def cmd_demo(args: argparse.Namespace) -> int:
    printed: list[str] = []
    # one-time passwords never go to stdout with --json (it must stay one JSON document)
    echo = (lambda msg: print(msg, file=sys.stderr, flush=True)) if args.json else printed.append
    result = service.run_demo(reset=args.reset, echo=echo)

    def human(r: dict) -> str:
        nodes = sum(r["graph"].get("nodes", {}).values())
        edges = sum(r["graph"].get("edges", {}).values())
        docs = r["documents"].get("documents", [])
        errors = r["documents"].get("errors", [])
        lines = [f"业务图谱：节点 {nodes}，关系 {edges}",
                 f"政策文档：{len(docs)} 篇" + (f"，失败 {len(errors)} 篇" if errors else ""),
                 f"用户：{'、'.join(r['users'])}"]
        if printed:
            lines += ["新建用户的一次性密码（只显示这一次，首次登录后必须修改）：", *printed]
        else:
            lines.append("示例用户已存在，密码不变（忘记密码可由管理员重设）。")
        return "\n".join(lines)

    emit(result, args.json, human)
    return 0
