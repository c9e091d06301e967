"""Graph explorer (图谱浏览): the API the page 图谱浏览 and the CLI ``graph`` commands call.

Everything reads the asker's own tenant graph (``core.services.ask_kg.kg_store``) through the
named, read-only ``explore_*`` queries of :mod:`core.graph.queries`, so both backends answer
the same and another tenant's data is simply "no data".

Nodes are addressed as ``标签:主键`` (``项目:XMSQ0102``, ``人员:KWL2307024``, ``考勤:KWL…|XMSQ…|2026-03``),
edges as ``起点-[关系]->终点`` (``#开始`` appended for the period edges 服务于).

Masking and permissions (the same trust boundary as 图谱问答):

- only roles that may ask KG questions may explore (a reviewer is refused);
- sensitive fields (``core.graph.schema.SENSITIVE_FIELDS``) are removed from every node's
  properties for roles without 工资, and masked in source rows (``ask_kg.source_row``);
- a label whose data belongs to an intent the role may not query
  (``explore_reads.LOCKED_LABELS``: 财务 needs 收费 and 工资, so staff and guests lack it) is
  drawn as a locked node: its label and month only, no properties, no provenance, no source
  row, and it cannot be expanded, opened or used as a path end; edges touching it carry no
  provenance either. Decision: the node
  stays visible (the structure of the graph is the same for every role, as in the answers
  "无权查询" is said rather than pretending nothing exists), its values never leave core.

Every user action (search, open, expand, detail with its source row, path, schema view) is one
``explore.*`` event of the audit trail, with the tenant, the parameters and what the viewer was
shown (names as the viewer saw them, no property values, the search text with PII masked); a
refusal is recorded too. A page redraw repeats the same read: a read identical to one the same
user made within :data:`AUDIT_REPEAT_S` seconds is not recorded again.

This module is that API and its audit trail; each view's work lives in a module of its own:
``explore_reads`` (ids, locked labels, the masked reads every view uses), ``explore_neighbors``
(the neighbourhood, bundles and the drawing cap), ``explore_path`` (shortest paths) and
``explore_detail`` (the detail panel).
"""

from __future__ import annotations

import contextlib
import difflib
import json
import re
import threading
import time
from typing import Any, Iterable

from core.errors import AppError, PermissionDenied
from core.graph import queries as Q
from core.graph.schema import LABEL_COLORS, LABEL_ICONS, LABELS, NODE_BY_LABEL, REL_TYPES
from core.security.principals import Principal
from core.services.explore_detail import _edge_detail, _node_detail, _questions
from core.services.explore_neighbors import DEFAULT_NODE_CAP, MAX_NODE_CAP, _neighbors
from core.services.explore_path import MAX_PATH_HOPS, _shortest_path
from core.services.explore_reads import _store, node_id

#: what the page 图谱浏览 and the CLI ``graph`` commands use (the limits and the relationship
#: types its filters offer included)
__all__ = ["DEFAULT_BUNDLE_OVER", "DEFAULT_NODE_CAP", "MAX_NODE_CAP", "MAX_PATH_HOPS", "REL_TYPES", "ask_about",
           "edge_detail", "legend", "months_available", "neighbors", "node_detail", "schema_view", "search",
           "shortest_path"]

DEFAULT_BUNDLE_OVER = 8
#: digit runs shaped like a phone, ID or bank-card number (masked in the audited search text)
_LONG_NUMBER = re.compile(r"\d{11,}[\dXx]?")
#: a read repeated with the same parameters by the same user within this many seconds (the page
#: drawing itself again) is recorded once
AUDIT_REPEAT_S = 600.0
_recorded: dict[tuple, float] = {}
_recorded_lock = threading.Lock()


# ---- who may explore ----------------------------------------------------------------------
def _check(principal: Principal) -> None:
    from core.agents.runtime import check_principal
    from core.security.permissions import MATRIX

    check_principal(principal)
    if not MATRIX.get(principal.role):
        raise PermissionDenied("您的角色不能浏览业务图谱（图谱浏览供可以使用图谱问答的角色使用）")


