"""政策问答: chat over the policy documents (agentic RAG with verified citations). Each turn
calls core.services.ask_docs; citation clicks call citation_preview; ratings go to
core.services.review.record_feedback. Session state keeps the thread id and past results; after a
reload they are rebuilt from the checkpointer (thread_transcript)."""

import streamlit as st

from components.chat import (
    progress_callback, render_answer, render_clarify, render_docs_overview, render_examples, render_feedback,
    render_trace,
)
from components.citations import render_citation_cards
from components.pdf_view import render_preview
from core.errors import AppError
from core.security.principals import SCENARIO_LABELS
from core.services.ask_docs import ask_docs, citation_preview, docs_overview, new_thread_id, thread_transcript

principal = st.session_state["principal"]
st.title("政策问答")
if st.radio("模式", ["问答", "任务"], horizontal=True, key="docs_mode") == "任务":
    from components.task_view import render_task_mode

    render_task_mode(principal)
    st.stop()

with st.sidebar:
    allowed = [x.value for x in principal.allowed_scenarios]  # core refuses any other (ask_docs)
    scenario = st.radio("场景", allowed, format_func=SCENARIO_LABELS.get,
                        index=allowed.index(principal.scenario.value) if principal.scenario.value in allowed else 0)
    if st.button("新对话", width="stretch", icon=":material/add_comment:"):
        st.session_state["docs_thread"] = new_thread_id()
        st.session_state["docs_turns"] = []
        st.session_state.pop("docs_preview", None)

thread_id = st.session_state.setdefault("docs_thread", new_thread_id())
if "docs_turns" not in st.session_state:  # a reload: the thread's turns come back from the checkpointer
    st.session_state["docs_turns"] = thread_transcript(principal, thread_id)
turns: list = st.session_state["docs_turns"]


def _ask(question: str) -> None:
    st.session_state.pop("docs_preview", None)  # the conversation moves on: close the open passage
    with st.chat_message("user"):
        st.markdown(question)
    with st.chat_message("assistant"):
        with st.status("正在检索政策文件…", expanded=False) as status:
            try:
                result = ask_docs(question, principal, thread_id=thread_id, scenario=scenario,
                                  on_node=progress_callback(status))
            except AppError as exc:
                status.update(label="未能回答", state="error")
                st.error(exc.user_message)
                return
            status.update(label="已完成", state="complete")
        render_answer(result, stream=True)
    turns.append({"question": question, "result": result})
    st.rerun()


for i, turn in enumerate(turns):
    res = turn["result"]
    with st.chat_message("user"):
        st.markdown(turn["question"])
    with st.chat_message("assistant"):
        render_answer(res)
        chosen = render_clarify(res, key=f"t{i}") if i == len(turns) - 1 else None
        clicked = render_citation_cards(res.get("citations") or [], key=f"t{i}")
        if clicked is not None:
            st.session_state["docs_preview"] = clicked
        render_trace(res)

        render_feedback(principal, "docs", thread_id, turn["question"], res, ("citations", "checks", "rounds"),
                        key=f"{thread_id}-{i}")
    if chosen:
        _ask(chosen)



@st.dialog("引用原文", width="large")
def _show_preview(citation: dict) -> None:
    st.markdown(f"**[{citation['n']}] {citation.get('title') or citation.get('file_name') or ''}**")
    try:
        render_preview(citation_preview(citation, principal))
    except AppError as exc:
        st.error(exc.user_message)


if not turns:
    overview = docs_overview(principal, scenario)
    render_docs_overview(overview)
    example = render_examples(overview.get("examples") or [], key="docs-ex")
    if example:
        _ask(example)

preview_citation = st.session_state.pop("docs_preview", None)
if preview_citation:  # opened once per click; closing the dialog or asking again leaves it closed
    _show_preview(preview_citation)

if question := st.chat_input("请输入政策问题，例如：济南家电以旧换新补贴标准是多少？"):
    _ask(question)
