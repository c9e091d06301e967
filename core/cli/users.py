"""``users add | check | token | revoke-tokens``: workspace users and API tokens
(core.services.users)."""

from __future__ import annotations

import argparse
import getpass
import json
import sys

from core.cli.output import emit
from core.errors import AuthError, BadInputError
from core.security.principals import resolve_user
from core.services import users as service


def read_password(args: argparse.Namespace, prompt: str) -> str:
    """``--password-stdin``: one line of standard input; else a prompt on a terminal."""
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    raise BadInputError("非交互环境请使用 --password-stdin 提供密码")


def cmd_users(args: argparse.Namespace) -> int:
    if args.users_command == "add":
        password = read_password(args, f"为 {args.name} 设置密码：")
        scenarios = args.scenario or ["window"]
        user = service.add_user(args.name, args.role, password, tenants=args.tenant, domains=args.domain,
                                scenario=scenarios[0], scenarios=scenarios)
        emit({"user": user.name}, args.json, lambda r: f"已创建用户 {r['user']}（{user.role.value}）")
        return 0
    if args.users_command == "check":
        password = read_password(args, f"{args.name} 的密码：")
        try:
            result = service.check_signin(args.name, password)
        except AuthError as exc:
            if args.json:
                print(json.dumps({"user": args.name, "ok": False, "must_change_password": False}, ensure_ascii=False))
            print(f"错误：{exc.user_message}", file=sys.stderr)
            return 2
        emit(result, args.json, lambda r: f"{r['user']}：密码正确" + ("（首次登录须修改密码）" if r["must_change_password"]
                                                                      else ""))
        return 0
    if args.users_command in ("token", "revoke-tokens"):
        actor = resolve_user(args.user) if getattr(args, "user", None) else None
        if args.users_command == "token":
            issued = service.issue_api_token(args.name, ttl_days=args.ttl_days, actor=actor)
            emit(issued, args.json, lambda r: f"{r['token']}\n（{r['user']} 的 API 令牌，有效期至 {r['expires_at']}；"
                                              "只显示这一次，请妥善保存）")
            return 0
        revoked = service.revoke_api_tokens(args.name, actor=actor)
        emit(revoked, args.json, lambda r: f"已吊销 {r['user']} 的 {r['revoked']} 个 API 令牌")
        return 0
    raise BadInputError(f"未知子命令：{args.users_command}")
