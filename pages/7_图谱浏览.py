"""图谱浏览: search an entity, open it with its neighbours, expand / collapse / filter, a
detail panel (masked properties, provenance, source row), the shortest path between two
entities and the schema view. Every read is one core.services.explore call; session state
keeps ids only (the opened entity, expanded nodes, opened bundles, the selection)."""

import streamlit as st

from components.graph_view import render_edge_detail, render_graph, render_legend, render_node_detail, render_schema
from core.errors import AppError
from core.services import explore as X

principal = st.session_state["principal"]
st.title("图谱浏览")
S = st.session_state


def _open(node_id: str) -> None:
    S["gx_center"], S["gx_selected"] = node_id, node_id
    S["gx_expanded"], S["gx_bundles"] = [], []


def _pick(label: str, key: str) -> str | None:
    """A search box with its matches; returns the chosen node id."""
    text = st.text_input(label, key=f"{key}_q", placeholder="项目名称或编号、姓名或工号、片区、设备、供应商")
    if not text.strip():
        return None
    try:
        hits = X.search(principal, text)["results"]
    except AppError as exc:
        st.error(exc.user_message)
        return None
    if not hits:
        st.warning(f"没有找到“{text}”：换一个名称、编号或简称再试（错别字和部分名称也可以）")
        return None
    names = {h["id"]: f"{h['name']}（{h['label']}）" for h in hits}
    return st.selectbox("匹配结果", list(names), format_func=names.get, key=f"{key}_pick")


browse, path_tab, schema_tab = st.tabs(["浏览", "路径", "结构"])

with browse:
    if "gx_goto" in S:  # "以它为中心打开" from the previous run
        _open(S.pop("gx_goto"))
    picked = _pick("搜索实体", "gx")
    if picked and st.button("打开", key="gx_open", type="primary"):
        _open(picked)
    center = S.get("gx_center")
    if not center:
        st.info("在上方输入项目名称、编号、姓名或工号并点“打开”，即可查看它的关联人员、片区、项目和记录，例如：青浦-区图书馆")
    else:
        with st.sidebar:
            st.subheader("浏览设置")
            depth = st.radio("展开层数", [1, 2], horizontal=True, key="gx_depth")
            labels = st.multiselect("只看这些类型", [x["label"] for x in X.legend()], key="gx_labels", placeholder="全部类型")
            rels = st.multiselect("只看这些关系", list(X.REL_TYPES), key="gx_rels", placeholder="全部关系")
            months = None
            options = X.months_available(principal)
            if options and st.checkbox("按月份筛选", key="gx_by_month"):
                months = st.select_slider("月份范围", options, value=(options[0], options[-1]), key="gx_months")
            cap = st.number_input("最多显示节点数", 10, X.MAX_NODE_CAP, X.DEFAULT_NODE_CAP, step=10, key="gx_cap")
        try:
            result = X.neighbors(principal, center, depth=depth, labels=labels, rels=rels, months=months, limit=int(cap),
                                 expand=S.get("gx_expanded", []), open_bundles=S.get("gx_bundles", []),
                                 bundle_over=X.DEFAULT_BUNDLE_OVER)
        except AppError as exc:
            st.error(exc.user_message)
            st.stop()
        note = f"显示 {result['shown_nodes']} / 共 {result['total_nodes']} 个节点"
        if result["bundled_nodes"]:
            note += f"（其中 {result['bundled_nodes']} 条月度记录已合并，点击合并节点可展开）"
        st.caption(note)
        if result["truncated"]:
            left = "、".join(f"{lb} {n} 个" for lb, n in result["hidden_by_label"].items())
            st.warning(f"节点较多，未显示：{left}。可在左侧按类型、关系或月份筛选，或调高“最多显示节点数”。")
        if len(result["nodes"]) == 1:
            st.info("没有符合条件的关联节点：放宽左侧的类型、关系或月份筛选试试")
        render_legend(X.legend(), {n["label"] for n in result["nodes"]})
        graph_col, detail_col = st.columns([3, 2])
        with graph_col:
            clicked = render_graph(result, selected=S.get("gx_selected"))
        if clicked and clicked != S.get("gx_last_click"):
            S["gx_last_click"], S["gx_selected"] = clicked, clicked
        names = {n["id"]: f"{n['icon']} {n['name']}" for n in result["nodes"]}
        if S.get("gx_selected") not in names:
            S["gx_selected"] = center
        with detail_col:
            sel = st.selectbox("选中节点（也可在图上点击）", list(names), format_func=names.get, key="gx_selected")
            node = next(n for n in result["nodes"] if n["id"] == sel)
            if node.get("bundle"):
                st.markdown(f"#### {node['icon']} {node['name']}")
                st.caption("、".join(f"{k}：{v}" for k, v in node["properties"].items()))
                if st.button("展开这些记录", key="gx_open_bundle"):
                    S["gx_bundles"] = S.get("gx_bundles", []) + [sel]
                    st.rerun()
                st.caption("记录较多时，也可以在左侧按月份筛选后再展开")
            else:
                expanded = sel == center or sel in S.get("gx_expanded", [])
                b1, b2 = st.columns(2)
                if node["expandable"] and not expanded and b1.button("展开", key="gx_expand"):
                    S["gx_expanded"] = S.get("gx_expanded", []) + [sel]
                    st.rerun()
                if sel != center and sel in S.get("gx_expanded", []) and b1.button("收起", key="gx_collapse"):
                    S["gx_expanded"] = [x for x in S["gx_expanded"] if x != sel]
                    st.rerun()
                if node["expandable"] and b2.button("问这个", key="gx_ask"):
                    try:
                        S["kg_ask_about"] = X.ask_about(principal, sel)
                        st.switch_page("pages/4_图谱问答.py")
                    except AppError as exc:
                        st.error(exc.user_message)
                if sel != center and node["expandable"] and st.button("以它为中心打开", key="gx_recenter"):
                    S["gx_goto"] = sel
                    st.rerun()
                try:
                    detail = node if node.get("locked") else X.node_detail(principal, sel)
                except AppError as exc:
                    detail = None
                    st.info(exc.user_message)
                if detail is not None:
                    render_node_detail(detail, show_source=st.toggle("显示来源表格行", value=True, key="gx_src"))
                edges = {e["id"]: e for e in result["edges"] if sel in (e["source"], e["target"]) and not e.get("bundle")}
                if edges:
                    label_of = {eid: f"{names.get(e['source'], '')} —{e['type']}→ {names.get(e['target'], '')}"
                                for eid, e in edges.items()}
                    eid = st.selectbox("查看关系", [None, *edges], key="gx_edge",
                                       format_func=lambda x: "（选择一条关系查看来源）" if x is None else label_of[x])
                    if eid:
                        try:
                            render_edge_detail(X.edge_detail(principal, eid))
                        except AppError as exc:
                            st.info(exc.user_message)

