"""Chat reply for greetings and questions that are not about the business graph."""

from __future__ import annotations

from core.agents.kg.concepts import INTENTS
from core.agents.kg.state import trace

HELP = ("您好！我是业务图谱问答助手，可以查询项目、人员、考勤、排班、设备、服务期、证书、编制、检查、采购、财务等业务数据，"
        "例如：“青浦-区图书馆2026年3月有多少人出勤？”、“3月份加班超过20小时的保安有哪些？”。")


def chat(state: dict, *, config) -> dict:
    q = (state.get("question") or "").strip()
    if q and not any(w in q for w in ("你好", "您好", "谢谢", "你是谁", "能做什么", "hi", "hello")):
        answer = ("这个问题没有对应到业务图谱中的数据（" + "、".join(list(INTENTS)[:8]) + " 等）。" + HELP)
    else:
        answer = HELP
    return {"answer": answer, "need_confirm": None, "trace": trace(state, "chat")}
