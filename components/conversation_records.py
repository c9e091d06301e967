"""对话记录 on 设置与状态 (administrators): how many conversations are kept, how many have not
been used within the retention period, and deleting those after a confirmation. The rule lives
in core (core.services.conversations)."""

from __future__ import annotations

import streamlit as st

from components.notice import flash
from core.errors import AppError
from core.security.principals import Principal
from core.services import conversations


def conversation_records_admin(principal: Principal) -> None:
    st.subheader("对话记录")
    try:
        state = conversations.retention_state(principal)
    except AppError as exc:
        st.error(exc.user_message, icon=":material/error:")
        return
    days, expired = state["days"], state["expired"]
    st.caption(f"共保存 {state['threads']} 段对话，其中 {expired} 段已超过 {days} 天未再使用"
               "（保留天数由 ZHICE_THREAD_RETENTION_DAYS 设置；每问一次约占 1 MB）。")
    if not expired:
        return
    if st.button(f"清理 {days} 天未用的对话", icon=":material/delete:"):
        st.session_state["conversations_purge"] = True
    if st.session_state.get("conversations_purge"):
        st.warning(f"将永久删除 {expired} 段 {days} 天未用的对话（提问者再打开时只能重新提问），此操作不可撤销。")
        if st.button("确认清理", type="primary", key="conversations_purge_confirm"):
            st.session_state.pop("conversations_purge")
            try:
                flash(f"已清理 {conversations.purge_expired(principal)} 段过期对话")
            except AppError as exc:
                st.error(exc.user_message, icon=":material/error:")
                return
            st.rerun()
