"""Input filter: prompt injection and sensitive words in the question. Blocked questions are
refused without retrieval or generation."""

from __future__ import annotations

import time

from core.agents.rag.runtime import add_trace, get_runtime
from core.security.injection import detect_injection, find_sensitive


def guard(state: dict, *, config) -> dict:
    t0 = time.perf_counter()
    rt = get_runtime(config)
    q = state.get("question") or ""
    inj, sens = detect_injection(q), find_sensitive(q)
    checks = {**(state.get("checks") or {}), "injection": not inj, "sensitive_input": not sens}
    mode = "llm" if rt.llm is not None else "rules"
    if inj or sens:
        why = ("问题中包含试图改变系统指令或越权的内容（" + "、".join(inj) + "）") if inj else \
              ("问题中包含不允许的敏感内容（" + "、".join(sens) + "）")
        return {"blocked": True, "refused": True, "mode": mode, "checks": checks,
                "generation": f"无法处理该请求：{why}。请只就政策文件内容提问。",
                "trace": add_trace(state, "guard", t0, blocked=True, injection=inj, sensitive=sens)}
    return {"blocked": False, "mode": mode, "checks": checks, "trace": add_trace(state, "guard", t0, blocked=False)}
