"""The policy task agent's five read-only tools, each with a pydantic argument schema and a
description (the LLM planner's catalog is generated from them):

- ``search_policy(query, authority?, status?)``  hybrid retrieval, permission filters first
- ``get_document_detail(doc_id)``                 文号, issuers, dates, status, relations
- ``compare_documents(doc_ids, dimensions)``      documents × dimensions, each cell cited
- ``track_changes(policy_name)``                  a timeline from dates (发布 / 施行 / 到期) and the
  relations the documents state (代替 / 废止 / 修订 / 补充 / 延期)
- ``generate_summary(doc_ids, format)``           要点 / 有效期 / 条件与材料清单, cited

Every call validates its arguments first (unknown enum values are rejected with the valid
list). A document or an issuing authority outside the principal's tenants / domains /
scenario is answered exactly as one that does not exist ("未找到"), so nothing leaks. Each
tool runs under its own timeout (search 5 s, detail 3 s), never past the task's deadline.
"""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from core.agents.rag.state import hit_to_doc
from core.agents.rag.textutil import key_terms, norm
from core.agents.runtime import AgentRuntime
from core.agents.task import rules
from core.agents.task.clauses import MAX_CLAUSE_CHARS, chunk_doc, date_chunk, dimension_clauses, sentences
from core.errors import AppError, BadInputError, NotFoundError, enum_error

STATUSES = ("in_effect", "repealed", "upcoming", "draft")
STATUS_LABELS = {"in_effect": "现行有效", "repealed": "已废止", "upcoming": "即将实施", "draft": "草案"}
DOC_ID = re.compile(r"[0-9a-f]{16}")
REF = re.compile(r"\$(\d{1,2})\.(top|all)")
MAX_DOCS = 8
SEARCH_K = 12
MAX_ALL = 5             # "$k.all" keeps at most this many documents
ALL_SHARE = 0.75        # ... each covering this share of the best document's query terms


class ToolTimeout(AppError):
    default_message = "工具执行超时"


def _enum(field_name: str, value: Any, valid) -> ValueError:
    return ValueError(enum_error(field_name, value, valid).user_message)


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def _doc_id_list(v: list[str], *, refs: bool = True) -> list[str]:
    if not v:
        raise ValueError("doc_ids 至少需要 1 个文档编号")
    if len(v) > MAX_DOCS:
        raise ValueError(f"doc_ids 最多 {MAX_DOCS} 个文档编号")
    for x in v:
        if not (DOC_ID.fullmatch(x) or (refs and REF.fullmatch(x))):
            raise ValueError(f"文档编号“{x}”格式无效（16 位十六进制，或 $步骤.top / $步骤.all）")
    return list(dict.fromkeys(v))


class SearchPolicyArgs(_Args):
    query: str = Field(min_length=1, max_length=200, description="检索语句，如“济南市家电以旧换新补贴”")
    authority: str | None = Field(None, max_length=40, description="发文机关（可选），如“济南市”“山东省商务厅”")
    status: str | None = Field(None, description="文件状态（可选）：" + "、".join(STATUSES))

    @field_validator("status")
    @classmethod
    def _status(cls, v):
        if v in (None, ""):
            return None
        if v not in STATUSES:
            raise _enum("status", v, STATUSES)
        return v

    @field_validator("authority")
    @classmethod
    def _authority(cls, v):
        return v or None


class DocumentDetailArgs(_Args):
    doc_id: str = Field(description="文档编号（16 位十六进制），或 $步骤.top")

    @field_validator("doc_id")
    @classmethod
    def _doc(cls, v):
        return _doc_id_list([v])[0]