# ---- audit trail ----------------------------------------------------------------------
def _fresh(principal: Principal, action: str, target: str, params: dict) -> bool:
    """False when this very read was recorded for this user moments ago (a page redraw)."""
    from core.config import get_settings

    key = (str(get_settings().home), principal.name, action, target,
           json.dumps(params, ensure_ascii=False, sort_keys=True, default=str))
    now = time.monotonic()
    with _recorded_lock:
        if now - _recorded.get(key, -AUDIT_REPEAT_S) < AUDIT_REPEAT_S:
            return False
        if len(_recorded) > 5000:
            for k in [k for k, t in _recorded.items() if now - t >= AUDIT_REPEAT_S] or list(_recorded)[:2500]:
                _recorded.pop(k, None)
        _recorded[key] = now
    return True


@contextlib.contextmanager
def _audited(principal: Principal, action: str, target: str, params: dict):
    """Record one ``explore.<action>`` event for the user action in the ``with`` block: the
    block fills the yielded dict with what the viewer was shown (``summary`` a readable line);
    an AppError is recorded as refused / error and raised on."""
    from core.security.audit import audit
    from core.services.ask_kg import graph_tenant

    shown: dict = {}
    outcome = "error"
    try:
        yield shown
        outcome = "ok"
    except AppError as exc:
        outcome = "refused" if isinstance(exc, PermissionDenied) else "error"
        shown = {"summary": exc.user_message}
        raise
    finally:
        name = getattr(principal, "name", None)
        if name and _fresh(principal, action, target, params):
            try:
                tenant = graph_tenant(principal)
            except AppError:
                tenant = None
            audit(name, f"explore.{action}", target=target, outcome=outcome, tenant=tenant,
                  detail={"role": principal.role.value, **params, **shown})


# ---- search --------------------------------------------------------------------------------
def _score(text: str, variants: Iterable[str]) -> tuple[float, str]:
    from core.agents.kg.entity_index import loose, name_key

    t = name_key(text)
    best = (0.0, "")
    for v in variants:
        if not v:
            continue
        nv = name_key(v)
        if nv == t or loose(nv) == loose(t):
            return 1.0, "exact"
        if len(t) >= 2 and (t in nv or (len(nv) >= 3 and nv in t)):
            s = 0.75 + 0.2 * min(len(t), len(nv)) / max(len(t), len(nv))
        else:
            r = difflib.SequenceMatcher(None, loose(t), loose(nv)).ratio()
            s = r * 0.9 if r >= 0.6 else 0.0
        if s > best[0]:
            best = (s, "contains" if s >= 0.75 else "edit")
    return best


def search(principal: Principal, text: str, *, limit: int = 10) -> dict:
    """Entities matching ``text`` (names, codes, aliases, partial names, typos) in the asker's
    graph: ``{"results": [{"id", "label", "name", "key", "score", "method"}]}``, best first.
    Projects and 片区 come from the KG agent's entity index (aliases, contains, edit
    similarity, then embeddings); people by 工号, name or part of it; 设备 by 编号/名称; 供应商 by name."""
    from core.security.injection import mask_pii

    text = str(text or "").strip()[:100]
    limit = max(1, min(int(limit or 10), 100))
    said = _LONG_NUMBER.sub("***", mask_pii(text))
    with _audited(principal, "search", said, {"limit": limit}) as shown:
        _check(principal)
        results = _search(principal, text, limit) if text else []
        shown.update(found=len(results), top=[f"{r['name']}（{r['label']}）" for r in results[:5]],
                     summary=f"搜索“{said}”：{len(results)} 个结果")
    return {"results": results}


def _search(principal: Principal, text: str, limit: int) -> list[dict]:
    from core.agents.kg.entity_index import get_entity_index

    store = _store(principal)
    index = get_entity_index(store)
    found: dict[str, dict] = {}

    def put(label: str, key: str, name: str, score: float, method: str) -> None:
        nid = node_id(label, key)
        if score > found.get(nid, {}).get("score", 0.0):
            found[nid] = {"id": nid, "label": label, "name": name, "key": key, "score": round(score, 3),
                          "method": method}

    for kind, label in (("project", "项目"), ("area", "片区")):
        for c in index.resolve(kind, text, allow_embedding=False):
            put(label, c.key, c.name, c.score, c.method)
    for c in index.resolve("person", text):
        put("人员", c.key, c.name, c.score, c.method)
    for p in index.people:
        s, how = _score(text, (p.get("姓名"), p.get("工号")))
        if s:
            put("人员", str(p["工号"]), f"{p.get('姓名')}（{p['工号']}）", s * 0.98, how)
    for d in store.run_named("entity_equipment"):
        s, how = _score(text, (d.get("设备编号"), d.get("设备名称")))
        if s:
            put("设备", str(d["键"]), f"{d.get('设备名称') or d.get('设备编号')}（{d.get('项目编号')}）", s * 0.97, how)
    for r in store.run_named("kg_suppliers"):
        s, how = _score(text, (r.get("名称"),))
        if s:
            put("供应商", str(r["名称"]), str(r["名称"]), s * 0.97, how)
    if not found and len(text) >= 4:  # the embedding fallback (paraphrases) only when nothing lexical matched
        for c in index.resolve("project", text, allow_embedding=True):
            if c.score >= 0.5:  # a clear lead over the runner-up (entity_index.EMBED_MARGIN)
                put("项目", c.key, c.name, c.score, c.method)
    results = sorted(found.values(), key=lambda r: (-r["score"], LABELS.index(r["label"]), r["name"]))
    return results[:limit]


