"""⑨ answer: facts from the result rows only, standard names, each listed fact with
template · file · row; "数据中未找到" when absent; the data's time coverage from the graph.
With an LLM the wording may be polished: only sentences whose numbers and entities the rules
answer already holds survive, and a reply with links or instructions is refused
(core.agents.kg.polish)."""

from __future__ import annotations

from core.agents.kg import context as ctx
from core.agents.kg.answering import compose
from core.agents.kg.answer_rows import with_person_names
from core.agents.kg.llm_support import AnswerOut, ask
from core.agents.kg.polish import supported_rewrite
from core.agents.kg.compound import answer_subjects
from core.agents.kg.state import MAX_HISTORY_ROWS, TURN_RESET, trace
from core.agents.kg.unapplied import months_unapplied, refusal, unapplied
from core.agents.kg import condition_gate as gate
from core.agents.kg import count_per_subject as per_subject
from core.agents.kg import asked_slot
from core.agents.kg import asked_column
from core.agents.kg import entity_gate
from core.agents.kg import area_of
from core.agents.kg import day_codes
from core.agents.kg import unused_terms


def _entities(config) -> list[str]:
    """Names and codes of the asker's graph (projects, people, areas) a rewording may not add."""
    idx = ctx.get_index(config)
    out: list[str] = []
    for p in idx.projects:
        out += [str(p.get(f) or "") for f in ("项目编号", "项目名称", "项目简称")]
    for p in idx.people:
        out += [str(p.get(f) or "") for f in ("工号", "姓名")]
    for a in idx.areas:
        out += [str(a.get(f) or "") for f in ("片区编号", "片区名称")]
    return out


def _gated(state: dict, msg: str, **why) -> dict:
    return {"denied": msg, "answer": msg, "provenance": [], "rows": [], "need_confirm": None,
            "compound_next": False, "trace": trace(state, "answer", **why)}


def _notes(state: dict, config) -> list[str]:
    """What the answer adds at its end: the LLM fallback, a spent budget, the run's problems."""
    notes = []
    if state.get("llm_fallback"):
        notes.append(state["llm_fallback"])
    over = ctx.budget_notice(config)
    if over and over not in notes:
        notes.append(over)
    rr = state.get("run_report") or {}
    if rr.get("problems") and not rr.get("retry"):
        notes.extend(rr["problems"])
    return notes


# ---- the checks of a composed answer, in order: (question, text, slots, grounded, steps, index)
# → (refusal, trace detail) when that answer must not be given, else None -----------------------

def _named_people(question: str, index) -> list[str]:
    """The names of the people the question itself names (a condition may have taken them from the slots)."""
    return [str(p["姓名"]) for p in index.people if p.get("姓名") and str(p["姓名"]) in question]


def _asked_but_not_said(question, text, slots, grounded, steps, index):
    """Asked a person / an amount the answer does not give: no record list instead."""
    if not steps:
        return None
    # the people the question names are not an answer to 谁 (nor their 工号: 严玉梅走了以后谁接的她的活)
    named = set(_named_people(question, index))
    people = [str(p.get(f) or "") for p in index.people if str(p.get("姓名") or "") not in named for f in ("姓名", "工号")]
    projects = [str(p.get(f) or "") for p in index.projects for f in ("项目名称", "项目编号")]
    lacking = gate.missing_asked(question, text, people, projects)
    return (gate.asked_refusal(lacking, text), {"lacking": lacking}) if lacking else None


def _other_kind_of_value(question, text, slots, grounded, steps, index):
    """A value of another kind than asked (共 1 台设备 for 维修过几次): say what was not found."""
    slot_gap = asked_slot.missing_slot(question, text) if steps else None
    return (asked_slot.slot_refusal(*slot_gap), {"asked_slot": slot_gap[0]}) if slot_gap else None