class CompareDocumentsArgs(_Args):
    doc_ids: list[str] = Field(description=f"要对比的文档编号（1–{MAX_DOCS} 个），可用 $步骤.top / $步骤.all")
    dimensions: list[str] = Field(description="对比维度：" + "、".join(rules.dimension_names()))

    @field_validator("doc_ids")
    @classmethod
    def _docs(cls, v):
        return _doc_id_list(v)

    @field_validator("dimensions")
    @classmethod
    def _dims(cls, v):
        if not v:
            raise ValueError("dimensions 至少需要 1 个维度")
        out = []
        for name in v:
            d = rules.dimension(name)
            if d is None:
                raise _enum("dimensions", name, rules.dimension_names())
            out.append(d["name"])
        return list(dict.fromkeys(out))[:8]


class TrackChangesArgs(_Args):
    policy_name: str = Field(min_length=2, max_length=100, description="政策名称或主题，如“家电以旧换新”")


class GenerateSummaryArgs(_Args):
    doc_ids: list[str] = Field(description=f"要汇总的文档编号（1–{MAX_DOCS} 个），可用 $步骤.top / $步骤.all")
    format: str = Field("brief", description="汇总格式：" + "、".join(f"{k}（{v}）" for k, v in rules.summary_formats().items()))

    @field_validator("doc_ids")
    @classmethod
    def _docs(cls, v):
        return _doc_id_list(v)

    @field_validator("format")
    @classmethod
    def _format(cls, v):
        formats = rules.summary_formats()
        by_label = {label: key for key, label in formats.items()}
        if v in formats:
            return v
        if v in by_label:
            return by_label[v]
        raise _enum("format", v, list(formats))


# ---- the context every tool runs in ------------------------------------------------------
@dataclass
class ToolContext:
    """What a tool may read: the caller's runtime (principal, index, today) and, derived from
    it, the documents the principal may use in the scenario of this task."""

    rt: AgentRuntime
    scenario: str | None = None
    _allowed: dict | None = field(default=None, repr=False)
    _chunks: dict = field(default_factory=dict, repr=False)

    @property
    def principal(self):
        return self.rt.principal

    def allowed(self) -> dict:
        if self._allowed is None:
            from core.retrieval.filters import doc_allowed

            out = {}
            try:
                metas = list(self.rt.index.list_docs())
            except Exception:  # noqa: BLE001 - an index without listings: nothing to read
                metas = []
            for m in metas:
                try:
                    if doc_allowed(m, self.principal, self.scenario):
                        out[m.doc_id] = m
                except (AttributeError, KeyError, TypeError):
                    continue
            self._allowed = out
        return self._allowed

    def meta(self, doc_id: str):
        """The document's metadata, or "not found" — also for one of another tenant."""
        m = self.allowed().get(doc_id)
        if m is None:
            raise NotFoundError(f"未找到文档：{doc_id}")
        return m

    def chunks(self, doc_id: str) -> list[dict]:
        if doc_id not in self._chunks:
            meta = self.meta(doc_id)
            self._chunks[doc_id] = [chunk_doc(c, meta) for c in self.rt.index.chunks_of(doc_id)]
        return self._chunks[doc_id]


def doc_card(meta) -> dict:
    return {"doc_id": meta.doc_id, "title": meta.title or meta.file_name.rsplit(".", 1)[0], "file_name": meta.file_name,
            "doc_number": meta.doc_number or "", "authority": "、".join(meta.authorities or []),
            "date": meta.publish_date or meta.sign_date or "", "status": meta.status,
            "status_label": STATUS_LABELS.get(meta.status, meta.status)}


def _evidence(d: dict) -> dict:
    keep = ("chunk_id", "doc_id", "file_name", "title", "doc_number", "authority", "date", "status", "page",
            "page_end", "heading", "body", "spans", "source_type")
    return {k: d.get(k) for k in keep}


# ---- search_policy ---------------------------------------------------------------------------
def _authority_docs(ctx: ToolContext, authority: str) -> list[str]:
    a = norm(authority)
    return [d for d, m in ctx.allowed().items() if any(a in norm(x) for x in (m.authorities or []))]


