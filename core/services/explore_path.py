"""Shortest paths for the graph explorer (:func:`core.services.explore.shortest_path`): a
bidirectional breadth-first search over the named ``explore_edges:*`` queries (so LadybugDB
and Neo4j answer alike) that never walks through records the role may not see."""

from __future__ import annotations

from core.errors import BadInputError
from core.graph import queries as Q
from core.security.principals import Principal
from core.services.explore_reads import (_edge_out, _hop, _node_exists, _node_out, _properties, _resolve_id, _store,
                                         locked, node_id)

MAX_PATH_HOPS = Q.EXPLORE_MAX_HOPS


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
