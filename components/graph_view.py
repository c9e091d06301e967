"""Reusable drawing of explorer results with streamlit-agraph: the graph itself (colours and
icons from core.graph.schema via the service's node dicts), the legend, a node's or an edge's
detail and the schema view. No queries here: callers pass what core.services.explore returned."""

from __future__ import annotations

import html

import streamlit as st

from components.provenance import render_source_row


def _short(text: str, n: int = 14) -> str:
    text = str(text or "")
    return text if len(text) <= n else text[: n - 1] + "…"


def render_graph(result: dict, *, selected: str | None = None, height: int = 560) -> str | None:
    """Draw ``{"nodes", "edges"}``; returns the id of the node the user clicked (or None)."""
    from streamlit_agraph import Config, Edge, Node, agraph

    center = result.get("center")
    nodes = []
    for n in result.get("nodes") or []:
        big = n["id"] in (center, selected)
        title = f"{n['icon']} {n['label']}：{n['name']}" + ("（无权查看内容）" if n.get("locked") else "")
        nodes.append(Node(id=n["id"], label=f"{n['icon']} {_short(n['name'])}", title=html.escape(title),
                          color="#bbbbbb" if n.get("locked") else n["color"],
                          shape="box" if n.get("bundle") else "dot", size=30 if big else 18,
                          borderWidth=4 if n["id"] == selected else 1))
    edges = [Edge(source=e["source"], target=e["target"], label=e["type"] + (f" ×{e['properties']['条数']}"
                                                                            if e.get("bundle") else ""),
                  color="#999999", title=html.escape(e["type"])) for e in result.get("edges") or []]
    config = Config(width=900, height=height, directed=True, physics=True, hierarchical=False)
    config.width = "100%"
    return agraph(nodes=nodes, edges=edges, config=config)


def render_legend(items: list[dict], present: set[str] | None = None) -> None:
    spans = [f"<span style='color:{i['color']}'>●</span> {i['icon']} {html.escape(i['label'])}"
             for i in items if present is None or i["label"] in present]
    if spans:
        st.markdown("图例：" + "　".join(spans), unsafe_allow_html=True)


def _props_table(props: dict) -> None:
    rows = [{"字段": k, "值": "" if v is None else str(v)} for k, v in props.items()]
    if rows:
        st.dataframe(rows, hide_index=True, width="stretch")
    else:
        st.caption("没有可显示的属性")


def _provenance_line(prov: list[dict]) -> None:
    for p in prov:
        st.caption(f"来源：{p['template']} · {p['file']} · 第 {p['row']} 行")


def render_node_detail(detail: dict, *, show_source: bool) -> None:
    st.markdown(f"#### {detail['icon']} {detail['name']}")
    st.caption(f"类型：{detail['label']}")
    if detail.get("locked"):
        st.info("按您的角色权限，这类记录只显示名称，不显示内容。需要时请联系管理员开通权限。")
        return
    _props_table(detail.get("properties") or {})
    if detail.get("masked_fields"):
        st.caption(f"按您的权限已隐藏：{'、'.join(detail['masked_fields'])}")
    if detail.get("relations"):
        st.caption("关系：" + "；".join(f"{r['type']} → {r['label']} {r['count']} 条" for r in detail["relations"]))
    _provenance_line(detail.get("provenance") or [])
    if show_source:
        if detail.get("source"):
            render_source_row(detail["source"])
        elif detail.get("source_note"):
            st.caption(detail["source_note"])


def render_edge_detail(detail: dict) -> None:
    st.markdown(f"**{detail['source_name']} —{detail['type']}→ {detail['target_name']}**")
    if detail.get("properties"):
        _props_table(detail["properties"])
    _provenance_line(detail.get("provenance") or [])
    if detail.get("source_row"):
        render_source_row(detail["source_row"])
    elif detail.get("source_note"):
        st.caption(detail["source_note"])


def render_schema(view: dict) -> None:
    """The meta graph (labels and relationship types with counts) and property completeness."""
    import plotly.express as px
    from streamlit_agraph import Config, Edge, Node, agraph

    labels = [x for x in view["labels"] if x["count"]]
    nodes = [Node(id=x["label"], label=f"{x['icon']} {x['label']}（{x['count']}）", color=x["color"], size=20,
                  title=html.escape(x["description"])) for x in labels]
    edges = [Edge(source=e["source"], target=e["target"], label=f"{e['type']}（{e['count']}）", color="#999999")
             for e in view["edges"]]
    config = Config(width=900, height=480, directed=True, physics=True)
    config.width = "100%"
    agraph(nodes=nodes, edges=edges, config=config)
    fig = px.bar(x=[x["label"] for x in labels], y=[x["count"] for x in labels],
                 color=[x["label"] for x in labels], color_discrete_map={x["label"]: x["color"] for x in labels},
                 labels={"x": "节点类型", "y": "数量"})
    fig.update_layout(showlegend=False, height=300, margin=dict(l=10, r=10, t=10, b=10))
    st.plotly_chart(fig, width="stretch")
    st.dataframe([{"关系": e["type"], "起点": e["source"], "终点": e["target"], "数量": e["count"]} for e in view["edges"]],
                 hide_index=True, width="stretch")
