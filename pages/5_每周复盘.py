"""每周复盘 (reviewers, managers, administrators): the week's bad-case queue — open a case
(question, answer, citations, trace, feedback), classify it, write the expected answer,
assign it, set its status, turn it into a golden case; bulk actions for the random sample;
the weekly summary with its 12-week trend, exported as Excel or Markdown. Everything goes
through core.services.review (the queue), review_golden and review_report."""

import streamlit as st

from components.notice import flash

from components.pdf_view import render_preview
from components.review_view import count_chart, render_case, source_text, trend_chart
from core.errors import AppError
from core.services import review, review_golden, review_report
from core.services.ask_docs import citation_preview

principal = st.session_state["principal"]
st.title("每周复盘")

try:
    review.require_reviewer(principal)
except AppError as exc:
    st.error(exc.user_message)
    st.stop()

weeks = review.weeks_back(review.week_of(), 12)[::-1]
week = st.selectbox("周（北京时间，周一至周日）", weeks, index=0, key="rv_week")
queue_tab, summary_tab = st.tabs([":material/checklist: 复盘队列", ":material/insights: 本周汇总"])

with queue_tab:
    c1, c2, c3 = st.columns(3)
    source = c1.selectbox("来源", ["", *review.SOURCE_LABELS], format_func=lambda k: review.SOURCE_LABELS.get(k, "全部来源"))
    status = c2.selectbox("状态", ["", *review.STATUS_LABELS], format_func=lambda k: review.STATUS_LABELS.get(k, "全部状态"))
    category = c3.selectbox("分类", ["", "unclassified", *review.CATEGORY_LABELS],
                            format_func=lambda k: {"": "全部分类", "unclassified": "未分类"}.get(k) or review.CATEGORY_LABELS[k])
    try:
        queue = review.week_queue(principal, week, source=source or None, status=status or None,
                                  category=category or None)
    except AppError as exc:
        st.error(exc.user_message)
        st.stop()
    cases = queue["cases"]
    if not queue["counts"]["total"]:
        st.info("这一周还没有需要复盘的问答。用户在问答页点 👎、出现拒答、引用核验未通过、模型故障或在确认步骤离开时，"
                "问答会自动进入这里，每周还会随机抽取 50 个已回答的问题。可以在上方换一周查看。", icon=":material/inbox:")
    elif not cases:
        st.info("没有符合筛选条件的用例，可以放宽来源、状态或分类筛选。", icon=":material/filter_alt_off:")
    else:
        st.caption(f"本周共 {queue['counts']['total']} 个用例，当前显示 {len(cases)} 个。")
        st.dataframe([{"编号": c["id"], "来源": source_text(c["sources"], review.SOURCE_LABELS),
                       "类型": review.KIND_LABELS.get(c["kind"], ""), "问题": c["question"], "提问人": c["user"],
                       "租户": c["tenant"] or "", "分类": review.CATEGORY_LABELS.get(c["category"] or "", "未分类"),
                       "状态": review.STATUS_LABELS.get(c["status"], c["status"]), "负责人": c["assignee"],
                       "已转评测": "是" if c["golden_id"] else ""} for c in cases],
                     hide_index=True, width="stretch")

        with st.expander(f"批量操作（当前筛选出的 {len(cases)} 个用例，如整批抽样标记为无问题）", icon=":material/done_all:"):
            with st.form("rv_bulk"):
                b1, b2 = st.columns(2)
                bulk_cat = b1.selectbox("设为分类", ["", *review.CATEGORY_LABELS],
                                        format_func=lambda k: review.CATEGORY_LABELS.get(k, "不改分类"))
                bulk_status = b2.selectbox("设为状态", ["", *review.STATUS_LABELS],
                                           format_func=lambda k: review.STATUS_LABELS.get(k, "不改状态"))
                if st.form_submit_button("批量应用", icon=":material/done_all:"):
                    try:
                        n = review.bulk_update(principal, [c["id"] for c in cases], category=bulk_cat or None,
                                               status=bulk_status or None)
                        flash(f"已更新 {n} 个用例")
                        st.rerun()
                    except AppError as exc:
                        st.error(exc.user_message)

        picked = st.selectbox("打开用例", [c["id"] for c in cases], key="rv_case",
                              format_func=lambda i: next(f"#{c['id']} {c['question'][:40]}" for c in cases if c["id"] == i))
        try:
            case = review.get_case(principal, picked)
        except AppError as exc:
            st.error(exc.user_message)
            st.stop()
        left, right = st.columns([3, 2])
        with left, st.container(border=True):
            clicked = render_case(case, review.SOURCE_LABELS, key=f"rv{case['id']}")
            if clicked is not None:
                st.session_state["rv_preview"] = clicked
        with right:
            with st.form(f"rv_classify_{case['id']}"):
                st.markdown("**分类与处理**")
                cats = list(review.CATEGORY_LABELS)
                cat = st.selectbox("问题分类", cats, format_func=review.CATEGORY_LABELS.get,
                                   index=cats.index(case["category"]) if case["category"] in cats else 0)
                expected = st.text_area("期望答案（每行一个要点，评测时逐条核对）", value=case["expected"])
                evidence = st.text_area("答案所在的文档或表格行（每行一个，如文件名或“模板 · 文件 · 行号”）",
                                        value=case["evidence"])
                people = ["", *review.assignees(principal)]
                assignee = st.selectbox("指派给", people, format_func=lambda u: u or "（暂不指派）",
                                        index=people.index(case["assignee"]) if case["assignee"] in people else 0)
                stats = list(review.STATUS_LABELS)
                new_status = st.selectbox("状态", stats, format_func=review.STATUS_LABELS.get,
                                          index=stats.index(case["status"]) if case["status"] in stats else 0)
                if st.form_submit_button("保存", type="primary", icon=":material/save:"):
                    try:
                        review.classify(principal, case["id"], category=cat, expected=expected, evidence=evidence,
                                        status=new_status if new_status != case["status"] else None, assignee=assignee)
                        flash("已保存分类与处理信息")
                        st.rerun()
                    except AppError as exc:
                        st.error(exc.user_message)
            with st.form(f"rv_golden_{case['id']}"):
                st.markdown("**加入评测集**")
                if case["golden_set"]:
                    st.caption(f"已在评测集“{case['golden_set']}”中，再次加入会更新该用例。")
                set_name = st.text_input("评测集名称", value=case["golden_set"] or "weekly")
                refusal = st.checkbox("这个问题应当拒答", value=bool(case["refused"] and not case["expected"]))
                if st.form_submit_button("转为评测用例", icon=":material/playlist_add:"):
                    try:
                        res = review_golden.to_golden(principal, case["id"], set_name, expected=expected or None,
                                                      expect_refusal=refusal)
                        st.success(f"已加入评测集“{res['set']}”，下次运行该评测集时会包含这个用例。", icon=":material/check:")
                    except AppError as exc:
                        st.error(exc.user_message)

        preview = st.session_state.get("rv_preview")
        if preview:
            with st.sidebar:
                st.subheader(f"引用 [{preview['n']}] 原文")
                try:
                    render_preview(citation_preview(preview, principal))
                except AppError as exc:
                    st.error(exc.user_message)
                if st.button("关闭原文", width="stretch"):
                    st.session_state.pop("rv_preview")
                    st.rerun()

