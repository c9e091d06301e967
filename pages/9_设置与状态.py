"""设置与状态 (administrators): real component checks, effective configuration, document vectors,
conversation records (清理过期对话), user
management (create, edit roles / tenants / scenarios, disable, reset password, API tokens)."""

import pandas as pd
import streamlit as st

from components.api_tokens import api_token_admin
from components.conversation_records import conversation_records_admin
from components.document_vectors import document_vectors_admin
from components.notice import flash
from components.resources import component_status, status_for_current_workspace
from core.errors import AppError
from core.security.principals import ROLE_LABELS, SCENARIO_LABELS, random_password
from core.services import settings_view, users

principal = st.session_state["principal"]
st.title("设置与状态")
settings_view.require_settings_access(principal)

STATE_LABELS = {"ok": "正常", "warn": "注意", "error": "故障", "info": "信息"}
if st.button("重新检查", icon=":material/refresh:"):
    component_status.clear()
rows = status_for_current_workspace(principal)
st.dataframe(pd.DataFrame([{"组件": r["component"], "状态": STATE_LABELS.get(r["state"], r["state"]),
                            "详情": r["detail"], "耗时(ms)": r["ms"]} for r in rows]), hide_index=True, width="stretch")

with st.expander("当前配置", expanded=False, icon=":material/tune:"):
    st.dataframe(pd.DataFrame(settings_view.effective_settings(principal)), hide_index=True, width="stretch")

document_vectors_admin(principal)
conversation_records_admin(principal)

# ---- users -------------------------------------------------------------------------------------
st.subheader("用户管理")
people = users.user_rows(principal)
st.dataframe(pd.DataFrame([{"用户": u["name"], "角色": ROLE_LABELS[u["role"]], "租户": "、".join(u["tenants"]),
                            "领域": "、".join(u["domains"]),
                            "场景": "、".join(SCENARIO_LABELS[x] for x in u["scenarios"]),
                            "状态": "已停用" if u["disabled"] else ("待改密码" if u["must_change_password"] else "正常")}
                           for u in people]), hide_index=True, width="stretch")

if st.session_state.get("reset_password_shown"):
    who, pw = st.session_state["reset_password_shown"]
    with st.container(border=True):
        st.warning(f"{who} 的一次性密码：{pw}（只显示这一次；请当面或通过安全渠道告知，首次登录后必须修改）",
                   icon=":material/key:")
        if st.button("我已记下，隐藏", key="hide-reset-pw"):
            st.session_state.pop("reset_password_shown")
            st.rerun()