def search_policy(ctx: ToolContext, args: SearchPolicyArgs) -> dict:
    candidates = list(ctx.allowed())
    if args.authority:
        candidates = _authority_docs(ctx, args.authority)
    if args.status:
        candidates = [d for d in candidates if ctx.allowed()[d].status == args.status]
    if not candidates:
        what = "、".join(x for x in (args.authority, STATUS_LABELS.get(args.status or "", "")) if x)
        return {"documents": [], "evidence": [], "found": 0,
                "message": f"未找到{what + '的' if what else ''}相关文件"}
    res = ctx.rt.index.search(args.query, ctx.principal, SEARCH_K, scenario=ctx.scenario, doc_ids=candidates)
    terms = [t for t in key_terms(args.query) if t not in rules.rules()["filler"]] or [args.query]
    by_doc: dict[str, dict] = {}
    evidence = []
    for h in res.hits:
        d = hit_to_doc(h, args.query)
        if d["doc_id"] not in ctx.allowed():
            continue  # belt and braces: the index filtered already
        evidence.append(_evidence(d))
        entry = by_doc.setdefault(d["doc_id"], {**doc_card(ctx.allowed()[d["doc_id"]]), "score": d["score"],
                                                "chunks": [], "_text": norm(d.get("title") or "")})
        entry["chunks"].append(d["chunk_id"])
        entry["_text"] += norm(d.get("text") or "")
    for entry in by_doc.values():
        text = entry.pop("_text")
        hits = [t for t in terms if norm(t) in text]
        entry["coverage"] = round(len(hits) / len(terms), 3)
    docs = sorted(by_doc.values(), key=lambda e: (-e["coverage"], -e["score"]))
    return {"documents": docs, "evidence": evidence[:SEARCH_K], "found": len(docs),
            "message": "" if docs else "未找到相关文件", "notices": list(res.notices or [])}


def pick_docs(result: dict, which: str) -> list[str]:
    """``$k.top`` / ``$k.all`` of a search_policy result."""
    docs = result.get("documents") or []
    if not docs:
        return []
    if which == "top":
        return [docs[0]["doc_id"]]
    best = docs[0].get("coverage", 1.0) or 0.0
    return [d["doc_id"] for d in docs if (d.get("coverage") or 0.0) >= best * ALL_SHARE][:MAX_ALL]


# ---- get_document_detail -------------------------------------------------------------------
def _relations(ctx: ToolContext, doc_ids: set[str]) -> list[dict]:
    """Relations (废止 / 代替 / 修订 / 补充 / 延期) touching ``doc_ids`` whose both ends the
    principal may see (an unresolved target is the source's own text)."""
    try:
        from core.retrieval.metastore import MetaStore

        rels = MetaStore().relations()
    except Exception:  # noqa: BLE001 - a workspace without the metadata store
        rels = []
    out = []
    for r in rels:
        ends = [r.get("from_doc"), r.get("to_doc")]
        if not doc_ids & {e for e in ends if e}:
            continue
        if any(e is not None and e not in ctx.allowed() for e in ends):
            continue
        out.append({"from_doc": r["from_doc"], "kind": r.get("kind") or "repeals", "target": r.get("target") or "",
                    "to_doc": r.get("to_doc")})
    return out


