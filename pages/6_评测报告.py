"""评测报告 (reviewers, managers, administrators): run a golden set with a progress bar
(cancellable), read a run against the pinned baseline, the trend across runs, the breakdown by
category / tenant / intent, the per-case table with the trace, the cases that flipped between
two runs; manage golden sets (import / export JSONL, edit a case). Everything goes through
core.services.eval."""

import streamlit as st

from components.notice import flash
from core.config import get_settings

from components.review_view import (
    breakdown_chart, headline_chart, render_eval_case, run_trend_chart,
)
from core.errors import AppError
from core.services import eval as ev
from core.services.review import require_reviewer

principal = st.session_state["principal"]
st.title("评测报告")

try:
    require_reviewer(principal)
except AppError as exc:
    st.error(exc.user_message)
    st.stop()

sets = ev.golden_sets(principal)
names = [s["name"] for s in sets]
set_name = st.selectbox("评测集", names, key="ev_set", format_func=lambda n: next(
    f"{s['name']}（{'内置' if s['builtin'] else '工作区'}，{s['cases']} 个用例）" for s in sets if s["name"] == n))
run_tab, sets_tab = st.tabs([":material/monitoring: 运行与报告", ":material/list_alt: 评测集管理"])

# the sets tab first: the report tab stops the script when the set has no runs yet
with sets_tab:
    st.markdown("**导入评测集（JSONL，每行一个用例）**")
    with st.form("ev_import"):
        target = st.text_input("导入到评测集", value="weekly")
        uploaded = st.file_uploader("选择 JSONL 文件", type=["jsonl", "json", "txt"],
                                    max_upload_size=int(get_settings().max_upload_mb))
        replace = st.checkbox("替换该评测集的全部用例（默认追加，编号相同的用例会被更新）")
        if st.form_submit_button("导入", icon=":material/upload:"):
            if uploaded is None:
                st.error("请先选择要导入的文件")
            else:
                try:
                    res = ev.import_set(principal, target, uploaded.getvalue().decode("utf-8", "replace"), replace=replace)
                    st.success(f"已导入 {res['imported']} 个用例，评测集“{res['set']}”现有 {res['cases']} 个用例。",
                               icon=":material/check:")
                except AppError as exc:
                    st.error(exc.user_message)
    if names:
        st.download_button(f"导出“{set_name}”为 JSONL", ev.export_set(principal, set_name), file_name=f"{set_name}.jsonl",
                           mime="application/jsonl", icon=":material/download:")
        records = ev.set_records(principal, set_name)
        st.markdown("**编辑用例**（修改内置评测集时会先复制到工作区，内置文件不变）")
        ids = [r.get("id") for r in records]
        rid = st.selectbox("选择用例", ids, key="ev_edit",
                           format_func=lambda i: next(f"{i} · {str(r.get('question'))[:40]}" for r in records if r.get("id") == i))
        rec = next(r for r in records if r.get("id") == rid)
        with st.form(f"ev_edit_{set_name}_{rid}"):
            q = st.text_area("问题", value=rec.get("question", ""))
            user = st.text_input("提问用户（按该用户的权限运行）", value=rec.get("user") or "")
            facts = st.text_area("答案应包含（每行一个要点）", value="\n".join(rec.get("expect_answer_contains") or []))
            files = st.text_area("应引用的文件（每行一个，政策问答）", value="\n".join(rec.get("expect_files") or []))
            refusal = st.checkbox("应当拒答", value=bool(rec.get("expect_refusal")))
            if st.form_submit_button("保存用例", icon=":material/save:"):
                new = {**rec, "question": q.strip(), "user": user.strip() or None,
                       "expect_answer_contains": [x.strip() for x in facts.splitlines() if x.strip()],
                       "expect_files": [x.strip() for x in files.splitlines() if x.strip()], "expect_refusal": refusal}
                try:
                    ev.save_case(principal, set_name, new)
                    st.toast("用例已保存", icon=":material/check:")
                except AppError as exc:
                    st.error(exc.user_message)

