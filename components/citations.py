"""Citation cards: file, 文号, issuer, date, status badge, page, quote; a button per card
asks the page to open the cited passage (PDF page with highlight / DOCX paragraph)."""

from __future__ import annotations

import streamlit as st

STATUS_BADGES = {"in_effect": ("现行有效", "green"), "repealed": ("已废止", "red"), "draft": ("草案", "gray"),
                 "upcoming": ("即将施行", "orange")}


def status_badge(status: str) -> str:
    label, color = STATUS_BADGES.get(status or "", ("状态未知", "gray"))
    return f":{color}-badge[{label}]"


def render_citation_cards(citations: list[dict], *, key: str) -> dict | None:
    """Render one card per citation; returns the citation whose “查看原文” was clicked."""
    clicked = None
    for c in citations:
        with st.container(border=True):
            top = st.columns([6, 2])
            title = c.get("title") or c.get("file_name") or ""
            top[0].markdown(f"**[{c['n']}] {title}**  \n{status_badge(c.get('status', ''))}")
            if top[1].button("查看原文", key=f"{key}-cite-{c['n']}", width="stretch"):
                clicked = c
            meta = [c.get("file_name") or "", c.get("doc_number") or "无文号", c.get("authority") or "",
                    c.get("date") or "", f"第 {c['page']} 页" if c.get("page") else "", c.get("heading") or ""]
            st.caption(" · ".join(m for m in meta if m))
            if c.get("quote"):
                st.markdown(f"> {c['quote']}")
    return clicked
