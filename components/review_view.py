"""Pieces of the 每周复盘 and 评测报告 pages: a bad case as a reviewer reads it (question,
answer, citation cards, the asker, the feedback, the full trace) and the plotly charts."""

from __future__ import annotations

import streamlit as st

from components.audit_view import render_event
from components.chat import render_trace
from components.citations import render_citation_cards
from core.security.principals import ROLE_LABELS

SOURCE_ICONS = {"thumbs_down": ":material/thumb_down:", "refusal": ":material/block:",
                "check_failed": ":material/report:", "fallback": ":material/sync_problem:",
                "conflict": ":material/call_split:",
                "edited": ":material/edit_note:", "abandoned": ":material/hourglass_disabled:",
                "sample": ":material/casino:"}


def source_text(sources: list[str], labels: dict[str, str]) -> str:
    return "、".join(labels.get(s, s) for s in sources)


def render_case(case: dict, labels: dict[str, str], *, key: str) -> dict | None:
    """The case; returns the citation whose “查看原文” was clicked (policy answers)."""
    who = f"{case.get('user') or '-'}（{ROLE_LABELS.get(case.get('role') or '', '角色未知')}）"
    st.markdown(" ".join(f"{SOURCE_ICONS.get(s, ':material/flag:')} {labels.get(s, s)}" for s in case["sources"]))
    st.caption(f"提问人 {who} · 租户 {case.get('tenant') or '（无）'} · 时间（UTC）{case.get('at') or ''}")
    st.markdown(f"**问题**：{case['question']}")
    if case.get("waiting"):
        st.info("用户在确认步骤离开，没有得到回答。", icon=":material/hourglass_disabled:")
    elif case.get("refused"):
        st.warning(case.get("answer") or "（拒答）", icon=":material/block:")
    else:
        st.markdown("**回答**")
        st.markdown(case.get("answer") or "（无）")
    fb = case.get("feedback")
    if fb:
        icon = ":material/thumb_down:" if fb.get("rating") == -1 else ":material/thumb_up:"
        st.markdown(f"{icon} 用户反馈：{'没帮助' if fb.get('rating') == -1 else '有帮助'}"
                    + (f"，原因：{fb['reason']}" if fb.get("reason") else "（未填写原因）"))
    clicked = None
    cites = [c for c in case.get("citations") or [] if not c.get("hidden")]
    hidden = [c for c in case.get("citations") or [] if c.get("hidden")]
    if cites:
        st.markdown("**引用**")
        clicked = render_citation_cards(cites, key=key)
    if hidden:
        st.caption(f"另有 {len(hidden)} 条引用来自您无权查看的文档，已隐藏。")
    if case.get("event"):
        with st.expander("完整推理过程", icon=":material/account_tree:"):
            render_event(case["event"])
    elif case["kind"] == "docs":
        render_trace(case.get("detail") or {})
    return clicked


def trend_chart(trend: list[dict]):
    import plotly.graph_objects as go

    weeks = [t["week"] for t in trend]
    fig = go.Figure()
    fig.add_bar(x=weeks, y=[t["questions"] for t in trend], name="提问数", marker_color="#9bb7d4")
    fig.add_bar(x=weeks, y=[t["cases"] for t in trend], name="复盘用例", marker_color="#f0b400")
    fig.add_scatter(x=weeks, y=[t["down"] for t in trend], name="👎", mode="lines+markers", line_color="#d62728")
    fig.add_scatter(x=weeks, y=[(t["refusal_rate"] or 0) * 100 for t in trend], name="拒答率（%）", yaxis="y2",
                    mode="lines+markers", line_color="#555")
    fig.update_layout(barmode="group", height=340, margin=dict(l=10, r=10, t=30, b=10),
                      yaxis=dict(title="数量"), yaxis2=dict(title="拒答率（%）", overlaying="y", side="right"),
                      legend=dict(orientation="h"))
    return fig


def count_chart(counts: dict[str, int], title: str):
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(x=list(counts.values()), y=list(counts.keys()), orientation="h", marker_color="#4c78a8"))
    fig.update_layout(title=title, height=60 + 30 * max(1, len(counts)), margin=dict(l=10, r=10, t=40, b=10))
    return fig


def headline_chart(rows: list[dict]):
    """This run against its baseline, one pair of bars per headline metric."""
    import plotly.graph_objects as go

    labels = [r["label"] for r in rows]
    fig = go.Figure()
    fig.add_bar(x=labels, y=[r["baseline"] for r in rows], name="基线", marker_color="#bbb")
    fig.add_bar(x=labels, y=[r["value"] for r in rows], name="本次运行",
                marker_color=["#d62728" if r["regressed"] else "#2ca02c" for r in rows])
    fig.update_layout(barmode="group", height=360, yaxis=dict(range=[0, 1.05], tickformat=".0%"),
                      margin=dict(l=10, r=10, t=30, b=10), legend=dict(orientation="h"))
    return fig


def run_trend_chart(points: list[dict], metrics: list[str]):
    import plotly.graph_objects as go

    fig = go.Figure()
    for m in metrics:
        ys = [p.get(m) for p in points]
        if any(y is not None for y in ys):
            fig.add_scatter(x=[f"第 {p['run']} 次" for p in points], y=ys, name=m, mode="lines+markers")
    fig.update_layout(height=340, yaxis=dict(range=[0, 1.05], tickformat=".0%"), margin=dict(l=10, r=10, t=30, b=10),
                      legend=dict(orientation="h"))
    return fig


def breakdown_chart(rows: list[dict]):
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(x=[r["group"] for r in rows], y=[r["rate"] for r in rows],
                           text=[f"{r['passed']}/{r['cases']}" for r in rows], marker_color="#4c78a8"))
    fig.update_layout(height=320, yaxis=dict(range=[0, 1.05], tickformat=".0%"), margin=dict(l=10, r=10, t=30, b=10))
    return fig


def render_eval_case(case: dict, reason: str) -> None:
    """One case of a run: verdict, answer, failed checks and the trace."""
    ok = case.get("ok")
    (st.success if ok else st.error)(("通过" if ok else f"未通过：{reason}"),
                                     icon=":material/check_circle:" if ok else ":material/cancel:")
    st.markdown(f"**问题**：{case.get('question')}")
    st.markdown(f"**回答**：{case.get('answer') or '（无）'}")
    if "judge_score" in case:
        score = case["judge_score"]
        st.caption("大模型评分（仅供参考）：" + ("未评分（大模型没有给出有效评分）" if score is None else f"{score:.0%}"))
    t = case.get("trace") or {}
    if case.get("cited_files"):
        st.caption("引用文件：" + "、".join(case["cited_files"]))
    if t.get("retrieved_files"):
        st.caption("检索到的文件（按排名）：" + "、".join(t["retrieved_files"][:8]))
    if case.get("kind") == "docs" and t.get("trace"):
        render_trace({**t, "latency_ms": case.get("latency_ms") or 0})
    for q in t.get("queries") or []:
        st.markdown(f"第 {q.get('step')} 步 · {q.get('tool')} · {q.get('rows')} 行")
        if q.get("cypher"):
            st.code(q["cypher"], language="cypher")
