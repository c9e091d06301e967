"""Refusal below the evidence threshold: "暂未查到…", what the evidence lacks, and which
department or documents may help. No generation.

What a refusal says is what happened: a subject no evidence mentions (充电桩) is named with the
documents that were found instead ("检索到的是《…》，其中没有关于“充电桩”的规定"); an asked slot
no sentence fills is said as such ("没有写明所问的期限"), not as a word the documents lack."""

from __future__ import annotations

import time

from core.agents.rag.gaps import related_documents, top_authorities
from core.agents.rag.ruledata import slot_kinds, vocab_entry
from core.agents.rag.runtime import add_trace, doc_title


def _titles(docs: list[dict], limit: int = 3) -> list[str]:
    seen: dict[str, str] = {}
    for d in docs:
        key = d.get("doc_id") or doc_title(d)
        if key not in seen and len(seen) < limit:
            seen[key] = f"《{doc_title(d)}》" + (f"（{d['doc_number']}）" if d.get("doc_number") else "")
    return list(seen.values())


def _gap_lines(state: dict) -> tuple[list[str], bool]:
    """(lines about what the evidence lacks, whether a subject of the question is missing)."""
    if state.get("final_gaps"):
        return _final_gap_lines(state), True
    shown = [t for t in state.get("uncovered_terms") or [] if t not in (state.get("guessed_terms") or [])]
    slot_names = {name for name, _, _ in slot_kinds()}
    subjects = [t for t in shown if t not in slot_names]
    if subjects:  # only real words (not 价算 / 天前, guesses of the word cutter)
        lines = [f"已检索的文件中未涉及：{'、'.join(subjects[:4])}。"]
        found = _titles(state.get("relevant_pool") or [], 2)
        if found:
            lines.append(f"检索到的是{'、'.join(found)}，其中没有关于“{subjects[0]}”的规定。")
        return lines, bool(found)
    labels = vocab_entry("slot_gap_labels")["map"]
    slots = [labels.get(t, t) for t in shown if t in slot_names]
    return ([f"已检索的文件中没有写明所问的{'、'.join(slots[:2])}。"] if slots else []), False


def _final_gap_lines(state: dict) -> list[str]:
    """The answer's sentences found but not answering: the slot they leave empty, the
    question's amount they never state, and the documents they came from."""
    labels = vocab_entry("slot_gap_labels")["map"]
    slots = {r["name"] for r in vocab_entry("final_checks")["rows"]}
    gaps = state["final_gaps"]
    lines = [f"找到的条文没有写明所问的{'、'.join(labels.get(g, g) for g in gaps if g in slots)}。"] \
        if any(g in slots for g in gaps) else []
    amounts = [g for g in gaps if g not in slots]
    if amounts:
        lines.append(f"找到的条文中没有关于“{'、'.join(amounts)}”的规定。")
    found = _titles(state.get("used_documents") or state.get("relevant_pool") or [], 2)
    if found:
        lines.append(f"检索到的是{'、'.join(found)}。")
    return lines


def fallback(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    q = state.get("question") or ""
    resolved = state.get("resolved_question") or q
    # only documents (and their issuers) plausibly about the asked topic, or none at all
    near = related_documents(resolved, state.get("documents") or [])
    msg = f"暂未查到与“{q}”直接相关的政策规定，为避免误导，不作推测性回答。"
    lines, said_found = _gap_lines(state)
    for line in lines:
        msg += "\n" + line
    if near and not said_found:
        msg += f"\n可能相关的文件：{'、'.join(_titles(near))}，可查阅原文确认。"
    depts = top_authorities(near or (state.get("relevant_pool") or [] if said_found else []))
    if depts:
        msg += f"\n建议咨询：{'、'.join(depts)}，或拨打 12345 政务服务便民热线。"
    else:
        msg += "\n建议咨询相关主管部门，或拨打 12345 政务服务便民热线。"
    checks = {**(state.get("checks") or {}), "evidence_threshold": False}
    return {"generation": msg, "refused": True, "used_documents": [], "checks": checks,
            "trace": add_trace(state, "fallback", t0, near=[doc_title(d) for d in near[:3]])}
