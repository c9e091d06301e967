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
- a label whose data belongs to an intent the role may not query (:data:`LOCKED_LABELS`: 财务
  needs 收费 and 工资, so staff and guests lack it) is drawn as a locked node: its label and
  month only, no properties, no provenance, no source row, and it cannot be expanded, opened
  or used as a path end; edges touching it carry no provenance either. Decision: the node
  stays visible (the structure of the graph is the same for every role, as in the answers
  "无权查询" is said rather than pretending nothing exists), its values never leave core.

Every user action (search, open, expand, detail with its source row, path, schema view) is one
``explore.*`` event of the audit trail, with the tenant, the parameters and what the viewer was
shown (names as the viewer saw them, no property values, the search text with PII masked); a
refusal is recorded too. A page redraw repeats the same read: a read identical to one the same
user made within :data:`AUDIT_REPEAT_S` seconds is not recorded again.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import re
import threading
import time
from collections import Counter
from typing import Any, Iterable

from core.errors import AppError, BadInputError, NotFoundError, PermissionDenied
from core.graph import queries as Q
from core.graph.schema import (DISPLAY, LABEL_COLORS, LABEL_ICONS, LABELS, MONTHLY_LABELS, NODE_BY_LABEL, PROVENANCE,
                               REL_TYPES, SYNTHETIC_KEY)
from core.security.principals import Principal

DEFAULT_NODE_CAP = 150
MAX_NODE_CAP = 2000
DEFAULT_BUNDLE_OVER = 8
MAX_DEPTH = 2
MAX_PATH_HOPS = Q.EXPLORE_MAX_HOPS
#: label -> the KG intents a role must hold to see that label's values
LOCKED_LABELS: dict[str, tuple[str, ...]] = {"财务": ("收费", "工资")}
_YM = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
_EDGE = re.compile(r"^(?P<s>.+?)-\[(?P<t>[^\]]+)\]->(?P<d>.+?)(?:#(?P<m>\d{4}-\d{2}))?$")
_CHUNK = 1000
#: digit runs shaped like a phone, ID or bank-card number (masked in the audited search text)
_LONG_NUMBER = re.compile(r"\d{11,}[\dXx]?")
#: a read repeated with the same parameters by the same user within this many seconds (the page
#: drawing itself again) is recorded once
AUDIT_REPEAT_S = 600.0
_recorded: dict[tuple, float] = {}
_recorded_lock = threading.Lock()


# ---- ids --------------------------------------------------------------------------------
def node_id(label: str, key: Any) -> str:
    return f"{label}:{key}"


def parse_node_id(text: str) -> tuple[str, str]:
    """``(label, key)`` of ``标签:主键``; a bare key is not accepted here (see :func:`_resolve_id`)."""
    text = str(text or "").strip()
    label, sep, key = text.partition(":")
    if not sep or label not in NODE_BY_LABEL or not key:
        raise BadInputError(f"节点编号“{text}”应写成 标签:主键，例如 项目:XMSQ0102 或 人员:KWL2307024；"
                            f"标签可选：{'、'.join(LABELS)}")
    return label, key


def edge_id(source: str, rel: str, target: str, start: str | None = None) -> str:
    return f"{source}-[{rel}]->{target}" + (f"#{start}" if start else "")


def parse_edge_id(text: str) -> tuple[str, str, str, str | None]:
    m = _EDGE.match(str(text or "").strip())
    if not m or m.group("t") not in REL_TYPES:
        raise BadInputError(f"关系编号“{text}”应写成 起点-[关系]->终点，例如 人员:KWL2307024-[服务于]->项目:XMSQ0102")
    return m.group("s"), m.group("t"), m.group("d"), m.group("m")


# ---- who may see what ------------------------------------------------------------------
def _check(principal: Principal) -> None:
    from core.agents.runtime import check_principal
    from core.security.permissions import MATRIX

    check_principal(principal)
    if not MATRIX.get(principal.role):
        raise PermissionDenied("您的角色不能浏览业务图谱（图谱浏览供可以使用图谱问答的角色使用）")


