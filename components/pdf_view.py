"""Shows a citation preview produced by core.services.ask_docs.citation_preview, large, in a
dialog next to the answer: for a PDF first a close-up of each page around the highlighted
characters (the passage in view without scrolling), then the whole page(s) — several when the
passage crosses a page break; DOCX/MD/TXT paragraphs with the cited ones highlighted."""

from __future__ import annotations

import html

import streamlit as st

HOW = {"quote": "已高亮所引原文", "chunk": "未能逐字定位，已高亮所引段落区域", "none": "未能定位原文位置"}


def render_preview(preview: dict) -> None:
    st.caption(f"{preview.get('file_name') or ''}")
    if preview.get("kind") == "pdf":
        pages = preview.get("pages") or []
        if not pages:
            st.info("无法渲染该页面。")
        focus = [p for p in pages if p.get("focus_png")]
        for p in focus:
            st.markdown(f"**第 {p['page']} 页 · 引用位置**")
            st.image(p["focus_png"], width="stretch", caption=HOW.get(p.get("located_by"), ""))
        with st.expander("整页原文", expanded=not focus, icon=":material/description:"):
            for p in pages:
                st.caption(f"第 {p['page']} 页 · {HOW.get(p.get('located_by'), '')}")
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
