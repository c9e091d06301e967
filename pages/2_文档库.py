"""文档库: upload policy documents and follow their review, the 待审核 queue (approve / reject
with a reason), metadata and status lifecycle, chunks with page previews. Everything goes
through core.services.ingest (permissions enforced there)."""

import pandas as pd
import streamlit as st

from components.ingest_progress import StageProgress
from components.notice import flash
from core.config import get_settings
from core.errors import AppError
from core.services import ingest

principal = st.session_state["principal"]
st.title("文档库")
KIND_LABELS = {"article": "条款", "prose": "正文", "table": "表格", "figure": "图片文字", "preamble": "文头"}

# ---- upload ------------------------------------------------------------------------------------
if principal.role.value in ("admin", "manager"):
    with st.expander("导入文档", expanded=False, icon=":material/upload_file:"):
        if not principal.is_admin:
            st.caption("部门经理导入的文档需管理员审核通过后才能被检索，可在下方“我的上传”查看进度。")
        with st.form("upload", clear_on_submit=True):
            files = st.file_uploader("选择 PDF / Word / Markdown / 文本文件（可多选）", type=["pdf", "docx", "md", "txt"],
                                     accept_multiple_files=True, max_upload_size=int(get_settings().max_upload_mb))
            c1, c2 = st.columns(2)
            tenant = c1.selectbox("租户", list(principal.tenants)) if principal.tenants \
                else c1.text_input("租户", value="demo")
            domain = c2.text_input("业务领域（可空）")
            submitted = st.form_submit_button("导入", type="primary", icon=":material/upload:")
        if submitted and not files:
            st.warning("请先选择要导入的文件。", icon=":material/warning:")
        if submitted and files:
            try:
                report = ingest.ingest_uploads([(f.name, f.getvalue()) for f in files], principal, tenant,
                                               domain or None, on_stage=StageProgress())
            except AppError as exc:
                st.error(exc.user_message, icon=":material/error:")
            else:
                for d in report["documents"]:
                    note = "（内容未变化）" if d["action"] == "unchanged" else ""
                    pending = "，待管理员审核后可检索" if d["review_state"] == "pending" else ""
                    ocr = f"，其中 {len(d.get('ocr_pages') or [])} 页经 OCR 识别" if d.get("ocr_pages") else ""
                    st.success(f"{d['file_name']}：{d['chunks']} 个片段{ocr}{note}{pending}",
                               icon=":material/check_circle:")
                    for w in d.get("warnings") or []:
                        st.warning(f"{d['file_name']}：{w}", icon=":material/warning:")
                for e in report["errors"]:
                    st.error(f"{e['file']}：{e['reason']}", icon=":material/error:")

    mine = ingest.my_uploads(principal)
    if mine and not principal.is_admin:
        st.subheader("我的上传")
        st.dataframe(pd.DataFrame([{"文件": m["file_name"], "租户": m["tenant"], "状态": m["state_label"],
                                    "驳回原因": m["reason"], "时间（UTC）": m["at"]} for m in mine]),
                     hide_index=True, width="stretch")

# ---- review queue (administrators) ---------------------------------------------------------------
if principal.is_admin:
    queue = ingest.review_queue(principal)
    label = f"待审核（{queue['count']}）"
    with st.expander(label, expanded=queue["count"] > 0, icon=":material/pending_actions:"):
        if not queue["pending"]:
            st.success("没有待审核的文档。", icon=":material/check_circle:")
        else:
            st.caption("按租户：" + "，".join(f"{t} {n} 篇" for t, n in sorted(queue["by_tenant"].items())))
        for d in queue["pending"]:
            with st.container(border=True):
                a, b, c = st.columns([5, 1.2, 1.2])
                a.markdown(f"**{d['file_name']}** · {d['title'] or '无标题'} · {d['doc_number'] or '无文号'}")
                a.caption(f"租户 {d['tenant']} · 上传者 {d['uploaded_by'] or '未知'} · {d['uploaded_at']}（UTC）")
                if b.button("审核通过", key=f"approve-{d['doc_id']}", type="primary", icon=":material/check_circle:"):
                    ingest.approve_document(principal, d["doc_id"])
                    flash(f"已审核通过：{d['file_name']}，现在可以被检索。")
                    st.rerun()
                if c.button("驳回", key=f"reject-{d['doc_id']}", icon=":material/block:"):
                    st.session_state["rejecting"] = d["doc_id"]
                if st.session_state.get("rejecting") == d["doc_id"]:
                    with st.form(f"reject-form-{d['doc_id']}"):
                        reason = st.text_area("驳回原因（上传者会看到）", max_chars=500)
                        r1, r2 = st.columns(2)
                        go = r1.form_submit_button("确认驳回", icon=":material/block:")
                        cancel = r2.form_submit_button("取消")
                    if cancel:
                        st.session_state.pop("rejecting", None)
                        st.rerun()
                    if go:
                        try:
                            ingest.reject_document(principal, d["doc_id"], reason)
                        except AppError as exc:
                            st.error(exc.user_message, icon=":material/error:")
                        else:
                            st.session_state.pop("rejecting", None)
                            flash(f"已驳回：{d['file_name']}（原因已记录，上传者可查看）", "info")
                            st.rerun()

