"""Chat pieces of the chat pages: the streamed answer, notices, clarifying options, example
questions, the trace expander (rounds, rewrites, grades, timings) and the feedback form."""

from __future__ import annotations

import re
import time
from typing import Callable, Iterator

import streamlit as st

NODE_LABELS = {"guard": "输入安全检查", "rewrite": "改写问题", "clarify": "请求澄清", "retrieve": "检索文档",
               "grade": "评估相关性", "reflect": "反思并调整检索", "generate": "生成回答", "check": "引用核验",
               "fallback": "拒答兜底", "reconcile": "冲突证据", "finalize": "输出审核"}


_MARKDOWN_SYNTAX = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^&])")


def escape_markdown(text: str) -> str:
    """``text`` shown literally by st.markdown: every markdown / Streamlit directive character
    escaped (no links, images, colours, maths, lists or headings from data values), leading
    spaces kept as no-break spaces (no code blocks)."""
    line = str(text).rstrip()
    body = line.lstrip(" ")
    return "\u00a0" * (len(line) - len(body)) + _MARKDOWN_SYNTAX.sub(r"\\\1", body)


def plain_markdown(text: str) -> str:
    """Plain text (a KG answer composed from graph values) as markdown that keeps every line
    break and renders nothing from the values: lines escaped, joined by hard breaks; a blank
    line still starts a new paragraph."""
    paragraphs = re.split(r"\n\s*\n", str(text or "").strip())
    return "\n\n".join("  \n".join(escape_markdown(ln) for ln in p.splitlines()) for p in paragraphs)


def stream_text(text: str, step: int = 6, delay: float = 0.01) -> Iterator[str]:
    """Types out an answer that has already passed the citation check."""
    for i in range(0, len(text), step):
        yield text[i:i + step]
        time.sleep(delay)


def progress_callback(status) -> Callable[[str, dict], None]:
    def on_node(node: str, info: dict) -> None:
        label = NODE_LABELS.get(node, node)
        rnd = info.get("round")
        status.update(label=f"{label}…" + (f"（第 {rnd} 轮）" if rnd else ""))
        status.write(f"{label}" + (f"：{info.get('hits')} 个片段" if node == "retrieve" else "") +
                     (f"：{info.get('relevant')} 个相关" if node == "grade" else ""))
    return on_node


def render_answer(result: dict, *, stream: bool = False) -> None:
    if result.get("refused"):
        st.warning(result["answer"])
    elif stream:
        st.write_stream(stream_text(result["answer"]))
    else:
        st.markdown(result["answer"])
    for n in result.get("notices") or []:
        st.info(n)


def render_clarify(result: dict, *, key: str) -> str | None:
    """Option buttons of a clarifying question; returns the chosen value."""
    options = (result.get("clarify") or {}).get("options") or []
    if not options:
        return None
    kinds = {"domain": "领域", "authority": "发文部门", "year": "年份", "topic": "文件/活动"}
    chosen = None
    for kind, label in kinds.items():
        group = [o for o in options if o["kind"] == kind]
        if not group:
            continue
        st.caption(label)
        cols = st.columns(min(len(group), 3))
        for i, o in enumerate(group):
            if cols[i % len(cols)].button(o["label"], key=f"{key}-opt-{kind}-{i}"):
                chosen = o["value"]
    return chosen


def render_examples(questions: list[str], *, key: str) -> str | None:
    """Clickable example questions of an empty chat page; returns the one clicked."""
    if not questions:
        return None
    st.markdown("**可以这样问：**")
    chosen = None
    for i, q in enumerate(questions):
        if st.button(q, key=f"{key}-{i}", icon=":material/help:"):
            chosen = q
    return chosen


def render_docs_overview(overview: dict) -> None:
    """The empty state of 政策问答: the documents this asker can search, by tenant and status."""
    if not overview.get("total"):
        st.info("您可查询的范围内还没有政策文件。请管理员在“文档库”上传文件并审核后再来提问。", icon=":material/info:")
        return
    by: dict[str, list[str]] = {}
    for r in overview.get("by_tenant") or []:
        by.setdefault(r["tenant"] or "未指定单位", []).append(f"{r['label']} {r['count']} 份")
    with st.container(border=True):
        st.markdown(f"**可查询的政策文件：共 {overview['total']} 份**")
        st.caption("  \n".join(f"{t}：{'，'.join(parts)}" for t, parts in by.items()))