def get_document_detail(ctx: ToolContext, args: DocumentDetailArgs) -> dict:
    meta = ctx.meta(args.doc_id)
    chunks = ctx.chunks(args.doc_id)
    detail = {**doc_card(meta), "authorities": list(meta.authorities or []), "sign_date": meta.sign_date,
              "publish_date": meta.publish_date, "effective_date": meta.effective_date,
              "expiry_date": meta.expiry_date, "level": meta.level, "domain": meta.domain}
    dates = []
    for key, label in (("sign_date", "成文日期"), ("publish_date", "发布日期"), ("effective_date", "施行日期"),
                       ("expiry_date", "有效期至")):
        where = date_chunk(chunks, getattr(meta, key, ""))
        if getattr(meta, key, ""):
            dates.append({"label": label, "date": getattr(meta, key), "chunk_id": where[0] if where else None,
                          "text": where[1] if where else ""})
    outline = list(dict.fromkeys(c["heading"] for c in chunks if c.get("heading")))
    used = {d["chunk_id"] for d in dates if d["chunk_id"]}
    return {"document": detail, "dates": dates, "relations": _relations(ctx, {args.doc_id}), "outline": outline[:40],
            "evidence": [_evidence(c) for c in chunks if c["chunk_id"] in used]}


# ---- compare_documents ---------------------------------------------------------------------
def _known_docs(ctx: ToolContext, doc_ids: list[str]) -> tuple[list, list[str]]:
    found, missing = [], []
    for d in doc_ids:
        try:
            found.append(ctx.meta(d))
        except NotFoundError:
            missing.append(d)
    if not found:
        raise NotFoundError("未找到文档：" + "、".join(missing))
    return found, missing


def compare_documents(ctx: ToolContext, args: CompareDocumentsArgs) -> dict:
    metas, missing = _known_docs(ctx, args.doc_ids)
    cells: dict[str, dict[str, list[dict]]] = {}
    used: dict[str, dict] = {}
    for m in metas:
        chunks = ctx.chunks(m.doc_id)
        by_id = {c["chunk_id"]: c for c in chunks}
        row = {}
        for name in args.dimensions:
            clauses = dimension_clauses(chunks, rules.dimension(name))
            row[name] = clauses
            for cl in clauses:
                used[cl["chunk_id"]] = by_id[cl["chunk_id"]]
        cells[m.doc_id] = row
    return {"dimensions": list(args.dimensions), "documents": [doc_card(m) for m in metas], "cells": cells,
            "not_found": missing, "evidence": [_evidence(c) for c in used.values()]}


# ---- track_changes -------------------------------------------------------------------------
DATE_EVENTS = (("publish_date", "发布"), ("effective_date", "施行"), ("expiry_date", "到期"))


def _title_match(policy: str, meta) -> float:
    terms = [t for t in key_terms(policy) if len(t) >= 2] or [policy]
    title = norm((meta.title or "") + (meta.file_name or ""))
    return sum(1 for t in terms if norm(t) in title) / len(terms)


def _event(ctx: ToolContext, meta, date: str, what: str, where: tuple[str, str] | None, used: dict, **extra) -> dict:
    if where:
        used[where[0]] = next(c for c in ctx.chunks(meta.doc_id) if c["chunk_id"] == where[0])
    return {"date": date, "doc_id": meta.doc_id, "title": doc_card(meta)["title"], "doc_number": meta.doc_number,
            "event": what, "text": where[1] if where else "", "chunk_id": where[0] if where else None, **extra}


def _date_events(ctx: ToolContext, meta, used: dict) -> list[dict]:
    """发布 / 施行 / 到期 of one document, each cited to the sentence that carries the date."""
    out = []
    for key, label in DATE_EVENTS:
        value = getattr(meta, key, "") or ("" if key != "publish_date" else meta.sign_date)
        if value:
            out.append(_event(ctx, meta, value, label, date_chunk(ctx.chunks(meta.doc_id), value), used))
    return out


def _relation_event(ctx: ToolContext, rel: dict, used: dict) -> dict | None:
    """代替 / 废止 / 修订 / 补充 / 延期 stated by the source document, dated by it and cited to
    the sentence naming the target."""
    from core.documents.relations import relation_label

    src = ctx.allowed().get(rel["from_doc"])
    if src is None:
        return None
    tgt = ctx.allowed().get(rel["to_doc"]) if rel.get("to_doc") else None
    target = doc_card(tgt)["title"] if tgt is not None else rel["target"].strip("《》")
    key = norm(rel["target"])
    where = None
    for c in ctx.chunks(src.doc_id):
        hit = next((x for x in sentences(c) if key and key in norm(x)), None)
        if hit:
            where = (c["chunk_id"], hit[:MAX_CLAUSE_CHARS])
            break
    date = src.publish_date or src.sign_date or src.effective_date
    return _event(ctx, src, date, f"{relation_label(rel['kind'])}《{target}》", where, used,
                  kind=rel["kind"], target_doc=rel.get("to_doc"))