def _part_of_named(question, text, slots, grounded, steps, index):
    """A part of a named project (科创大厦B座): the records are the whole project's, say so."""
    part = asked_slot.named_part(question, slots.get("projects") or []) if steps else None
    return (asked_slot.slot_refusal("named_part", part), {"named_part": part}) if part else None


def _unknown_value(question, text, slots, grounded, steps, index):
    """A kind the data does not hold (绿化养护检查): no figure over every record instead."""
    names = [*(slots.get("projects") or []), *(slots.get("people") or []), *_named_people(question, index)]
    kind = asked_slot.unknown_value(question, index.values or {}, names) if steps else None
    return (asked_slot.slot_refusal("unknown_value", kind), {"unknown_value": kind}) if kind else None


def _asked_column_missing(question, text, slots, grounded, steps, index):
    """The records without the asked column (哪天生的 → no 出生日期): say it was not found."""
    col_gap = asked_column.missing_column(question, text, index.values, slots) if steps else None
    return (asked_column.column_refusal(*col_gap, text), {"asked_column": col_gap[1]}) if col_gap else None


def _named_entity_unused(question, text, slots, grounded, steps, index):
    """A named person / project the plan never used: no answer over records it did not select."""
    lost = entity_gate.dropped(grounded, steps) if not slots.get("followup") else []
    return (entity_gate.refusal(lost), {"dropped": lost}) if lost else None


def _months_not_applied(question, text, slots, grounded, steps, index):
    """Asked months the records cannot tell apart (投标记录只记年份; 岗位编制 has no date): say so and
    which dates the records carry, never every record as if of those months."""
    unmet = months_unapplied(slots, steps)
    return (unmet, {"months_unmet": True}) if unmet else None


def _data_word_unused(question, text, slots, grounded, steps, index):
    """A field or value the question names that the answer never used (中班和夜班加起来 → 夜班 only)."""
    found = any(s.get("rows") for s in steps)  # with nothing found the answer already says so
    words = unused_terms.unused(question, text, slots, steps, index) if found and not slots.get("followup") else []
    return (unused_terms.refusal(words), {"unused": words}) if words else None


_ANSWER_GATES = (_part_of_named, _unknown_value, _other_kind_of_value, _asked_but_not_said, _asked_column_missing,
                 _named_entity_unused, _months_not_applied, _data_word_unused)


def answer(state: dict, *, config) -> dict:
    slots, grounded = state.get("slots") or {}, state.get("grounded") or {}
    steps = state.get("steps") or []
    notes = _notes(state, config)
    skipped = unapplied(slots, steps)
    if skipped:  # a condition the records cannot carry: say so, never answer without it
        return _gated(state, refusal(skipped), unapplied=skipped)
    question = slots.get("question") or state.get("question") or ""
    per = per_subject.qualifying(question, steps[-1].get("rows") or []) \
        if steps and gate.unconsumed_figures(question, slots, steps) else None
    parts = gate.unconsumed(question.replace(per[0], " ") if per else question, slots, steps)
    if parts:  # a condition not understood: say which, never the records without it
        return _gated(state, gate.condition_refusal(parts), unconsumed=parts)
    index = ctx.get_index(config)
    steps = with_person_names(steps, index.person_by_id)
    text, prov = compose(slots, grounded, steps, masked=state.get("masked_fields") or [], extra_notes=notes)
    if per:  # "持有2个以上证书的人": the subjects whose record count meets the bound, then the records
        text = per_subject.headline(*per) + "\n" + text
    said_area = area_of.statement(question, slots, steps, index.areas)
    if said_area:  # "王志强是哪个片区的": the area of the named record's project, said first
        text = said_area + "\n" + text
    said_day = day_codes.statement(question, steps)
    if said_day:  # "上个月13号夜班是哪俩人": that day's codes of the month's records, said first
        text = said_day + "\n" + text
    for check in _ANSWER_GATES:
        failed = check(question, text, slots, grounded, steps, index)
        if failed:
            return _gated(state, failed[0], **failed[1])
    client = ctx.llm(config)
    if client is not None and steps and steps[-1].get("rows"):
        text = _polished(client, text, slots, config)
    rows = day_codes.shown(_answer_rows(steps), question)
    if state.get("compound_prefix"):  # the second part of a compound question: both answers, both sources
        text = state["compound_prefix"] + "\n\n" + text
        prov = [*(state.get("compound_prov") or []), *prov]
    history = _history(state, slots, grounded, steps, text)
    rest = state.get("compound_rest")
    if rest:  # ask the second part next, in the same turn, with this answer as its context
        keep = ("trace", "history", "question")
        return {**{k: v for k, v in TURN_RESET.items() if k not in keep}, "question": rest, "history": history,
                "compound_rest": "", "compound_next": True,
                "compound_prefix": f"【{slots.get('question') or state.get('question')}】\n{text}\n\n【{rest}】",
                "compound_prov": prov, "trace": trace(state, "answer", rows=len(rows), provenance=len(prov),
                                                      compound=rest)}
    return {"compound_next": False, "answer": text, "provenance": prov, "rows": rows, "need_confirm": None, "history": history,
            "trace": trace(state, "answer", rows=len(rows), provenance=len(prov))}


