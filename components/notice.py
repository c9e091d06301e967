"""Confirmations that survive ``st.rerun()``: ``flash`` stores a message in the session, and
``show_flashes`` (called once per run by app.py) shows it as a toast on the next run."""

from __future__ import annotations

import streamlit as st

_KEY = "_flash"
ICONS = {"success": ":material/check_circle:", "info": ":material/info:", "warning": ":material/warning:",
         "error": ":material/error:"}


def flash(message: str, kind: str = "success") -> None:
    st.session_state.setdefault(_KEY, []).append((kind, message))


def show_flashes() -> None:
    for kind, message in st.session_state.pop(_KEY, []):
        st.toast(message, icon=ICONS.get(kind, ICONS["info"]))
        if kind == "success":
            st.success(message, icon=ICONS["success"])
        elif kind == "error":
            st.error(message, icon=ICONS["error"])
        else:
            st.info(message, icon=ICONS.get(kind, ICONS["info"]))
