"""审计日志 (administrators): filter by user, kind and date; open a question's full trace;
export CSV; purge events past the retention period."""

from datetime import date, timedelta

import streamlit as st

from components.notice import flash

from components.audit_view import OUTCOME_LABELS, render_event
from core.config import get_settings
from core.errors import AppError
from core.services import audit

principal = st.session_state["principal"]
st.title("审计日志")

c1, c2, c3 = st.columns([2, 2, 3])
who = c1.text_input("用户", placeholder="全部用户")
kind = c2.selectbox("类型", ["", *audit.KIND_LABELS], format_func=lambda k: audit.KIND_LABELS.get(k, "全部类型"))
span = c3.date_input("日期", value=(date.today() - timedelta(days=7), date.today()))
since, until = (span[0], span[-1]) if isinstance(span, (list, tuple)) and span else (None, None)
try:
    events = audit.list_events(principal, of=who, kind=kind, since=since, until=until, limit=1000)
except AppError as exc:
    st.error(exc.user_message)
    st.stop()

if not events:
    st.info("所选范围内没有审计事件。可以放宽日期或清空用户、类型筛选。")
    st.stop()
st.caption(f"共 {len(events)} 条（最多显示 1000 条，最新在前）。点击一行或在下方选择一条查看详情。")
table = [{"时间（UTC）": e["at"], "类型": e["kind"], "用户": e["user"], "租户": e["tenant"] or "",
          "结果": OUTCOME_LABELS.get(e["outcome"], e["outcome"]), "摘要": e["summary"]} for e in events]
picked = st.dataframe(table, on_select="rerun", selection_mode="single-row", hide_index=True, width="stretch",
                      key="audit-table")
rows = getattr(getattr(picked, "selection", None), "rows", None) or []
chosen = st.selectbox("查看详情", [None, *range(len(events))], index=rows[0] + 1 if rows else 0,
                      format_func=lambda i: "（选择一条事件）" if i is None else
                      f"{events[i]['at']} · {events[i]['user'] or '-'} · {events[i]['summary'][:40]}")
if chosen is not None:
    with st.container(border=True):
        render_event(audit.event_detail(principal, events[chosen]["id"]))

c1, c2 = st.columns(2)
if c1.button("导出 CSV", icon=":material/download:"):
    st.session_state["audit_csv"] = audit.events_csv(principal, events)
if st.session_state.get("audit_csv"):
    c1.download_button("下载 audit.csv", st.session_state.pop("audit_csv"), file_name="audit.csv", mime="text/csv")
days = get_settings().audit_retention_days
if c2.button(f"清理 {days} 天前的事件", icon=":material/delete:"):
    st.session_state["audit_purge"] = True
if st.session_state.get("audit_purge"):
    c2.warning(f"将永久删除 {days} 天前的审计事件，此操作不可撤销。")
    if c2.button("确认清理", type="primary"):
        st.session_state.pop("audit_purge")
        flash(f"已清理 {audit.purge(principal)} 条过期事件")
        st.rerun()
