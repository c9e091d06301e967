"""数据导入与建图（仅管理员）：下载模板 → 上传（每类可多份）→ 校验报告 → 分阶段构建 → 构建摘要。"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.errors import AppError
from core.graph.schema import TEMPLATE_NAMES
from core.services import build as B

st.title("数据导入与建图")
principal = st.session_state.get("principal")
if principal is None or getattr(principal, "role", None) is None or principal.role.value != "admin":
    st.error("只有管理员可以导入数据和构建图谱。")
    st.stop()

PHASES = {"read": "读取与校验", "nodes": "阶段一：写入节点", "edges": "阶段二：写入关系"}


def issues_table(result: dict) -> None:
    table = B.issues_of(result)
    st.write(f"错误 {table['errors']} 条，警告 {table['warnings']} 条")
    if not table["issues"]:
        st.success("全部文件通过校验。")
        return
    df = pd.DataFrame(table["issues"]).rename(columns=B.ISSUE_LABELS)
    c1, c2 = st.columns(2)
    levels = c1.multiselect("级别", ["错误", "警告"], default=["错误", "警告"])
    tpls = c2.multiselect("模板", sorted(df["模板"].dropna().unique()))
    view = df[df["级别"].isin(levels)]
    if tpls:
        view = view[view["模板"].isin(tpls)]
    st.dataframe(view, use_container_width=True, hide_index=True)
    st.download_button("下载校验报告（CSV）", B.issues_csv(table["issues"]), "校验报告.csv", "text/csv")


tenant = st.selectbox("图谱所属租户", B.tenant_choices(principal),
                      help="每个租户有自己的图谱；构建完成前，问答与浏览仍使用该租户的上一版图谱")

with st.expander("当前图谱规模", expanded=False):
    try:
        counts = B.graph_counts(principal, tenant=tenant)
        g1, g2 = st.columns(2)
        g1.dataframe(pd.DataFrame([{"节点标签": k, "数量": v} for k, v in counts["nodes"].items()]), hide_index=True)
        g2.dataframe(pd.DataFrame([{"关系类型": k, "数量": v} for k, v in counts["edges"].items()]), hide_index=True)
    except AppError as exc:
        st.warning(exc.user_message)

with st.expander("① 下载空白模板", expanded=False):
    cols = st.columns(3)
    for i, t in enumerate(B.template_list()):
        cols[i % 3].download_button(f"{t['name']}", B.template_bytes(t["name"]), t["file_name"],
                                    help=f"{t['description']}；必填：{'、'.join(t['required'])}", key=f"tpl_{t['name']}")

st.subheader("② 上传数据文件（每类模板可上传多份）")
uploads: dict[str, list[tuple[str, bytes]]] = {}
cols = st.columns(3)
for i, name in enumerate(TEMPLATE_NAMES):
    files = cols[i % 3].file_uploader(name, type=["xlsx"], accept_multiple_files=True, key=f"up_{name}")
    if files:
        uploads[name] = [(f.name, f.getvalue()) for f in files]

st.subheader("③ 校验与构建")
clear = st.checkbox("清空现有图谱后重建")
confirmed = True
if clear:
    confirmed = st.text_input(f"清空会删除租户 {tenant} 图谱中的全部数据。请输入“确认清空”以继续") == "确认清空"
c1, c2 = st.columns(2)
do_validate = c1.button("仅校验", disabled=not uploads)
do_build = c2.button("校验并构建", type="primary", disabled=not uploads or not confirmed)

try:
    if do_validate:
        st.session_state["kg_import_result"] = B.validate_uploads(principal, uploads, tenant=tenant)
    if do_build:
        bars = {k: st.progress(0.0, text=v) for k, v in PHASES.items()}

        def progress(phase: str, frac: float, msg: str) -> None:
            if phase in bars:
                bars[phase].progress(min(max(frac, 0.0), 1.0), text=f"{PHASES[phase]}：{msg}")

        result = B.build_from_uploads(principal, uploads, tenant=tenant, clear=clear, progress=progress)
        for k in bars:
            bars[k].progress(1.0, text=f"{PHASES[k]}：完成")
        st.session_state["kg_import_result"] = result
except AppError as exc:
    st.error(exc.user_message)

result = st.session_state.get("kg_import_result")
if result:
    st.subheader("④ 结果")
    if "nodes" in result:
        st.success(f"构建完成，用时 {result['seconds']} 秒")
        n1, n2 = st.columns(2)
        n1.dataframe(pd.DataFrame([{"节点标签": k, "数量": v} for k, v in result["nodes"].items()]), hide_index=True)
        n2.dataframe(pd.DataFrame([{"关系类型": k, "数量": v} for k, v in result["edges"].items()]), hide_index=True)
    issues_table(result)
