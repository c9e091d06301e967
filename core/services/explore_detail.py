"""The graph explorer's detail panel (:func:`core.services.explore.node_detail`,
``edge_detail``, ``ask_about``): a node's or relationship's visible properties, provenance, the
source spreadsheet row masked for the role, and the questions "问这个" suggests."""

from __future__ import annotations

from collections import Counter

from core.errors import AppError, NotFoundError
from core.graph.schema import NODE_BY_LABEL
from core.security.principals import Principal
from core.services.explore_reads import (_hop, _node_exists, _node_out, _refuse_locked, _resolve_id, _store, locked,
                                         parse_edge_id, parse_node_id)


def _source(principal: Principal, prov: list[dict]) -> tuple[dict | None, str]:
    from core.services.ask_kg import source_row

    if not prov:
        return None, "该记录没有来源表格行"
    p = prov[0]
    try:
        return source_row(principal, p["template"], p["file"], p["row"]), ""
    except AppError as exc:
        return None, exc.user_message


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