with path_tab:
    st.caption("两个实体之间最多 4 跳的最短路径（内置图库与 Neo4j 都支持）")
    a = _pick("起点", "gx_pa")
    b = _pick("终点", "gx_pb")
    if a and b and st.button("查找路径", key="gx_path"):
        S["gx_path_ends"] = [a, b]
    ends = S.get("gx_path_ends")
    if not ends:
        st.info("分别搜索并选择起点和终点，然后点“查找路径”")
    else:
        try:
            path = X.shortest_path(principal, *ends)
        except AppError as exc:
            st.error(exc.user_message)
        else:
            if not path["nodes"]:
                st.info("4 跳以内没有找到路径：换两个实体，或在“浏览”中从其中一个逐层展开查看")
            else:
                st.caption(f"最短路径：{path['hops']} 跳")
                st.markdown(" → ".join(f"{n['icon']} {n['name']}" for n in path["nodes"]))
                render_graph({"center": ends[0], **path}, height=360)

with schema_tab:
    try:
        view = X.schema_view(principal)
    except AppError as exc:
        st.error(exc.user_message)
    else:
        if view["empty"]:
            st.info("图谱还是空的：请管理员在“数据导入与建图”中上传模板表格并构建图谱")
        else:
            render_schema(view)
            st.subheader("属性完整度")
            label = st.selectbox("节点类型", [x["label"] for x in view["labels"] if x["count"]], key="gx_schema_label")
            st.dataframe([{"字段": r["field"], "已填写": r["filled"], "占比": r["share"]}
                          for r in view["completeness"][label]], hide_index=True, width="stretch",
                         column_config={"占比": st.column_config.ProgressColumn("占比", min_value=0, max_value=1,
                                                                              format="percent")})
            st.caption("占比低的字段说明上传的表格里这一列多数没有填写，可据此补全数据后重新构建")
