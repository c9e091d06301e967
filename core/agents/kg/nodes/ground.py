"""② ground: mentions → keys (exact → contains → edit → embedding; 服务中 first for renewed
namesakes), time → months within the data's coverage, filter words → canonical values."""

from __future__ import annotations

from core.agents.kg import context as ctx
from core.agents.kg.grounding import ground_slots
from core.agents.kg.state import trace


def ground(state: dict, *, config) -> dict:
    index = ctx.get_index(config)
    grounded = ground_slots(state.get("slots") or {}, index)
    return {"grounded": grounded,
            "trace": trace(state, "ground", projects=[(p["text"], p["key"], p["score"], p["method"])
                                                       for p in grounded["projects"]],
                           people=[p["key"] for p in grounded["people"]], months=grounded.get("months"),
                           filters=grounded.get("filters"), ungrounded=grounded.get("ungrounded"))}
