"""Shows a citation preview produced by core.services.ask_docs.citation_preview: PDF pages
rendered by pymupdf with the cited passage highlighted (several pages when the passage
crosses a page break), or DOCX/MD/TXT paragraphs with the cited ones highlighted."""

from __future__ import annotations

import html

import streamlit as st


def render_preview(preview: dict) -> None:
    st.caption(f"{preview.get('file_name') or ''}")
    if preview.get("kind") == "pdf":
        pages = preview.get("pages") or []
        if not pages:
            st.info("无法渲染该页面。")
        for p in pages:
            how = {"quote": "已按引用原文定位高亮", "chunk": "已高亮所引片段区域", "none": "未能定位原文位置"}
            st.caption(f"第 {p['page']} 页 · {how.get(p.get('located_by'), '')}")
            st.image(p["png"], width="stretch")
        return
    paras = preview.get("paragraphs") or []
    if not paras:
        st.info("原文不可用，仅显示引用摘录。")
        if preview.get("quote"):
            st.markdown(f"> {preview['quote']}")
        return
    blocks = []
    for p in paras:
        text = html.escape(p["text"])
        if p.get("highlight"):
            blocks.append(f'<p style="background:#fff3b0;padding:4px 6px;border-left:3px solid #f0b400">{text}</p>')
        else:
            blocks.append(f'<p style="color:#555;padding:4px 6px">{text}</p>')
    st.markdown("\n".join(blocks), unsafe_allow_html=True)
