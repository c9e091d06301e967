"""知策 ZhiCe — page config, login gate, the error boundary and the only router (st.navigation
over pages/)."""

from __future__ import annotations

import logging

import streamlit as st

from components.auth import (
    current_principal, pending_password_change, remember_threads, render_change_password, render_login,
    render_sidebar, sync_cookie,
)
from components.boundary import error_boundary
from components.notice import show_flashes
from components.resources import bootstrap
from components.style import apply_house_style

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
st.set_page_config(page_title="知策 ZhiCe", page_icon=":material/policy:", layout="wide")

# page file, title, icon, roles allowed (None = everyone signed in)
PAGES = [
    ("pages/0_首页.py", "首页", ":material/home:", {"admin", "manager"}),
    ("pages/1_政策问答.py", "政策问答", ":material/chat:", None),
    ("pages/4_图谱问答.py", "图谱问答", ":material/hub:", None),
    ("pages/7_图谱浏览.py", "图谱浏览", ":material/account_tree:", {"admin", "manager", "staff", "guest"}),
    ("pages/2_文档库.py", "文档库", ":material/library_books:", {"admin", "manager"}),
    ("pages/3_数据导入与建图.py", "数据导入与建图", ":material/upload_file:", {"admin"}),
    ("pages/5_每周复盘.py", "每周复盘", ":material/rate_review:", {"admin", "manager", "reviewer"}),
    ("pages/6_评测报告.py", "评测报告", ":material/monitoring:", {"admin", "manager", "reviewer"}),
    ("pages/8_审计日志.py", "审计日志", ":material/receipt_long:", {"admin"}),
    ("pages/9_设置与状态.py", "设置与状态", ":material/settings:", {"admin"}),
]

with error_boundary("app"):
    bootstrap()
    apply_house_style()
    principal = current_principal()
    if principal is None and pending_password_change() is not None:
        # signed in with a one-time password: the password change is the only page there is
        nav = st.navigation([st.Page(render_change_password, title="修改密码", icon=":material/key:",
                                     url_path="password")])
    elif principal is None:
        nav = st.navigation([st.Page(render_login, title="登录", icon=":material/login:", url_path="login")])
    else:
        render_sidebar(principal)
        allowed = [st.Page(path, title=title, icon=icon) for path, title, icon, roles in PAGES
                   if roles is None or principal.role.value in roles]
        allowed.append(st.Page(render_change_password, title="修改密码", icon=":material/key:", url_path="password"))
        nav = st.navigation(allowed)
    sync_cookie()
    show_flashes()

with error_boundary(getattr(nav, "title", "") if "nav" in globals() else ""):
    if "nav" in globals():
        try:
            nav.run()
        finally:
            remember_threads()  # the chat pages' current thread ids, kept with the session