def track_changes(ctx: ToolContext, args: TrackChangesArgs) -> dict:
    scored = [(_title_match(args.policy_name, m), m) for m in ctx.allowed().values()]
    best = max((s for s, _ in scored), default=0.0)
    metas = [m for s, m in scored if best >= 0.5 and s >= best * ALL_SHARE][:MAX_DOCS]
    if not metas:
        return {"policy_name": args.policy_name, "events": [], "documents": [], "evidence": [], "found": 0,
                "message": f"未找到与“{args.policy_name}”相关的文件"}
    rels = _relations(ctx, {m.doc_id for m in metas})
    for r in rels:  # a document acting on one of them (a 修订 / 补充 / 延期 notice) joins the timeline
        for end in (r["from_doc"], r.get("to_doc")):
            if end and end in ctx.allowed() and all(m.doc_id != end for m in metas) and len(metas) < MAX_DOCS:
                metas.append(ctx.allowed()[end])
    used: dict[str, dict] = {}
    events = [e for m in metas for e in _date_events(ctx, m, used)]
    events += [e for e in (_relation_event(ctx, r, used) for r in rels) if e]
    events.sort(key=lambda e: (e["date"] or "9999", e["title"]))
    return {"policy_name": args.policy_name, "events": events, "documents": [doc_card(m) for m in metas],
            "evidence": [_evidence(c) for c in used.values()], "found": len(metas)}


# ---- generate_summary ----------------------------------------------------------------------
FORMAT_DIMENSIONS = {"validity": ["有效期"], "checklist": ["申报条件", "申报材料"]}
BRIEF_POINTS = 4


def generate_summary(ctx: ToolContext, args: GenerateSummaryArgs) -> dict:
    metas, missing = _known_docs(ctx, args.doc_ids)
    items, used = [], {}
    for m in metas:
        chunks = ctx.chunks(m.doc_id)
        by_id = {c["chunk_id"]: c for c in chunks}
        points: list[dict] = []
        if args.format == "validity":
            for key, label in (("publish_date", "印发/发布日期"), ("effective_date", "施行日期"), ("expiry_date", "有效期至")):
                value = getattr(m, key, "") or ("" if key != "publish_date" else m.sign_date)
                if value:
                    where = date_chunk(chunks, value)
                    points.append({"label": label, "text": value, "chunk_id": where[0] if where else None,
                                   "quote": where[1] if where else ""})
        if args.format == "brief":
            for c in chunks:
                if c.get("kind") in ("preamble",) or not c.get("heading"):
                    continue
                first = next((s for s in sentences(c) if len(s) >= 12), "")
                if first:
                    points.append({"label": c["heading"], "text": first[:200], "chunk_id": c["chunk_id"]})
                if len(points) >= BRIEF_POINTS:
                    break
        for name in FORMAT_DIMENSIONS.get(args.format, []):
            limit = 3 if args.format == "validity" else 4
            for cl in dimension_clauses(chunks, rules.dimension(name), limit=limit):
                points.append({"label": name, "text": cl["text"], "chunk_id": cl["chunk_id"]})
        for p in points:
            if p.get("chunk_id"):
                used[p["chunk_id"]] = by_id[p["chunk_id"]]
        items.append({**doc_card(m), "points": points})
    return {"format": args.format, "items": items, "not_found": missing,
            "evidence": [_evidence(c) for c in used.values()]}


