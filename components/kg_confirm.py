"""Human-in-the-loop widgets of the 图谱问答 page, in plain Chinese: the slot card (what was
understood), the plan card (numbered steps from core's describer, with the editable parts —
projects, month range, thresholds, grouping — as widgets) and the scope buttons. Each card ends
in one row: the primary button | 修改 (free text, in a popover) | 取消. Each returns the user's
reply (“确认”, “修改：…”, “取消”, ``{"plan": [...]}`` from the plan form via
core.services.ask_kg.edited_plan), or ``None`` while nothing was clicked. Text from the graph
(project and people names in the lines) is escaped: it renders as text, never as markdown."""

from __future__ import annotations

import streamlit as st

from components.chat import escape_markdown
from core.services.ask_kg import edited_plan

COMPARATORS = {">": "超过", ">=": "不少于", "<": "低于", "<=": "不超过", "==": "等于", "!=": "不等于"}
GROUPINGS = {"": "不分组", "项目编号": "按项目", "片区编号": "按片区", "年月": "按月份", "工号": "按人员", "岗位名称": "按岗位"}


def _lines(text: str) -> list[str]:
    """The bullet lines of a confirmation text, without its greeting and reply hint."""
    out = []
    for ln in (text or "").splitlines():
        ln = ln.strip()
        if not ln or ln.startswith("我理解您要查询") or ln.startswith("查询计划") or ln.startswith("请回复"):
            continue
        out.append(ln.lstrip("· ").strip())
    return out


def _action_row(key: str, ok_label: str, ok_icon: str, placeholder: str) -> str | None:
    """The card's one row of actions: the primary button | 修改 (a free-text change in a
    popover, understood afresh by the agent) | 取消. Returns "ok", "修改：…", "取消" or None."""
    action = None
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        if st.button(ok_label, key=f"{key}-ok", type="primary", icon=ok_icon):
            action = "ok"
        with st.popover("修改", icon=":material/edit:", key=f"{key}-edit-pop"):
            edit = st.text_input("换一种说法修改", key=f"{key}-edit", placeholder=placeholder)
            if st.button("按这个修改", key=f"{key}-mod", type="primary", width="stretch") and edit.strip():
                action = "修改：" + edit.strip()
        if st.button("取消", key=f"{key}-cancel", icon=":material/close:"):
            action = "取消"
    return action


def render_slot_card(need: dict, *, key: str):
    with st.container(border=True):
        st.markdown("**我理解您要查询：**")
        st.markdown("\n".join(f"- {escape_markdown(ln)}" for ln in _lines(need.get("text", ""))))
        action = _action_row(key, "对，继续", ":material/check_circle:", "例如：改成4月 / 换成青浦-体育馆 / 只看保安")
    return "确认" if action == "ok" else action


def plan_steps_markdown(steps: list[str]) -> str:
    return "  \n".join(escape_markdown(s) for s in steps)


def render_plan_card(need: dict, overview: dict, *, key: str):
    plan = need.get("plan") or []
    form = dict(need.get("form") or {})
    with st.container(border=True):
        st.markdown("**将按以下步骤查询：**")
        st.markdown(plan_steps_markdown(need.get("steps") or []))
        with st.expander("调整查询条件", icon=":material/tune:"):
            form = _form_widgets(form, overview, key=key)
        action = _action_row(key, "确认并查询", ":material/play_arrow:", "例如：去掉第2步 / 改成1-3月 / 按片区统计")
    if action != "ok":
        return action
    reply = edited_plan(plan, form)
    return "确认" if reply.get("confirm") else reply


def _form_widgets(form: dict, overview: dict, *, key: str) -> dict:
    out = dict(form)
    names = {p["key"]: p["name"] for p in overview.get("projects") or []}
    if form.get("projects") is not None:
        options = list(dict.fromkeys([*form["projects"], *names]))
        out["projects"] = st.multiselect("项目（不选 = 全部项目）", options, default=form["projects"],
                                         format_func=lambda k: names.get(k, k), key=f"{key}-projects",
                                         placeholder="全部项目")
    months = list(overview.get("months") or [])
    if form.get("months") is not None and months:
        current = [m for m in form["months"] if m in months]
        if current or not form["months"]:
            lo, hi = (current[0], current[-1]) if current else (months[0], months[-1])
            label = {m: f"{m[:4]}年{int(m[5:7])}月" for m in months}
            start, end = st.select_slider("月份范围", months, value=(lo, hi), format_func=label.get,
                                          key=f"{key}-months")
            picked = months[months.index(start):months.index(end) + 1]
            out["months"] = picked if (form["months"] or picked != months) else []
    conds = []
    for i, c in enumerate(form.get("conditions") or []):
        c1, c2, c3 = st.columns([2, 2, 2], vertical_alignment="bottom")
        c1.markdown(f"条件：**{c['field']}**")
        ops = list(COMPARATORS)
        op = c2.selectbox("比较", ops, index=ops.index(c["op"]) if c["op"] in ops else 0,
                          format_func=COMPARATORS.get, key=f"{key}-cond-op-{i}", label_visibility="collapsed")
        value = c3.number_input("数值", value=float(c["value"]), key=f"{key}-cond-v-{i}",
                                label_visibility="collapsed")
        conds.append({**c, "op": op, "value": float(value)})
    out["conditions"] = conds
    if form.get("group_by") is not None:
        opts = list(GROUPINGS) if form["group_by"] in GROUPINGS else [form["group_by"], *GROUPINGS]
        out["group_by"] = st.selectbox("分组", opts, index=opts.index(form["group_by"]),
                                       format_func=lambda g: GROUPINGS.get(g, g), key=f"{key}-group")
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


def render_need_confirm(need: dict, overview: dict, *, key: str):
    kind = need.get("kind")
    if kind == "slots":
        return render_slot_card(need, key=key)
    if kind == "plan":
        return render_plan_card(need, overview, key=key)
    if kind == "scope":
        return render_scope_buttons(need, key=key)
    st.info(need.get("text", ""))
    return None


def render_past_confirm(need: dict) -> None:
    """A confirmation already answered, as it was shown (plain lines, no widgets)."""
    if need.get("kind") == "plan" and need.get("steps"):
        st.caption("查询步骤：  \n" + plan_steps_markdown(need["steps"]))
    else:
        st.caption("  \n".join(escape_markdown(ln) for ln in _lines(need.get("text", ""))))


def render_confirmed_plan(steps: list[str]) -> None:
    """Under an answer: the plan it ran, collapsed to one line (the steps were on the card)."""
    if steps:
        with st.expander(f"已按确认的 {len(steps)} 步查询", icon=":material/checklist:"):
            st.markdown(plan_steps_markdown(steps))
