"""Policy documents: ingestion (parse → metadata → chunk → index), retrieval for the CLI and
the agents, and the document administration used by the 文档库 page.

Permissions (enforced here, so CLI and dashboard obey the same rules):
- ingest: administrators and managers, into tenants they belong to; a manager's upload waits
  for review (待审核) until an administrator approves it; a document whose 文号 / 发文机关 /
  date could not be read also waits for review.
- list / read: the tenants and domains of the principal (pending documents: administrators).
- edit metadata, approve, set status, delete: administrators only.
- each tenant imports its own copy of a file: the doc id is derived from the file's content
  and the tenant (``tenant_doc_id``), so the same public PDF may be imported by several
  tenants and none learns of the others.
- a manager's upload with the name of an approved document becomes a pending new version
  beside it (the approved one stays retrievable); approving the new version — an
  administrator's action — retires the old one.
- 废止 relations act within a tenant or from an issuer the tenant trusts
  (:func:`set_trusted_issuers`), and a relation is shown only when the viewer may see both ends.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterable

from core.config import get_settings
from core.documents.models import Chunk, DocMeta
from core.errors import AppError, BadInputError, NotFoundError, PermissionDenied, enum_error
from core.retrieval import filters
from core.retrieval import index as index_module
from core.retrieval.protocol import SearchResult, hit_to_dict
from core.security.audit import audit
from core.security.principals import Principal, Role, resolve_user

SUPPORTED = {".pdf", ".docx", ".md", ".markdown", ".txt"}
STATUSES = ("in_effect", "repealed", "expired", "upcoming", "draft")
EDITABLE = {"title", "doc_number", "authorities", "sign_date", "publish_date", "effective_date", "expiry_date",
            "level", "domain", "repeals"}
DATE_FIELDS = {"sign_date", "publish_date", "effective_date", "expiry_date"}
REPO = Path(__file__).resolve().parents[2]
DEMO_DIR = REPO / "data" / "samples" / "policies"

Progress = Callable[[int, int, str], None]
#: fine-grained progress: {"file", "index", "total", "stage", "done", "of", "text"} (see core.progress)
StageProgress = Callable[[dict], None]


# ---- ingestion -------------------------------------------------------------------------------
def _expand(paths: Iterable[Path | str]) -> tuple[list[Path], list[dict]]:
    files, errors = [], []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if not f.is_file():
                    continue
                if any(part.startswith(".") for part in f.relative_to(p).parts):  # skipped, and said so
                    errors.append({"file": str(f.relative_to(p)), "reason": "隐藏文件或隐藏文件夹中的文件，已跳过"})
                    continue
                files.append(f)
        elif p.is_file():
            files.append(p)
        else:
            errors.append({"file": str(p), "reason": f"路径不存在：{p}"})
    return files, errors


def _check_ingest_permission(principal: Principal, tenant: str) -> None:
    if principal.role not in (Role.admin, Role.manager):
        raise PermissionDenied("只有管理员或部门经理可以导入文档")
    if not tenant or not tenant.strip():
        raise BadInputError("必须指定租户（--tenant）")
    if not principal.is_admin or principal.tenants:
        if tenant not in principal.tenants:
            raise PermissionDenied(f"当前账号不属于租户“{tenant}”，不能向其导入文档")


def _chunk(parsed, meta: DocMeta) -> list[Chunk]:
    from core.documents.chunk import chunk_document  # the documents package's structure-aware chunker

    return chunk_document(parsed, meta)


#: files committed to the index together (one embedding call, one manifest write); an
#: interruption loses at most the batch in progress, never leaves half of it visible
BATCH_FILES = 32


def ingest_paths(paths: Iterable[Path | str], principal: Principal, tenant: str, domain: str | None = None,
                 status: str | None = None, *, approve: bool = False, progress: Progress | None = None,
                 on_stage: StageProgress | None = None) -> dict:
    """Parse, chunk and index files (folders recurse). Every bad file gets one entry in
    ``errors``; the others are indexed, :data:`BATCH_FILES` at a time. ``status`` set by the
    caller is an override; ``approve`` marks documents reviewed (administrators only).
    ``progress(i, n, name)`` is called per file; ``on_stage(event)`` per stage (解析 / OCR 第
    i/n 页 / 切分 / 向量化 i/n)."""
    from core.progress import reporting

    t0 = time.perf_counter()
    tenant = (tenant or "").strip()
    _check_ingest_permission(principal, tenant)
    if status is not None and status not in ("in_effect", "repealed", "draft"):
        raise enum_error("状态", status, ("in_effect", "repealed", "draft"))
    if approve and not principal.is_admin:
        raise PermissionDenied("只有管理员可以直接审核通过文档")
    files, errors = _expand(paths)
    index = index_module.get_index()
    docs: list[tuple[int, dict]] = []  # (file position, entry): reported in file order
    pending: list[dict] = []
    timing = {"parse_s": 0.0, "chunk_s": 0.0, "embed_s": 0.0, "index_s": 0.0, "chunks": 0, "embedded": 0}
    options = {"tenant": tenant, "domain": domain, "status": status, "approve": approve, "principal": principal}
    for i, f in enumerate(files):
        if progress:
            progress(i, len(files), f.name)
        staged = _stager(on_stage, f.name, i, len(files))
        try:
            with reporting(staged if on_stage is not None else None):
                prepared = _prepare_file(f, index, options, staged, timing)
            if isinstance(prepared, dict) and "action" in prepared:
                docs.append((i, prepared))  # identical content already indexed
            else:
                pending.append({**prepared, "i": i, "file": f})
        except AppError as exc:
            errors.append({"file": str(f), "reason": exc.user_message})
        except Exception as exc:  # noqa: BLE001 - one bad file must not stop the batch
            errors.append({"file": str(f), "reason": f"处理失败（{type(exc).__name__}）：{exc}"[:300]})
        if len(pending) >= BATCH_FILES or (pending and i == len(files) - 1):
            with reporting(staged if on_stage is not None else None):
                _index_batch(index, pending, principal, docs, errors, timing)
            pending = []
    if progress:
        progress(len(files), len(files), "")
    if on_stage is not None:
        on_stage({"file": "", "index": len(files), "total": len(files), "stage": "done", "done": 0, "of": 0,
                  "text": "完成"})
    report = {"documents": [e for _, e in sorted(docs, key=lambda x: x[0])], "errors": errors,
              "seconds": round(time.perf_counter() - t0, 2),
              "timing": {k: (round(v, 2) if isinstance(v, float) else v) for k, v in timing.items()}}
    audit(principal.name, "ingest_docs", target=tenant, outcome="ok" if not errors else "partial",
          detail={"documents": [d["doc_id"] for d in report["documents"]], "errors": errors})
    return report


def _stager(on_stage: StageProgress | None, name: str, i: int, total: int) -> Callable[..., None]:
    from core.progress import stage_text

    def staged(stage: str, done: int = 0, of: int = 0) -> None:
        if on_stage is not None:
            on_stage({"file": name, "index": i, "total": total, "stage": stage, "done": done, "of": of,
                      "text": stage_text(stage, done, of)})
    return staged


def _prepare_file(f: Path, index, options: dict, staged, timing: dict) -> dict:
    """Parse, read the metadata of and chunk one file: {"meta", "chunks", "stored", "parsed"},
    or the report entry of an identical file already indexed (no parsing, no OCR)."""
    from core.documents.metadata import extract_metadata
    from core.documents.parse import doc_id_for, parse_file, tenant_doc_id

    settings, tenant = get_settings(), options["tenant"]
    if f.suffix.lower() not in SUPPORTED:
        raise BadInputError(f"文件“{f.name}”的类型“{f.suffix or '无扩展名'}”不受支持，"
                            "仅支持 PDF、Word（.docx）、Markdown（.md）和文本（.txt）文件")
    size = f.stat().st_size
    if 0 < size <= int(settings.max_upload_mb) * 1024 * 1024:
        own_id = tenant_doc_id(doc_id_for(f), tenant)
        existing = index.get_meta(own_id) if index.has_document(own_id) else None
        if existing is not None and existing.tenant == tenant:
            return _doc_entry(existing, len(index.chunks_of(existing.doc_id)), "unchanged")
    t = time.perf_counter()
    staged("parse")
    parsed = parse_file(f, ocr_cache_dir=settings.ocr_cache_dir, max_bytes=int(settings.max_upload_mb) * 1024 * 1024)
    parsed.doc_id = tenant_doc_id(parsed.doc_id, tenant)  # this tenant's own copy
    meta = extract_metadata(parsed)
    timing["parse_s"] += time.perf_counter() - t
    meta.tenant = tenant
    meta.domain = (options["domain"] or "").strip()
    if options["status"]:
        meta.status, meta.status_override = options["status"], True
    if options["approve"]:
        meta.review_state = "approved"
    elif not options["principal"].is_admin:
        meta.review_state = "pending"
    t = time.perf_counter()
    staged("chunk")
    chunks = _chunk(parsed, meta)
    timing["chunk_s"] += time.perf_counter() - t
    if not chunks:
        raise BadInputError(f"文件“{f.name}”没有可索引的文字内容")
    meta.flagged_chunks = scan_chunks(chunks)
    stored = settings.docs_dir / f"{meta.doc_id}{f.suffix.lower()}"
    if not stored.exists():
        shutil.copyfile(f, stored)
    return {"meta": meta, "chunks": chunks, "stored": str(stored), "parsed": parsed}


def _index_batch(index, pending: list[dict], principal: Principal, docs: list, errors: list, timing: dict) -> None:
    """Commit prepared files to the index in one step and report each of them."""
    t = time.perf_counter()
    try:
        results = index.add_documents([(p["meta"], p["chunks"], p["stored"]) for p in pending], user=principal.name)
    except Exception as exc:  # noqa: BLE001 - the batch is not in the index; each file says why
        reason = exc.user_message if isinstance(exc, AppError) else f"写入索引失败（{type(exc).__name__}）：{exc}"[:300]
        errors.extend({"file": str(p["file"]), "reason": reason} for p in pending)
        return
    spent = time.perf_counter() - t
    for p, res in zip(pending, results):
        if res["action"] == "error":
            errors.append({"file": str(p["file"]), "reason": res["error"].user_message})
            continue
        emb = res.get("embed") or {}
        spent -= emb.get("seconds", 0.0)
        timing["embed_s"] += emb.get("seconds", 0.0)
        timing["chunks"] += len(p["chunks"])
        timing["embedded"] += emb.get("embedded", 0)
        parsed, meta = p["parsed"], index.get_meta(res["doc_id"]) or p["meta"]
        entry = _doc_entry(meta, len(p["chunks"]), res["action"])
        entry["ocr_pages"] = parsed.ocr_pages
        entry["warnings"] = parsed.warnings
        if emb.get("error"):
            entry["warnings"] = [*parsed.warnings, f"向量化失败，已仅按关键词索引：{emb['error']}"]
        if meta.flagged_chunks:
            entry["warnings"] = [*entry["warnings"], f"有 {len(meta.flagged_chunks)} 个片段疑似包含提示注入指令，"
                                 "已在文档库中标记（这些文字只会作为数据交给模型）"]
        docs.append((p["i"], entry))
    timing["index_s"] += spent


def scan_chunks(chunks: list[Chunk]) -> list[dict]:
    """Chunks whose text looks like a prompt injection: [{"chunk_id", "ord", "patterns"}]."""
    from core.security.injection import detect_injection

    out = []
    for c in chunks:
        hits = detect_injection(c.text)
        if hits:
            out.append({"chunk_id": c.chunk_id, "ord": c.ord, "patterns": hits})
    return out


def _doc_entry(meta: DocMeta, chunks: int, action: str) -> dict:
    return {"flagged_chunks": len(meta.flagged_chunks),"doc_id": meta.doc_id, "file_name": meta.file_name, "pages": meta.pages, "chunks": chunks,
            "doc_number": meta.doc_number, "authority": "、".join(meta.authorities),
            "publish_date": meta.publish_date or meta.sign_date, "status": meta.status,
            "title": meta.title, "review_state": meta.review_state, "tenant": meta.tenant, "action": action}


def ingest_uploads(files: list[tuple[str, bytes]], principal: Principal, tenant: str, domain: str | None = None,
                   *, progress: Progress | None = None, on_stage: StageProgress | None = None) -> dict:
    """Ingest uploaded files (name, content) from the dashboard."""
    limit = int(get_settings().max_upload_mb) * 1024 * 1024
    with tempfile.TemporaryDirectory(prefix="zhice-upload-") as tmp:
        paths, errors = [], []
        for name, data in files:
            safe = Path(name).name or "未命名"
            if len(data) > limit:
                errors.append({"file": safe, "reason": f"文件“{safe}”超过大小上限 {get_settings().max_upload_mb} MB"})
                continue
            p = Path(tmp) / safe
            p.write_bytes(data)
            paths.append(p)
        report = ingest_paths(paths, principal, tenant, domain, progress=progress, on_stage=on_stage) if paths else \
            {"documents": [], "errors": [], "seconds": 0.0}
        for e in report["errors"]:
            e["file"] = Path(e["file"]).name
        report["errors"] = errors + report["errors"]
        return report


def ingest_demo_documents(reset: bool = False, *, tenant: str = "demo", on_stage: StageProgress | None = None,
                          principal: Principal | None = None) -> dict:
    """The bundled sample policy documents (data/samples/policies) into ``tenant`` (the demo's,
    :data:`core.services.demo.DEMO_TENANT`), reviewed (they are curated)."""
    admin = principal if principal is not None and principal.is_admin else resolve_user(None)
    if reset:
        index = index_module.get_index()
        for m in index.list_docs():
            if m.tenant == tenant:
                index.delete_document(m.doc_id)
    if not DEMO_DIR.is_dir():
        return {"documents": [], "errors": [{"file": str(DEMO_DIR), "reason": "示例政策文档目录不存在"}],
                "seconds": 0.0}
    return ingest_paths([DEMO_DIR], admin, tenant, "政策", approve=True, on_stage=on_stage)


# ---- retrieval --------------------------------------------------------------------------------
def search(query: str, principal: Principal, k: int = 10, *, scenario: str | None = None,
           doc_ids: list[str] | None = None) -> SearchResult:
    """Hybrid retrieval with the principal's filters (the agents' entry point)."""
    if scenario is not None and scenario not in filters.SCENARIO_STATUSES:
        raise enum_error("场景", scenario, filters.SCENARIO_STATUSES)
    principal.check_scenario(scenario)  # a scenario is a permission
    return index_module.get_index().search(query, principal, k, scenario=scenario, doc_ids=doc_ids)


def retrieve(query: str, principal: Principal, k: int = 10) -> dict:
    """The ``retrieve`` JSON: {"results": [...], "latency_ms"} (+ "notices")."""
    if k < 1 or k > 100:
        raise BadInputError("返回条数必须在 1 到 100 之间")
    res = search(query, principal, k)
    return {"results": [hit_to_dict(h) for h in res.hits], "latency_ms": round(res.latency_ms, 1),
            "notices": res.notices, "degraded": res.degraded}


# ---- document administration ------------------------------------------------------------------
def _require_admin(principal: Principal) -> None:
    if not principal.is_admin:
        raise PermissionDenied("只有管理员可以管理文档")


def _visible_meta(principal: Principal, doc_id: str) -> DocMeta:
    meta = index_module.get_index().get_meta(doc_id)
    if meta is None or not filters.doc_visible(meta, principal):
        raise NotFoundError(f"文档不存在或无权查看：{doc_id}")
    return meta


def _meta_dict(meta: DocMeta) -> dict:
    d = meta.to_dict()
    d["status_label"] = filters.STATUS_LABELS.get(meta.status, meta.status)
    d["review_label"] = filters.REVIEW_LABELS.get(meta.review_state, meta.review_state)
    return d


def list_documents(principal: Principal) -> list[dict]:
    index = index_module.get_index()
    out = []
    for m in index.list_docs():
        if filters.doc_visible(m, principal):
            d = _meta_dict(m)
            d["chunks"] = len(index.chunks_of(m.doc_id))
            out.append(d)
    return out


def get_document(principal: Principal, doc_id: str) -> dict:
    meta = _visible_meta(principal, doc_id)
    index = index_module.get_index()
    from core.retrieval.metastore import MetaStore

    from core.documents.relations import relation_label

    rels = [{**r, "label": relation_label(r["kind"])} for r in MetaStore().relations()
            if doc_id in (r["from_doc"], r["to_doc"]) and _relation_visible(principal, r)]
    flags = {f["chunk_id"]: f["patterns"] for f in meta.flagged_chunks}
    chunks = [{**c.to_dict(), "flagged": flags.get(c.chunk_id, [])} for c in index.chunks_of(doc_id)]
    return {"meta": _meta_dict(meta), "chunks": chunks, "relations": rels}


def _relation_visible(principal: Principal, rel: dict) -> bool:
    """A relation is shown only when the viewer may see both of its ends (an unresolved
    target is the source document's own text)."""
    index = index_module.get_index()
    for d in (rel["from_doc"], rel["to_doc"]):
        if d is None:
            continue
        meta = index.get_meta(d)
        if meta is None or not filters.doc_visible(meta, principal):
            return False
    return True


def _validate_changes(changes: dict) -> dict:
    out = {}
    for k, v in changes.items():
        if k not in EDITABLE:
            raise BadInputError(f"字段“{k}”不可修改；可修改：{'、'.join(sorted(EDITABLE))}")
        if k in ("authorities", "repeals"):
            if isinstance(v, str):
                v = [x.strip() for x in re.split(r"[、,，;；\n]", v) if x.strip()]
            v = [str(x) for x in v]
        elif k in DATE_FIELDS:
            v = (v or "").strip()
            if v and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
                raise BadInputError(f"日期“{v}”格式应为 YYYY-MM-DD")
        else:
            v = (v or "").strip()
        if k == "doc_number" and v:
            from core.documents.doc_numbers import normalize_doc_number

            v = normalize_doc_number(v) or v
        out[k] = v
    return out


def update_document(principal: Principal, doc_id: str, **changes) -> dict:
    _require_admin(principal)
    _visible_meta(principal, doc_id)
    meta = index_module.get_index().update_meta(doc_id, **_validate_changes(changes))
    audit(principal.name, "doc_update", target=doc_id, detail=changes)
    return _meta_dict(meta)


def approve_document(principal: Principal, doc_id: str) -> dict:
    """Approve a pending document. When it is a new version of a document with the same file
    name in the same tenant, the older version is retired (replaced) in the same step."""
    _require_admin(principal)
    current = _visible_meta(principal, doc_id)
    from core.retrieval.metastore import MetaStore

    index = index_module.get_index()
    older = [m.doc_id for m in MetaStore().find_by_file(current.tenant, current.file_name) if m.doc_id != doc_id]
    uploader = (MetaStore().row(doc_id) or {}).get("ingested_by")
    meta = index.update_meta(doc_id, review_state="approved")
    for old in older:
        _delete_stored(old)
    _record_review(current, uploader, "approved", None, principal.name)
    audit(principal.name, "doc_approve", target=doc_id, detail={"replaced": older} if older else None)
    out = _meta_dict(index.get_meta(doc_id) or meta)
    out["replaced"] = older
    return out


def reject_document(principal: Principal, doc_id: str, reason: str) -> dict:
    """Reject a pending document with a reason: the reason is stored (the uploader sees it under
    我的上传) and audited, and the document leaves the index."""
    _require_admin(principal)
    reason = (reason or "").strip()
    if not reason:
        raise BadInputError("请填写驳回原因，上传者会看到它")
    if len(reason) > 500:
        raise BadInputError("驳回原因最多 500 个字符")
    current = _visible_meta(principal, doc_id)
    if current.review_state == "approved":
        raise BadInputError("该文档已审核通过，不能驳回；如需下线请删除或设为已废止")
    from core.retrieval.metastore import MetaStore

    uploader = (MetaStore().row(doc_id) or {}).get("ingested_by")
    _record_review(current, uploader, "rejected", reason, principal.name)
    _delete_stored(doc_id)
    audit(principal.name, "doc_reject", target=doc_id, tenant=current.tenant,
          detail={"file": current.file_name, "uploaded_by": uploader, "reason": reason})
    return {"doc_id": doc_id, "file_name": current.file_name, "decision": "rejected", "reason": reason}


def _record_review(meta: DocMeta, uploader: str | None, decision: str, reason: str | None, by: str) -> None:
    from core.storage.db import get_db

    get_db().execute("INSERT INTO doc_reviews (doc_id, file_name, tenant, uploaded_by, decision, reason, decided_by)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (meta.doc_id, meta.file_name, meta.tenant, uploader, decision, reason, by))


def review_queue(principal: Principal) -> dict:
    """The 待审核 queue (administrators): pending documents, oldest first, with counts per tenant."""
    _require_admin(principal)
    from core.retrieval.metastore import MetaStore

    store = MetaStore()
    pending = []
    for m in index_module.get_index().list_docs():
        if m.review_state == "pending" and filters.doc_visible(m, principal):
            row = store.row(m.doc_id) or {}
            pending.append({**_meta_dict(m), "uploaded_by": row.get("ingested_by") or "",
                            "uploaded_at": (row.get("ingested_at") or "")[:16].replace("T", " ")})
    pending.sort(key=lambda d: d["uploaded_at"])
    by_tenant: dict[str, int] = {}
    for d in pending:
        by_tenant[d["tenant"]] = by_tenant.get(d["tenant"], 0) + 1
    return {"pending": pending, "count": len(pending), "by_tenant": by_tenant}


def my_uploads(principal: Principal, limit: int = 50) -> list[dict]:
    """What became of the documents this user uploaded: 待审核 / 已通过 / 已驳回（原因）."""
    from core.storage.db import get_db

    db = get_db()
    out = []
    for r in db.query("SELECT doc_id, file_name, tenant, review_state, ingested_at FROM documents"
                      " WHERE ingested_by = ? ORDER BY ingested_at DESC LIMIT ?", (principal.name, limit)):
        out.append({"file_name": r["file_name"], "tenant": r["tenant"], "state": r["review_state"],
                    "state_label": filters.REVIEW_LABELS.get(r["review_state"], r["review_state"]),
                    "at": (r["ingested_at"] or "")[:16].replace("T", " "), "reason": ""})
    for r in db.query("SELECT file_name, tenant, reason, decided_by, at FROM doc_reviews"
                      " WHERE uploaded_by = ? AND decision = 'rejected' ORDER BY id DESC LIMIT ?",
                      (principal.name, limit)):
        out.append({"file_name": r["file_name"], "tenant": r["tenant"], "state": "rejected", "state_label": "已驳回",
                    "at": (r["at"] or "")[:16].replace("T", " "), "reason": r["reason"] or ""})
    out.sort(key=lambda d: d["at"], reverse=True)
    return out[:limit]


def set_document_status(principal: Principal, doc_id: str, status: str | None) -> dict:
    """Override the status (in_effect / repealed / upcoming / draft); ``None`` clears the
    override so the status follows dates and 废止 relations again."""
    _require_admin(principal)
    _visible_meta(principal, doc_id)
    if status is None:
        meta = index_module.get_index().update_meta(doc_id, status_override=False, status="in_effect")
    else:
        if status not in STATUSES:
            raise enum_error("状态", status, STATUSES)
        meta = index_module.get_index().update_meta(doc_id, status=status, status_override=True)
    audit(principal.name, "doc_status", target=doc_id, detail={"status": status})
    return _meta_dict(meta)


def delete_document(principal: Principal, doc_id: str) -> None:
    _require_admin(principal)
    _visible_meta(principal, doc_id)
    _delete_stored(doc_id)
    audit(principal.name, "doc_delete", target=doc_id)


def _delete_stored(doc_id: str) -> None:
    """Remove a document from the index, the app DB and the stored originals."""
    from core.retrieval.metastore import MetaStore

    row = MetaStore().row(doc_id)
    index_module.get_index().delete_document(doc_id)
    if row and row.get("stored_path"):
        Path(row["stored_path"]).unlink(missing_ok=True)


def trusted_issuers(principal: Principal, tenant: str) -> list[dict]:
    """The issuers whose documents may repeal this tenant's documents besides its own:
    [{"issuer_tenant", "authority"}] (authority "" = any authority of that tenant)."""
    if not principal.is_admin and tenant not in principal.tenants:
        raise PermissionDenied(f"当前账号不属于租户“{tenant}”")
    from core.retrieval.metastore import MetaStore

    return MetaStore().trusted_issuers(tenant).get(tenant, [])


def set_trusted_issuers(principal: Principal, tenant: str, issuers: list) -> list[dict]:
    """Administrators: set which issuers a tenant trusts (e.g. a city tenant trusting the
    province tenant's 山东省商务厅). Each item is ``{"issuer_tenant", "authority"?}`` or the
    string ``"TENANT"`` / ``"TENANT:AUTHORITY"``. Statuses are re-derived at once."""
    _require_admin(principal)
    tenant = (tenant or "").strip()
    if not tenant:
        raise BadInputError("必须指定租户")
    if principal.tenants and tenant not in principal.tenants:
        raise PermissionDenied(f"当前账号不属于租户“{tenant}”")
    clean: list[dict] = []
    for it in issuers or []:
        if isinstance(it, str):
            it_tenant, _, authority = it.partition(":")
            it = {"issuer_tenant": it_tenant, "authority": authority}
        it_tenant = str(it.get("issuer_tenant") or "").strip()
        if not it_tenant or it_tenant == tenant:
            raise BadInputError("受信任的发文方须是另一个租户（同一租户内的废止关系本来就生效）")
        entry = {"issuer_tenant": it_tenant, "authority": str(it.get("authority") or "").strip()}
        if entry not in clean:
            clean.append(entry)
    from core.retrieval.metastore import MetaStore

    store = MetaStore()
    store.set_trusted_issuers(tenant, clean)
    store.recompute()
    reload = getattr(index_module.get_index(), "reload_metadata", None)
    if reload is not None:  # the embedded index keeps metadata in memory: reload it everywhere
        reload()
    audit(principal.name, "doc_trusted_issuers", target=tenant, detail={"issuers": clean})
    return clean



def document_file(principal: Principal, doc_id: str) -> Path | None:
    """The stored original of a visible document (for download / page preview)."""
    _visible_meta(principal, doc_id)
    from core.retrieval.metastore import MetaStore

    row = MetaStore().row(doc_id)
    p = Path(row["stored_path"]) if row and row.get("stored_path") else None
    return p if p and p.is_file() else None


def render_page(principal: Principal, doc_id: str, page: int, *, boxes: list | None = None,
                zoom: float = 1.5) -> bytes | None:
    """PNG of one PDF page with optional highlight boxes (PDF points); None for non-PDF."""
    path = document_file(principal, doc_id)
    if path is None or path.suffix.lower() != ".pdf":
        return None
    import pymupdf

    with pymupdf.open(path) as doc:
        if not 1 <= page <= doc.page_count:
            raise BadInputError(f"页码 {page} 超出范围（共 {doc.page_count} 页）")
        pg = doc[page - 1]
        for b in boxes or []:
            annot = pg.add_highlight_annot(pymupdf.Rect(*b))
            annot.update()
        return pg.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom)).tobytes("png")


__all__ = ["ingest_paths", "ingest_uploads", "ingest_demo_documents", "search", "retrieve", "list_documents",
           "get_document", "update_document", "approve_document", "set_document_status", "delete_document",
           "document_file", "render_page"]
