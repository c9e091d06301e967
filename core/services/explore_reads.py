"""The graph explorer's reads, which every view of :mod:`core.services.explore` is built from:
node and edge ids, the labels a role may not see (:data:`LOCKED_LABELS`), and the named,
read-only ``explore_*`` queries of :mod:`core.graph.queries` on the asker's own tenant graph,
sensitive fields removed and locked records drawn without their values."""

from __future__ import annotations

import re
from typing import Any, Iterable

from core.errors import BadInputError, NotFoundError, PermissionDenied
from core.graph import queries as Q
from core.graph.schema import (DISPLAY, LABEL_COLORS, LABEL_ICONS, LABELS, NODE_BY_LABEL, PROVENANCE, REL_TYPES,
                               SYNTHETIC_KEY)
from core.security.principals import Principal

#: label -> the KG intents a role must hold to see that label's values
LOCKED_LABELS: dict[str, tuple[str, ...]] = {"财务": ("收费", "工资")}
_EDGE = re.compile(r"^(?P<s>.+?)-\[(?P<t>[^\]]+)\]->(?P<d>.+?)(?:#(?P<m>\d{4}-\d{2}))?$")
_CHUNK = 1000


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


# ---- reading the graph ------------------------------------------------------------------
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


def _edge_out(principal: Principal, e: dict, found: dict) -> dict:
    ends = [found.get(e["source"], {}).get("label") or parse_node_id(e["source"])[0],
            found.get(e["target"], {}).get("label") or parse_node_id(e["target"])[0]]
    closed = any(locked(principal, lb) for lb in ends)
    return {**e, "provenance": [] if closed else e["provenance"], "locked": closed}
