"""Citation cards: file, 文号, issuer, date, status badge (已到期 with its date), page, quote;
a button per card asks the page to open the cited passage (PDF page with highlight / DOCX
paragraph)."""

from __future__ import annotations

import streamlit as st

STATUS_BADGES = {"in_effect": ("现行有效", "green", ":material/check_circle:"),
                 "repealed": ("已废止", "red", ":material/block:"),
                 "expired": ("已到期", "orange", ":material/event_busy:"),
                 "draft": ("草案", "gray", ":material/edit_note:"),
                 "upcoming": ("即将施行", "blue", ":material/schedule:")}


def status_badge(status: str, expiry_date: str = "") -> str:
    label, color, icon = STATUS_BADGES.get(status or "", ("状态未知", "gray", ":material/help:"))
    if status == "expired" and expiry_date:
        label = f"已到期（{expiry_date} 止）"
    return f":{color}-badge[{icon} {label}]"


def render_citation_cards(citations: list[dict], *, key: str) -> dict | None:
    """Render one card per citation; returns the citation whose “查看原文” was clicked."""
    clicked = None
    for c in citations:
        with st.container(border=True):
            top = st.columns([6, 2])
            title = c.get("title") or c.get("file_name") or ""
            top[0].markdown(f"**[{c['n']}] {title}**  \n{status_badge(c.get('status', ''), c.get('expiry_date', ''))}")
            if top[1].button("查看原文", key=f"{key}-cite-{c['n']}", width="stretch", icon=":material/find_in_page:"):
                clicked = c
            pages = ""
            if c.get("page"):
                end = c.get("page_end")
                pages = f"第 {c['page']}–{end} 页" if end and int(end) > int(c["page"]) else f"第 {c['page']} 页"
            meta = [c.get("file_name") or "", c.get("doc_number") or "无文号", c.get("authority") or "",
                    c.get("date") or "", pages, c.get("heading") or ""]
            st.caption(" · ".join(m for m in meta if m))
            if c.get("quote"):
                st.markdown(f"> {c['quote']}")
    return clicked
