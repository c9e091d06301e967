"""Citation cards: file, 文号, issuer, date, status badge (已到期 with its date), page, quote,
and, where the answer's documents conflict, whether the card's document was 采用 or is the
另有规定 one; a button per card asks the page to open the cited passage (PDF page with
highlight / DOCX paragraph). Also the conflict lines reviewers read in a trace."""

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


ROLE_BADGES = {"采用": ":green-badge[:material/task_alt: 采用]", "另有规定": ":orange-badge[:material/call_split: 另有规定]",
               "并列": ":gray-badge[:material/compare_arrows: 并列]"}


def render_conflicts(conflicts: list[dict]) -> None:
    """One line per detected conflict: both documents with their values, which prevails and the rule."""
    for c in conflicts or []:
        a, b = c.get("answer_side") or {}, c.get("other_side") or {}
        prevails = {"answer_side": a, "other_side": b}.get(c.get("prevails") or "")
        verdict = f"采用《{prevails.get('title', '')}》" if prevails else "未判定，两种规定并列"
        st.caption(f"冲突（{c.get('slot', '')}）：《{a.get('title', '')}》{'、'.join(a.get('values') or [])} ↔ "
                   f"《{b.get('title', '')}》{'、'.join(b.get('values') or [])}；{verdict}；"
                   f"依据：{c.get('rule_label', '')}——{c.get('reason', '')}")


def render_citation_cards(citations: list[dict], *, key: str) -> dict | None:
    """Render one card per citation; returns the citation whose “查看原文” was clicked."""
    clicked = None
    for c in citations:
        with st.container(border=True):
            top = st.columns([6, 2])
            title = c.get("title") or c.get("file_name") or ""
            role = ROLE_BADGES.get(c.get("role") or "", "")
            top[0].markdown(f"**[{c['n']}] {title}**  \n{status_badge(c.get('status', ''), c.get('expiry_date', ''))} {role}")
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
