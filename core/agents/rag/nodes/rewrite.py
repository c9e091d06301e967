"""Query rewrite: alias normalisation, coreference from the thread's previous turns (and
their cited documents), clarification replies, sub-question split; from round 2 on, the
reflection feedback widens or narrows the query. With an LLM: a structured rewrite that
must keep every entity and constraint of the original (checked in code)."""

from __future__ import annotations

import re
import time

from pydantic import BaseModel, Field

from core.agents.rag.aliases import apply_aliases
from core.agents.rag.compound import split_compound, split_subquestions
from core.agents.rag.followup import is_followup, is_vague, resolve_followup
from core.agents.rag.runtime import add_trace, get_runtime, llm_failure, llm_step, usable_llm
from core.agents.rag.textutil import (
    article_refs, canonical_question, entities, expand_terms, key_terms, norm, specific_terms,
)


class RewriteOut(BaseModel):
    queries: list[str] = Field(description="1-3 条自包含的检索式；复合问题拆成子问题")
    kept_entities: list[str] = Field(default_factory=list, description="原问题中的实体与限定条件")


REWRITE_PROMPT = (
    "你是政策文件检索助手。把用户问题改写成适合在政策文件库中检索的自包含检索式。"
    "要求：1. 必须保留原问题中的全部实体与限定条件（地区、部门、年份、金额、文号、条款号），不得扩大或缩小范围；"
    "2. 把口语换成公文用语，可补充同义术语；3. 复合问题拆成最多 3 条子检索式；4. 不要回答问题本身。"
)


def _titles(rt) -> list[str]:
    """Titles (and file names) of the documents this user may see."""
    out = []
    try:
        for m in rt.list_docs():
            get = m.get if isinstance(m, dict) else (lambda k, _m=m: getattr(_m, k, None))
            out += [x for x in (get("title"), get("file_name")) if x]
    except Exception:  # noqa: BLE001 - titles only sharpen follow-up detection
        return []
    return out


def _clarify_reply(question: str, pending: dict) -> str:
    """Merge a reply to a clarifying question with the question it clarifies."""
    base = pending.get("question") or ""
    reply = question.strip()
    for o in pending.get("options") or []:
        if o.get("label") and (o["label"] in reply or reply in o["label"]):
            reply = o.get("value") or o["label"]
            break
    return f"{reply} {base}".strip()


def _rules_queries(resolved: str, attempt: int, missing: list[str], add: list[str]) -> list[str]:
    if attempt == 0:
        return split_subquestions(resolved)
    terms = list(key_terms(resolved))
    extra = [t for t in (add or expand_terms(missing)) if t not in terms]
    if attempt == 1:
        return [" ".join(terms + extra[:6]) or resolved]
    # round 3: one query per specific term with its synonyms, plus the keyword form
    spec = [t for t in terms if t not in missing] + [t for t in missing]
    subs = [" ".join([t] + expand_terms([t])[:3]) for t in spec[:3]]
    return [" ".join(terms)] + [s for s in subs if s]


def _entities_kept(original: str, queries: list[str]) -> list[str]:
    joined = norm(" ".join(queries))
    must = entities(original) + article_refs(original) + specific_terms(original)[:4]
    return [e for e in must if norm(e) not in joined]


def rewrite(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    attempt = int(state.get("attempt") or 0)
    question = state.get("question") or ""
    out: dict = {}
    info: dict = {}
    if attempt == 0:
        history = state.get("history") or []
        pending = state.get("pending_clarify")
        focus: list[str] = []
        is_option = bool(pending) and any(o.get("label") and (o["label"] in question or question.strip() in o["label"])
                                          for o in pending.get("options") or [])
        if pending and (is_option or len(specific_terms(question)) < 2):
            resolved = _clarify_reply(question, pending)
            info["clarify_reply"] = True
        elif is_followup(question, history, titles=_titles(rt)):
            resolved, focus, subject = resolve_followup(question, history)
            info["followup_of"] = subject
        else:
            resolved = question
        resolved, applied = apply_aliases(resolved, rt.aliases)
        if applied:
            info["aliases"] = [f"{a}→{c}" for a, c in applied]
        canon = canonical_question(resolved)
        if canon != resolved:
            info["canonical"] = canon
            resolved = canon
        parts = split_compound(resolved)
        if parts:
            info["parts"] = parts
        out.update(resolved_question=resolved, focus_doc_ids=focus, pending_clarify=None, parts=parts)
        if is_vague(resolved):
            out["clarify"] = {"pending": True}
            out["trace"] = add_trace(state, "rewrite", t0, resolved=resolved, vague=True, **info)
            return out
    else:
        resolved = state.get("resolved_question") or question
    missing = list(state.get("missing_terms") or [])
    feedback = state.get("reflection_feedback") or ""
    add = []
    m = re.search(r"补充[:：]([^；;\n]*)", feedback)
    if m:
        add = [t for t in re.split(r"[、,，\s]+", m.group(1)) if t]
    queries = _rules_queries(resolved, attempt, missing, add)
    llm = usable_llm(state, rt)
    if llm is not None:
        try:
            llm_step(rt)
            msgs = [{"role": "system", "content": REWRITE_PROMPT},
                    {"role": "user", "content": f"用户问题：{resolved}" +
                     (f"\n上一轮检索的反思反馈：{feedback}" if feedback else "")}]
            res = llm.generate(msgs, RewriteOut, budget=rt.budget)
            llm_queries = [q.strip() for q in res.queries if q and q.strip()][:3]
            lost = _entities_kept(resolved, llm_queries) if llm_queries else ["(空)"]
            if lost:
                info["llm_rewrite_rejected"] = "改写丢失了实体/限定条件：" + "、".join(lost)
            else:
                queries = llm_queries
                info["llm_rewrite"] = True
        except Exception as exc:  # noqa: BLE001 - any model failure → rules mode with notice
            out.update(llm_failure(state, exc, "rewrite"))
    out.update(rewritten_question="\n".join(queries), sub_queries=queries, attempt=attempt + 1)
    out["trace"] = add_trace({**state, "attempt": attempt + 1}, "rewrite", t0, resolved=resolved, queries=queries,
                             **info)
    return out
