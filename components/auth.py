"""Login form, password change, sidebar. Credentials are checked in core.services.users."""

from __future__ import annotations

import streamlit as st

from core.config import get_settings
from core.errors import AppError
from core.security.principals import ROLE_LABELS, SCENARIO_LABELS, Principal
from core.services import users

TOKEN_KEY = "session_token"
PASSWORD_TOKEN_KEY = "password_change_token"


def client_address() -> str | None:
    """The browser's address when Streamlit knows it (counts toward per-address lockout)."""
    try:
        address = st.context.ip_address
    except Exception:  # noqa: BLE001 - not available in every runtime (AppTest, bare mode)
        return None
    return address if isinstance(address, str) and address else None


def current_principal() -> Principal | None:
    """Resolve the session token on every rerun, so expiry and role changes apply at once."""
    principal = users.resume_session(st.session_state.get(TOKEN_KEY))
    if principal is None:
        st.session_state.pop(TOKEN_KEY, None)
        st.session_state.pop("principal", None)
    else:
        st.session_state["principal"] = principal
    return principal


def pending_password_change() -> users.PasswordChangeOnly | None:
    """A sign-in that may only change its one-time password (core decides, per rerun)."""
    pending = users.resume_password_change(st.session_state.get(PASSWORD_TOKEN_KEY))
    if pending is None:
        st.session_state.pop(PASSWORD_TOKEN_KEY, None)
    return pending


def render_login() -> None:
    st.title("知策 ZhiCe")
    st.caption("政策文档与业务数据问答 · 每个结论都可核查")
    with st.form("login"):
        name = st.text_input("用户名")
        password = st.text_input("密码", type="password")
        submitted = st.form_submit_button("登录", type="primary")
    if submitted:
        try:
            result, token = users.login(name, password, address=client_address())
        except AppError as exc:
            st.error(exc.user_message)
            return
        if isinstance(result, users.PasswordChangeOnly):
            st.session_state[PASSWORD_TOKEN_KEY] = token
        else:
            st.session_state[TOKEN_KEY] = token
            st.session_state["principal"] = result
        st.rerun()
    st.info("首次启动时，系统会在控制台打印管理员 admin 的一次性密码。")


def render_change_password() -> None:
    principal: Principal | None = st.session_state.get("principal")
    pending = None if principal is not None else pending_password_change()
    st.title("修改密码")
    if pending is not None:
        st.warning("这是首次登录使用的一次性密码，请先设置新密码。")
    with st.form("change_password"):
        old = st.text_input("当前密码", type="password")
        new = st.text_input("新密码（至少 10 个字符，混合字母、数字或符号，不能是常见密码）", type="password")
        again = st.text_input("再次输入新密码", type="password")
        submitted = st.form_submit_button("保存", type="primary")
    if submitted:
        if new != again:
            st.error("两次输入的新密码不一致")
            return
        try:
            if pending is not None:
                users.change_password_with_token(st.session_state.get(PASSWORD_TOKEN_KEY), old, new,
                                                 address=client_address())
            elif principal is not None:
                users.change_password(principal.name, old, new, address=client_address())
            else:
                st.error("登录已过期，请重新登录")
                return
        except AppError as exc:
            st.error(exc.user_message)
            return
        st.session_state.pop(TOKEN_KEY, None)
        st.session_state.pop(PASSWORD_TOKEN_KEY, None)
        st.session_state.pop("principal", None)
        st.success("密码已修改，请重新登录。")
        st.rerun()


def render_sidebar(principal: Principal) -> None:
    s = get_settings()
    with st.sidebar:
        st.markdown(f"**{principal.name}** · {ROLE_LABELS[principal.role.value]}")
        st.caption(f"租户：{'、'.join(principal.tenants) or ('全部' if principal.is_admin else '无')}")
        if principal.domains:
            st.caption(f"领域：{'、'.join(principal.domains)}")
        st.caption(f"场景：{'、'.join(SCENARIO_LABELS[x.value] for x in principal.allowed_scenarios)}")
        if s.llm_enabled:
            st.caption(f"大模型：{s.llm_model}")
        else:
            st.caption("大模型：未配置 · 离线规则模式")
        st.caption(f"图数据库：{'Neo4j' if s.graph_backend == 'neo4j' else 'LadybugDB（内嵌）'}")
        st.caption(f"工作区：{s.home.name}")
        if st.button("退出登录"):
            users.logout(st.session_state.pop(TOKEN_KEY, None))
            st.session_state.pop("principal", None)
            st.rerun()
