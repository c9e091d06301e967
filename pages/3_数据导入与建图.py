"""数据导入与建图（仅管理员）：下载模板 → 把文件一次拖进来（按文件名自动归到模板）→ 校验 → 分阶段构建 →
每个文件导入了哪些行、跳过了哪些行。"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components.notice import flash
from core.config import get_settings
from core.errors import AppError
from core.graph.schema import TEMPLATE_NAMES
from core.services import build as B

st.title("数据导入与建图")
principal = st.session_state.get("principal")
if principal is None or getattr(principal, "role", None) is None or principal.role.value != "admin":
    st.error("只有管理员可以导入数据和构建图谱。", icon=":material/block:")
    st.stop()

PHASES = {"read": "读取与校验", "nodes": "阶段一：写入节点", "edges": "阶段二：写入关系"}
SKIP = "（不导入）"


def result_view(result: dict) -> None:
    table = B.issues_of(result)
    outcomes = B.file_outcomes({**result, "issues": table["issues"]})
    if outcomes:
        st.markdown("**各文件导入情况**")
        st.dataframe(pd.DataFrame([{
            "文件": o["file"], "模板": o["template"], "数据行": o["rows_in_file"], "已导入": o["imported"],
            "跳过的行": B.row_ranges(o["skipped_rows"]) or ("整份文件未导入" if o["file_error"] else "无"),
            "说明": o["file_error"]} for o in outcomes]), hide_index=True, width="stretch")
    if table["errors"]:
        st.warning(f"错误 {table['errors']} 条（对应的行已跳过，其余行已导入），警告 {table['warnings']} 条。",
                   icon=":material/warning:")
    elif table["warnings"]:
        st.info(f"没有错误，警告 {table['warnings']} 条。", icon=":material/info:")
    else:
        st.success("全部文件通过校验。", icon=":material/check_circle:")
        return
    df = pd.DataFrame(table["issues"]).rename(columns=B.ISSUE_LABELS)
    c1, c2 = st.columns(2)
    levels = c1.multiselect("级别", ["错误", "警告"], default=["错误", "警告"], placeholder="选择级别")
    tpls = c2.multiselect("模板", sorted(df["模板"].dropna().unique()), placeholder="全部模板")
    view = df[df["级别"].isin(levels)]
    if tpls:
        view = view[view["模板"].isin(tpls)]
    st.dataframe(view, width="stretch", hide_index=True)
    st.download_button("下载校验报告（CSV）", B.issues_csv(table["issues"]), "校验报告.csv", "text/csv",
                       icon=":material/download:")


def run_build(build) -> None:
    """Run ``build(progress)`` with one progress bar per phase, keep its result, confirm it."""
    bars = {k: st.progress(0.0, text=v) for k, v in PHASES.items()}

    def progress(phase: str, frac: float, msg: str) -> None:
        if phase in bars:
            bars[phase].progress(min(max(frac, 0.0), 1.0), text=f"{PHASES[phase]}：{msg}")

    result = build(progress)
    for k in bars:
        bars[k].progress(1.0, text=f"{PHASES[k]}：完成")
    st.session_state["kg_import_result"] = result
    st.session_state["kg_import_kind"] = "build"
    flash(f"租户 {result['tenant']} 的图谱已构建（第 {result['generation']} 版），用时 {result['seconds']} 秒"
          + (f"；{len(result['errors'])} 条错误对应的行已跳过" if result["errors"] else ""),
          "warning" if result["errors"] else "success")
    st.rerun()


tenant = st.selectbox("图谱所属租户", B.tenant_choices(principal),
                      help="每个租户有自己的图谱；构建完成前，问答与浏览仍使用该租户的上一版图谱")

if B.graph_layout_outdated(principal, tenant=tenant):
    st.warning(f"租户 {tenant} 的图谱是由旧版本按旧结构构建的，问答和浏览暂时无法使用。系统保存了构建它所用的原始表格，"
               "可以直接按这些表格重新构建（不需要重新上传；构建完成前旧图谱保持不变）。", icon=":material/update:")
    if st.button("按已保存的原始表格重新构建", type="primary", icon=":material/autorenew:"):
        try:
            run_build(lambda progress: B.rebuild_from_sources(principal, tenant=tenant, progress=progress))
        except AppError as exc:
            st.error(exc.user_message, icon=":material/error:")

with st.expander("当前图谱规模", expanded=False, icon=":material/hub:"):
    try:
        counts = B.graph_counts(principal, tenant=tenant)
        g1, g2 = st.columns(2)
        g1.dataframe(pd.DataFrame([{"节点标签": k, "数量": v} for k, v in counts["nodes"].items()]), hide_index=True)
        g2.dataframe(pd.DataFrame([{"关系类型": k, "数量": v} for k, v in counts["edges"].items()]), hide_index=True)
    except AppError as exc:
        st.warning(exc.user_message, icon=":material/warning:")

with st.expander("① 下载空白模板", expanded=False, icon=":material/download:"):
    cols = st.columns(3)
    for i, t in enumerate(B.template_list()):
        cols[i % 3].download_button(t["file_name"], B.template_bytes(t["name"]), t["file_name"],
                                    help=f"{t['description']}；必填：{'、'.join(t['required'])}", key=f"tpl_{t['name']}")

st.subheader("② 选择数据文件")
st.caption("一次选择全部表格即可：文件名以模板编号或模板名开头（如 07_考勤与人员财务_2026-03.xlsx），"
           "系统会自动归到对应模板；同一模板可以有多份文件。")
dropped = st.file_uploader("15 类业务模板的 Excel 文件（可多选）", type=["xlsx"], accept_multiple_files=True,
                           key="kg_drop", max_upload_size=int(get_settings().max_upload_mb))
routed = B.route_uploads([(f.name, f.getvalue()) for f in dropped or []])
uploads = routed["uploads"]
if routed["routes"]:
    choices = [SKIP, *TEMPLATE_NAMES]
    for name in routed["unmatched"]:
        picked = st.selectbox(f"“{name}”无法从文件名判断模板，请选择", choices, key=f"route-{name}")
        if picked != SKIP:
            data = next(f.getvalue() for f in dropped if f.name == name)
            uploads.setdefault(picked, []).append((name, data))
    rows = []
    for r in routed["routes"]:
        where = r["template"] or next((t for t, items in uploads.items() if any(n == r["file"] for n, _ in items)), None)
        rows.append({"文件": r["file"], "归入模板": where or "未归类（不导入）",
                     "检查": r["problem"] or "可以导入"})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    missing = [t for t in TEMPLATE_NAMES if t not in uploads]
    if missing and uploads:
        st.caption(f"本次没有文件的模板（构建时保留原数据或为空）：{'、'.join(missing)}")

st.subheader("③ 校验与构建")
clear = st.checkbox("清空现有图谱后重建")
confirmed = True
if clear:
    confirmed = st.text_input(f"清空会删除租户 {tenant} 图谱中的全部数据。请输入“确认清空”以继续") == "确认清空"
c1, c2 = st.columns(2)
do_validate = c1.button("仅校验", disabled=not uploads, icon=":material/fact_check:")
do_build = c2.button("校验并构建", type="primary", disabled=not uploads or not confirmed, icon=":material/build:")

if do_validate:
    st.session_state["kg_import_result"] = B.validate_uploads(principal, uploads, tenant=tenant)
    st.session_state["kg_import_kind"] = "validate"
if do_build:
    run_build(lambda progress: B.build_from_uploads(principal, uploads, tenant=tenant, clear=clear, progress=progress))

result = st.session_state.get("kg_import_result")
if result:
    st.subheader("④ 结果")
    for r in routed["rejected"]:
        st.error(f"{r['file']}：{r['reason']}", icon=":material/error:")
    if st.session_state.get("kg_import_kind") == "build" and "nodes" in result:
        st.caption(f"构建完成，用时 {result['seconds']} 秒")
        n1, n2 = st.columns(2)
        n1.dataframe(pd.DataFrame([{"节点标签": k, "数量": v} for k, v in result["nodes"].items()]), hide_index=True)
        n2.dataframe(pd.DataFrame([{"关系类型": k, "数量": v} for k, v in result["edges"].items()]), hide_index=True)
    else:
        st.caption("仅校验，图谱没有改动。")
    result_view(result)