def locked(principal: Principal, label: str) -> bool:
    """True when ``principal`` may not see the values of ``label`` nodes."""
    from core.security.permissions import allowed_intent

    return any(not allowed_intent(principal, intent) for intent in LOCKED_LABELS.get(label, ()))


def _refuse_locked(label: str) -> PermissionDenied:
    return PermissionDenied(f"您的角色无权查看“{label}”类记录的内容（需要{'、'.join(LOCKED_LABELS[label])}权限），"
                            "请选择其他节点，或联系管理员")


def _store(principal: Principal):
    from core.services.ask_kg import kg_store

    return kg_store(principal)


def legend() -> list[dict]:
    """Every label with its colour and icon (the page's legend), from the schema module."""
    return [{"label": lb, "color": LABEL_COLORS[lb], "icon": LABEL_ICONS[lb]} for lb in LABELS]


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


# ---- reading the graph ------------------------------------------------------------------
def _months(months: Any) -> tuple[str, str]:
    """``(从, 到)`` from None, ``"2026-01:2026-03"``, ``"2026-03"`` or a pair."""
    if not months:
        return Q.YM_MIN, Q.YM_MAX
    if isinstance(months, str):
        parts = [p.strip() for p in months.split(":")]
        parts = parts if len(parts) == 2 else [parts[0], parts[0]] if len(parts) == 1 else []
    else:
        parts = [str(p or "").strip() for p in months]
    if len(parts) != 2:
        raise BadInputError(f"月份范围“{months}”应写成 2026-01:2026-03")
    lo, hi = parts[0] or Q.YM_MIN, parts[1] or Q.YM_MAX
    for p, d in ((lo, Q.YM_MIN), (hi, Q.YM_MAX)):
        if p != d and not _YM.match(p):
            raise BadInputError(f"月份“{p}”应写成 YYYY-MM，例如 2026-03")
    if lo > hi:
        raise BadInputError(f"月份范围的开始 {lo} 晚于结束 {hi}")
    return lo, hi


def _check_filters(labels, rels) -> tuple[list[str], list[str]]:
    labels, rels = [str(x) for x in labels or ()], [str(x) for x in rels or ()]
    for lb in labels:
        if lb not in NODE_BY_LABEL:
            raise BadInputError(f"未知节点标签“{lb}”，可选：{'、'.join(LABELS)}")
    for r in rels:
        if r not in REL_TYPES:
            raise BadInputError(f"未知关系类型“{r}”，可选：{'、'.join(REL_TYPES)}")
    return labels, rels


def _run(store, kind: str, label: str, params: dict, labels=(), rels=(), months=(Q.YM_MIN, Q.YM_MAX)) -> list[dict]:
    """``explore_<kind>:<label>`` with the filters, or its unfiltered twin ``explore_<kind>_all``
    when none is set (LadybugDB evaluates even empty filters on every edge)."""
    if not labels and not rels and tuple(months) == (Q.YM_MIN, Q.YM_MAX):
        return store.run_named(f"explore_{kind}_all:{label}", params)
    return store.run_named(f"explore_{kind}:{label}", {**params, "关系列表": list(rels), "标签列表": list(labels),
                                                         "从": months[0], "到": months[1]})


