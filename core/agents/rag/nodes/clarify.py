"""A question too vague to retrieve on gets a clarifying question with options derived
from the indexed documents' metadata (domain / authority / year / topic); the reply
continues the same thread (``pending_clarify`` is read by the next turn's rewrite)."""

from __future__ import annotations

import re
import time
from collections import Counter

from core.agents.rag.gaps import generic_topic
from core.agents.rag.runtime import add_trace, get_runtime


def _get(obj, name, default=""):
    return obj.get(name, default) if isinstance(obj, dict) else getattr(obj, name, default)


def clarify_options(docs: list, topic: str = "", limit: int = 6) -> list[dict]:
    domains: Counter = Counter()
    authorities: Counter = Counter()
    years: Counter = Counter()
    topics: list[str] = []
    for m in docs:
        if _get(m, "domain"):
            domains[_get(m, "domain")] += 1
        for a in (_get(m, "authorities", None) or [])[:1]:
            authorities[a] += 1
        date = _get(m, "publish_date") or _get(m, "sign_date") or ""
        y = re.match(r"(\d{4})", date or "")
        if y:
            years[y.group(1)] += 1
        title = _get(m, "title") or (_get(m, "file_name") or "").rsplit(".", 1)[0]
        title = re.sub(r"^关于印发《(.+)》的通知.*$", r"\1", title)
        if title and (not topic or topic in title) and title not in topics:
            topics.append(title)
    opts: list[dict] = []
    opts += [{"kind": "domain", "label": d, "value": d} for d, _ in domains.most_common(limit)]
    opts += [{"kind": "authority", "label": a, "value": a} for a, _ in authorities.most_common(limit)]
    opts += [{"kind": "year", "label": f"{y}年", "value": f"{y}年"} for y, _ in sorted(years.items(), reverse=True)[:limit]]
    opts += [{"kind": "topic", "label": t, "value": t} for t in topics[:limit]]
    return opts


def clarify(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    q = state.get("resolved_question") or state.get("question") or ""
    topic = generic_topic(q)
    options = clarify_options(rt.list_docs(), topic)
    kinds = {o["kind"] for o in options}
    asks = []
    if "domain" in kinds:
        asks.append("哪个领域")
    if "authority" in kinds:
        asks.append("哪个发文部门")
    if "year" in kinds:
        asks.append("哪一年")
    if "topic" in kinds:
        asks.append("哪份文件或哪项活动")
    ask = "、".join(asks) or "具体哪方面"
    text = (f"您的问题“{state.get('question')}”范围较宽，为避免答非所问，请先说明您关注{ask}的" +
            (f"{topic}" if topic else "政策") + "？可直接回复下列选项之一，或补充具体事项（如补贴对象、标准、申领材料）。")
    payload = {"kind": "scope", "text": text, "options": options, "question": state.get("question")}
    return {"clarify": payload, "generation": text, "refused": False,
            "pending_clarify": {"question": q, "options": options},
            "trace": add_trace(state, "clarify", t0, options=len(options))}
