"""Rules mode of the policy task agent: a small interpreter over ``data/rules/task_rules.json``.

The request is parsed once into a :class:`TaskRequest` (its shape — 对比 / 汇总 / 跟踪变化 /
是否有效 / 条件清单 —, the dimensions it names, its places and its topic) and turned into a plan
of tool calls. A new phrasing is a data row, not a branch here.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

from core.agents.rag.textutil import norm, places

RULES_FILE = Path(__file__).resolve().parents[3] / "data" / "rules" / "task_rules.json"
MAX_COMPARE_PLACES = 4


@lru_cache(maxsize=1)
def rules() -> dict:
    return json.loads(RULES_FILE.read_text(encoding="utf-8"))


def dimension_names() -> list[str]:
    return [d["name"] for d in rules()["dimensions"]]


def dimension(name: str) -> dict | None:
    """The dimension row named ``name`` or one of its aliases."""
    n = norm(name)
    for d in rules()["dimensions"]:
        if n == norm(d["name"]) or n in (norm(a) for a in d["aliases"]):
            return d
    return None


def summary_formats() -> dict[str, str]:
    return dict(rules()["summary_formats"])


@dataclass
class TaskRequest:
    request: str
    kind: str                       # compare | track | validity | checklist | summary
    label: str                      # 对比 | 跟踪变化 | 是否有效 | 条件清单 | 汇总
    dimensions: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    topic: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def request_kind(request: str) -> dict:
    """The first request-kind row one of whose patterns the request contains (rows are
    ordered most specific first); a request of no known shape is a 汇总 (summary)."""
    t = norm(request)
    for row in rules()["request_kinds"]:
        if any(norm(p) in t for p in row["patterns"]):
            return row
    return next(r for r in rules()["request_kinds"] if r["kind"] == "summary")


def dimensions_in(request: str) -> list[str]:
    """Dimensions the request names, in the order it names them (longest alias wins)."""
    t = norm(request)
    found: list[tuple[int, str]] = []
    for d in rules()["dimensions"]:
        for alias in sorted(d["aliases"], key=len, reverse=True):
            pos = t.find(norm(alias))
            if pos >= 0:
                found.append((pos, d["name"]))
                break
    return list(dict.fromkeys(name for _, name in sorted(found)))


def _strip(text: str, words: list[str]) -> str:
    for w in sorted(set(w for w in words if w), key=len, reverse=True):
        text = text.replace(w, " ")
    return text


def topic_of(request: str, kind_row: dict, dims: list[str], drop_places: list[str]) -> str:
    """What the request is about once its shape words, dimension names, the places it
    compares and filler words are taken out (对比济南市和山东省家电以旧换新补贴的补贴标准 → 家电以旧换新补贴)."""
    words = list(kind_row["patterns"]) + list(drop_places)
    for name in dims:
        d = dimension(name) or {}
        words += [d.get("name", name), *d.get("aliases", [])]
    t = _strip(request, words)
    for f in sorted(rules()["filler"], key=len, reverse=True):
        t = t.replace(f, " ")
    return re.sub(r"\s+", "", t).strip() or re.sub(r"\s+", "", request)[:40]


def parse_request(request: str) -> TaskRequest:
    row = request_kind(request)
    dims = dimensions_in(request)
    found_places = places(request)
    compare_places = found_places if row["kind"] == "compare" and len(found_places) >= 2 else []
    topic = topic_of(request, row, dims, compare_places)
    if not dims:
        dims = list(row.get("default_dimensions") or [])
    return TaskRequest(request, row["kind"], row["label"], dims, found_places, topic)


def step(tool: str, note: str = "", **args) -> dict:
    return {"tool": tool, "args": args, "note": note}


def plan_offline(req: TaskRequest) -> list[dict]:
    """The plan for the request's shape: ``$k.top`` / ``$k.all`` in a ``doc_ids`` list name
    the best / every relevant document found by step k (1-based)."""
    topic = req.topic
    if req.kind == "compare":
        compare_places = req.places[:MAX_COMPARE_PLACES] if len(req.places) >= 2 else []
        if compare_places:
            plan = [step("search_policy", f"检索{p}的相关文件", query=f"{p}{topic}", authority=p)
                    for p in compare_places]
            refs = [f"${i}.top" for i in range(1, len(plan) + 1)]
        else:
            plan = [step("search_policy", "检索相关文件", query=topic)]
            refs = ["$1.all"]
        plan.append(step("compare_documents", "按维度逐项对比，每格注明出处", doc_ids=refs,
                         dimensions=req.dimensions))
        return plan
    if req.kind == "track":
        return [step("track_changes", "按发布、施行、废止等关系排出时间线", policy_name=topic)]
    if req.kind == "validity":
        return [step("search_policy", "检索该文件", query=topic),
                step("get_document_detail", "查看文号、日期、状态和废止关系", doc_id="$1.top"),
                step("generate_summary", "汇总有效期与状态", doc_ids=["$1.top"], format="validity")]
    if req.kind == "checklist":
        return [step("search_policy", "检索相关文件", query=topic),
                step("generate_summary", "逐条列出申报条件与材料", doc_ids=["$1.top"], format="checklist")]
    # summary (汇总)
    search = step("search_policy", "检索相关文件", query=topic)
    if not req.dimensions or req.dimensions == ["有效期"]:
        fmt = "validity" if req.dimensions == ["有效期"] else "brief"
        return [search, step("generate_summary", "逐份汇总" + summary_formats()[fmt], doc_ids=["$1.all"], format=fmt)]
    return [search, step("compare_documents", "按维度逐份汇总，每格注明出处", doc_ids=["$1.all"],
                         dimensions=req.dimensions)]
