"""Login form, password change, sidebar, and the session cookie. Credentials are checked in
core.services.users.

A sign-in survives a refresh: the random session token (only its hash is stored, in the
``sessions`` table) is kept in the browser cookie ``zhice_session`` — written through the
CookieManager component of ``extra-streamlit-components`` (its frontend ships in the package,
so it works offline), read back from ``st.context.cookies`` on the next page load and checked
against the sessions table on every rerun. It is never put in the URL. 退出登录 deletes the
session row and the cookie; an expired session (``ZHICE_SESSION_TTL_MIN``) is removed by core
and its cookie deleted here. The chat pages' current thread ids (``docs_thread``,
``kg_thread``, ``task_thread`` in ``st.session_state``) are remembered with the session and restored on reload."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import streamlit as st

from core.config import get_settings
from core.errors import AppError
from core.security.principals import ROLE_LABELS, SCENARIO_LABELS, Principal
from core.services import users
from components.notice import flash

TOKEN_KEY = "session_token"
PASSWORD_TOKEN_KEY = "password_change_token"
COOKIE = "zhice_session"
#: session-state keys restored after a refresh (the chat pages own them)
THREAD_KEYS = ("docs_thread", "kg_thread", "task_thread")
_SAVED_THREADS = "_saved_threads"
_DELETE_COOKIE = "_delete_session_cookie"


def _browser_cookie() -> str | None:
    """The session cookie the browser sent when this page was loaded (not updated in-page)."""
    try:
        value = st.context.cookies.get(COOKIE)
    except Exception:  # noqa: BLE001 - no request context (AppTest, bare mode)
        return None
    return value if isinstance(value, str) and value else None


def _cookie_component(**kwargs):
    from extra_streamlit_components.CookieManager import _component_func  # the package's declared component

    return _component_func(**kwargs)


def _hide_component_frames() -> None:
    # only the cookie manager's frame: every component frame starts at height 0, and hiding those
    # (the graph of 图谱浏览) would keep them at 0 for good
    frame = "iframe[title^='extra_streamlit_components']"
    st.html(f"<style>.element-container:has({frame}), .stElementContainer:has({frame}){{display:none}}</style>")


def sync_cookie() -> None:
    """Make the browser's cookie match the session: write the token after a sign-in (rendered on
    every rerun until a reload shows the browser has it; same key and value, so the component
    stays mounted and writes once), delete it after 退出登录 or expiry."""
    token = st.session_state.get(TOKEN_KEY)
    browser = _browser_cookie()
    if token and browser != token:
        with st.sidebar:
            _hide_component_frames()
            ttl_s = get_settings().session_ttl_min * 60
            expires = (datetime.now(timezone.utc) + timedelta(seconds=ttl_s)).isoformat()
            _cookie_component(method="set", cookie=COOKIE, value=token, key="zhice_cookie_set", default=False,
                              options={"path": "/", "expires": expires, "maxAge": ttl_s, "sameSite": "strict"})
    elif not token and st.session_state.get(_DELETE_COOKIE) and browser:
        with st.sidebar:
            _hide_component_frames()
            _cookie_component(method="delete", cookie=COOKIE, key="zhice_cookie_delete", default=False)


def remember_threads() -> None:
    """Save the current chat thread ids with the session (only when they changed)."""
    token = st.session_state.get(TOKEN_KEY)
    if not token:
        return
    threads = {k: st.session_state[k] for k in THREAD_KEYS if isinstance(st.session_state.get(k), str)}
    if threads and threads != st.session_state.get(_SAVED_THREADS):
        users.save_session_state(token, {"threads": threads})
        st.session_state[_SAVED_THREADS] = threads


def _restore_threads(token: str) -> None:
    threads = (users.session_state(token) or {}).get("threads") or {}
    for k in THREAD_KEYS:
        if isinstance(threads.get(k), str) and k not in st.session_state:
            st.session_state[k] = threads[k]
    st.session_state[_SAVED_THREADS] = {k: v for k, v in threads.items() if k in THREAD_KEYS}


def client_address() -> str | None:
    """The browser's address when Streamlit knows it (counts toward per-address lockout)."""
    try:
        address = st.context.ip_address
    except Exception:  # noqa: BLE001 - not available in every runtime (AppTest, bare mode)
        return None
    return address if isinstance(address, str) and address else None


def current_principal() -> Principal | None:
    """Resolve the session token on every rerun, so expiry and role changes apply at once. A
    new page load (refresh, bookmark) picks the token up from the cookie."""
    token = st.session_state.get(TOKEN_KEY)
    from_cookie = False
    if not token and not st.session_state.get(_DELETE_COOKIE):
        token = _browser_cookie()
        from_cookie = token is not None
    principal = users.resume_session(token)
    if principal is None:
        if token:  # expired, ended elsewhere, or the user was disabled: the cookie goes too
            st.session_state[_DELETE_COOKIE] = True
        st.session_state.pop(TOKEN_KEY, None)
        st.session_state.pop("principal", None)
    else:
        st.session_state[TOKEN_KEY] = token
        st.session_state["principal"] = principal
        if from_cookie:
            _restore_threads(token)
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
        st.session_state.pop(_DELETE_COOKIE, None)
        if isinstance(result, users.PasswordChangeOnly):
            st.session_state[PASSWORD_TOKEN_KEY] = token
        else:
            st.session_state[TOKEN_KEY] = token
            st.session_state["principal"] = result
        st.rerun()
    st.info("首次启动时，系统会在控制台打印管理员 admin 的一次性密码。", icon=":material/info:")


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
        st.session_state[_DELETE_COOKIE] = True
        flash("密码已修改，请用新密码重新登录。")
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
        if principal.is_admin:
            st.caption(f"图数据库：{'Neo4j' if s.graph_backend == 'neo4j' else 'LadybugDB（内嵌）'}")
            st.caption(f"工作区：{s.home.name}")
        if st.button("退出登录", icon=":material/logout:", key="logout"):
            log_out()
            flash("已退出登录。", "info")
            st.rerun()


def log_out() -> None:
    """End the session for real: the session row goes now, the browser cookie on the next run."""
    users.logout(st.session_state.pop(TOKEN_KEY, None))
    for key in list(st.session_state.keys()):  # nothing of this user stays in the browser tab
        if key != "_flash":
            del st.session_state[key]
    st.session_state[_DELETE_COOKIE] = True