def _hop(store, frontier: dict[str, set[str]], *, labels=(), rels=(), months=(Q.YM_MIN, Q.YM_MAX)) -> list[dict]:
    """Every edge of the frontier nodes (grouped by label) with its other end, one dict each."""
    out = []
    for label, keys in frontier.items():
        keys = sorted(keys)
        for i in range(0, len(keys), _CHUNK):
            rows = _run(store, "edges", label, {"键列表": keys[i:i + _CHUNK]}, labels, rels, months)
            for r in rows:
                me, other = node_id(label, r["键"]), node_id(r["对端标签"], r["对端键"])
                src, dst = (me, other) if r["方向"] == "出" else (other, me)
                out.append({"from": me, "other": other, "other_label": r["对端标签"], "other_key": str(r["对端键"]),
                            "other_name": r.get("对端显示名"), "other_ym": r.get("对端年月"),
                            "edge": {"id": edge_id(src, r["关系"], dst, r.get("开始") if r["关系"] == "服务于" else None),
                                     "type": r["关系"], "source": src, "target": dst,
                                     "properties": {k: r[k] for k in ("开始", "结束", "依据", "备注")
                                                    if r.get(k) not in (None, "")},
                                     "provenance": _prov(r)}})
    return out


def _prov(row: dict) -> list[dict]:
    if not row.get("来源模板"):
        return []
    return [{"template": row["来源模板"], "file": row.get("来源文件"), "row": row.get("行号")}]


def _properties(store, principal: Principal, label: str, keys: Iterable[str]) -> dict[str, dict]:
    """key -> the node's record (sensitive fields removed for the role); empty for locked labels."""
    from core.security.masking import strip_sensitive

    keys = sorted(set(keys))
    if not keys or locked(principal, label):
        return {}
    pk = NODE_BY_LABEL[label].pk
    out = {}
    for i in range(0, len(keys), _CHUNK):
        rows = store.run_named(f"explore_nodes:{label}", {"键列表": keys[i:i + _CHUNK]})
        rows, _ = strip_sensitive(rows, principal)
        for r in rows:
            out[str(r[pk])] = r
    return out


def _node_out(principal: Principal, label: str, key: str, rec: dict | None, *, name: str | None = None,
              ym: str | None = None, depth: int = 0) -> dict:
    is_locked = locked(principal, label)
    rec = rec or {}
    if is_locked:
        shown = f"{label} {ym}" if ym else label
        props, prov = {}, []
    else:
        shown = str(rec.get(DISPLAY) or name or key)
        skip = set(PROVENANCE) | {DISPLAY, SYNTHETIC_KEY}
        props = {k: v for k, v in rec.items() if k not in skip and v not in (None, "")}
        prov = _prov(rec)
    return {"id": node_id(label, key), "label": label, "name": shown, "key": "" if is_locked else key,
            "properties": props, "provenance": prov, "depth": depth, "locked": is_locked,
            "expandable": not is_locked, "color": LABEL_COLORS[label], "icon": LABEL_ICONS[label]}


def _node_exists(store, principal: Principal, label: str, key: str) -> dict:
    rows = store.run_named(f"explore_nodes:{label}", {"键列表": [key]})
    if not rows:
        raise NotFoundError(f"图谱中没有该节点（{label} {key}），请先搜索再打开")
    if locked(principal, label):
        raise _refuse_locked(label)
    from core.security.masking import strip_sensitive

    return strip_sensitive(rows, principal)[0][0]


def _resolve_id(store, text: str) -> tuple[str, str]:
    """``标签:主键``, or a bare 项目编号 / 工号 / 片区编号 / 供应商名称 (CLI convenience)."""
    text = str(text or "").strip()
    label = text.partition(":")[0]
    if label in NODE_BY_LABEL:
        return parse_node_id(text)
    for lb in ("项目", "人员", "片区", "供应商"):
        if store.run_named(f"explore_nodes:{lb}", {"键列表": [text]}):
            return lb, text
    return parse_node_id(text)  # raises with the format explained


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


def _by_label(principal: Principal, found: dict, ids: Iterable[str]) -> dict[str, list[str]]:
    """label -> keys of the ``ids`` the role may expand (locked labels left out)."""
    groups: dict[str, list[str]] = {}
    for nid in ids:
        if not locked(principal, found[nid]["label"]):
            groups.setdefault(found[nid]["label"], []).append(found[nid]["key"])
    return groups