tab_edit, tab_add = st.tabs(["修改用户", "新建用户"])
with tab_edit:
    by_name = {u["name"]: u for u in people}
    who = st.selectbox("选择用户", list(by_name), key="edit-user")
    u = by_name[who]
    if not u["disabled"]:
        with st.form("edit_user"):
            c1, c2 = st.columns(2)
            role = c1.selectbox("角色", list(ROLE_LABELS), index=list(ROLE_LABELS).index(u["role"]),
                                format_func=ROLE_LABELS.get)
            scenarios = c2.multiselect("可用场景（第一个为默认）", list(SCENARIO_LABELS), default=u["scenarios"],
                                       format_func=SCENARIO_LABELS.get, placeholder="选择场景")
            tenants = c1.text_input("租户（逗号分隔）", "、".join(u["tenants"]))
            domains = c2.text_input("领域（逗号分隔，可空）", "、".join(u["domains"]))
            if st.form_submit_button("保存修改", type="primary", icon=":material/save:"):
                try:
                    users.update_user(principal, who, role=role, tenants=settings_view.split_list(tenants),
                                      domains=settings_view.split_list(domains),
                                      scenario=(scenarios or ["window"])[0], scenarios=scenarios or ["window"])
                except AppError as exc:
                    st.error(exc.user_message, icon=":material/error:")
                else:
                    flash(f"已保存用户 {who} 的角色与权限")
                    st.rerun()
    c1, c2 = st.columns(2)
    if c1.button("重设密码", key="reset-pw", icon=":material/lock_reset:", disabled=bool(u["disabled"])):
        st.session_state["confirm_user_action"] = ("reset", who)
    if u["disabled"]:
        if c2.button("重新启用", key="enable-user", icon=":material/person_check:"):
            users.set_disabled(principal, who, False)
            flash(f"已重新启用用户 {who}")
            st.rerun()
    elif c2.button("停用账号", key="disable-user", icon=":material/person_off:", disabled=who == principal.name):
        st.session_state["confirm_user_action"] = ("disable", who)
    pending = st.session_state.get("confirm_user_action")
    if pending and pending[1] == who:
        what = pending[0]
        with st.container(border=True):
            st.warning(f"确定停用 {who}？该用户会立即退出登录，且不能再登录。" if what == "disable" else
                       f"确定重设 {who} 的密码？该用户会立即退出登录，下次须用新的一次性密码登录并修改。",
                       icon=":material/warning:")
            k1, k2, _ = st.columns([1, 1, 4])
            if k1.button("确认停用" if what == "disable" else "确认重设", key="confirm-user-action"):
                st.session_state.pop("confirm_user_action", None)
                if what == "disable":
                    users.set_disabled(principal, who, True)
                    flash(f"已停用用户 {who}", "info")
                else:
                    pw = random_password()
                    users.reset_password(who, pw, actor=principal)
                    st.session_state["reset_password_shown"] = (who, pw)
                    flash(f"已重设 {who} 的密码")
                st.rerun()
            if k2.button("取消", key="cancel-user-action"):
                st.session_state.pop("confirm_user_action", None)
                st.rerun()

with tab_add:
    with st.form("add_user", clear_on_submit=True):
        c1, c2 = st.columns(2)
        name = c1.text_input("用户名")
        password = c2.text_input("初始密码（至少 10 个字符）", type="password")
        role = c1.selectbox("角色", list(ROLE_LABELS), format_func=ROLE_LABELS.get)
        scenarios = c2.multiselect("可用场景（第一个为默认）", list(SCENARIO_LABELS), default=["window"],
                                   format_func=SCENARIO_LABELS.get, placeholder="选择场景")
        tenants = c1.text_input("租户（逗号分隔）")
        domains = c2.text_input("领域（逗号分隔，可空）")
        if st.form_submit_button("创建", type="primary", icon=":material/person_add:"):
            try:
                users.add_user(name, role, password, tenants=settings_view.split_list(tenants),
                               domains=settings_view.split_list(domains), scenario=(scenarios or ["window"])[0],
                               scenarios=scenarios or ["window"], actor=principal,
                               must_change_password=True)
            except AppError as exc:
                st.error(exc.user_message, icon=":material/error:")
            else:
                flash(f"已创建用户 {name}，首次登录需修改密码")
                st.rerun()

api_token_admin(principal, [u["name"] for u in people])

# ---- which issuers a tenant trusts to repeal / supersede / amend its documents ------------------
st.subheader("文件效力的可信发文方")
st.caption("默认只有同一租户的文件能废止、替代或修订本租户的文件。在此为某租户添加可信的发文方（如市级租户信任省级租户的"
           "山东省商务厅），每行一个：“发文方租户” 或 “发文方租户:机关名称”。保存后立即重新计算文件状态。")
with st.form("trusted_issuers"):
    t_name = st.text_input("租户")
    t_lines = st.text_area("可信发文方", placeholder="山东省:山东省商务厅")
    if st.form_submit_button("保存", icon=":material/verified_user:"):
        from core.services import ingest

        try:
            saved = ingest.set_trusted_issuers(principal, t_name, [ln.strip() for ln in t_lines.splitlines() if ln.strip()])
        except AppError as exc:
            st.error(exc.user_message, icon=":material/error:")
        else:
            flash(f"已保存租户“{t_name.strip()}”的 {len(saved)} 个可信发文方")
            st.rerun()