with summary_tab:
    try:
        s = review_report.week_summary(principal, week)
    except AppError as exc:
        st.error(exc.user_message)
        st.stop()
    m = st.columns(5)
    m[0].metric("提问数", s["questions"])
    m[1].metric("拒答率", "—" if s["refusal_rate"] is None else f"{s['refusal_rate']:.1%}")
    m[2].metric("👍 / 👎", f"{s['thumbs_up']} / {s['thumbs_down']}")
    m[3].metric("👍 占比", "—" if s["up_ratio"] is None else f"{s['up_ratio']:.0%}")
    m[4].metric("复盘用例", s["cases"])
    if not s["questions"] and not s["cases"]:
        st.info("这一周还没有问答记录。用户在政策问答、图谱问答页提问后，这里会显示统计。", icon=":material/insights:")
    st.plotly_chart(trend_chart(s["trend"]), width="stretch")
    c1, c2 = st.columns(2)
    if s["by_category"]:
        c1.plotly_chart(count_chart(s["by_category"], "按分类"), width="stretch")
    if s["by_status"]:
        c2.plotly_chart(count_chart(s["by_status"], "按状态"), width="stretch")
    c1, c2 = st.columns(2)
    if s["top_documents"]:
        c1.markdown("**涉及最多的文档**")
        c1.dataframe([{"文档": d["name"], "次数": d["count"]} for d in s["top_documents"]], hide_index=True)
    if s["top_intents"]:
        c2.markdown("**涉及最多的图谱问题类型**")
        c2.dataframe([{"类型": d["name"], "次数": d["count"]} for d in s["top_intents"]], hide_index=True)
    d1, d2 = st.columns(2)
    if d1.button("导出 Excel", icon=":material/download:"):
        st.session_state["rv_xlsx"] = review_report.export_excel(principal, week)
        st.toast("已生成 Excel，点击下载", icon=":material/check:")
    if st.session_state.get("rv_xlsx"):
        d1.download_button("下载 每周复盘.xlsx", st.session_state.pop("rv_xlsx"), file_name=f"每周复盘-{week}.xlsx",
                           mime="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    if d2.button("导出 Markdown", icon=":material/description:"):
        st.session_state["rv_md"] = review_report.export_markdown(principal, week)
        st.toast("已生成 Markdown，点击下载", icon=":material/check:")
    if st.session_state.get("rv_md"):
        d2.download_button("下载 每周复盘.md", st.session_state.pop("rv_md"), file_name=f"每周复盘-{week}.md",
                           mime="text/markdown")
