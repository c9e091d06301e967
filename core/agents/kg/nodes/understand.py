"""① understand: chat vs graph; slots from the rules (entity index, time normaliser, concept
and value tables), optionally refined by the LLM behind the same checks. Carries the last 4
turns as context and the user's 修改 feedback."""

from __future__ import annotations

from core.agents.kg import context as ctx
from core.agents.kg.concepts import INTENTS
from core.agents.kg.features import QuestionFeatures
from core.agents.kg.llm_support import UnderstandOut, ask
from core.agents.kg.state import trace
from core.agents.kg.timeparse import parse_time
from core.agents.kg.compound import split_who_then_followup
from core.agents.kg.understanding import extract_slots, is_chat


def understand(state: dict, *, config) -> dict:
    question = state.get("question", "")
    feedback = (state.get("feedback") or "").strip()
    history = (state.get("history") or [])[-4:]
    previous = None
    if feedback:
        previous = state.get("slots") or (history[-1]["slots"] if history else None)
        text = feedback
    else:
        previous = history[-1]["slots"] if history else None
        text = question
    compound = {}
    parts = split_who_then_followup(text) if not feedback else None
    if parts:  # "…是谁，他负责几个项目": the first part now, the second after its answer
        text, compound = parts[0], {"compound_rest": parts[1]}
    if not feedback and is_chat(text):
        return {"kind": "chat", "slots": {"question": text, "kind": "chat"}, "trace": trace(state, "understand",
                                                                                        kind="chat")}
    if not feedback:
        ctx.start_turn(config)  # a new question: a fresh step / token / time budget for its LLM calls
    index = ctx.get_index(config)
    today = ctx.today(config)
    slots = extract_slots(text, index, today, previous)
    new_question = {}
    if feedback and previous and slots.get("followup"):
        slots["question"] = previous.get("question", question)
        slots["feedback"] = feedback
    elif feedback:
        new_question = {"question": feedback}  # a whole new question typed instead of a reply
    fallback = ""
    client = ctx.llm(config)
    if client is not None:
        ctx_text = "\n".join(f"用户：{h.get('question')}\n助手：{(h.get('answer') or '')[:200]}" for h in history)
        out = ask(client, f"最近对话：\n{ctx_text}\n\n当前问题：{text}\n可选意图：{'、'.join(INTENTS)}\n"
                          "请判断是闲聊(chat)还是图谱查询(graph)，并抽取意图、项目名称、人员、时间表述。", UnderstandOut)
        if out is None:
            fallback = ctx.budget_notice(config) or "大模型不可用，已使用规则模式理解问题。"
        else:
            if out.kind == "chat" and not slots.get("projects") and not slots.get("intent"):
                return {"kind": "chat", "slots": {"question": text, "kind": "chat"},
                        "trace": trace(state, "understand", kind="chat", by="llm")}
            if out.intent in INTENTS and not slots.get("intent"):
                slots["intent"] = out.intent
            for p in out.projects:
                if p and p not in slots["projects"] and index.resolve("project", p, allow_embedding=False):
                    slots["projects"].append(p)
            if out.time_text and not slots.get("time"):
                tr = parse_time(out.time_text, today)
                if tr:
                    slots["time"] = tr.to_dict()
    if not slots.get("intent"):
        slots["intent"] = "项目" if slots.get("projects") else "人员" if slots.get("filters") else ""
    kind = "graph" if slots.get("intent") else "chat"
    features = QuestionFeatures.from_slots(slots).to_dict()  # parsed once; later nodes read it
    return {**new_question, **compound, "kind": kind, "slots": slots, "features": features, "feedback": "",
            "llm_fallback": fallback,
            "trace": trace(state, "understand", kind=kind, intent=slots.get("intent"),
                           projects=slots.get("projects"), time=(slots.get("time") or {}).get("label"))}
