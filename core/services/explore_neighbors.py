"""An entity's neighbourhood for the graph explorer (:func:`core.services.explore.neighbors`):
one or two hops with label, relationship and month filters, the far ring counted in Cypher
rather than fetched edge by edge, many monthly records on one node bundled into one
"+N 条…记录" node, and the cap on the nodes drawn."""

from __future__ import annotations

import re
import time
from collections import Counter
from typing import Any, Iterable

from core.errors import BadInputError
from core.graph import queries as Q
from core.graph.schema import DISPLAY, LABEL_COLORS, LABEL_ICONS, LABELS, MONTHLY_LABELS, NODE_BY_LABEL, REL_TYPES
from core.security.principals import Principal
from core.services.explore_reads import (_edge_out, _hop, _node_exists, _node_out, _prov, _properties, _resolve_id,
                                         _run, _store, edge_id, locked, node_id, parse_node_id)

DEFAULT_NODE_CAP = 150
MAX_NODE_CAP = 2000
MAX_DEPTH = 2
_YM = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


# ---- filters ------------------------------------------------------------------------------
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


# ---- growing the neighbourhood -----------------------------------------------------------
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


# ---- bundling, capping and drawing -------------------------------------------------------
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