# ---- the catalog -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    args_model: type[BaseModel]
    fn: Callable[[ToolContext, Any], dict]
    timeout_s: float


TOOLS: dict[str, Tool] = {t.name: t for t in (
    Tool("search_policy", "按检索语句查找政策文件（可按发文机关、状态筛选），返回相关文件及片段",
         SearchPolicyArgs, search_policy, 5.0),
    Tool("get_document_detail", "查看一份文件的文号、发文机关、成文/发布/施行日期、状态及与其他文件的关系（废止、代替、修订、补充、延期）",
         DocumentDetailArgs, get_document_detail, 3.0),
    Tool("compare_documents", "把几份文件按维度逐项对比（文件 × 维度），每格注明出处或“未规定”",
         CompareDocumentsArgs, compare_documents, 10.0),
    Tool("track_changes", "按发布、施行、到期日期和代替、废止、修订、补充、延期关系排出某项政策的时间线",
         TrackChangesArgs, track_changes, 5.0),
    Tool("generate_summary", "逐份汇总文件：要点、有效期与状态、或申报条件与材料清单",
         GenerateSummaryArgs, generate_summary, 10.0),
)}


def _message(exc: ValidationError) -> str:
    parts = []
    for e in exc.errors():
        loc = ".".join(str(x) for x in e.get("loc") or ())
        msg = str(e.get("msg") or "").removeprefix("Value error, ")
        if e.get("type") == "extra_forbidden":
            msg = "不是该工具的参数"
        elif e.get("type") == "missing":
            msg = "缺少必填参数"
        parts.append(f"{loc}：{msg}" if loc else msg)
    return "；".join(parts)


def validate_args(tool: str, args: Any) -> BaseModel:
    """The validated arguments of one call; BadInputError naming the problem otherwise."""
    if tool not in TOOLS:
        raise enum_error("工具", tool, list(TOOLS))
    if not isinstance(args, dict):
        raise BadInputError(f"{tool} 的参数必须是对象")
    try:
        return TOOLS[tool].args_model.model_validate(args)
    except ValidationError as exc:
        raise BadInputError(f"{tool} 参数无效：{_message(exc)}") from None


def has_refs(args: dict) -> bool:
    vals = args.get("doc_ids") if isinstance(args.get("doc_ids"), list) else [args.get("doc_id")]
    return any(isinstance(v, str) and REF.fullmatch(v) for v in vals)


_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="task-tool")


def run_tool(ctx: ToolContext, tool: str, args: dict, *, timeout_s: float | None = None) -> dict:
    """Validate and run one call under its timeout (the tool's own, or less when the task's
    deadline is nearer). Raises BadInputError / NotFoundError / ToolTimeout / AppError."""
    parsed = validate_args(tool, args)
    if has_refs(parsed.model_dump()):
        raise BadInputError(f"{tool} 的参数引用了尚未得到的前序结果")
    t = TOOLS[tool]
    limit = t.timeout_s if timeout_s is None else max(0.001, min(t.timeout_s, timeout_s))
    started = time.perf_counter()
    future = _POOL.submit(t.fn, ctx, parsed)
    try:
        return future.result(timeout=limit)
    except FutureTimeout:
        future.cancel()
        raise ToolTimeout(f"{tool} 超过 {limit:g} 秒未完成，已中止",
                          detail=f"{(time.perf_counter() - started):.2f}s") from None


def catalog_text() -> str:
    """The tool catalog for the LLM planner, generated from the argument schemas."""
    lines = []
    for t in TOOLS.values():
        props = t.args_model.model_json_schema().get("properties", {})
        req = set(t.args_model.model_json_schema().get("required", []))
        args = "；".join(f"{k}{'' if k in req else '（可选）'}：{v.get('description', '')}" for k, v in props.items())
        lines.append(f"- {t.name}：{t.description}。参数：{args}")
    return "\n".join(lines)