with run_tab:
    running = st.session_state.get("ev_running")
    if running:
        @st.fragment(run_every=1.0)
        def _progress() -> None:
            p = ev.run_progress(principal, running)
            if p["status"] != "running":
                st.session_state.pop("ev_running", None)
                label = ev.STATUS_LABELS.get(p["status"], p["status"])
                flash(f"评测运行已{label}（{p['done']}/{p['total']}）")
                st.rerun(scope="app")
            eta = f"，预计还需 {p['eta_s']:.0f} 秒" if p["eta_s"] is not None else ""
            st.progress(p["done"] / max(p["total"], 1), text=f"已完成 {p['done']}/{p['total']} 个用例{eta}")
            if st.button("取消运行", icon=":material/stop_circle:"):
                ev.cancel_run(principal, running)
                st.toast("已请求取消，当前用例完成后停止", icon=":material/check:")
        _progress()
    else:
        with st.expander("运行配置（可选）", icon=":material/tune:"):
            k = st.number_input("每次检索最多返回的片段数（留 0 用默认 16）", min_value=0, max_value=50, value=0)
            judge = ev.judge_available() and st.checkbox(
                "另请大模型给每个用例的答案打分（大模型评分，单列展示，不影响其他指标；较慢并消耗 Token）")
        if st.button("运行评测", type="primary", icon=":material/play_arrow:", disabled=not names):
            try:
                st.session_state["ev_running"] = ev.start_run(principal, set_name, retrieval_k=int(k) or None,
                                                              judge=bool(judge))
                flash("评测已开始运行")
                st.rerun()
            except AppError as exc:
                st.error(exc.user_message)

    runs = [r for r in ev.list_runs(principal, set_name) if r["status"] in ("done", "cancelled")]
    if not runs:
        st.info("该评测集还没有运行记录。点击“运行评测”开始第一次运行；运行结束后这里会显示报告。", icon=":material/info:")
        st.stop()
    run_label = lambda r: (f"第 {r['id']} 次 · {r['at'][:16].replace('T', ' ')} · "  # noqa: E731
                           f"{ev.STATUS_LABELS.get(r['status'], r['status'])}"
                           + (" · 基线" if r["id"] == ev.baseline_of(set_name, r["tenant"]) else ""))
    by_id = {r["id"]: r for r in runs}
    run_id = st.selectbox("查看运行", list(by_id), format_func=lambda i: run_label(by_id[i]), key="ev_run")
    run = ev.get_run(principal, run_id)
    cmp = ev.compare(principal, run_id)

    if cmp["baseline"] is None:
        st.info("该评测集还没有固定基线。确认这次运行可以作为对比标准后，点击“设为基线”。", icon=":material/push_pin:")
    elif cmp["regressions"]:
        st.error("相对基线退步（超过容差 {:.0%}）：{}".format(
            cmp["tolerance"], "、".join(r["label"] for r in cmp["rows"] if r["regressed"])), icon=":material/trending_down:")
    elif cmp["baseline"] != run_id:
        st.success(f"与基线（第 {cmp['baseline']} 次）相比没有指标退步。", icon=":material/verified:")
    if run["status"] == "cancelled":
        st.warning(f"这次运行被取消，只完成了 {len(run['per_case'])} 个用例。", icon=":material/stop_circle:")
    elif st.button("设为基线", icon=":material/push_pin:", disabled=cmp["baseline"] == run_id):
        try:
            ev.pin_baseline(principal, set_name, run_id)
            flash(f"已把第 {run_id} 次运行设为“{set_name}”的基线")
            st.rerun()
        except AppError as exc:
            st.error(exc.user_message)

    if cmp["rows"]:
        st.plotly_chart(headline_chart(cmp["rows"]), width="stretch")
        st.dataframe([{"指标": r["label"], "本次": r["value"], "基线": r["baseline"],
                       "变化": r["delta"], "退步": "是" if r["regressed"] else ""} for r in cmp["rows"]],
                     hide_index=True, width="stretch")
    m = run["metrics"]
    cols = st.columns(4)
    cols[0].metric("用例数", m.get("cases", 0))
    cols[1].metric("出错", m.get("errors", 0))
    for i, (kind, title) in enumerate((("docs", "政策问答"), ("kg", "图谱问答"))):
        if kind in m:
            cols[2 + i].metric(f"{title} 时延 p50 / p95（毫秒）",
                               f"{m[kind].get('latency_p50_ms') or 0:.0f} / {m[kind].get('latency_p95_ms') or 0:.0f}")
    for kind, title in (("docs", "政策问答"), ("kg", "图谱问答")):
        if kind in m:
            judged = ev.judge_summary(m[kind])
            st.caption(f"{title}：Token 用量 {m[kind].get('tokens') or 0}（离线规则模式为 0）"
                       + (f"；{judged}，由大模型对照期望要点打分，仅供参考，不影响其他指标" if judged else ""))
    with st.expander("运行配置", icon=":material/settings:"):
        st.dataframe(ev.config_rows(run), hide_index=True, width="stretch")

    points = ev.trend(principal, set_name)
    if len(points) > 1:
        st.subheader("历次运行趋势")
        st.plotly_chart(run_trend_chart(points, [r["label"] for r in cmp["rows"]]), width="stretch")

    st.subheader("分组通过率")
    by = st.radio("分组", ["category", "tenant", "intent", "kind"], horizontal=True,
                  format_func={"category": "类别", "tenant": "租户", "intent": "意图", "kind": "问答类型"}.get)
    st.plotly_chart(breakdown_chart(ev.breakdown(principal, run_id, by)), width="stretch")

    st.subheader("逐例结果")
    only_failed = st.toggle("只看未通过", value=True)
    per_case = [c for c in run["per_case"] if not (only_failed and c.get("ok"))]
    if not per_case:
        st.success("这次运行的用例全部通过。", icon=":material/check_circle:")
    else:
        st.dataframe([{"编号": c["id"], "问题": c["question"], "结果": "通过" if c.get("ok") else "未通过",
                       "未通过项": ev.failed_checks(c), "类别": c.get("category"), "时延（毫秒）": c.get("latency_ms"),
                       **({"大模型评分": "未评分" if c["judge_score"] is None else f"{c['judge_score']:.0%}"}
                          if "judge_score" in c else {})}
                      for c in per_case], hide_index=True, width="stretch")
        opened = st.selectbox("查看用例详情", [c["id"] for c in per_case], key="ev_case",
                              format_func=lambda i: next(f"{c['id']} · {c['question'][:40]}" for c in per_case if c["id"] == i))
        with st.container(border=True):
            case = next(c for c in per_case if c["id"] == opened)
            render_eval_case(case, ev.failed_checks(case))

    others = [r for r in runs if r["id"] != run_id and r["status"] == "done"]
    if others:
        st.subheader("两次运行之间结果翻转的用例")
        other = st.selectbox("对比的运行", [r["id"] for r in others], format_func=lambda i: run_label(by_id[i]))
        a, b = (other, run_id) if other < run_id else (run_id, other)
        flips = ev.flipped(principal, a, b)
        if not flips:
            st.caption("两次运行的通过情况完全一致。")
        else:
            st.dataframe([{"编号": f["id"], "问题": f["question"], f"第 {a} 次": "通过" if f["before"] else "未通过",
                           f"第 {b} 次": "通过" if f["after"] else "未通过"} for f in flips],
                         hide_index=True, width="stretch")
