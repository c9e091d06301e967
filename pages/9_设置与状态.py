"""设置与状态: real component checks, effective configuration, user administration (admins)."""

import pandas as pd
import streamlit as st

from components.resources import component_status, status_for_current_workspace
from core.errors import AppError
from core.security.principals import ROLE_LABELS, SCENARIO_LABELS
from core.services import settings_view, users

principal = st.session_state["principal"]
st.title("设置与状态")
try:
    settings_view.require_settings_access(principal)
except AppError as exc:
    st.error(exc.user_message)
    st.stop()

ICONS = {"ok": "🟢", "warn": "🟡", "error": "🔴", "info": "🔵"}
if st.button("重新检查"):
    component_status.clear()
rows = status_for_current_workspace(principal)
st.dataframe(pd.DataFrame([{"组件": r["component"], "状态": ICONS[r["state"]], "详情": r["detail"],
                            "耗时(ms)": r["ms"]} for r in rows]), hide_index=True, width="stretch")

st.subheader("当前配置")
st.dataframe(pd.DataFrame(settings_view.effective_settings(principal)), hide_index=True, width="stretch")

if principal.is_admin:
    st.subheader("用户管理")
    st.dataframe(pd.DataFrame([{"用户": u.name, "角色": ROLE_LABELS[u.role.value], "租户": "、".join(u.tenants),
                                "领域": "、".join(u.domains), "场景": "、".join(SCENARIO_LABELS[x.value] for x in u.allowed_scenarios)}
                               for u in users.list_users(principal)]), hide_index=True, width="stretch")
    with st.form("add_user", clear_on_submit=True):
        st.markdown("**新建用户**")
        c1, c2 = st.columns(2)
        name = c1.text_input("用户名")
        password = c2.text_input("初始密码", type="password")
        role = c1.selectbox("角色", list(ROLE_LABELS), format_func=ROLE_LABELS.get)
        scenarios = c2.multiselect("可用场景（第一个为默认）", list(SCENARIO_LABELS), default=["window"],
                                   format_func=SCENARIO_LABELS.get)
        tenants = c1.text_input("租户（逗号分隔）")
        domains = c2.text_input("领域（逗号分隔，可空）")
        if st.form_submit_button("创建", type="primary"):
            try:
                users.add_user(name, role, password, tenants=settings_view.split_list(tenants),
                               domains=settings_view.split_list(domains), scenario=(scenarios or ["window"])[0],
                               scenarios=scenarios or ["window"], actor=principal,
                               must_change_password=True)
                st.success(f"已创建用户 {name}，首次登录需修改密码")
            except AppError as exc:
                st.error(exc.user_message)