def _grow(store, principal: Principal, found: dict, edges: dict, frontier: list[str], *, claim: bool = False,
          **filters) -> list[str]:
    """One full hop (every edge with its provenance) from ``frontier``; returns the new node ids."""
    new = []
    for h in _hop(store, _by_label(principal, found, frontier), **filters):
        edges.setdefault(h["edge"]["id"], h["edge"])
        if h["other"] not in found:
            found[h["other"]] = {"label": h["other_label"], "key": h["other_key"], "name": h["other_name"],
                                 "ym": h["other_ym"], "depth": found[h["from"]]["depth"] + 1, "via": h["from"],
                                 "root": False}
            new.append(h["other"])
        elif claim and not found[h["other"]]["root"] and h["other_label"] in MONTHLY_LABELS:
            found[h["other"]]["via"] = h["from"]  # an opened node shows its own monthly records
    return new


def _open_nodes(store, principal: Principal, found: dict, expand: list[str], cid: str, depth: int) -> list[str]:
    """The nodes the user opened: drawn ones, or (depth 2) ones of the far ring not yet fetched."""
    opened = []
    for x in dict.fromkeys(expand):
        if x == cid:
            continue
        if x not in found and depth == 2:
            label, key = parse_node_id(x)
            if locked(principal, label) or not store.run_named(f"explore_nodes:{label}", {"键列表": [key]}):
                continue
            found[x] = {"label": label, "key": key, "name": None, "ym": None, "depth": 2, "via": None, "root": True}
        if x in found:
            found[x]["root"] = True
            opened.append(x)
    return opened


def _far_ring(store, principal: Principal, found: dict, frontier: list[str], *, limit: int, bundle_over: int | None,
              open_set: set[str], filters: dict) -> dict:
    """Depth 2 without fetching every edge of the frontier: the far nodes counted per (label,
    first frontier node reaching them) in Cypher, bundles made from those counts, and only the
    first ``limit`` far nodes in drawing order listed (added to ``found``)."""
    base = {"已有": list(found)}
    groups = _by_label(principal, found, frontier)
    ring = {"bundles": {}, "total": 0, "unlisted": Counter()}
    individual: Counter = Counter()
    for label, keys in groups.items():
        one_by_one = []
        for r in _run(store, "reach_counts", label, {**base, "键列表": keys}, **filters):
            via, lb, n = node_id(label, r["经由"]), r["对端标签"], int(r["数量"])
            ring["total"] += n
            bid = f"合并:{via}:{lb}"
            if lb in MONTHLY_LABELS and bundle_over is not None and n > bundle_over and bid not in open_set:
                ring["bundles"][bid] = {"id": bid, "label": lb, "via": via, "count": n, "rel": r["关系"],
                                        "name": f"+{n} 条{lb.replace('月报', '')}记录", "members": [],
                                        "months": [r["起"], r["止"]] if r["起"] else []}
                continue
            individual[lb] += n
            if lb in MONTHLY_LABELS:
                one_by_one.append(f"{lb}|{r['经由']}")
        for r in _run(store, "reach", label, {**base, "键列表": keys, "逐条": one_by_one, "上限": limit}, **filters):
            nid = node_id(r["对端标签"], r["对端键"])
            if nid not in found:
                found[nid] = {"label": r["对端标签"], "key": str(r["对端键"]), "name": r["对端显示名"],
                              "ym": r["对端年月"], "depth": 2, "via": node_id(label, r["经由"]), "root": False, "far": True}
                individual[r["对端标签"]] -= 1
    ring["unlisted"] = +individual
    return ring


