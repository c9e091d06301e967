"""任务 mode of the 政策问答 page: a policy task (对比 / 汇总 / 跟踪变化 / 是否有效 / 条件清单)
planned first — the plan shown as an editable table to confirm, edit or cancel, as on the
图谱问答 page —, then run with each step's status live and the fuse gauges (steps, tokens,
seconds), then the report with its citation cards, PDF highlights, Markdown / Excel
downloads and 👍/👎. Every call goes through core.services.task; session state keeps the
thread id and the last result."""

from __future__ import annotations

import json

import streamlit as st

from components.chat import render_feedback
from components.citations import render_citation_cards
from components.pdf_view import render_preview
from core.errors import AppError
from core.services.task import (
    citation_preview, export_excel, export_markdown, new_thread_id, resume_task, start_task,
)

TOOL_LABELS = {"search_policy": "检索文件", "get_document_detail": "查看文件详情", "compare_documents": "逐项对比",
               "track_changes": "排时间线", "generate_summary": "汇总"}
FUSE_NAMES = {"steps": "步数", "tokens": "Token", "time": "时间"}
EXAMPLES = ["对比济南市和山东省家电以旧换新补贴的补贴标准和申领流程", "汇总山东省2025年以旧换新相关政策的有效期"]


def _plan_rows(plan: list[dict]) -> list[dict]:
    return [{"步骤": i, "工具": s["tool"], "参数": json.dumps(s.get("args") or {}, ensure_ascii=False),
             "说明": s.get("note") or TOOL_LABELS.get(s["tool"], "")} for i, s in enumerate(plan, 1)]


def _rows_to_plan(rows) -> list[dict] | None:
    out = []
    for r in rows:
        try:
            args = json.loads(r.get("参数") or "{}")
        except (TypeError, ValueError):
            return None
        if not isinstance(args, dict):
            return None
        out.append({"tool": str(r.get("工具") or "").strip(), "args": args, "note": str(r.get("说明") or "")})
    return out


def render_gauges(counters: dict, limits: dict) -> None:
    cols = st.columns(3)
    gauges = (("步数", counters.get("steps", 0), limits.get("max_steps") or 1, ""),
              ("Token", counters.get("tokens", 0), limits.get("max_tokens") or 1, ""),
              ("时间", counters.get("elapsed_s", 0.0), limits.get("deadline_s") or 1, " 秒"))
    for col, (name, used, cap, unit) in zip(cols, gauges):
        with col:
            shown = f"{used:.1f}" if isinstance(used, float) else str(used)
            st.progress(min(1.0, float(used) / float(cap)), text=f"{name}：{shown} / {cap:g}{unit}")


def _live(status):
    """Callback for core.services.task: one line per step as it finishes, the gauges kept."""
    def on_event(node: str, info: dict) -> None:
        if node == "execute" and info.get("tool"):
            mark = "✅" if info.get("ok") else "❌"
            err = f"：{info['error']}" if info.get("error") else ""
            status.write(f"{mark} 第 {info['step']} 步 {TOOL_LABELS.get(info['tool'], info['tool'])}"
                         f"（{info.get('ms') or 0:.0f} ms）{err}")
            status.update(label=f"正在执行第 {info['step']} 步…")
        elif node == "route" and info.get("stopped_by"):
            status.write(f"⚠️ {FUSE_NAMES.get(info['stopped_by'], info['stopped_by'])}熔断，停止执行")
        elif node == "summarize":
            status.update(label="正在生成报告…")
    return on_event


def _run(call, *args, **kwargs) -> None:
    with st.status("正在执行任务…", expanded=True) as status:
        try:
            res = call(*args, on_event=_live(status), **kwargs)
        except AppError as exc:
            status.update(label="任务未能执行", state="error")
            st.error(exc.user_message)
            return
        status.update(label="已完成" if not res.get("stopped_by") else "已熔断停止",
                      state="complete" if not res.get("stopped_by") else "error")
    st.session_state["task_result"] = res
    st.rerun()


