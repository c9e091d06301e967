"""Human-in-the-loop widgets of the 图谱问答 page: the slot confirmation card, the editable
plan table and the scope buttons. Each returns the user's reply (a string such as "确认" /
"修改：改成4月", or ``{"plan": [...]}`` for an edited table), or ``None`` while nothing was clicked."""

from __future__ import annotations

import json

import streamlit as st


def render_slot_card(need: dict, *, key: str):
    with st.container(border=True):
        st.markdown("**请确认查询条件**")
        st.text(need.get("text", ""))
        c1, c2 = st.columns([1, 3])
        if c1.button("确认", key=f"{key}-ok", type="primary"):
            return "确认"
        edit = c2.text_input("修改意见", key=f"{key}-edit", placeholder="例如：改成4月 / 换成青浦-体育馆",
                             label_visibility="collapsed")
        if c2.button("修改", key=f"{key}-mod") and edit.strip():
            return "修改：" + edit.strip()
    return None


def render_plan_editor(need: dict, *, key: str):
    plan = need.get("plan") or []
    with st.container(border=True):
        st.markdown("**查询计划（可直接编辑参数或删除步骤）**")
        table = [{"步骤": s["id"], "工具": s["tool"], "参数": json.dumps(s["params"], ensure_ascii=False),
                  "依赖": ",".join(map(str, s.get("depends") or [])), "说明": s.get("note", "")} for s in plan]
        edited = st.data_editor(table, key=f"{key}-table", num_rows="dynamic", width="stretch",
                                column_config={"步骤": st.column_config.NumberColumn(disabled=True)})
        c1, c2, c3 = st.columns([1, 1, 3])
        if c1.button("确认", key=f"{key}-ok", type="primary"):
            changed = _rows_to_plan(edited)
            if changed is None:
                st.error("参数列必须是 JSON 对象，例如 {\"projects\": [\"XMSQ0102\"]}")
                return None
            original = [{"id": s["id"], "tool": s["tool"], "params": s["params"], "depends": s.get("depends") or []}
                        for s in plan]
            return "确认" if changed == original else {"plan": changed}
        text = c3.text_input("修改意见", key=f"{key}-edit", placeholder="例如：去掉第2步",
                             label_visibility="collapsed")
        if c2.button("修改", key=f"{key}-mod") and text.strip():
            return "修改：" + text.strip()
    return None


def _rows_to_plan(rows) -> list[dict] | None:
    out = []
    for i, r in enumerate(rows, 1):
        try:
            params = json.loads(r.get("参数") or "{}")
        except (TypeError, ValueError):
            return None
        if not isinstance(params, dict):
            return None
        deps = [int(x) for x in str(r.get("依赖") or "").replace("，", ",").split(",") if x.strip().isdigit()]
        out.append({"id": int(r.get("步骤") or i), "tool": str(r.get("工具") or "").strip(), "params": params,
                    "depends": deps})
    return out


def render_scope_buttons(need: dict, *, key: str):
    with st.container(border=True):
        st.markdown(f"**{need.get('text', '')}**")
        options = need.get("options") or []
        cols = st.columns(max(1, len(options)))
        for i, opt in enumerate(options):
            if cols[i].button(opt, key=f"{key}-scope-{i}"):
                return opt
    return None


def render_need_confirm(need: dict, *, key: str):
    kind = need.get("kind")
    if kind == "slots":
        return render_slot_card(need, key=key)
    if kind == "plan":
        return render_plan_editor(need, key=key)
    if kind == "scope":
        return render_scope_buttons(need, key=key)
    st.info(need.get("text", ""))
    return None
