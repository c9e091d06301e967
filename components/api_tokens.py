"""API 令牌 on 设置与状态 (administrators): issue a token for a user (shown once, with a copy
hint and a warning), list a user's tokens (签发 / 到期 / 最近使用, never the token), revoke one
or all after a confirmation. Every check and the audit trail live in core.services.users."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components.notice import flash
from core.errors import AppError
from core.security.api_tokens import DEFAULT_TTL_DAYS, MAX_TTL_DAYS
from core.security.principals import Principal
from core.services import users

_SHOWN = "api_token_shown"
_PENDING = "confirm_token_revoke"


def _show_new_token() -> None:
    who, token, expires = st.session_state[_SHOWN]
    with st.container(border=True):
        st.warning(f"{who} 的 API 令牌只显示这一次，关闭后无法再查看。持有令牌即可以 {who} 的身份调用接口，"
                   "请通过安全渠道交给对方，不要发到群聊或邮件正文里。", icon=":material/key:")
        st.code(token, language=None)
        st.caption(f"点击上框右上角的复制按钮复制令牌；有效期至 {expires}。")
        if st.button("我已复制保存，隐藏", key="hide-api-token"):
            st.session_state.pop(_SHOWN)
            st.rerun()


def _issue_form(principal: Principal, who: str) -> None:
    with st.form("issue_api_token"):
        days = st.number_input("有效期（天）", min_value=1, max_value=MAX_TTL_DAYS, value=DEFAULT_TTL_DAYS, step=1)
        if st.form_submit_button("签发令牌", icon=":material/key:"):
            try:
                issued = users.issue_api_token(who, ttl_days=int(days), actor=principal)
            except AppError as exc:
                st.error(exc.user_message, icon=":material/error:")
            else:
                st.session_state[_SHOWN] = (issued["user"], issued["token"], users.china_time(issued["expires_at"]))
                flash(f"已为 {issued['user']} 签发 API 令牌，有效期 {int(days)} 天")
                st.rerun()


def _confirm_revoke(principal: Principal, who: str) -> None:
    token_id = st.session_state[_PENDING][1]
    with st.container(border=True):
        st.warning(f"确定吊销 {who} 的{'全部 API 令牌' if token_id is None else f' {token_id} 号令牌'}？"
                   "吊销后使用这些令牌的调用会立即被拒绝，且不能恢复。", icon=":material/warning:")
        k1, k2, _ = st.columns([1, 1, 4])
        if k1.button("确认吊销", key="confirm-token-revoke"):
            st.session_state.pop(_PENDING)
            try:
                if token_id is None:
                    n = users.revoke_api_tokens(who, actor=principal)["revoked"]
                    flash(f"已吊销 {who} 的 {n} 个 API 令牌", "info")
                else:
                    users.revoke_api_token(principal, who, token_id)
                    flash(f"已吊销 {who} 的 {token_id} 号 API 令牌", "info")
            except AppError as exc:
                flash(exc.user_message, "error")
            st.rerun()
        if k2.button("取消", key="cancel-token-revoke"):
            st.session_state.pop(_PENDING)
            st.rerun()


def api_token_admin(principal: Principal, names: list[str]) -> None:
    """The API 令牌 section for the users ``names``."""
    st.markdown("#### API 令牌")
    st.caption("门户、小程序等前端通过 HTTP 接口提问时使用 API 令牌，令牌代表所属用户，权限随该用户的当前角色变化。")
    if st.session_state.get(_SHOWN):
        _show_new_token()
    who = st.selectbox("令牌所属用户", names, key="token-user")
    if not who:
        return
    rows = users.api_token_rows(principal, who)
    if rows:
        st.dataframe(pd.DataFrame([{"编号": r["id"], "签发时间": r["created"], "签发人": r["created_by"],
                                    "到期时间": r["expires"], "最近使用": r["last_used"], "状态": r["state_label"]}
                                   for r in rows]), hide_index=True, width="stretch")
    else:
        st.caption(f"{who} 还没有 API 令牌。")
    _issue_form(principal, who)
    live = [r["id"] for r in rows if r["state"] == "active"]
    c1, c2, c3 = st.columns([2, 1, 1])
    chosen = c1.selectbox("要吊销的令牌", live, format_func=lambda i: f"{i} 号令牌", key="token-to-revoke",
                          placeholder="没有有效令牌", disabled=not live)
    if c2.button("吊销此令牌", key="revoke-token", icon=":material/block:", disabled=chosen is None):
        st.session_state[_PENDING] = (who, chosen)
    if c3.button("吊销全部", key="revoke-all-tokens", icon=":material/key_off:", disabled=not live):
        st.session_state[_PENDING] = (who, None)
    pending = st.session_state.get(_PENDING)
    if pending and pending[0] == who:
        _confirm_revoke(principal, who)