# ---- neighbourhood ------------------------------------------------------------------------
def neighbors(principal: Principal, node: str, *, depth: int = 1, labels: Iterable[str] = (),
              rels: Iterable[str] = (), months: Any = None, limit: int = DEFAULT_NODE_CAP,
              expand: Iterable[str] = (), open_bundles: Iterable[str] = (), bundle_over: int | None = None) -> dict:
    """An entity and its neighbourhood, scoped and masked for ``principal``.

    ``depth`` 1–2 hops from ``node``, plus one hop from every id in ``expand`` (nodes the user
    clicked open); ``labels`` / ``rels`` keep only those neighbour labels / relationship types;
    ``months`` (``2026-01:2026-03``) keeps monthly records and period edges in that range.
    At most ``limit`` nodes are drawn (the centre and opened nodes first, nearer before
    farther, structure before monthly records); ``total_nodes`` counts them all and
    ``truncated`` says some were left out. With ``bundle_over``, more than that many monthly
    records (考勤/排班月报/财务) hanging off one node become one bundle node "+37 条考勤记录"
    (listed in ``bundles``; an id in ``open_bundles`` shows that bundle's records instead).
    Recorded in the audit trail as ``explore.open`` (``explore.expand`` with opened nodes or bundles).
    """
    expand, open_bundles = [str(x) for x in expand or ()], [str(x) for x in open_bundles or ()]
    params = {"depth": depth, "labels": list(labels or ()), "rels": list(rels or ()), "months": months,
              "limit": limit, "expanded": expand, "bundles_opened": open_bundles}
    with _audited(principal, "expand" if expand or open_bundles else "open", str(node or "").strip(), params) as shown:
        _check(principal)
        res = _neighbors(principal, node, depth=depth, labels=labels, rels=rels, months=months, limit=limit,
                         expand=expand, open_bundles=open_bundles, bundle_over=bundle_over)
        names = {n["id"]: n["name"] for n in res["nodes"]}
        shown.update(name=names[res["center"]], expanded_names=[names[x] for x in expand if x in names],
                     shown_nodes=res["shown_nodes"], total_nodes=res["total_nodes"], truncated=res["truncated"],
                     latency_ms=res["latency_ms"],
                     summary=f"打开“{names[res['center']]}”：显示 {res['shown_nodes']} / 共 {res['total_nodes']} 个节点")
    return res


# ---- detail panel ----------------------------------------------------------------------------
def _record_detail(shown: dict, name: str, source: dict | None) -> None:
    row = {k: source[k] for k in ("template", "file", "row")} if source else None
    shown.update(name=name, source_row=row, summary=f"查看“{name}”" + (
        f"及来源表格行（{row['template']} · {row['file']} · 第 {row['row']} 行）" if row else ""))


def node_detail(principal: Principal, node: str, *, with_source: bool = True) -> dict:
    """One node for the detail panel: every property the role may see, the fields hidden from
    it, provenance, the source spreadsheet row (masked) and its relationship counts.
    Recorded in the audit trail as ``explore.detail`` (with the source row it served)."""
    with _audited(principal, "detail", str(node or "").strip(), {"with_source": with_source}) as shown:
        _check(principal)
        out = _node_detail(principal, node, with_source=with_source)
        _record_detail(shown, out["name"], out["source"])
    return out


