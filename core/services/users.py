"""User administration and login, for the dashboard and ``python -m core.cli users``."""

from __future__ import annotations

import argparse
import getpass
import sys

from core.errors import AuthError, BadInputError, PermissionDenied
from core.security.audit import audit
from core.security.principals import Principal, UserStore


def _require_admin(actor: Principal | None) -> None:
    if actor is not None and not actor.is_admin:
        raise PermissionDenied("只有管理员可以管理用户")


def add_user(name: str, role: str, password: str, *, tenants=(), domains=(), scenario: str = "window",
             actor: Principal | None = None, must_change_password: bool = False) -> Principal:
    """Create a user. ``actor`` None = the local command line (trusted operator)."""
    _require_admin(actor)
    user = UserStore().add(name, role, password, tenants=tenants, domains=domains, scenario=scenario,
                           must_change_password=must_change_password)
    audit(actor.name if actor else "cli", "users.add", target=user.name, detail={"role": user.role.value})
    return user


def list_users(actor: Principal) -> list[Principal]:
    _require_admin(actor)
    return UserStore().list()


def update_user(actor: Principal, name: str, **changes) -> Principal:
    _require_admin(actor)
    user = UserStore().update(name, **changes)
    audit(actor.name, "users.update", target=name, detail={k: v for k, v in changes.items() if v is not None})
    return user


def login(name: str, password: str) -> tuple[Principal, str]:
    """Check the password and open a session; returns (principal, session token)."""
    store = UserStore()
    try:
        principal = store.authenticate(name, password)
    except AuthError:
        audit(name, "login", outcome="denied")
        raise
    audit(principal.name, "login")
    return principal, store.open_session(principal)


def resume_session(token: str | None) -> Principal | None:
    return UserStore().resolve_session(token)


def logout(token: str | None) -> None:
    if token:
        UserStore().close_session(token)


def change_password(name: str, old: str, new: str) -> Principal:
    principal = UserStore().change_password(name, old, new)
    audit(name, "users.change_password")
    return principal


def ensure_admin(echo=print) -> str | None:
    return UserStore().ensure_admin(echo=echo)


def cli_users(args: argparse.Namespace) -> int:
    from core.cli import emit

    if args.users_command != "add":
        raise BadInputError(f"未知子命令：{args.users_command}")
    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    elif sys.stdin.isatty():
        password = getpass.getpass(f"为 {args.name} 设置密码：")
    else:
        raise BadInputError("非交互环境请使用 --password-stdin 提供密码")
    user = add_user(args.name, args.role, password, tenants=args.tenant, domains=args.domain,
                    scenario=args.scenario)
    emit({"user": user.name}, args.json, lambda r: f"已创建用户 {r['user']}（{user.role.value}）")
    return 0
