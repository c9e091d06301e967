"""Generate: every key sentence carries [n]. Offline: extractive — the best-supported
sentences of the used chunks, ordered and de-duplicated. With an LLM: a grounded prompt with
the numbered chunks; where they disagree the model states each with its number and code
decides (node ``reconcile``). The citation check (node ``check``) runs next."""

from __future__ import annotations

import time

from core.agents.rag.aliases import apply_aliases
from core.agents.rag.answer_extraction import MAX_USED, extract_answer
from core.agents.rag.arith import cell_sum_claim, difference_claim, net_pay_claim
from core.agents.rag.case_gate import case_phrase, deciding_claims, undecided_case
from core.agents.rag.calc import rate_claim, sum_claim, total_rate_claim
from core.agents.rag.claims import render_claims
from core.agents.rag.diffs import named_difference_claim, tier_difference_claim
from core.agents.rag.final_check import final_gaps, off_subject, unmet_subjects
from core.agents.rag.outline import asks_outline, outline_answer
from core.agents.rag.ruledata import synonyms, vocab_entry, weight
from core.agents.rag.runtime import add_trace, doc_title, get_runtime, llm_failure, llm_step, usable_llm
from core.agents.rag.scoring import part_pool
from core.agents.rag.sums import named_sum_claim, product_claim
from core.agents.rag.slot_check import fill_asked_slot
from core.agents.rag.textutil import key_terms, norm, specific_terms, term_in, yesno_predicates
from core.llm.client import READ_ONLY_SAFETY
from core.security.injection import DATA_INSTRUCTION, data_block

GENERATE_PROMPT = (
    "你是政务政策问答助手，只能依据下面编号的参考片段回答，不得使用片段以外的知识。\n"
    "规则：\n1. 每个关键句末尾用 [n] 标注所依据的片段编号，只能使用给出的编号；\n"
    "2. 优先使用片段原文中的数字、日期、金额和条件，不得改写数字；\n"
    "3. 片段之间对同一事项规定不一致时，分别写出各文件的表述并各自标注编号，不要自行取舍"
    "（以哪份为准由系统按效力、适用范围、文件关系和发布日期判断并注明）；\n"
    "4. 片段不足以回答时，直接说“暂未查到相关规定”，不要猜测；\n5. 回答简洁，用中文。\n" + DATA_INSTRUCTION + "\n" +
    READ_ONLY_SAFETY
)


def _named_follow_on(question: str, d: dict) -> bool:
    """Is ``d`` of a follow-on notice (追加…) the question does not name? Those go after the
    campaign's own notice: 1月那轮 is the campaign, not its 追加."""
    entry = vocab_entry("follow_on_titles")
    if any(w in question for w in entry["later_asked"]["words"]):
        return False  # what became of the campaign (用完了没有) is what the follow-on says
    title = doc_title(d)
    return any(w in title and w not in question for w in entry["words"])


def campaign_order(question: str, pool: list[dict]) -> list[dict]:
    """The pool with chunks of follow-on notices the question does not name after the rest
    (stable: the rest keep their order), when the top chunks hold any other document."""
    if any(not _named_follow_on(question, d) for d in pool[:MAX_USED]):
        return sorted(pool, key=lambda d: _named_follow_on(question, d))
    return pool


def select_used(state: dict) -> list[dict]:
    question = state.get("question") or ""
    used = campaign_order(question, state.get("relevant_pool") or [])[:MAX_USED]
    # the campaign the question names decides the documents: 1月那轮 → not the 首保 notice
    used = [d for d, other in zip(used, off_subject(question, used)) if not other]
    # keep a stable reading order: best document first, its chunks by position
    order = {}
    for d in used:
        order.setdefault(d["doc_id"], len(order))
    return sorted(used, key=lambda d: (order[d["doc_id"]], d.get("chunk_id") or ""))


def _numbered(used: list[dict]) -> str:
    out = []
    for n, d in enumerate(used, 1):
        meta = "，".join(b for b in (d.get("doc_number"), d.get("authority"), d.get("date"),
                                     {"in_effect": "现行有效", "repealed": "已废止",
                                      "expired": f"已到期（{d.get('expiry_date') or ''}）"}.get(d.get("status"), ""),
                                     f"第{d.get('page')}页") if b)
        out.append(f"[{n}]《{doc_title(d)}》（{meta}）{d.get('heading') or ''}\n"
                   f"{data_block(d.get('body') or d.get('text') or '')}")
    return "\n\n".join(out)


