"""Document metadata in the app database (table ``documents``) and the relations documents
state about each other (``doc_relations``: 废止 / 代替 / 修订 / 补充 / 延期), shared by every index
backend. Also the validity rules: status from dates and from explicit 废止 / 代替 relations,
with an administrator's override winning."""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import date
from functools import lru_cache

from core.documents.doc_numbers import normalize_doc_number
from core.documents.models import DocMeta
from core.errors import BadInputError, NotFoundError
from core.retrieval.tokenize import BOOK_TITLE_RE, fold
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

    def get_many(self, doc_ids) -> list[DocMeta]:
        ids = list(dict.fromkeys(doc_ids))
        out = []
        for i in range(0, len(ids), 500):
            part = ids[i:i + 500]
            out += [meta_from_json(r["meta"]) for r in self.db.query(
                f"SELECT meta FROM documents WHERE doc_id IN ({','.join('?' * len(part))})", tuple(part))]
        return out

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

    def relations_touching(self, doc_ids) -> list[dict]:
        """The 废止 relations from or to ``doc_ids`` (read before they are removed: the
        documents at the other ends need their statuses and relations re-derived)."""
        ids = set(doc_ids)
        return [r for r in self.relations() if r["from_doc"] in ids or r["to_doc"] in ids]

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

    def recompute_related(self, added: list[str], removed: list[DocMeta] = (), removed_relations=(),
                          today: date | None = None) -> dict[str, str]:
        """:meth:`recompute` limited to what adding ``added`` (already stored) and removing
        ``removed`` (already deleted; ``removed_relations`` = :meth:`relations_touching` them
        before) can change: the relations of the documents that repeal one of their 文号 /
        titles (and of the added ones), and the statuses of the documents at either end. Same
        result as a full recompute (statuses that only dates changed since are read at query
        time by :func:`filters.current_status`); costs one scan of the 文号 and title columns,
        not of every document's metadata."""
        from core.documents.metadata import today as _today
        from core.documents.relations import retiring_kinds

        by_key: dict[tuple, list[str]] = {}
        for r in self.db.query("SELECT doc_id, doc_number, title FROM documents"):
            for k in doc_keys(r["doc_number"] or "", r["title"] or ""):
                by_key.setdefault(k, []).append(r["doc_id"])
        added_metas = self.get_many(added)
        keys = {k for m in [*added_metas, *removed] for k in doc_keys(m.doc_number, m.title)}
        gone = {m.doc_id for m in removed}
        rows = self.relations()
        source_ids = {r["from_doc"] for r in [*rows, *removed_relations]
                      if target_key(r["target"]) in keys or r["to_doc"] in gone}
        sources = [m for m in added_metas if m.review_state == "approved"]
        sources += self.get_many(source_ids - {m.doc_id for m in sources} - gone)
        affected = set(added) | ({r["to_doc"] for r in removed_relations if r["to_doc"]} - gone)
        affected |= {r["to_doc"] for r in rows if r["from_doc"] in {m.doc_id for m in sources} and r["to_doc"]}
        trusted = self.trusted_issuers()
        hit_ids = {h for m in sources for _k, t in stated_relations(m) for h in by_key.get(target_key(t), [])}
        hit_metas = {m.doc_id: m for m in self.get_many(hit_ids)}
        new_rows = []
        for m in sources:
            for kind, target in stated_relations(m):
                hits = [h for h in by_key.get(target_key(target), []) if h != m.doc_id and h in hit_metas
                        and relation_may_act(m, hit_metas[h], trusted)]
                new_rows += [(m.doc_id, target, h, kind) for h in hits] or [(m.doc_id, target, None, kind)]
                affected.update(hits)
        today_s = (today or _today()).isoformat()
        changed = {}
        with self.db.transaction():
            for m in sources:
                self.db.execute("DELETE FROM doc_relations WHERE from_doc = ?", (m.doc_id,))
            for frm, target, to, kind in new_rows:
                self.db.execute("INSERT INTO doc_relations (from_doc, kind, target, to_doc) VALUES (?, ?, ?, ?)",
                                (frm, kind, target, to))
            retiring = tuple(retiring_kinds())
            marks = ", ".join("?" for _ in retiring)
            for m in self.get_many(affected):
                repealed = self.db.one(f"SELECT 1 AS x FROM doc_relations WHERE to_doc = ? AND kind IN ({marks})",
                                       (m.doc_id, *retiring)) is not None
                new = derive_status(m, repealed, today_s)
                if new != m.status:
                    m.status = new
                    changed[m.doc_id] = new
                    self.put(m)
        return changed


@lru_cache(maxsize=200_000)
def target_key(target: str) -> tuple[str, str]:
    """How a 废止 target names its document: by 文号 when it holds one, else by title."""
    num = normalize_doc_number(target)
    return ("number", num) if num else ("title", title_core(target))


@lru_cache(maxsize=200_000)
def doc_keys(doc_number: str, title: str) -> tuple[tuple[str, str], ...]:
    """The keys under which a 废止 target finds this document (see :func:`compute_statuses`)."""
    out = []
    if doc_number:
        out.append(("number", normalize_doc_number(doc_number) or doc_number))
    core = title_core(title)
    if len(core) >= 4:
        out.append(("title", core))
    return tuple(out)


def derive_status(m: DocMeta, repealed: bool, today_s: str) -> str:
    """One document's status: admin override wins; then repealed; expired when its 有效期 /
    campaign period has passed; upcoming before its 施行日期; draft stays draft; else in effect."""
    if m.status_override:
        return m.status
    if repealed:
        return "repealed"
    if m.expiry_date and m.expiry_date < today_s:
        return "expired"  # its own 有效期 / campaign period is over: 已到期, not 废止
    if m.effective_date and m.effective_date > today_s:
        return "upcoming"
    if m.status == "draft":
        return "draft"
    return "in_effect"


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
    by_key: dict[tuple, list[str]] = {}
    for m in metas:
        for k in doc_keys(m.doc_number, m.title):
            by_key.setdefault(k, []).append(m.doc_id)
    relations: list[tuple] = []
    repealed: set[str] = set()
    for m in metas:
        if m.review_state != "approved":
            continue  # a document waiting for review repeals nothing yet
        for kind, target in stated_relations(m):
            hits = by_key.get(target_key(target), [])
            hits = [h for h in hits if h != m.doc_id and relation_may_act(m, by_id[h], trusted)]
            for h in hits:
                relations.append((m.doc_id, target, h, kind))
                if kind in retiring_kinds():
                    repealed.add(h)
            if not hits:
                relations.append((m.doc_id, target, None, kind))
    return {m.doc_id: derive_status(m, m.doc_id in repealed, today_s) for m in metas}, relations


def stated_relations(m: DocMeta) -> list[tuple[str, str]]:
    """(kind, target text) of every relation a document states: its 废止 targets and the
    代替 / 修订 / 补充 / 延期 ones (core.documents.relations)."""
    return [("repeals", t) for t in m.repeals] + [(r["kind"], r["target"]) for r in m.relations or []]
