"""任务 mode of the 政策问答 page: a policy task (对比 / 汇总 / 跟踪变化 / 是否有效 / 条件清单)
planned first — the plan shown as an editable table in plain words (操作 / 内容 / 说明) to
confirm, edit or cancel, as on the 图谱问答 page —, then run with each step's status live and
the fuse gauges (steps, tokens, seconds), then the report with its citation cards, the cited
passage opened large with its highlight, Markdown / Excel downloads and 👍/👎. Every call goes
through core.services.task; session state keeps the thread id and the last result."""

from __future__ import annotations

import streamlit as st

from components.chat import render_feedback
from components.citations import render_citation_cards
from components.pdf_view import render_preview
from core.errors import AppError
from core.services.task import (
    citation_preview, export_excel, export_markdown, humanize, new_thread_id, operation_labels, plan_from_rows,
    plan_rows, resume_task, start_task, step_text, task_state,
)

FUSE_NAMES = {"steps": "步数", "tokens": "Token", "time": "时间"}
OK_MARK, FAIL_MARK = ":green[:material/check_circle:]", ":red[:material/cancel:]"  # icon font: no emoji font needed
EXAMPLES = ["对比济南市和山东省家电以旧换新补贴的补贴标准和申领流程", "汇总山东省2025年以旧换新相关政策的有效期"]


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
            mark = OK_MARK if info.get("ok") else FAIL_MARK
            err = f"：{info['error']}" if info.get("error") else ""
            status.write(f"{mark} 第 {info['step']} 步 {info.get('label') or ''}（{info.get('ms') or 0:.0f} 毫秒）{err}")
            status.update(label=f"正在执行第 {info['step']} 步…")
        elif node == "route" and info.get("stopped_by"):
            status.write(f":material/warning: {FUSE_NAMES.get(info['stopped_by'], '')}熔断，停止执行")
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


def _same_plan(a: list[dict], b: list[dict]) -> bool:
    return [(s["tool"], s.get("args") or {}) for s in a] == [(s["tool"], s.get("args") or {}) for s in b]


def _render_plan(principal, res: dict) -> None:
    need = res["need_confirm"] or {}
    with st.container(border=True):
        st.markdown("**任务计划（确认后执行；可直接修改内容、增删步骤）**")
        if need.get("error"):
            st.error("修改后的计划未通过校验：" + humanize(need["error"]))
        for n in res.get("notices") or []:
            st.info(humanize(n))
        for i, step in enumerate(need.get("plan") or [], 1):
            note = f" —— {step['note']}" if step.get("note") else ""
            st.markdown(f"{i}. {step_text(step)}{note}")
        with st.expander("修改计划"):
            edited = st.data_editor(plan_rows(need.get("plan") or []), key=f"task-plan-{res['thread_id']}",
                                    num_rows="dynamic", width="stretch", column_config={
                                        "步骤": st.column_config.NumberColumn(disabled=True, width="small"),
                                        "操作": st.column_config.SelectboxColumn(options=operation_labels(),
                                                                               required=True),
                                        "内容": st.column_config.TextColumn(width="large"),
                                        "说明": st.column_config.TextColumn()})
            st.caption("内容写成“项目：值”，用分号隔开，例如：检索语句：济南市家电以旧换新补贴；发文机关：济南市")
        c1, _, c3 = st.columns(3)
        reply = None
        if c1.button("确认执行", type="primary", key="task-confirm"):
            try:
                plan = plan_from_rows(edited)
            except AppError as exc:
                st.error(exc.user_message)
                return
            reply = "确认" if _same_plan(plan, need.get("plan") or []) else {"plan": plan}
        if c3.button("取消", key="task-cancel"):
            reply = "取消"
        if reply is not None:
            _run(resume_task, principal, res["thread_id"], reply)


def _render_report(principal, res: dict) -> None:
    render_gauges(res.get("counters") or {}, res.get("limits") or {})
    if res.get("stopped_by"):
        st.warning(f"任务因{FUSE_NAMES.get(res['stopped_by'], '')}熔断而停止，以下为部分结果。")
    with st.expander(f"执行步骤（{len(res.get('steps') or [])} 步）", expanded=bool(res.get("stopped_by"))):
        plan = res.get("plan") or []
        for i, s in enumerate(res.get("steps") or [], 1):
            mark = OK_MARK if s["ok"] else FAIL_MARK
            err = f" —— {humanize(s['error'])}" if s.get("error") else ""
            # as planned (第1步最相关的文件), not the document ids the step resolved them to
            st.markdown(f"{mark} **{i}.** {step_text(plan[i - 1] if i <= len(plan) else s)}{err}")
    st.markdown((res.get("report") or "").replace("## 任务报告", "#### 任务报告", 1))  # not a page-sized title
    for n in res.get("notices") or []:
        st.info(humanize(n))
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


@st.dialog("引用原文", width="large")
def _show_preview(principal, citation: dict) -> None:
    st.markdown(f"**[{citation['n']}] {citation.get('title') or citation.get('file_name') or ''}**")
    try:
        render_preview(citation_preview(citation, principal))
    except AppError as exc:
        st.error(exc.user_message)


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
    if "task_result" not in st.session_state and st.session_state.get("task_thread"):  # a reload: from the checkpointer
        st.session_state["task_result"] = task_state(principal, st.session_state["task_thread"])
    res = st.session_state.get("task_result")
    if res:
        if res.get("need_confirm"):
            _render_plan(principal, res)
        else:
            _render_report(principal, res)
    cite = st.session_state.pop("task_preview", None)
    if cite:  # opened once per click, large, like the 问答 mode
        _show_preview(principal, cite)
