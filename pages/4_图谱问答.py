"""图谱问答: chat over the business knowledge graph with human-in-the-loop confirmation in
plain Chinese. Each question / reply calls core.services.ask_kg.ask_kg on the page's thread; a
provenance click calls source_row. Session state keeps the thread id and the past results; after
a reload they are rebuilt from the checkpointer (thread_transcript)."""

import uuid

import streamlit as st

from components.chat import plain_markdown, render_examples, render_feedback
from components.kg_confirm import render_confirmed_plan, render_need_confirm, render_past_confirm
from components.provenance import render_debug, render_kg_overview, render_provenance, render_rows, render_source_row
from core.errors import AppError
from core.services.ask_kg import ask_kg, kg_aliases, kg_overview, save_kg_aliases, source_row, thread_transcript

principal = st.session_state["principal"]
st.title("图谱问答")

with st.sidebar:
    auto = st.toggle("自动确认（跳过条件与步骤确认）", value=False)
    if st.button("新对话", width="stretch", icon=":material/add_comment:"):
        st.session_state["kg_thread"] = uuid.uuid4().hex[:12]
        st.session_state["kg_turns"] = []
        st.session_state.pop("kg_source", None)

    if principal.is_admin:
        with st.expander("别名表（简称 / 曾用名 / 常见误写）"):
            edited = st.data_editor(kg_aliases() or [{"别名": "", "目标编号": ""}], num_rows="dynamic",
                                    key="kg_alias_table", hide_index=True)
            if st.button("保存别名表", width="stretch"):
                try:
                    st.success(f"已保存 {save_kg_aliases(principal, edited)} 条别名")
                except AppError as exc:
                    st.error(exc.user_message)

thread_id = st.session_state.setdefault("kg_thread", uuid.uuid4().hex[:12])
if "kg_turns" not in st.session_state:  # a reload: the thread's turns come back from the checkpointer
    st.session_state["kg_turns"] = [{**t, "asked": t["question"]}
                                    for t in thread_transcript(principal, thread_id, debug=principal.is_admin)]
turns: list = st.session_state["kg_turns"]
overview = kg_overview(principal)


def _send(text, shown: str) -> None:
    st.session_state.pop("kg_source", None)  # the conversation moves on: close the source row
    try:
        with st.spinner("正在查询业务图谱…"):
            result = ask_kg(text, principal=principal, thread_id=thread_id, auto=auto, debug=principal.is_admin)
    except AppError as exc:
        st.error(exc.user_message)
        return
    # a reply to a confirmation belongs to the question that started it (feedback is about that)
    replying = bool(turns and turns[-1]["result"].get("need_confirm"))
    turns.append({"question": shown, "result": result, "asked": turns[-1]["asked"] if replying else shown})
    st.rerun()


about = st.session_state.get("kg_ask_about")  # set by 图谱浏览's "问这个": {"id", "name", "questions"}
if about:
    st.info(f"来自图谱浏览：{about['name']}。点下面的问题直接提问，或在输入框里提到“{about['name']}”提问")
    for qi, q in enumerate(about["questions"]):
        if st.button(q, key=f"kg_about_{qi}"):
            st.session_state.pop("kg_ask_about", None)
            _send(q, q)
elif not turns:
    render_kg_overview(overview)
    example = render_examples(overview.get("examples") or [], key="kg-ex")
    if example:
        _send(example, example)

for i, turn in enumerate(turns):
    res = turn["result"]
    with st.chat_message("user"):
        st.markdown(turn["question"])
    with st.chat_message("assistant"):
        need = res.get("need_confirm")
        if need and i == len(turns) - 1:
            reply = render_need_confirm(need, overview, key=f"kg{i}")
            if reply is not None:
                _send(reply, reply if isinstance(reply, str) else "确认（已调整查询条件）")
        elif need:
            render_past_confirm(need)
        else:
            (st.warning if res.get("refused") else st.markdown)(plain_markdown(res.get("answer") or ""))
            render_confirmed_plan(res.get("plan_steps") or [])
            picked = render_provenance(res.get("provenance") or [], key=f"kg{i}")
            if picked is not None:
                st.session_state["kg_source"] = picked
            render_rows(res.get("rows") or [], key=f"kg{i}")
            render_feedback(principal, "kg", thread_id, turn["asked"], res, ("slots", "plan", "queries", "provenance"),
                            key=f"kg-{thread_id}-{i}")
        if principal.is_admin:  # Cypher, parameters and the trace: administrators only
            render_debug(res, key=f"kg{i}")

picked = st.session_state.get("kg_source")
if picked:
    with st.sidebar:
        st.subheader("来源表格行")
        try:
            render_source_row(source_row(principal, picked["template"], picked["file"], picked["row"]))
        except AppError as exc:
            st.error(exc.user_message)
        if st.button("关闭", width="stretch"):
            st.session_state.pop("kg_source")
            st.rerun()

if question := st.chat_input("请输入业务问题，例如：青浦-区图书馆2026年3月有多少人出勤？"):
    _send(question, question)
