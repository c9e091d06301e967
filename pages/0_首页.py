"""首页 (managers and administrators): what is loaded and how answering went this week —
documents by tenant/status, graph size by label, questions, 👍/👎, refusal rate, the latest
evaluation against its baseline. An empty workspace offers the demo data (administrators)."""

import pandas as pd
import plotly.express as px
import streamlit as st

from components.notice import flash
from core.services import dashboard, demo

principal = st.session_state["principal"]
st.title("首页")

if dashboard.workspace_empty():
    with st.container(border=True):
        st.subheader("工作区还是空的")
        st.write("还没有政策文档，也没有业务图谱。可以先载入示例数据（示例政策文件、15 类业务表格和示例用户）"
                 "体验问答，之后随时在“文档库”和“数据导入与建图”换成自己的数据。")
        if principal.is_admin:
            if st.button("载入示例数据", type="primary", icon=":material/download:", key="load-demo"):
                bar = st.progress(0.0, text="准备载入…")
                result = demo.load_demo(principal, progress=lambda f, t: bar.progress(f, text=t))
                st.session_state["demo_passwords"] = result["passwords"]
                flash(f"示例数据已载入：政策文档 {result['documents']} 篇，图谱节点 {result['nodes']} 个、"
                      f"关系 {result['edges']} 条。")
                st.rerun()
        else:
            st.info("请联系管理员载入示例数据或导入本单位的数据。", icon=":material/info:")
    st.stop()

if st.session_state.get("demo_passwords"):
    with st.expander("示例用户的一次性密码（只显示这一次，首次登录后必须修改）", expanded=True,
                     icon=":material/key:"):
        for line in st.session_state["demo_passwords"]:
            st.text(line.replace("[ZhiCe] ", ""))
        if st.button("我已记下，隐藏", key="hide-demo-passwords"):
            st.session_state.pop("demo_passwords")
            st.rerun()

data = dashboard.home(principal)
q, docs, graph, ev = data["questions"], data["documents"], data["graph"], data["eval"]

c1, c2, c3, c4 = st.columns(4)
c1.metric("本周提问", q["questions"], help=f"自 {q['since']}（周一）起，政策问答与图谱问答合计")
c2.metric("拒答率", "—" if q["refusal_rate"] is None else f"{q['refusal_rate']:.0%}",
          help="回答“暂未查到”或无权查看的提问占比")
c3.metric("好评占比", "—" if q["up_ratio"] is None else f"{q['up_ratio']:.0%}",
          help=f"本周 👍 {q['thumbs_up']} 条、👎 {q['thumbs_down']} 条")
c4.metric("待审核文档", docs["pending"])

left, right = st.columns(2)
with left:
    st.subheader("政策文档")
    if docs["by_tenant_status"]:
        df = pd.DataFrame(docs["by_tenant_status"]).rename(columns={"tenant": "租户", "status": "状态", "count": "篇数"})
        fig = px.bar(df, x="租户", y="篇数", color="状态", barmode="stack", height=300)
        fig.update_layout(margin=dict(l=10, r=10, t=10, b=10), legend_title_text="状态")
        st.plotly_chart(fig, width="stretch", config={"displayModeBar": False})
    else:
        st.info("还没有可查看的文档。", icon=":material/info:")
with right:
    st.subheader(f"业务图谱（租户 {graph['tenant'] or '无'}）")
    if graph["nodes"]:
        df = pd.DataFrame([{"标签": k, "节点数": v} for k, v in sorted(graph["nodes"].items(), key=lambda x: -x[1])])
        fig = px.bar(df, x="节点数", y="标签", orientation="h", height=300)
        fig.update_layout(margin=dict(l=10, r=10, t=10, b=10), yaxis={"categoryorder": "total ascending"})
        st.plotly_chart(fig, width="stretch", config={"displayModeBar": False})
        st.caption(f"节点 {graph['node_total']} 个，关系 {graph['edge_total']} 条")
    else:
        st.info("你所在租户还没有业务图谱。", icon=":material/info:")

left, right = st.columns(2)
with left:
    st.subheader("本周提问")
    if q["by_day"]:
        df = pd.DataFrame([{"日期": k, "提问": v} for k, v in q["by_day"].items()])
        fig = px.bar(df, x="日期", y="提问", height=260)
        fig.update_layout(margin=dict(l=10, r=10, t=10, b=10))
        st.plotly_chart(fig, width="stretch", config={"displayModeBar": False})
        st.caption(f"政策问答 {q['by_kind'].get('docs', 0)} 次，图谱问答 {q['by_kind'].get('kg', 0)} 次，"
                   f"拒答 {q['refused']} 次")
    else:
        st.info("本周还没有人提问。", icon=":material/info:")
with right:
    st.subheader("最近一次评测")
    if ev is None:
        st.info("还没有评测记录。评测员可在“评测报告”中运行评测集。", icon=":material/info:")
    else:
        st.caption(f"评测集 {ev['set']} · 第 {ev['run']} 次运行 · {ev['at'][:16].replace('T', ' ')} · "
                   + (f"基线为第 {ev['baseline']} 次" if ev["baseline"] else "尚未设定基线"))
        rows = [r for r in ev["rows"] if r["value"] is not None]
        if rows:
            long = [{"指标": r["label"], "运行": "本次", "得分": r["value"]} for r in rows] + \
                   [{"指标": r["label"], "运行": "基线", "得分": r["baseline"]} for r in rows if r["baseline"] is not None]
            fig = px.bar(pd.DataFrame(long), x="指标", y="得分", color="运行", barmode="group", height=260)
            fig.update_layout(margin=dict(l=10, r=10, t=10, b=10), legend_title_text="")
            st.plotly_chart(fig, width="stretch", config={"displayModeBar": False})
        if ev["regressions"]:
            st.warning("相对基线退步：" + "、".join(r["label"] for r in ev["rows"] if r["regressed"]),
                       icon=":material/trending_down:")
        else:
            st.success("没有指标低于基线。", icon=":material/check_circle:")