# ---- list --------------------------------------------------------------------------------------
docs = ingest.list_documents(principal)
if not docs:
    st.info("还没有可查看的文档。" + ("可以在上方“导入文档”中上传，或在首页载入示例数据。" if principal.is_admin else ""),
            icon=":material/info:")
    st.stop()
st.subheader(f"全部文档（{len(docs)}）")
st.dataframe(pd.DataFrame([{"文件": d["file_name"], "标题": d["title"], "文号": d["doc_number"],
                            "发文机关": "、".join(d["authorities"]), "发布日期": d["publish_date"] or d["sign_date"],
                            "施行日期": d["effective_date"], "状态": d["status_label"],
                            "审核": d["review_label"],
                            "租户": d["tenant"], "片段": d["chunks"],
                            "注入风险": f"疑似 {len(d['flagged_chunks'])} 段" if d["flagged_chunks"] else ""}
                           for d in docs]),
             hide_index=True, width="stretch")

labels = {d["doc_id"]: f"{d['file_name']}（{d['doc_number'] or '无文号'}）" for d in docs}
doc_id = st.selectbox("选择文档", list(labels), format_func=labels.get)
detail = ingest.get_document(principal, doc_id)
meta = detail["meta"]
st.caption(f"状态：{meta['status_label']}{'（管理员设定）' if meta['status_override'] else ''} · "
           f"审核：{meta['review_label']} · 页数：{meta['pages']}")

