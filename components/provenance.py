"""Provenance of a KG answer: a table of (template, file, row); selecting a row returns it so
the page can show the source spreadsheet row. Plus the debug expander (Cypher, parameters,
rows per step) and the result table."""

from __future__ import annotations

import json

import streamlit as st


def render_provenance(provenance: list[dict], *, key: str) -> dict | None:
    if not provenance:
        return None
    st.caption(f"溯源（{len(provenance)} 行，点击一行查看原始表格行）")
    table = [{"模板": p["template"], "文件": p["file"], "行号": p["row"]} for p in provenance]
    event = st.dataframe(table, key=f"{key}-prov", on_select="rerun", selection_mode="single-row",
                         hide_index=True, width="stretch")
    rows = getattr(getattr(event, "selection", None), "rows", None) or []
    return provenance[rows[0]] if rows else None


def render_source_row(src: dict) -> None:
    st.markdown(f"**{src['template']} · {src['file']} · 第 {src['row']} 行（工作表“{src['sheet']}”）**")
    st.dataframe([{"列": k, "值": "" if v is None else str(v)} for k, v in src["values"].items()],
                 hide_index=True, width="stretch")
    if src.get("masked_fields"):
        st.caption(f"按您的权限已隐藏：{'、'.join(src['masked_fields'])}")


def render_rows(rows: list[dict], *, key: str) -> None:
    if rows:
        with st.expander(f"结果表（{len(rows)} 行）"):
            st.dataframe(rows, key=f"{key}-rows", hide_index=True, width="stretch")


def render_kg_overview(overview: dict) -> None:
    """The empty state: what the asker's graph holds (size by label, data months)."""
    nodes = overview.get("nodes") or {}
    if not nodes:
        st.info("您所在单位还没有业务图谱数据。请管理员在“数据导入与建图”页面导入表格并建图后再来提问。",
                icon=":material/info:")
        return
    months = overview.get("months") or []
    span = f"{months[0][:4]}年{int(months[0][5:7])}月至{months[-1][:4]}年{int(months[-1][5:7])}月" if months else "无"
    with st.container(border=True):
        st.markdown(f"**已载入的业务图谱**（{sum(nodes.values())} 个实体、{overview.get('edges', 0)} 条关系；"
                    f"数据月份：{span}）")
        st.caption(" · ".join(f"{k} {v}" for k, v in sorted(nodes.items(), key=lambda kv: -kv[1])))


def render_debug(result: dict, *, key: str) -> None:
    """Cypher, parameters, the plan as JSON and the trace: the page shows it to admins only."""
    with st.expander("调试信息（仅管理员可见）：每步的 Cypher、参数与行数", icon=":material/code:"):
        st.markdown(f"耗时 {result.get('latency_ms')} ms · 会话 `{result.get('thread')}`")
        st.json(result.get("slots") or {}, expanded=False)
        plan = (result.get("need_confirm") or {}).get("plan") or result.get("plan")
        if plan:
            st.caption("查询计划（JSON）")
            st.json(plan, expanded=False)
        for q in result.get("queries") or []:
            st.markdown(f"**第 {q['step']} 步 · {q['tool']} · {q['rows']} 行**"
                        + (f" · 丢弃参数 {q['dropped_params']}" if q.get("dropped_params") else "")
                        + (f" · 错误：{q['error']}" if q.get("error") else ""))
            if q.get("cypher"):
                st.code(q["cypher"], language="cypher")
            st.code(json.dumps(q.get("params"), ensure_ascii=False, default=str), language="json")
        for t in result.get("trace") or []:
            st.caption(json.dumps(t, ensure_ascii=False, default=str)[:300])