def generate(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    question = state.get("resolved_question") or state.get("question") or ""
    used = state.get("used_documents") if state.get("regenerations") else None
    used = used or select_used(state)
    out: dict = {"used_documents": used}
    llm = usable_llm(state, rt)
    if llm is not None:
        try:
            llm_step(rt)
            msgs = [{"role": "system", "content": GENERATE_PROMPT},
                    {"role": "user", "content": f"参考片段：\n{_numbered(used)}\n\n用户问题：{question}"}]
            if state.get("check_feedback"):
                msgs.append({"role": "user", "content": "上一次回答未通过引用核验：" + state["check_feedback"] +
                             "。请重新作答，只使用存在的编号，并确保每句都能在所引片段中找到依据。"})
            if rt.live is not None:  # a streaming caller: the draft reaches it as the model writes
                sources = " ".join(d.get("text") or "" for d in used)
                draft = rt.live.relay(llm.stream(msgs, budget=rt.budget), sources=sources).strip()
            else:
                draft = llm.complete(msgs, budget=rt.budget).strip()
            out.update(draft=draft, claims=[])
            out["trace"] = add_trace(state, "generate", t0, by="llm", used=[d["chunk_id"] for d in used],
                                     regeneration=bool(state.get("regenerations")))
            return out
        except Exception as exc:  # noqa: BLE001 - model failure → extractive answer with notice
            out.update(llm_failure(state, exc, "generate"))
    user_q, _ = apply_aliases(state.get("question") or "", rt.aliases)
    focus_terms = list(key_terms(user_q)) or specific_terms(question)
    if question.strip() != user_q.strip():
        # a resolved follow-up ("那第二轮呢" → the previous question about 第二轮): its terms count
        focus_terms += [t for t in key_terms(question) if t not in focus_terms and not any(t in f for f in focus_terms)]
    slot_filled = True
    parts = [p for p in state.get("parts") or [] if p]
    open_parts = set(state.get("unanswered_parts") or [])
    answered = [p for p in parts if p not in open_parts]
    if len(parts) >= 2 and answered and not state.get("regenerations") and not asks_outline(question):
        used, claims = _compound_claims(answered, state.get("relevant_pool") or used)
        out["used_documents"] = used
        draft = render_claims(claims, used)
        gaps = unmet_subjects(question, claims, used)
        if gaps:  # the parts answered from another campaign's notice (第二期首保 → 第二轮汽车补贴)
            draft, claims = "", []
            out["final_gaps"] = gaps
    else:
        draft, claims = extract_answer(question, focus_terms, used)
        preds = yesno_predicates(user_q)
        if preds and claims and not any(_says(p, c["text"]) for p in preds for c in claims):
            # a yes/no question is answered by a sentence about its action (直接减掉 → 支付立减):
            # look for one with the action's document wording; none → those sentences do not
            # answer it (能不能和…叠加享受？ answered from sentences that never speak of 叠加)
            wording = [w for p in preds for w in [p, *synonyms().get(p, ())] if len(w) >= 2]
            draft, claims = extract_answer(question, wording + focus_terms, used)
            if not any(_says(p, c["text"]) for p in preds for c in claims):
                draft, claims = "", []
        draft, claims, case_gap = _settle_case(question, user_q, focus_terms, draft, claims, used)
        if case_gap:
            out["final_gaps"] = case_gap
        claims, used, slot_filled = fill_asked_slot(question, claims, used, state.get("relevant_pool") or [])
        out["used_documents"] = used
        outlined = outline_answer(question, claims, used, state.get("documents") or [], rt)
        if outlined is not None:  # 分为哪四章 / 讲…的是哪一部分: the document's own headings
            claims, used = outlined
            out["used_documents"] = used
        else:
            claims = _with_computed(question, claims, used)
        gaps = final_gaps(question, claims, used, state.get("documents") or [])
        if gaps:  # sentences of a neighbouring question (another amount, no difference, no name, another document)
            draft, claims = "", []
            out["final_gaps"] = gaps
        if claims:
            draft = render_claims(sorted(claims, key=lambda c: (c["n"], c["pos"])), used)
    out.update(draft=draft, claims=[{k: c[k] for k in ("text", "cites")} for c in claims])
    out["trace"] = add_trace(state, "generate", t0, by="rules", used=[d["chunk_id"] for d in used],
                             sentences=len(claims), slot_filled=slot_filled)
    return out


def _with_computed(question: str, claims: list[dict], used: list[dict]) -> list[dict]:
    """The claims with a computed line first where the question asks for one: 6000元的2级能效洗衣机 →
    6000元×15%＝900元; 不予公开的加起来 → the numbered rows summed."""
    computed = named_sum_claim(question, used) or product_claim(question, claims, used) \
        or rate_claim(question, claims, used) \
        or sum_claim(question, claims, used) \
        or total_rate_claim(question, claims, used) or difference_claim(question, claims) \
        or net_pay_claim(question, claims) or cell_sum_claim(question, claims) \
        or tier_difference_claim(question, used) or named_difference_claim(question, claims)
    if computed is None:
        return claims
    seen = {norm(c["text"]) for c in claims}
    return [computed] + [c for c in computed.pop("also", []) if norm(c["text"]) not in seen] + claims


def _settle_case(question: str, user_q: str, focus_terms: list[str], draft: str, claims: list[dict],
                 used: list[dict]) -> tuple[str, list[dict], list[str]]:
    """(draft, claims, gaps) once a yes/no question's case is spoken of: 外地上的牌能领吗 answered
    by the 申报程序 → extract again with the case's terms first, else the sentence naming the
    case (同一个手机号 → 同一手机号码…视为同一用户), else no answer and the case clause as the gap."""
    case = undecided_case(user_q, claims, used)
    if not case:
        return draft, claims, []
    draft, claims = extract_answer(question, case + focus_terms, used)
    if not undecided_case(user_q, claims, used):
        return draft, claims, []
    claims = deciding_claims(user_q, used)
    return "", claims, ([] if claims else [case_phrase(user_q, case)])


def _says(word: str, text: str) -> bool:
    t = norm(text)
    return term_in(word, t) or any(norm(x) in t for x in synonyms().get(word, ()))


PART_USED = 3
MAX_USED_COMPOUND = 6


def _compound_claims(parts: list[str], pool: list[dict]) -> tuple[list[dict], list[dict]]:
    """Each answered sub-question extracted from its own best chunks; the claims merged, [n]
    renumbered over the union of the chunks used, duplicates cited once."""
    used: list[dict] = []
    claims: list[dict] = []
    seen: dict[tuple, dict] = {}
    for part_no, p in enumerate(parts):
        own = part_pool(p, pool)[:PART_USED] or pool[:PART_USED]
        order: dict = {}
        for d in own:
            order.setdefault(d["doc_id"], len(order))
        own = sorted(own, key=lambda d: (order[d["doc_id"]], d.get("chunk_id") or ""))
        _, part_claims = extract_answer(p, list(key_terms(p)), own)
        for cl in part_claims:
            d = own[cl["n"] - 1]
            idx = next((i for i, u in enumerate(used) if u["chunk_id"] == d["chunk_id"]), None)
            if idx is None:
                if len(used) >= MAX_USED_COMPOUND:
                    continue
                used.append(d)
                idx = len(used) - 1
            n = idx + 1
            key = (d["chunk_id"], cl["pos"], cl["text"])
            if key in seen:
                continue
            new = {**cl, "n": n, "cites": [n], "part": part_no}
            seen[key] = new
            claims.append(new)
    claims = _fair_share(claims, len(parts), int(weight("list_answer_max_sentences")))
    claims.sort(key=lambda c: (c["n"], c["pos"]))
    return used, claims


def _fair_share(claims: list[dict], parts: int, limit: int) -> list[dict]:
    """At most ``limit`` claims, taken from the sub-questions in turn (each part's in its
    order): a long list answering one part never crowds out the only sentence of another."""
    if len(claims) <= limit:
        return claims
    queues = [[c for c in claims if c["part"] == i] for i in range(parts)]
    kept: list[dict] = []
    while len(kept) < limit and any(queues):
        for q in queues:
            if q and len(kept) < limit:
                kept.append(q.pop(0))
    return kept
