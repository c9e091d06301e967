"""Document metadata in the app database (table ``documents``) and the relations documents
state about each other (``doc_relations``: 废止 / 代替 / 修订 / 补充 / 延期), shared by every index
backend. Also the validity rules: status from dates and from explicit 废止 / 代替 relations,
with an administrator's override winning."""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import date

from core.documents.models import DocMeta
from core.errors import BadInputError, NotFoundError
from core.retrieval.tokenize import BOOK_TITLE_RE, fold, normalize_doc_number
from core.storage.db import get_db

_META_FIELDS = {f.name for f in fields(DocMeta)}


def meta_from_json(text: str) -> DocMeta:
    raw = json.loads(text)
    return DocMeta(**{k: v for k, v in raw.items() if k in _META_FIELDS})


def title_core(title: str) -> str:
    """关于印发《济南市…实施细则》的通知 → 济南市…实施细则 (folded); plain titles as they are."""
    m = BOOK_TITLE_RE.search(title or "")
    core = m.group(1) if m else (title or "")
    return fold(core).removeprefix("中华人民共和国")


class MetaStore:
    def __init__(self, db=None):
        self.db = db or get_db()

    def get(self, doc_id: str) -> DocMeta | None:
        row = self.db.one("SELECT meta FROM documents WHERE doc_id = ?", (doc_id,))
        return meta_from_json(row["meta"]) if row else None

    def row(self, doc_id: str) -> dict | None:
        return self.db.one("SELECT * FROM documents WHERE doc_id = ?", (doc_id,))

    def all(self) -> list[DocMeta]:
        return [meta_from_json(r["meta"]) for r in self.db.query("SELECT meta FROM documents ORDER BY ingested_at, doc_id")]

    def update(self, doc_id: str, changes: dict) -> DocMeta:
        """Change metadata fields of one document and recompute statuses (every backend).
        Unknown fields and the id itself are refused; nothing is written then."""
        meta = self.get(doc_id)
        if meta is None:
            raise NotFoundError(f"文档不存在：{doc_id}")
        for k in changes:
            if not hasattr(meta, k) or k == "doc_id":
                raise BadInputError(f"未知的文档字段：{k}")
        for k, v in changes.items():
            setattr(meta, k, v)
        self.put(meta)
        self.recompute()
        return self.get(doc_id)

    def admission(self, meta: DocMeta, chunks: list, present) -> list[str] | None:
        """How an incoming document enters an index holding ``present`` doc ids (shared by every
        index backend): ``None`` = an identical file is already there (no-op); otherwise the
        doc ids it replaces (same tenant + file name, other content). A document that is not
        approved yet (a manager's upload) never replaces an approved one: it enters as a
        pending new version beside it, and approving it (an administrator's action) retires
        the old version. Raises BadInputError for an empty document. doc ids include the
        tenant (:func:`core.documents.parse.tenant_doc_id`), so another tenant's copy of the
        same file is never touched nor named."""
        if not chunks:
            raise BadInputError(f"文件“{meta.file_name}”没有可索引的内容")
        existing = self.get(meta.doc_id)
        if meta.doc_id in present and existing is not None:
            if existing.tenant != meta.tenant:  # only on a hash collision; never name the other tenant
                raise BadInputError(f"文件“{meta.file_name}”的文档编号冲突，请修改文件后重新导入")
            return None
        same_name = [m for m in self.find_by_file(meta.tenant, meta.file_name) if m.doc_id != meta.doc_id]
        if meta.review_state != "approved":
            same_name = [m for m in same_name if m.review_state != "approved"]
        return [m.doc_id for m in same_name]

    def find_by_file(self, tenant: str, file_name: str) -> list[DocMeta]:
        rows = self.db.query("SELECT meta FROM documents WHERE tenant = ? AND file_name = ?", (tenant, file_name))
        return [meta_from_json(r["meta"]) for r in rows]

    def put(self, meta: DocMeta, *, chunks: int | None = None, stored_path: str | None = None,
            user: str | None = None) -> None:
        payload = json.dumps(meta.to_dict(), ensure_ascii=False)
        if self.db.one("SELECT doc_id FROM documents WHERE doc_id = ?", (meta.doc_id,)):
            self.db.execute(
                "UPDATE documents SET file_name = ?, tenant = ?, domain = ?, doc_number = ?, title = ?, status = ?,"
                " review_state = ?, meta = ?, chunks = COALESCE(?, chunks), stored_path = COALESCE(?, stored_path),"
                " updated_at = {now} WHERE doc_id = ?",
                (meta.file_name, meta.tenant, meta.domain, meta.doc_number, meta.title, meta.status,
                 meta.review_state, payload, chunks, stored_path, meta.doc_id))
        else:
            self.db.execute(
                "INSERT INTO documents (doc_id, file_name, tenant, domain, doc_number, title, status, review_state,"
                " meta, stored_path, chunks, ingested_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (meta.doc_id, meta.file_name, meta.tenant, meta.domain, meta.doc_number, meta.title, meta.status,
                 meta.review_state, payload, stored_path, chunks or 0, user))

    def delete(self, doc_id: str) -> None:
        self.db.execute("DELETE FROM doc_relations WHERE from_doc = ? OR to_doc = ?", (doc_id, doc_id))
        self.db.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))

    def relations(self) -> list[dict]:
        return self.db.query("SELECT from_doc, kind, target, to_doc FROM doc_relations ORDER BY id")

    # ---- trusted issuers: whose documents may repeal / supersede / amend a tenant's ----------
    def trusted_issuers(self, tenant: str | None = None) -> dict[str, list[dict]]:
        """{tenant: [{"issuer_tenant", "authority"}]} (authority "" = any authority)."""
        sql = "SELECT tenant, issuer_tenant, authority FROM doc_trusted_issuers"
        rows = self.db.query(sql + (" WHERE tenant = ?" if tenant is not None else "") +
                             " ORDER BY tenant, issuer_tenant, authority", (tenant,) if tenant is not None else ())
        out: dict[str, list[dict]] = {}
        for r in rows:
            out.setdefault(r["tenant"], []).append({"issuer_tenant": r["issuer_tenant"], "authority": r["authority"]})
        return out

    def set_trusted_issuers(self, tenant: str, issuers: list[dict]) -> None:
        with self.db.transaction():
            self.db.execute("DELETE FROM doc_trusted_issuers WHERE tenant = ?", (tenant,))
            for it in issuers:
                self.db.execute("INSERT INTO doc_trusted_issuers (tenant, issuer_tenant, authority) VALUES (?, ?, ?)",
                                (tenant, it["issuer_tenant"], it.get("authority") or ""))

    def recompute(self, today: date | None = None) -> dict[str, str]:
        """Re-derive every document's status and rewrite the relations; returns the
        statuses that changed {doc_id: new status}."""
        metas = self.all()
        statuses, relations = compute_statuses(metas, today, trusted=self.trusted_issuers())
        changed = {}
        with self.db.transaction():
            self.db.execute("DELETE FROM doc_relations")
            for frm, target, to, kind in relations:
                self.db.execute("INSERT INTO doc_relations (from_doc, kind, target, to_doc) VALUES (?, ?, ?, ?)",
                                (frm, kind, target, to))
            for m in metas:
                new = statuses[m.doc_id]
                if new != m.status:
                    m.status = new
                    changed[m.doc_id] = new
                    self.put(m)
        return changed