def edge_detail(principal: Principal, edge: str, *, with_source: bool = True) -> dict:
    """One relationship for the detail panel: type, ends, properties, provenance, source row
    (recorded as ``explore.detail``)."""
    with _audited(principal, "detail", str(edge or "").strip(), {"with_source": with_source}) as shown:
        _check(principal)
        out = _edge_detail(principal, edge, with_source=with_source)
        _record_detail(shown, f"{out['source_name']} —{out['type']}→ {out['target_name']}", out["source_row"])
    return out


# ---- schema view ---------------------------------------------------------------------------------
def schema_view(principal: Principal) -> dict:
    """The meta graph (labels and relationship types with counts) and, per label, the share
    of nodes with each field filled (to spot gaps in uploaded spreadsheets); ``explore.schema``."""
    with _audited(principal, "schema", "", {}) as shown:
        _check(principal)
        view = _schema_view(principal)
        shown["summary"] = f"查看图谱结构：{sum(x['count'] for x in view['labels'])} 个节点"
    return view


def _schema_view(principal: Principal) -> dict:
    store = _store(principal)
    meta = store.run_named("explore_meta_edges")
    labels, completeness = [], {}
    for lb in LABELS:
        row = (store.run_named(f"explore_completeness:{lb}") or [{}])[0]
        n = int(row.get("__总数") or 0)
        labels.append({"label": lb, "count": n, "color": LABEL_COLORS[lb], "icon": LABEL_ICONS[lb],
                       "description": NODE_BY_LABEL[lb].description})
        completeness[lb] = [{"field": f, "filled": int(row.get(f) or 0), "share": round((row.get(f) or 0) / n, 3) if n else 0.0}
                            for f in Q.explore_fields(lb)]
    edges = [{"source": r["起点标签"], "type": r["关系"], "target": r["终点标签"], "count": int(r["数量"])} for r in meta]
    return {"labels": labels, "edges": edges, "completeness": completeness,
            "backend": getattr(store, "backend", ""), "empty": not any(x["count"] for x in labels)}


# ---- shortest path ---------------------------------------------------------------------------------
def shortest_path(principal: Principal, source: str, target: str, *, max_hops: int = MAX_PATH_HOPS) -> dict:
    """The shortest path (≤ ``max_hops`` relationships, any direction) between two entities:
    ``{"nodes", "edges", "hops"}``, empty lists when there is none. A bidirectional breadth-first
    search over the named ``explore_edges:*`` queries, so LadybugDB and Neo4j answer alike;
    records the role may not see (locked labels) are not walked through. ``explore.path``."""
    ends = f"{str(source or '').strip()} → {str(target or '').strip()}"
    with _audited(principal, "path", ends, {"max_hops": max_hops}) as shown:
        _check(principal)
        res = _shortest_path(principal, source, target, max_hops=max_hops)
        names = [n["name"] for n in res["nodes"]]
        shown.update(hops=res["hops"], path=names, summary=f"查找路径：{' → '.join(names)}" if names else "查找路径：未找到")
    return res


# ---- page helpers ----------------------------------------------------------------------------------
def legend() -> list[dict]:
    """Every label with its colour and icon (the page's legend), from the schema module."""
    return [{"label": lb, "color": LABEL_COLORS[lb], "icon": LABEL_ICONS[lb]} for lb in LABELS]


def months_available(principal: Principal) -> list[str]:
    """Every 年月 from the earliest to the latest monthly record of the asker's graph."""
    _check(principal)
    row = (_store(principal).run_named("time_coverage") or [{}])[0]
    lo = min((v for k, v in row.items() if k.endswith("起") and v), default=None)
    hi = max((v for k, v in row.items() if k.endswith("止") and v), default=None)
    if not lo or not hi:
        return []
    out, (y, m) = [], map(int, lo.split("-"))
    while f"{y:04d}-{m:02d}" <= hi and len(out) < 600:
        out.append(f"{y:04d}-{m:02d}")
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def ask_about(principal: Principal, node: str) -> dict:
    """What "问这个" hands to 图谱问答: the entity's name as the agent grounds it and a few
    questions about it (``{"id", "name", "questions"}``); ``explore.ask``."""
    with _audited(principal, "ask", str(node or "").strip(), {}) as shown:
        _check(principal)
        d = _node_detail(principal, node, with_source=False)
        shown["summary"] = f"就“{d['name']}”提问"
    return _questions(d)


