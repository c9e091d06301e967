"""The report's prose, written by the LLM when one is configured, from the collected and cited
results only: the model sees the report's tables (every cell already carrying its [n]) and the
numbered source passages, and writes a short 综述 whose every sentence ends with [n].

Code decides what stays: a sentence is kept only when it cites at least one number that exists
among the report's citations, the cited passages support it (the policy-RAG citation check:
character overlap, every number, 文号 and 《title》 found in them) and it reads as no prompt
injection. Everything else is dropped; when nothing is left the rules report stands alone.
The call is made under the task's budget, so its tokens count against the token fuse.
"""

from __future__ import annotations

import re

from core.agents.rag.claims import claim_support, split_claims
from core.llm.client import READ_ONLY_SAFETY
from core.security.injection import DATA_INSTRUCTION, data_block, detect_injection

MAX_SENTENCES = 8
MAX_TABLE_CHARS = 6000

PROSE_PROMPT = (
    "你是政务政策分析助手，为一份任务报告撰写简短的中文综述（不超过 {max_sentences} 句）。\n"
    "规则：1. 只能依据下面的报告表格和编号的原文片段，不得使用其他知识；"
    "2. 每一句末尾都必须用 [n] 标注依据的片段编号，只能使用给出的编号；"
    "3. 照抄原文中的数字、日期、金额和文号，不得改写或推算；"
    "4. 不要输出表格、标题、英文或 JSON，只写连贯的中文句子。\n" + DATA_INSTRUCTION + "\n" + READ_ONLY_SAFETY
)


def _passages(citations: list[dict], evidence: dict[str, dict]) -> str:
    out = []
    for c in citations:
        body = (evidence.get(c["chunk_id"]) or {}).get("body") or ""
        where = "，".join(x for x in (c.get("doc_number"), c.get("heading")) if x)
        out.append(f"[{c['n']}]《{c.get('title') or c.get('file_name')}》（{where}）\n{data_block(body)}")
    return "\n\n".join(out)


def prose_messages(request: str, tables: str, citations: list[dict], evidence: dict[str, dict]) -> list[dict]:
    return [{"role": "system", "content": PROSE_PROMPT.format(max_sentences=MAX_SENTENCES)},
            {"role": "user", "content": f"任务：{request}\n\n报告表格：\n{tables[:MAX_TABLE_CHARS]}\n\n"
                                        f"原文片段：\n{_passages(citations, evidence)}"}]


def grounded_prose(text: str, citations: list[dict], evidence: dict[str, dict]) -> tuple[str, int]:
    """The sentences of ``text`` that cite existing [n] and are supported by those passages
    (joined, one per line), and how many sentences were dropped."""
    by_n = {c["n"]: evidence.get(c["chunk_id"]) for c in citations}
    kept, dropped = [], 0
    for claim in split_claims(text or ""):
        cites = list(dict.fromkeys(claim["cites"]))
        sources = [by_n.get(n) for n in cites]
        ok = bool(cites) and all(sources) and not detect_injection(claim["plain"])
        if ok:
            ok, _why = claim_support(claim["plain"], [{**s, "text": s.get("body") or ""} for s in sources])
        if ok and len(kept) < MAX_SENTENCES:
            body = re.sub(r"[。！？；;，,、\s]+$", "", claim["plain"])
            kept.append(body + "。" + "".join(f"[{n}]" for n in cites))
        else:
            dropped += 1
    return "\n".join(kept), dropped


def write_prose(llm, request: str, tables: str, citations: list[dict], evidence: dict[str, dict], *,
                budget) -> tuple[str, int]:
    """Ask the model for the 综述 and keep its grounded sentences: ``(prose, dropped)``.
    Raises what the client raises (LLMError, BudgetExceeded)."""
    reply = llm.complete(prose_messages(request, tables, citations, evidence), budget=budget)
    return grounded_prose(reply, citations, evidence)
