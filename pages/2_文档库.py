"""文档库: upload policy documents, edit their metadata, run the status lifecycle, view chunks
with page previews. Everything goes through core.services.ingest (permissions enforced there)."""

import pandas as pd
import streamlit as st

from core.errors import AppError
from core.services import ingest

principal = st.session_state["principal"]
st.title("文档库")

# ---- upload ------------------------------------------------------------------------------------
if principal.role.value in ("admin", "manager"):
    with st.expander("上传文档", expanded=False):
        with st.form("upload", clear_on_submit=True):
            files = st.file_uploader("PDF / Word / Markdown / 文本", type=["pdf", "docx", "md", "txt"],
                                     accept_multiple_files=True)
            c1, c2 = st.columns(2)
            tenant = c1.selectbox("租户", list(principal.tenants) or ["demo"]) if principal.tenants \
                else c1.text_input("租户", value="demo")
            domain = c2.text_input("业务领域（可空）")
            submitted = st.form_submit_button("导入", type="primary")
        if submitted and files:
            bar = st.progress(0.0, text="准备导入…")

            def progress(i: int, n: int, name: str) -> None:
                bar.progress(i / max(n, 1), text=f"正在处理 {name}（{i + 1}/{n}）" if name else "完成")

            try:
                report = ingest.ingest_uploads([(f.name, f.getvalue()) for f in files], principal, tenant,
                                               domain or None, progress=progress)
            except AppError as exc:
                st.error(exc.user_message)
            else:
                for d in report["documents"]:
                    note = "（内容未变化）" if d["action"] == "unchanged" else ""
                    pending = "，待管理员审核后可检索" if d["review_state"] == "pending" else ""
                    st.success(f"{d['file_name']}：{d['chunks']} 个片段{note}{pending}")
                for e in report["errors"]:
                    st.error(f"{e['file']}：{e['reason']}")

# ---- list --------------------------------------------------------------------------------------
docs = ingest.list_documents(principal)
if not docs:
    st.info("还没有可查看的文档。")
    st.stop()
st.dataframe(pd.DataFrame([{"文件": d["file_name"], "标题": d["title"], "文号": d["doc_number"],
                            "发文机关": "、".join(d["authorities"]), "发布日期": d["publish_date"] or d["sign_date"],
                            "施行日期": d["effective_date"], "状态": d["status_label"],
                            "审核": d["review_label"],
                            "租户": d["tenant"], "片段": d["chunks"],
                            "注入风险": f"⚠ {len(d['flagged_chunks'])} 段" if d["flagged_chunks"] else ""}
                           for d in docs]),
             hide_index=True, width="stretch")

labels = {d["doc_id"]: f"{d['file_name']}（{d['doc_number'] or '无文号'}）" for d in docs}
doc_id = st.selectbox("选择文档", list(labels), format_func=labels.get)
try:
    detail = ingest.get_document(principal, doc_id)
except AppError as exc:
    st.error(exc.user_message)
    st.stop()
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
        if st.form_submit_button("保存元数据"):
            try:
                ingest.update_document(principal, doc_id, **values)
                st.success("已保存")
                st.rerun()
            except AppError as exc:
                st.error(exc.user_message)

    cols = st.columns(6)
    actions = [
        ("审核通过", meta["review_state"] == "pending", lambda: ingest.approve_document(principal, doc_id)),
        ("设为现行有效", True, lambda: ingest.set_document_status(principal, doc_id, "in_effect")),
        ("设为已废止", True, lambda: ingest.set_document_status(principal, doc_id, "repealed")),
        ("设为草案", True, lambda: ingest.set_document_status(principal, doc_id, "draft")),
        ("按日期/废止关系自动判断", meta["status_override"], lambda: ingest.set_document_status(principal, doc_id, None)),
    ]
    for col, (label, enabled, run) in zip(cols, actions):
        if col.button(label, disabled=not enabled, key=f"act-{label}"):
            try:
                run()
                st.rerun()
            except AppError as exc:
                st.error(exc.user_message)
    if cols[5].button("删除文档", type="secondary"):
        st.session_state["confirm_delete"] = doc_id
    if st.session_state.get("confirm_delete") == doc_id:
        st.warning("确定删除该文档及其全部片段？此操作不可撤销。")
        if st.button("确认删除", type="primary"):
            try:
                ingest.delete_document(principal, doc_id)
                st.session_state.pop("confirm_delete", None)
                st.rerun()
            except AppError as exc:
                st.error(exc.user_message)

if detail["relations"]:
    st.markdown("**废止关系**")
    for r in detail["relations"]:
        target = labels.get(r["to_doc"], r["target"]) if r["to_doc"] else f"{r['target']}（未入库）"
        src = labels.get(r["from_doc"], r["from_doc"])
        st.write(f"{src} 废止 {target}")

# ---- chunks + page preview -----------------------------------------------------------------------
st.subheader(f"片段（{len(detail['chunks'])}）")
chunks = detail["chunks"]
if chunks:
    flagged = [i + 1 for i, c in enumerate(chunks) if c["flagged"]]
    if flagged:
        st.caption(f"⚠ 疑似提示注入的片段：{'、'.join(map(str, flagged))}")
    idx = st.number_input("片段序号", min_value=1, max_value=len(chunks), value=1, step=1)
    ch = chunks[int(idx) - 1]
    left, right = st.columns([1, 1])
    left.markdown(f"**{' › '.join(p for p in ch['path'] if p)}**")
    left.text(ch["text"])
    left.caption(f"{ch['chunk_id']} · 第 {ch['page_start']}–{ch['page_end']} 页 · {ch['kind']}")
    if ch["flagged"]:
        left.warning(f"⚠ 疑似提示注入（{'、'.join(ch['flagged'])}）：该片段只会作为数据交给模型")
    boxes = [s["bbox"] for s in ch["spans"] if s.get("bbox") and s["page"] == ch["page_start"]]
    try:
        png = ingest.render_page(principal, doc_id, ch["page_start"], boxes=boxes)
    except AppError as exc:
        png = None
        right.error(exc.user_message)
    if png:
        right.image(png, caption=f"第 {ch['page_start']} 页（高亮为该片段）")
    else:
        right.caption("该文件不是 PDF，没有页面预览。")
