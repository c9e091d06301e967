"""User administration and sign-in, for the dashboard and the ``users`` command.

Every sign-in (login page, ``users check``, password change) goes through
``UserStore.authenticate``: lockout per user and per client address, the same answer for
unknown users and wrong passwords, an audit event for each success and failure. A user who must
change the password gets a :class:`PasswordChangeOnly` result instead of a session."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.errors import AuthError, BadInputError, PermissionDenied
from core.security.audit import audit
from core.security.principals import Principal, UserStore


@dataclass(frozen=True)
class PasswordChangeOnly:
    """What ``login`` returns while ``must_change_password`` is set: no principal, only a token
    that ``change_password_with_token`` accepts (``resume_session`` never does)."""

    name: str
    must_change_password: bool = True


def _require_admin(actor: Principal | None, *, operator_ok: bool = True) -> None:
    """An administrator, or (``operator_ok``) ``None``: the local command line's operator."""
    if (actor is None and not operator_ok) or (actor is not None and not actor.is_admin):
        raise PermissionDenied("只有管理员可以管理用户")


def add_user(name: str, role: str, password: str, *, tenants=(), domains=(), scenario="window", scenarios=None,
             actor: Principal | None = None, must_change_password: bool = False) -> Principal:
    """Create a user. ``actor`` None = the local command line (trusted operator).
    ``scenario`` is the default scenario (or a list); ``scenarios`` the ones the user may use."""
    _require_admin(actor)
    user = UserStore().add(name, role, password, tenants=tenants, domains=domains, scenario=scenario,
                           scenarios=scenarios, must_change_password=must_change_password)
    audit(actor.name if actor else "cli", "users.add", target=user.name,
          detail={"role": user.role.value, "scenarios": [s.value for s in user.scenarios]})
    return user


def list_users(actor: Principal, *, include_disabled: bool = False) -> list[Principal]:
    _require_admin(actor)
    return UserStore().list(include_disabled=include_disabled)


def user_rows(actor: Principal) -> list[dict]:
    """Every user (disabled ones too) for the user-management table."""
    _require_admin(actor)
    store = UserStore()
    disabled = store.disabled_names()
    return [{"name": u.name, "role": u.role.value, "tenants": list(u.tenants), "domains": list(u.domains),
             "scenarios": [s.value for s in u.allowed_scenarios], "must_change_password": u.must_change_password,
             "disabled": u.name in disabled} for u in store.list(include_disabled=True)]


def set_disabled(actor: Principal, name: str, disabled: bool) -> None:
    """Disable (or enable again) a user; a disabled user's sessions end at once. An
    administrator cannot disable their own account."""
    _require_admin(actor)
    if actor is not None and disabled and name == actor.name:
        raise BadInputError("不能停用自己的账号")
    UserStore().set_disabled(name, disabled)
    audit(actor.name if actor else "cli", "users.disable" if disabled else "users.enable", target=name)


def session_state(token: str | None) -> dict:
    """UI state remembered with a live session (e.g. current chat thread ids)."""
    return UserStore().session_state(token)


def save_session_state(token: str | None, state: dict) -> None:
    UserStore().save_session_state(token, state)


def update_user(actor: Principal, name: str, **changes) -> Principal:
    _require_admin(actor)
    user = UserStore().update(name, **changes)
    audit(actor.name, "users.update", target=name, detail={k: v for k, v in changes.items() if v is not None})
    return user


def reset_password(name: str, password: str, *, actor: Principal | None = None,
                   must_change_password: bool = True) -> Principal:
    """An administrator (or the local operator) sets a user's password; by default the user must
    change it at the next sign-in."""
    _require_admin(actor)
    user = UserStore().set_password(name, password, must_change_password=must_change_password)
    audit(actor.name if actor else "cli", "users.reset_password", target=user.name)
    return user


def login(name: str, password: str, *, address: str | None = None,
          via: str = "web") -> tuple[Principal | PasswordChangeOnly, str]:
    """Check the password and open a session; returns (principal, session token).

    While the user must change the password the result is ``(PasswordChangeOnly, token)`` and
    the token only opens the password change. Raises AuthError (AccountLocked when locked)."""
    store = UserStore()
    principal = store.authenticate(name, password, address=address, via=via)
    token = store.open_session(principal)
    if principal.must_change_password:
        return PasswordChangeOnly(principal.name), token
    return principal, token