def _polished(client, text: str, slots: dict, config) -> str:
    """The LLM's rewording of ``text`` where every number and entity of it is supported, else
    ``text`` (with the budget notice when the budget ran out at this call)."""
    out = ask(client, f"问题：{slots.get('question')}\n依据以下已核对的回答改写得更通顺，不得增加任何事实或数字，"
                      f"保留所有〔来源〕标注：\n{text}", AnswerOut)
    polished = supported_rewrite(text, out.answer, _entities(config)) if out is not None else None
    if polished is not None:
        text = polished
    over = ctx.budget_notice(config)
    if out is None and over and over not in text:
        text += f"\n注：{over}"  # the budget ran out at the polishing call: the rules answer stands
    return text


def _answer_rows(steps: list[dict]) -> list[dict]:
    """The rows the answer is based on: an aggregate's source rows (of the groups that qualified,
    after a having), else the last step's rows."""
    if not steps:
        return []
    rows = steps[-1]["rows"]
    if steps[-1]["tool"] in ("aggregate", "ratio", "change"):
        detail_step = next((s for s in reversed(steps) if s["tool"] not in ("aggregate", "ratio", "change")),
                           steps[-1])
        rows = detail_step["rows"]
        ep = steps[-1].get("executed_params") or {}
        gb = ep.get("group_by")
        if ep.get("having") and steps[-1]["rows"] and gb and rows and gb in rows[0]:
            keep = {r.get(gb) for r in steps[-1]["rows"]}  # the records of the groups that qualified
            rows = [r for r in rows if r.get(gb) in keep] or rows
    return rows


def _history(state: dict, slots: dict, grounded: dict, steps: list[dict], text: str) -> list[dict]:
    """The conversation's last four turns with this one: its slots (and subjects), answer and the
    main (record) step's rows, at most MAX_HISTORY_ROWS, for the follow-ups."""
    main = next((s for s in steps if s["tool"] not in ("aggregate", "ratio", "pick", "intersect", "project_gap",
                                                       "absence", "change")), None)
    hist_rows = day_codes.shown((main or {}).get("rows") or [], slots.get("question") or "")
    turn_slots = {**slots, "subjects": answer_subjects(steps)}
    turn = {"question": slots.get("question") or state.get("question"), "slots": turn_slots, "grounded": grounded,
            "answer": text, "tool": (main or {}).get("tool"), "fields": (main or {}).get("fields") or [],
            "rows": hist_rows[:MAX_HISTORY_ROWS], "truncated": len(hist_rows) > MAX_HISTORY_ROWS}
    return [*(state.get("history") or []), turn][-4:]
