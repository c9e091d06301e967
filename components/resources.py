"""The only st.cache_resource / st.cache_data wrappers of the dashboard."""

from __future__ import annotations

import streamlit as st

from core.config import get_settings, load_settings, set_settings


def _secrets() -> dict:
    try:
        return {k: v for k, v in st.secrets.items() if isinstance(v, (str, int, float, bool))}
    except Exception:  # noqa: BLE001 - no secrets.toml is the normal case
        return {}


@st.cache_resource(show_spinner=False)
def _bootstrap_once(secret_items: tuple, home: str) -> dict:
    """Once per process and workspace: app DB migrations, first administrator."""
    from core.services.users import ensure_admin
    from core.storage.db import get_db

    get_db()
    password = ensure_admin(echo=lambda msg: print(msg, flush=True))
    return {"admin_created": password is not None}


def bootstrap() -> dict:
    """Settings from env / .env / st.secrets (every rerun: cheap), then the one-time setup."""
    secrets = _secrets()
    settings = load_settings(secrets)
    if settings != get_settings():
        set_settings(settings)
    return _bootstrap_once(tuple(sorted(secrets.items())), str(settings.home))


@st.cache_data(ttl=30, show_spinner=False)
def component_status(home: str, actor) -> list[dict]:
    """Status of every component (real checks; admins only, checked in core), cached briefly
    per workspace and user."""
    from core.services.status import check_all

    return check_all(actor)


def status_for_current_workspace(actor) -> list[dict]:
    from core.services.settings_view import require_settings_access

    require_settings_access(actor)  # before the cache, so a cached result is never a way in
    return component_status(str(get_settings().home), actor)