def _render_plan(principal, res: dict) -> None:
    need = res["need_confirm"] or {}
    with st.container(border=True):
        st.markdown("**任务计划（确认后执行；可直接修改参数、增删步骤）**")
        if need.get("error"):
            st.error("修改后的计划未通过校验：" + need["error"])
        for n in res.get("notices") or []:
            st.info(n)
        edited = st.data_editor(_plan_rows(need.get("plan") or []), key=f"task-plan-{res['thread_id']}",
                                num_rows="dynamic", width="stretch",
                                column_config={"步骤": st.column_config.NumberColumn(disabled=True)})
        c1, c2, c3 = st.columns(3)
        reply = None
        if c1.button("确认执行", type="primary", key="task-confirm"):
            plan = _rows_to_plan(edited)
            if plan is None:
                st.error("参数列必须是 JSON 对象，例如 {\"query\": \"家电以旧换新\"}")
                return
            original = [{"tool": s["tool"], "args": s.get("args") or {}} for s in need.get("plan") or []]
            reply = "确认" if [{"tool": p["tool"], "args": p["args"]} for p in plan] == original else {"plan": plan}
        if c3.button("取消", key="task-cancel"):
            reply = "取消"
        if reply is not None:
            _run(resume_task, principal, res["thread_id"], reply)


def _render_report(principal, res: dict) -> None:
    render_gauges(res.get("counters") or {}, res.get("limits") or {})
    if res.get("stopped_by"):
        st.warning(f"任务因{FUSE_NAMES.get(res['stopped_by'], res['stopped_by'])}熔断而停止，以下为部分结果。")
    with st.expander(f"执行步骤（{len(res.get('steps') or [])} 步）", expanded=bool(res.get("stopped_by"))):
        for i, s in enumerate(res.get("steps") or [], 1):
            mark = "✅" if s["ok"] else "❌"
            st.markdown(f"{mark} **{i}. {TOOL_LABELS.get(s['tool'], s['tool'])}** `{s['tool']}` "
                        f"{json.dumps(s['args'], ensure_ascii=False)}" + (f" — {s['error']}" if s.get("error") else ""))
    st.markdown(res.get("report") or "")
    for n in res.get("notices") or []:
        st.info(n)
    c1, c2 = st.columns(2)
    c1.download_button("下载 Markdown", export_markdown(res), file_name="任务报告.md", mime="text/markdown",
                       key="task-md")
    if res.get("sections"):
        c2.download_button("下载 Excel", export_excel(res), file_name="任务报告.xlsx", key="task-xlsx",
                           mime="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    clicked = render_citation_cards(res.get("citations") or [], key=f"task-{res['thread_id']}")
    if clicked is not None:
        st.session_state["task_preview"] = clicked
    render_feedback(principal, "task", res["thread_id"], res.get("request") or "", {**res, "answer": res.get("report")},
                    ("citations", "steps", "stopped_by"), key=f"task-{res['thread_id']}")


def _render_preview(principal) -> None:
    cite = st.session_state.get("task_preview")
    if not cite:
        return
    with st.sidebar:
        st.subheader(f"引用 [{cite['n']}] 原文")
        try:
            render_preview(citation_preview(cite, principal))
        except AppError as exc:
            st.error(exc.user_message)
        if st.button("关闭原文", key="task-preview-close", width="stretch"):
            st.session_state.pop("task_preview")
            st.rerun()


def render_task_mode(principal) -> None:
    """The whole 任务 mode: request → plan review → live run → report."""
    st.caption("对比、汇总、跟踪变化、核查有效性、列条件清单：先出计划，确认后逐步执行，每个结论都注明出处。")
    with st.form("task-form"):
        request = st.text_area("任务描述", placeholder=EXAMPLES[0], height=80)
        c1, c2 = st.columns(2)
        max_steps = c1.number_input("最大步数", min_value=1, max_value=50, value=10)
        deadline = c2.number_input("时限（秒）", min_value=5, max_value=600, value=60)
        submitted = st.form_submit_button("生成计划", type="primary")
    st.caption("示例：" + "；".join(EXAMPLES))
    if submitted:
        if not request.strip():
            st.error("请先填写任务描述")
        else:
            st.session_state["task_thread"] = new_thread_id()
            st.session_state.pop("task_preview", None)
            try:
                st.session_state["task_result"] = start_task(request, principal, thread_id=st.session_state["task_thread"],
                                                             max_steps=int(max_steps), deadline_s=float(deadline))
            except AppError as exc:
                st.error(exc.user_message)
    res = st.session_state.get("task_result")
    if res:
        if res.get("need_confirm"):
            _render_plan(principal, res)
        else:
            _render_report(principal, res)
    _render_preview(principal)
