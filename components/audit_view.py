"""An audit event as an administrator reads it: who, when, what; a question with its full
trace (the policy agent's rounds and citations, or the KG agent's slots, plan, Cypher and
provenance)."""

from __future__ import annotations

import streamlit as st

from components.chat import render_trace
from core.security.principals import ROLE_LABELS

OUTCOME_LABELS = {"ok": "成功", "answered": "已回答", "refused": "拒答", "waiting": "等待确认", "denied": "拒绝",
                  "partial": "部分成功", "error": "失败", "rejected": "已拦截", "locked": "已锁定"}


def render_event(event: dict) -> None:
    d = event.get("detail") if isinstance(event.get("detail"), dict) else {}
    st.markdown(f"**{event['at']} · {event['user'] or '-'} · {event['kind']} · "
                f"{OUTCOME_LABELS.get(event['outcome'], event['outcome'])}**"
                + (f" · 租户 {event['tenant']}" if event.get("tenant") else ""))
    if not str(event["kind"]).startswith("question."):
        st.json(d or {}, expanded=True)
        return
    st.markdown(f"**问题**：{d.get('question', '')}")
    role = ROLE_LABELS.get(d.get("role", ""), d.get("role", ""))
    st.markdown(f"**回答**（{role}，会话 {d.get('thread', '')}，{d.get('latency_ms', 0):.0f} ms）：")
    st.text(d.get("answer") or "（无）")
    if event["kind"] == "question.docs":
        if d.get("citations"):
            st.dataframe([{"编号": c.get("n"), "文件": c.get("file_name"), "文号": c.get("doc_number"),
                           "页": c.get("page"), "片段": c.get("chunk_id")} for c in d["citations"]],
                         hide_index=True, width="stretch")
        render_trace({**d, "trace": d.get("trace") or []})
        return
    if d.get("slots"):
        st.caption("理解：" + "；".join(f"{k}={v}" for k, v in d["slots"].items() if v not in (None, "", [], {})))
    if d.get("edited"):
        st.warning("用户修改了查询计划后执行")
    for q in d.get("queries") or []:
        st.markdown(f"第 {q.get('step')} 步 · {q.get('tool')} · {q.get('rows')} 行"
                    + (f" · 错误：{q['error']}" if q.get("error") else ""))
        if q.get("cypher"):
            st.code(q["cypher"], language="cypher")
    if d.get("provenance"):
        st.dataframe([{"模板": p.get("template"), "文件": p.get("file"), "行号": p.get("row")} for p in d["provenance"]],
                     hide_index=True, width="stretch")
