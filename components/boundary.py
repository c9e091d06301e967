"""The one error boundary every page runs inside (app.py wraps ``nav.run()``): a failure shows
what happened and what to do in Chinese, the trace goes to the log, and no traceback reaches
the browser."""

from __future__ import annotations

import logging
import uuid
from contextlib import contextmanager
from typing import Iterator

import streamlit as st

from core.errors import AppError, AuthError, NotFoundError, PermissionDenied

log = logging.getLogger("zhice.ui")


def _is_control_flow(exc: BaseException) -> bool:
    """st.rerun / st.stop / st.switch_page raise exceptions that must pass through."""
    name = type(exc).__name__
    module = type(exc).__module__ or ""
    return module.startswith("streamlit") and name in {"RerunException", "StopException", "ScriptControlException"}


def render_failure(exc: BaseException) -> str:
    """Show a user-safe message for ``exc``; returns the incident id written to the log."""
    incident = uuid.uuid4().hex[:8]
    if isinstance(exc, PermissionDenied):
        st.error(f"没有权限：{exc.user_message}", icon=":material/block:")
        st.caption("如需开通，请联系管理员。")
    elif isinstance(exc, AuthError):
        st.warning(f"{exc.user_message}", icon=":material/lock:")
        st.caption("请刷新页面重新登录。")
    elif isinstance(exc, NotFoundError):
        st.warning(exc.user_message, icon=":material/search_off:")
        st.caption("它可能已被删除，或不在你的权限范围内。请返回列表重新选择。")
    elif isinstance(exc, AppError):
        st.error(exc.user_message, icon=":material/error:")
        st.caption("请按提示修改后重试；如果问题一直出现，请联系管理员。")
    else:
        st.error("页面出错了，本次操作没有完成。已经保存的数据不受影响。", icon=":material/error:")
        st.caption(f"请刷新页面后重试；如果问题一直出现，请把错误编号 {incident} 告诉管理员"
                   "（管理员可在服务器日志中按编号查到详情）。")
    return incident


@contextmanager
def error_boundary(page: str = "") -> Iterator[None]:
    try:
        yield
    except Exception as exc:  # noqa: BLE001 - this is the boundary
        if _is_control_flow(exc):
            raise
        incident = render_failure(exc)
        if isinstance(exc, AppError):
            log.warning("page %s: %s (%s) [%s]", page, type(exc).__name__, getattr(exc, "user_message", exc), incident)
        else:
            log.exception("page %s failed [%s]", page, incident)