def _ring_edges(store, principal: Principal, found: dict, frontier: list[str], kept: set[str], filters: dict) -> dict:
    """The edges between kept frontier nodes and kept far nodes, parallel edges folded (条数)."""
    far = [n for n in kept if n in found and found[n].get("far")]
    groups = _by_label(principal, found, [n for n in frontier if n in kept])
    out: dict[str, dict] = {}
    for label, keys in groups.items() if far else ():
        for r in _run(store, "ring_edges", label, {"键列表": keys, "对端列表": far}, **filters):
            me, other = node_id(label, r["键"]), node_id(r["对端标签"], r["对端键"])
            src, dst = (me, other) if r["方向"] == "出" else (other, me)
            n = int(r["条数"])
            start = r.get("开始") if r["关系"] == "服务于" and n == 1 else None
            props = {"条数": n} if n > 1 else {"开始": r["开始"]} if r.get("开始") else {}
            eid = edge_id(src, r["关系"], dst, start)
            out[eid] = {"id": eid, "type": r["关系"], "source": src, "target": dst, "properties": props,
                        "provenance": _prov(r) if n == 1 else []}
    return out


def _neighbors(principal: Principal, node: str, *, depth: int, labels: Iterable[str], rels: Iterable[str],
               months: Any, limit: int, expand: list[str], open_bundles: list[str], bundle_over: int | None) -> dict:
    t0 = time.perf_counter()
    depth = int(depth)
    if depth < 1 or depth > MAX_DEPTH:
        raise BadInputError(f"展开层数应为 1 到 {MAX_DEPTH}")
    limit = DEFAULT_NODE_CAP if limit is None else int(limit)
    if limit < 1 or limit > MAX_NODE_CAP:
        raise BadInputError(f"最多显示的节点数应在 1 到 {MAX_NODE_CAP} 之间")
    labels, rels = _check_filters(labels, rels)
    filters = {"labels": labels, "rels": rels, "months": _months(months)}
    store = _store(principal)
    c_label, c_key = _resolve_id(store, node)
    center = _node_exists(store, principal, c_label, c_key)
    cid = node_id(c_label, c_key)
    found: dict[str, dict] = {cid: {"label": c_label, "key": c_key, "name": center.get(DISPLAY), "ym": center.get("年月"),
                                    "depth": 0, "via": None, "root": True}}
    edges: dict[str, dict] = {}
    frontier = _grow(store, principal, found, edges, [cid], **filters)
    opened = _open_nodes(store, principal, found, expand, cid, depth)
    if opened:
        _grow(store, principal, found, edges, opened, claim=True, **filters)
    open_set = set(open_bundles)
    ring = {"bundles": {}, "total": 0, "unlisted": Counter()}
    if depth == 2:
        ring = _far_ring(store, principal, found, frontier, limit=limit, bundle_over=bundle_over, open_set=open_set,
                         filters=filters)
    bundles, bundled = _bundles(found, bundle_over, open_set)
    bundles.update(ring["bundles"])
    kept, hidden = _cap(found, bundles, bundled, cid, limit)
    hidden.update(ring["unlisted"])
    if depth == 2:
        edges.update(_ring_edges(store, principal, found, frontier, set(kept), filters))
    nodes_out = _nodes_out(store, principal, found, bundles, kept)
    edges_out = _edges_out(principal, found, edges, bundles, bundled, set(kept))
    listed = sum(1 for n in found.values() if n.get("far"))
    return {"center": cid, "nodes": nodes_out, "edges": edges_out, "total_nodes": len(found) - listed + ring["total"],
            "shown_nodes": sum(1 for n in nodes_out if not n.get("bundle")),
            "bundled_nodes": sum(bundles[b]["count"] for b in kept if b in bundles),
            "truncated": bool(sum(hidden.values())), "hidden_by_label": dict(hidden),
            "bundles": [{k: v for k, v in bundles[b].items() if k not in ("members", "rel")} for b in kept if b in bundles],
            "latency_ms": round((time.perf_counter() - t0) * 1000, 1)}