def check_signin(name: str, password: str, *, address: str | None = None, via: str = "cli") -> dict:
    """``users check``: verify a sign-in exactly as the login page does, without a session."""
    principal = UserStore().authenticate(name, password, address=address, via=via)
    return {"user": principal.name, "ok": True, "must_change_password": principal.must_change_password}


def resume_session(token: str | None) -> Principal | None:
    return UserStore().resolve_session(token)


def resume_password_change(token: str | None) -> PasswordChangeOnly | None:
    name = UserStore().resolve_password_change(token)
    return PasswordChangeOnly(name) if name else None


def logout(token: str | None) -> None:
    if token:
        UserStore().close_session(token)


def change_password(name: str, old: str, new: str, *, address: str | None = None) -> Principal:
    """Change a password; the old one is checked like a sign-in (counts toward lockout)."""
    principal = UserStore().change_password(name, old, new, address=address)
    audit(principal.name, "users.change_password")
    return principal


def change_password_with_token(token: str | None, old: str, new: str, *, address: str | None = None) -> Principal:
    """The password change a ``PasswordChangeOnly`` token allows (for that user only)."""
    pending = resume_password_change(token)
    if pending is None:
        raise AuthError("登录已过期，请重新登录")
    principal = change_password(pending.name, old, new, address=address)
    logout(token)
    return principal


# ---- HTTP API bearer tokens (core.security.api_tokens) ----------------------------------
def issue_api_token(name: str, *, ttl_days: int | None = None, actor: Principal | None = None) -> dict:
    """``users token NAME``: a new API token for ``name`` (admins; ``actor`` None = the local
    command line). Returns ``{"user", "token", "expires_at"}``; the token is shown only here."""
    from core.security.api_tokens import DEFAULT_TTL_DAYS, ApiTokenStore

    _require_admin(actor)
    ttl = DEFAULT_TTL_DAYS if ttl_days is None else ttl_days
    issued = ApiTokenStore().issue(name, ttl_days=ttl, created_by=actor.name if actor else "cli")
    audit(actor.name if actor else "cli", "users.api_token", target=issued["user"],
          detail={"expires_at": issued["expires_at"], "ttl_days": ttl})
    return issued


def revoke_api_tokens(name: str, *, actor: Principal | None = None) -> dict:
    """``users revoke-tokens NAME``: revoke every API token of ``name`` (admins)."""
    from core.security.api_tokens import ApiTokenStore

    _require_admin(actor)
    n = ApiTokenStore().revoke_all(name)
    audit(actor.name if actor else "cli", "users.api_token_revoke", target=name, detail={"revoked": n})
    return {"user": name, "revoked": n}


def revoke_api_token(actor: Principal, name: str, token_id: int) -> dict:
    """The admin page revokes one API token of ``name`` (admins); NotFoundError when it is not
    a live token of that user."""
    from core.security.api_tokens import ApiTokenStore

    _require_admin(actor, operator_ok=False)
    ApiTokenStore().revoke(name, token_id)
    audit(actor.name, "users.api_token_revoke", target=name, detail={"token_id": int(token_id), "revoked": 1})
    return {"user": name, "revoked": 1}


def list_api_tokens(actor: Principal, name: str | None = None) -> list[dict]:
    """Token metadata (never a token) for the admin page."""
    from core.security.api_tokens import ApiTokenStore

    _require_admin(actor, operator_ok=False)
    return ApiTokenStore().list(name)


TOKEN_STATES = {"active": "有效", "expired": "已过期", "revoked": "已吊销"}


def china_time(value: str | None) -> str:
    """A stored UTC timestamp as China time, to the minute ("" for none)."""
    from core.services.review import CHINA

    if not value:
        return ""
    return datetime.fromisoformat(value).astimezone(CHINA).strftime("%Y-%m-%d %H:%M")


def api_token_rows(actor: Principal, name: str) -> list[dict]:
    """``name``'s tokens as the admin page shows them, newest first: number, 签发/到期/最近使用
    in China time, who issued it and its state in words. Never the token or its hash."""
    return [{"id": int(t["id"]), "created": china_time(t["created_at"]), "created_by": t["created_by"] or "",
             "expires": china_time(t["expires_at"]), "last_used": china_time(t["last_used_at"]) or "从未使用",
             "state": t["state"], "state_label": TOKEN_STATES[t["state"]]}
            for t in reversed(list_api_tokens(actor, name))]


def ensure_admin(echo=print) -> str | None:
    return UserStore().ensure_admin(echo=echo)