# ---- metadata + lifecycle (admins) ---------------------------------------------------------------
if principal.is_admin:
    with st.form("meta"):
        c1, c2 = st.columns(2)
        values = {
            "title": c1.text_input("标题", meta["title"]),
            "doc_number": c2.text_input("文号", meta["doc_number"]),
            "authorities": c1.text_input("发文机关（顿号分隔）", "、".join(meta["authorities"])),
            "level": c2.text_input("层级", meta["level"]),
            "publish_date": c1.text_input("发布日期（YYYY-MM-DD）", meta["publish_date"]),
            "effective_date": c2.text_input("施行日期（YYYY-MM-DD）", meta["effective_date"]),
            "expiry_date": c1.text_input("有效期至（YYYY-MM-DD）", meta["expiry_date"]),
            "domain": c2.text_input("业务领域", meta["domain"]),
            "repeals": st.text_input("本文件废止的文件（文号或《标题》，顿号分隔）", "、".join(meta["repeals"])),
        }
        if st.form_submit_button("保存元数据", icon=":material/save:"):
            try:
                ingest.update_document(principal, doc_id, **values)
            except AppError as exc:
                st.error(exc.user_message, icon=":material/error:")
            else:
                flash(f"元数据已保存：{meta['file_name']}")
                st.rerun()

    st.markdown("**状态与审核**")
    cols = st.columns(6)
    actions = [
        ("审核通过", ":material/check_circle:", "primary", meta["review_state"] == "pending",
         lambda: ingest.approve_document(principal, doc_id), "已审核通过"),
        ("设为现行有效", ":material/verified:", "secondary", True,
         lambda: ingest.set_document_status(principal, doc_id, "in_effect"), "已设为现行有效"),
        ("设为草案", ":material/edit_note:", "secondary", True,
         lambda: ingest.set_document_status(principal, doc_id, "draft"), "已设为草案"),
        ("按日期自动判断", ":material/event_repeat:", "secondary", meta["status_override"],
         lambda: ingest.set_document_status(principal, doc_id, None), "状态改为按日期和废止关系自动判断"),
    ]
    for col, (label, icon, kind, enabled, run, done) in zip(cols, actions):
        if col.button(label, icon=icon, type=kind, disabled=not enabled, key=f"act-{label}"):
            run()
            flash(f"{done}：{meta['file_name']}")
            st.rerun()
    # destructive actions ask first
    if cols[4].button("设为已废止", icon=":material/do_not_disturb_on:", key="act-repeal"):
        st.session_state["confirm_doc_action"] = ("repeal", doc_id)
    if cols[5].button("删除文档", icon=":material/delete:", key="act-delete"):
        st.session_state["confirm_doc_action"] = ("delete", doc_id)
    pending_action = st.session_state.get("confirm_doc_action")
    if pending_action and pending_action[1] == doc_id:
        what = pending_action[0]
        with st.container(border=True):
            if what == "delete":
                st.warning(f"确定删除“{meta['file_name']}”及其全部片段？此操作不可撤销。", icon=":material/warning:")
            else:
                st.warning(f"确定把“{meta['file_name']}”设为已废止？窗口咨询将不再引用它。", icon=":material/warning:")
            k1, k2, _ = st.columns([1, 1, 4])
            if k1.button("确认删除" if what == "delete" else "确认废止", key="confirm-doc-action",
                         icon=":material/delete:" if what == "delete" else ":material/do_not_disturb_on:"):
                st.session_state.pop("confirm_doc_action", None)
                if what == "delete":
                    ingest.delete_document(principal, doc_id)
                    flash(f"已删除：{meta['file_name']}", "info")
                else:
                    ingest.set_document_status(principal, doc_id, "repealed")
                    flash(f"已设为已废止：{meta['file_name']}", "info")
                st.rerun()
            if k2.button("取消", key="cancel-doc-action"):
                st.session_state.pop("confirm_doc_action", None)
                st.rerun()

if detail["relations"]:
    st.markdown("**与其他文件的关系**")
    for r in detail["relations"]:
        target = labels.get(r["to_doc"], r["target"]) if r["to_doc"] else f"{r['target']}（未入库）"
        src = labels.get(r["from_doc"], r["from_doc"])
        st.write(f"{src} {r['label']} {target}")

# ---- chunks + page preview -----------------------------------------------------------------------
st.subheader(f"片段（{len(detail['chunks'])}）")
chunks = detail["chunks"]
if chunks:
    flagged = [i + 1 for i, c in enumerate(chunks) if c["flagged"]]
    if flagged:
        st.caption(f"疑似提示注入的片段：{'、'.join(map(str, flagged))}")
    idx = st.number_input("片段序号", min_value=1, max_value=len(chunks), value=1, step=1)
    ch = chunks[int(idx) - 1]
    left, right = st.columns([1, 1])
    left.markdown(f"**{' › '.join(p for p in ch['path'] if p)}**")
    left.text(ch["text"])
    pages = f"第 {ch['page_start']} 页" if ch["page_start"] == ch["page_end"] else f"第 {ch['page_start']}–{ch['page_end']} 页"
    left.caption(f"第 {int(idx)} 段 · {pages} · {KIND_LABELS.get(ch['kind'], '正文')}")
    if ch["flagged"]:
        left.warning("疑似提示注入：该片段只会作为数据交给模型", icon=":material/warning:")
    boxes = [s["bbox"] for s in ch["spans"] if s.get("bbox") and s["page"] == ch["page_start"]]
    try:
        png = ingest.render_page(principal, doc_id, ch["page_start"], boxes=boxes)
    except AppError as exc:
        png = None
        right.error(exc.user_message, icon=":material/error:")
    if png:
        right.image(png, caption=f"第 {ch['page_start']} 页（高亮为该片段）")
    else:
        right.caption("该文件不是 PDF，没有页面预览。")