def _bundles(found: dict, bundle_over: int | None, open_set: set[str]) -> tuple[dict, dict]:
    """Many monthly records hanging off one node become one "+N 条…记录" node: ``(bundles,
    {member id: bundle id})``."""
    bundled: dict[str, str] = {}
    bundles: dict[str, dict] = {}
    if bundle_over is None:
        return bundles, bundled
    groups: dict[tuple[str, str], list[str]] = {}
    for nid, info in found.items():
        if info["label"] in MONTHLY_LABELS and not info["root"] and info["via"]:
            groups.setdefault((info["via"], info["label"]), []).append(nid)
    for (via, label), members in groups.items():
        bid = f"合并:{via}:{label}"
        if len(members) > bundle_over and bid not in open_set:
            yms = sorted(found[m]["ym"] for m in members if found[m]["ym"])
            bundles[bid] = {"id": bid, "label": label, "via": via, "count": len(members),
                            "name": f"+{len(members)} 条{label.replace('月报', '')}记录",
                            "months": [yms[0], yms[-1]] if yms else [], "members": sorted(members)}
            for m in members:
                bundled[m] = bid
    return bundles, bundled


def _cap(found: dict, bundles: dict, bundled: dict, cid: str, limit: int) -> tuple[list[str], Counter]:
    """The drawn ids (roots first, nearer before farther, structure before monthly records) and
    the left-out ones counted by label."""
    def order(nid: str) -> tuple:
        info = found[nid] if nid in found else found[bundles[nid]["via"]]
        d = info["depth"] + (1 if nid in bundles else 0)
        return (0 if nid == cid else 1 if info.get("root") and nid in found else 2, d,
                nid in bundles or info["label"] in MONTHLY_LABELS, LABELS.index(
                    bundles[nid]["label"] if nid in bundles else info["label"]), str(info.get("name") or nid))

    candidates = sorted([n for n in found if n not in bundled] + list(bundles), key=order)
    hidden = Counter((bundles[n]["label"] if n in bundles else found[n]["label"]) for n in candidates[limit:])
    return candidates[:limit], hidden


def _nodes_out(store, principal: Principal, found: dict, bundles: dict, kept: list[str]) -> list[dict]:
    by_label: dict[str, set[str]] = {}
    for n in kept:
        if n in found:
            by_label.setdefault(found[n]["label"], set()).add(found[n]["key"])
    props = {lb: _properties(store, principal, lb, keys) for lb, keys in by_label.items()}
    out = []
    for n in kept:
        if n in bundles:
            b = bundles[n]
            out.append({"id": n, "label": b["label"], "name": b["name"], "key": "", "properties": {
                "条数": b["count"], **({"年月": f"{b['months'][0]} 至 {b['months'][1]}"} if b["months"] else {})},
                "provenance": [], "depth": found[b["via"]]["depth"] + 1, "locked": locked(principal, b["label"]),
                "expandable": False, "bundle": True, "count": b["count"], "color": LABEL_COLORS[b["label"]],
                "icon": LABEL_ICONS[b["label"]]})
            continue
        info = found[n]
        out.append(_node_out(principal, info["label"], info["key"], props[info["label"]].get(info["key"]),
                             name=info["name"], ym=info["ym"], depth=info["depth"]))
        out[-1]["expanded"] = bool(info["root"])
    return out


def _edges_out(principal: Principal, found: dict, edges: dict, bundles: dict, bundled: dict, kept: set[str]) -> list:
    out, bundle_edges = [], {}
    for e in edges.values():
        s, t = bundled.get(e["source"], e["source"]), bundled.get(e["target"], e["target"])
        if s not in kept or t not in kept or s == t:
            continue
        if s in bundles or t in bundles:
            bid, other = (s, t) if s in bundles else (t, s)
            if other != bundles[bid]["via"]:
                continue  # a bundled record's other links are summarised by the bundle
            be = bundle_edges.setdefault(bid, {"id": f"{bid}-[{e['type']}]", "type": e["type"], "source": s, "target": t,
                                               "properties": {"条数": 0}, "provenance": [], "bundle": True})
            be["properties"]["条数"] += 1
            continue
        out.append(_edge_out(principal, e, found))
    for bid, b in bundles.items():  # bundles of the far ring: counted in Cypher, no member edges fetched
        if bid in kept and "rel" in b:
            ends = _bundle_ends(found[b["via"]]["label"], b["label"], b["rel"])
            s, t = (b["via"], bid) if ends else (bid, b["via"])
            bundle_edges[bid] = {"id": f"{bid}-[{b['rel']}]", "type": b["rel"], "source": s, "target": t,
                                 "properties": {"条数": b["count"]}, "provenance": [], "bundle": True}
    return sorted(out, key=lambda e: e["id"]) + sorted(bundle_edges.values(), key=lambda e: e["id"])


