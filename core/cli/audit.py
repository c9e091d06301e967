"""``audit [--of USER] [--kind K] [--since DATE] [--limit N]``: the audit log, administrators
only (anyone else exits 1) — core.services.audit."""

from __future__ import annotations

import sys
from typing import Any

from core.cli.output import emit
from core.errors import PermissionDenied
from core.security.principals import resolve_user
from core.services import audit as service

#: the fields of an event the command prints
EVENT_FIELDS = ("id", "at", "kind", "user", "tenant", "target", "outcome", "detail")


def human(res: dict) -> str:
    lines = [f"{e['at']}  {e['kind']:<16} {e['user'] or '-':<12} {e['tenant'] or '-':<8} {e['outcome']:<8} "
             f"{service.summary(e)}" for e in res["events"]]
    return "\n".join(lines) or "（没有符合条件的审计事件）"


def cmd_audit(args) -> int:
    principal = resolve_user(getattr(args, "user", None))
    try:
        rows = service.list_events(principal, of=args.of, kind=args.kind, since=args.since, limit=args.limit)
    except PermissionDenied as exc:  # the contract: exit 1 for anyone but administrators
        print(f"错误：{exc.user_message}", file=sys.stderr)
        return 1
    res: dict[str, Any] = {"events": [{k: e[k] for k in EVENT_FIELDS} for e in rows]}
    emit(res, args.json, human)
    return 0