RELATION_KINDS = ("repeals", "supersedes", "amends", "supplements", "extends")


def relation_may_act(source: DocMeta, target: DocMeta, trusted: dict[str, list[dict]] | None = None) -> bool:
    """May ``source`` repeal / supersede / amend ``target``? Within one tenant, yes; across
    tenants only when the target's tenant trusts the source's issuer: an entry
    ``{"issuer_tenant": source.tenant, "authority": one of source.authorities or ""}`` in
    ``trusted[target.tenant]`` (e.g. a city tenant trusting the province's 商务厅)."""
    if source.tenant == target.tenant:
        return True
    for it in (trusted or {}).get(target.tenant, []):
        if it["issuer_tenant"] != source.tenant:
            continue
        if not it.get("authority") or it["authority"] in source.authorities:
            return True
    return False


def compute_statuses(metas: list[DocMeta], today: date | None = None,
                     trusted: dict[str, list[dict]] | None = None) -> tuple[dict[str, str], list[tuple]]:
    """Status of each document: admin override wins; otherwise repealed when another document
    repeals or supersedes its 文号 or title (同时废止 / 代替); expired when its 有效期 / campaign
    period has passed; upcoming when its 施行日期 is in the future; draft stays draft; else in
    effect. A relation only acts (and is resolved to its target) within a tenant or from an
    issuer the target's tenant trusts (:func:`relation_may_act`). Relations are
    ``(from_doc, target text, to_doc or None, kind)``."""
    from core.documents.metadata import today as _today
    from core.documents.relations import retiring_kinds

    today_s = (today or _today()).isoformat()
    by_id = {m.doc_id: m for m in metas}
    by_number: dict[str, list[str]] = {}
    by_title: dict[str, list[str]] = {}
    for m in metas:
        if m.doc_number:
            by_number.setdefault(normalize_doc_number(m.doc_number) or m.doc_number, []).append(m.doc_id)
        core = title_core(m.title)
        if len(core) >= 4:
            by_title.setdefault(core, []).append(m.doc_id)
    relations: list[tuple] = []
    repealed: set[str] = set()
    for m in metas:
        if m.review_state != "approved":
            continue  # a document waiting for review repeals nothing yet
        stated = [("repeals", t) for t in m.repeals] + [(r["kind"], r["target"]) for r in m.relations or []]
        for kind, target in stated:
            num = normalize_doc_number(target)
            hits = by_number.get(num, []) if num else by_title.get(title_core(target), [])
            hits = [h for h in hits if h != m.doc_id and relation_may_act(m, by_id[h], trusted)]
            for h in hits:
                relations.append((m.doc_id, target, h, kind))
                if kind in retiring_kinds():
                    repealed.add(h)
            if not hits:
                relations.append((m.doc_id, target, None, kind))
    out = {}
    for m in metas:
        if m.status_override:
            out[m.doc_id] = m.status
        elif m.doc_id in repealed:
            out[m.doc_id] = "repealed"
        elif m.expiry_date and m.expiry_date < today_s:
            out[m.doc_id] = "expired"  # its own 有效期 / campaign period is over: 已到期, not 废止
        elif m.effective_date and m.effective_date > today_s:
            out[m.doc_id] = "upcoming"
        elif m.status == "draft":
            out[m.doc_id] = "draft"
        else:
            out[m.doc_id] = "in_effect"
    return out, relations