def _bundle_ends(via_label: str, label: str, rel: str) -> bool:
    """True when ``rel`` runs from ``via_label`` to ``label`` in the schema."""
    from core.graph.schema import REL_BY_TYPE

    return (via_label, label) in REL_BY_TYPE[rel].pairs if rel in REL_BY_TYPE else True


def _edge_out(principal: Principal, e: dict, found: dict) -> dict:
    ends = [found.get(e["source"], {}).get("label") or parse_node_id(e["source"])[0],
            found.get(e["target"], {}).get("label") or parse_node_id(e["target"])[0]]
    closed = any(locked(principal, lb) for lb in ends)
    return {**e, "provenance": [] if closed else e["provenance"], "locked": closed}


# ---- detail panel ----------------------------------------------------------------------------
def _source(principal: Principal, prov: list[dict]) -> tuple[dict | None, str]:
    from core.errors import AppError
    from core.services.ask_kg import source_row

    if not prov:
        return None, "该记录没有来源表格行"
    p = prov[0]
    try:
        return source_row(principal, p["template"], p["file"], p["row"]), ""
    except AppError as exc:
        return None, exc.user_message


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


def _node_detail(principal: Principal, node: str, *, with_source: bool) -> dict:
    from core.security.masking import hidden_fields

    store = _store(principal)
    label, key = _resolve_id(store, node)
    rec = _node_exists(store, principal, label, key)
    out = _node_out(principal, label, key, rec)
    out["masked_fields"] = [f for f in hidden_fields(principal) if f in NODE_BY_LABEL[label].property_names]
    rels = Counter((h["edge"]["type"], h["other_label"]) for h in _hop(store, {label: {key}}))
    out["relations"] = [{"type": t, "label": lb, "count": n} for (t, lb), n in sorted(rels.items())]
    out["source"], out["source_note"] = _source(principal, out["provenance"]) if with_source else (None, "")
    return out


def edge_detail(principal: Principal, edge: str, *, with_source: bool = True) -> dict:
    """One relationship for the detail panel: type, ends, properties, provenance, source row
    (recorded as ``explore.detail``)."""
    with _audited(principal, "detail", str(edge or "").strip(), {"with_source": with_source}) as shown:
        _check(principal)
        out = _edge_detail(principal, edge, with_source=with_source)
        _record_detail(shown, f"{out['source_name']} —{out['type']}→ {out['target_name']}", out["source_row"])
    return out


def _edge_detail(principal: Principal, edge: str, *, with_source: bool) -> dict:
    src, rel, dst, start = parse_edge_id(edge)
    store = _store(principal)
    s_label, s_key = parse_node_id(src)
    t_label, _ = parse_node_id(dst)
    if locked(principal, s_label):
        raise _refuse_locked(s_label)
    if locked(principal, t_label):
        raise _refuse_locked(t_label)
    for h in _hop(store, {s_label: {s_key}}, rels=[rel]):
        e = h["edge"]
        if e["source"] == src and e["target"] == dst and (start is None or e["properties"].get("开始") == start):
            names = {h["from"]: None, h["other"]: h["other_name"]}
            out = {**e, "locked": False, "source_name": names.get(src) or _name_of(store, principal, src),
                   "target_name": names.get(dst) or _name_of(store, principal, dst)}
            out["source_row"], out["source_note"] = _source(principal, e["provenance"]) if with_source else (None, "")
            return out
    raise NotFoundError("图谱中没有该关系，请重新打开节点后再选择")


