"""设置与状态 → 对话记录: an administrator sees how many conversations are kept and how many have
not been used within the retention period, and deletes those after confirming."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import langgraph.checkpoint.base.id as checkpoint_ids
from langgraph.checkpoint.base import empty_checkpoint
from streamlit.testing.v1 import AppTest

from core.security.principals import Principal, Role, UserStore
from core.storage.checkpoint import get_checkpointer

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "9_设置与状态.py")
ADMIN = Principal("admin", Role.admin)


def _conversation(monkeypatch, thread: str, days_ago: int) -> None:
    """A conversation last used ``days_ago``: the checkpoint is written on a clock set back
    (LangGraph stamps a checkpoint's time into its id)."""
    when = time.time_ns() - days_ago * 86_400 * 10**9
    with monkeypatch.context() as m:
        m.setattr(checkpoint_ids, "time", SimpleNamespace(time_ns=lambda: when))
        m.setattr(checkpoint_ids, "_last_v6_timestamp", None)
        get_checkpointer().put({"configurable": {"thread_id": thread, "checkpoint_ns": ""}}, empty_checkpoint(),
                               {"source": "input", "step": -1}, {})


def _caption(at: AppTest) -> str:
    return next(c.value for c in at.caption if c.value.startswith("共保存"))


def test_admin_deletes_conversations_unused_past_the_retention_period(workspace, monkeypatch):
    UserStore().add("admin", "admin", "Adm1n-long-pass-2026")
    _conversation(monkeypatch, "docs:manager_a:spring-subsidies", days_ago=200)
    _conversation(monkeypatch, "kg:manager_a:this-week", days_ago=2)

    at = AppTest.from_file(PAGE, default_timeout=180)
    at.session_state["principal"] = ADMIN
    at.run()
    assert not at.exception
    assert _caption(at).startswith("共保存 2 段对话，其中 1 段已超过 90 天未再使用")

    next(b for b in at.button if b.label == "清理 90 天未用的对话").click().run()
    assert any("将永久删除 1 段 90 天未用的对话" in w.value for w in at.warning)  # nothing deleted yet
    assert get_checkpointer().get_tuple({"configurable": {"thread_id": "docs:manager_a:spring-subsidies"}})

    next(b for b in at.button if b.label == "确认清理").click().run()
    assert not at.exception
    assert "已清理 1 段过期对话" in [message for _kind, message in at.session_state["_flash"]]
    assert _caption(at).startswith("共保存 1 段对话，其中 0 段")
    assert get_checkpointer().get_tuple({"configurable": {"thread_id": "docs:manager_a:spring-subsidies"}}) is None
    assert get_checkpointer().get_tuple({"configurable": {"thread_id": "kg:manager_a:this-week"}}) is not None