CHECK_LABELS = {"injection": "提示注入检查", "sensitive_input": "问题敏感词检查", "pii_output": "个人信息检查",
                "sensitive_output": "回答敏感词检查", "citations_exist": "引用存在", "citation_check": "引用核验",
                "dropped_claims": "删去未核实的句子", "evidence_threshold": "证据充分", "partial_refusal": "部分拒答"}
CHECK_VALUES = {"passed": "通过", "regenerating": "重新生成", "dropped_claims": "删去未核实的句子", "failed": "未通过"}


def _check_line(checks: dict) -> str:
    """"核验：injection=True；pii_output=True" → "核验：提示注入检查 通过 · 个人信息检查 通过"."""
    parts = []
    for k, v in checks.items():
        label = CHECK_LABELS.get(k)
        if label is None:
            continue
        if isinstance(v, bool):
            parts.append(f"{label}：{'是' if v else '否'}" if k == "partial_refusal" else
                         f"{label} {'通过' if v else '未通过'}")
        elif isinstance(v, (int, float)):
            parts.append(f"{label} {v} 句")
        elif isinstance(v, str) and v in CHECK_VALUES:
            parts.append(f"{label} {CHECK_VALUES[v]}")
    return " · ".join(parts)


def render_trace(result: dict) -> None:
    trace = result.get("trace") or []
    checks = result.get("checks") or {}
    with st.expander(f"推理过程（{result.get('rounds', 0)} 轮检索 · {result.get('latency_ms', 0) / 1000:.1f} 秒 · "
                     f"{'大模型' if result.get('mode') == 'llm' else '离线规则'}模式）", icon=":material/psychology:"):
        for t in trace:
            label = NODE_LABELS.get(t["node"], t["node"])
            st.markdown(f"**{label}** · 第 {t.get('round', 0)} 轮 · {t.get('ms', 0)} 毫秒")
            if t["node"] == "rewrite":
                st.caption(f"理解为：{t.get('resolved', '')}")
                for q in t.get("queries") or []:
                    st.caption(f"检索语句：{q}")
                if t.get("aliases"):
                    st.caption("别名归一：" + "、".join(t["aliases"]))
                if t.get("llm_rewrite_rejected"):
                    st.caption(t["llm_rewrite_rejected"])
            elif t["node"] == "grade":
                rows = [{"片段": f"第 {k} 个", "得分": g["score"], "相关": "是" if g["relevant"] else "否",
                         "理由": g["reason"]} for k, g in enumerate(t.get("grades") or [], 1)]
                if rows:
                    st.dataframe(rows, hide_index=True, width="stretch")
            elif t["node"] == "reflect":
                st.caption(t.get("feedback", ""))
            elif t["node"] == "check":
                for f in t.get("failed") or []:
                    st.caption(f"未通过：{f}")
            elif t["node"] == "reconcile":
                from components.citations import render_conflicts

                render_conflicts(t.get("conflicts") or [])
        line = _check_line(checks)
        if line:
            st.caption("核验：" + line)


RATINGS = {"up": ":material/thumb_up: 有帮助", "down": ":material/thumb_down: 没帮助"}


def render_feedback(principal, kind: str, thread_id: str, question: str, result: dict, payload_keys: tuple[str, ...],
                    *, key: str) -> None:
    """有帮助 / 没帮助 with an optional reason, stored once through
    core.services.review.record_feedback with the named parts of ``result`` as its payload; a
    refused save shows why."""
    from core.errors import AppError
    from core.services.review import record_feedback

    done_key = f"{key}-fb-done"
    if st.session_state.get(done_key):
        st.caption(":material/check_circle: 感谢反馈")
        return
    with st.popover("评价这个回答", icon=":material/rate_review:"):
        with st.form(f"{key}-fb", enter_to_submit=False, border=False):
            rating = st.radio("这个回答", list(RATINGS), format_func=RATINGS.get, horizontal=True)
            reason = st.text_input("原因（可选）")
            if st.form_submit_button("提交"):
                try:
                    record_feedback(principal, kind, thread_id, question, result.get("answer") or "",
                                    1 if rating == "up" else -1, reason,
                                    {k: result.get(k) for k in payload_keys})
                except AppError as exc:
                    st.error(exc.user_message)
                    return
                st.session_state[done_key] = True
                st.rerun()