def _name_of(store, principal: Principal, nid: str) -> str:
    label, key = parse_node_id(nid)
    rows = store.run_named(f"explore_nodes:{label}", {"键列表": [key]})
    return _node_out(principal, label, key, rows[0] if rows else None)["name"]


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


def _shortest_path(principal: Principal, source: str, target: str, *, max_hops: int) -> dict:
    max_hops = int(max_hops)
    if max_hops < 1 or max_hops > MAX_PATH_HOPS:
        raise BadInputError(f"最多跳数应为 1 到 {MAX_PATH_HOPS}")
    store = _store(principal)
    a, b = _resolve_id(store, source), _resolve_id(store, target)
    _node_exists(store, principal, *a)
    _node_exists(store, principal, *b)
    aid, bid = node_id(*a), node_id(*b)
    info: dict[str, dict] = {aid: {"label": a[0], "key": a[1]}, bid: {"label": b[0], "key": b[1]}}
    parent = [{aid: None}, {bid: None}]  # per side: node -> (previous node, edge)
    frontier = [[aid], [bid]]
    hops = [0, 0]
    meet = aid if aid == bid else None
    while meet is None and sum(hops) < max_hops and frontier[0] and frontier[1]:
        side = 0 if len(frontier[0]) <= len(frontier[1]) else 1
        groups: dict[str, set[str]] = {}
        for nid in frontier[side]:
            if not locked(principal, info[nid]["label"]):
                groups.setdefault(info[nid]["label"], set()).add(info[nid]["key"])
        nxt = []
        for h in _hop(store, groups):
            o = h["other"]
            info.setdefault(o, {"label": h["other_label"], "key": h["other_key"]})
            if o in parent[side]:
                continue
            parent[side][o] = (h["from"], h["edge"])
            nxt.append(o)
            if o in parent[1 - side] and meet is None:
                meet = o
        frontier[side] = nxt
        hops[side] += 1
    if meet is None:
        return {"nodes": [], "edges": [], "hops": None}
    chain_a, chain_b, edges = [], [], []
    x = meet
    while parent[0][x] is not None:
        prev, e = parent[0][x]
        chain_a.append(prev)
        edges.insert(0, e)
        x = prev
    x = meet
    while parent[1][x] is not None:
        prev, e = parent[1][x]
        chain_b.append(prev)
        edges.append(e)
        x = prev
    ids = list(reversed(chain_a)) + [meet] + chain_b
    by_label: dict[str, set[str]] = {}
    for n in ids:
        by_label.setdefault(info[n]["label"], set()).add(info[n]["key"])
    props = {lb: _properties(store, principal, lb, keys) for lb, keys in by_label.items()}
    nodes = [_node_out(principal, info[n]["label"], info[n]["key"], props[info[n]["label"]].get(info[n]["key"]),
                       depth=i) for i, n in enumerate(ids)]
    return {"nodes": nodes, "edges": [_edge_out(principal, e, info) for e in edges], "hops": len(edges)}


# ---- page helpers ----------------------------------------------------------------------------------
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


def _questions(d: dict) -> dict:
    p, label = d["properties"], d["label"]
    if label == "项目":
        name = p.get("项目名称") or d["name"]
        qs = [f"{name}有哪些在岗人员？", f"{name}的考勤情况", f"{name}有哪些设备？"]
    elif label == "人员":
        name = p.get("姓名") or d["name"]
        qs = [f"{name}服务过哪些项目？", f"{name}的考勤情况", f"{name}持有哪些证书？"]
    elif label == "片区":
        name = p.get("片区名称") or d["name"]
        qs = [f"{name}有哪些项目？", f"{name}的负责人是谁？"]
    else:
        project = p.get("项目编号")
        name = d["name"]
        qs = [f"{project}的{label}情况"] if project else [f"{name}的情况"]
    return {"id": d["id"], "name": str(name), "questions": qs}
