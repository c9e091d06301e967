"""The command-line contract (shared/spec/cli.md): ``python -m core.cli COMMAND ...``.

Each command parses its flags (:mod:`core.cli.parser`), resolves the acting user, calls
``core.services`` functions that take a Principal and return JSON-able data, and prints the
result (``--json``) or a short human summary (:mod:`core.cli.output`). The handlers live in
one module per command group here (``core.cli.users``, ``core.cli.ask_kg``, …); nothing under
``core.services`` knows about the command line. Exit codes: 0 ok, 1 failed, 2 bad input. No
traceback unless ``--debug``.
"""

from __future__ import annotations

import importlib
import sys
import traceback

from core.cli.batch import read_batch, run_batch
from core.cli.output import emit
from core.cli.parser import build_parser
from core.errors import AppError

# command -> (module, handler). A handler module is imported only when its command runs; a
# command whose service has not landed yet says so and exits 1, never printing made-up output.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("core.cli.demo", "cmd_demo"),
    "templates": ("core.cli.build", "cmd_templates"),
    "build-graph": ("core.cli.build", "cmd_build_graph"),
    "ingest-docs": ("core.cli.ingest", "cmd_ingest_docs"),
    "retrieve": ("core.cli.ingest", "cmd_retrieve"),
    "reembed": ("core.cli.ingest", "cmd_reembed"),
    "ask-docs": ("core.cli.ask_docs", "cmd_ask_docs"),
    "task": ("core.cli.task", "cmd_task"),
    "ask-kg": ("core.cli.ask_kg", "cmd_ask_kg"),
    "source-row": ("core.cli.ask_kg", "cmd_source_row"),
    "eval": ("core.cli.eval", "cmd_eval"),
    "users": ("core.cli.users", "cmd_users"),
    "audit": ("core.cli.audit", "cmd_audit"),
    "feedback": ("core.cli.review", "cmd_feedback"),
    "review": ("core.cli.review", "cmd_review"),
    "graph": ("core.cli.explore", "cmd_graph"),
}

__all__ = ["COMMANDS", "build_parser", "emit", "main", "read_batch", "run_batch"]


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 0
    if args.command == "users" and not getattr(args, "users_command", None):
        parser.parse_args(["users", "--help"])
    if args.command == "review" and not getattr(args, "review_command", None):
        parser.parse_args(["review", "--help"])
    if args.command == "graph" and not getattr(args, "graph_command", None):
        parser.parse_args(["graph", "--help"])
    module_name, func_name = COMMANDS[args.command]
    debug = getattr(args, "debug", False)
    try:
        try:
            module = importlib.import_module(module_name)
            handler = getattr(module, func_name)
        except (ModuleNotFoundError, AttributeError) as exc:
            if debug:
                traceback.print_exc()
            missing = getattr(exc, "name", "") or ""
            if isinstance(exc, ModuleNotFoundError) and not missing.startswith("core"):
                raise
            print(f"命令 {args.command} 尚未在此版本中提供", file=sys.stderr)
            return 1
        return int(handler(args) or 0)
    except AppError as exc:
        if debug:
            traceback.print_exc()
        print(f"错误：{exc.user_message}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 1
    except Exception as exc:  # noqa: BLE001 - last line of defence for the CLI contract
        if debug:
            traceback.print_exc()
        else:
            print(f"错误：{type(exc).__name__}: {exc}（加 --debug 查看详情）", file=sys.stderr)
        return 1
