"""文档向量 on 设置与状态 (administrators): which model built the document index's vectors,
whether it is the configured one, and 重建文档向量 with a progress bar. The rule that an index
never mixes two models, and the rebuild itself, live in core (core.services.reembed)."""

from __future__ import annotations

import streamlit as st

from components.notice import flash
from components.resources import component_status
from core.errors import AppError
from core.security.principals import Principal
from core.services import reembed


def document_vectors_admin(principal: Principal) -> None:
    st.subheader("文档向量")
    try:
        state = reembed.vector_state(principal)
    except AppError as exc:
        st.error(exc.user_message, icon=":material/error:")
        return
    if state["matches"]:
        st.caption(state["text"] + "。更换向量模型（ZHICE_EMBED_MODEL）并重启后，在这里重建全部文档向量。")
    else:
        st.warning(state["text"], icon=":material/warning:")
    if not st.button("重建文档向量", icon=":material/sync:", type="secondary" if state["matches"] else "primary",
                     help="用当前向量模型重新向量化全部文档；已算过的内容从缓存读取，中断后再点一次会接着算"):
        return
    bar = st.progress(0.0, text="正在读取文档…")
    try:
        result = reembed.reembed_documents(
            principal, lambda done, total: bar.progress(done / total if total else 1.0, text=f"向量化 {done}/{total} 块"))
    except AppError as exc:
        st.error(exc.user_message, icon=":material/error:")
        return
    component_status.clear()  # the status table above re-checks the index
    flash(f"已重建文档向量：{result['documents']} 篇 {result['chunks']} 块，新向量化 {result['embedded']} 块，"
          f"用时 {result['seconds']} 秒")
    st.rerun()
