"""Checkpoint contract: LangGraph's SqliteSaver (default) and PostgresSaver
(``ZHICE_DATABASE_URL``), both from ``core.storage.checkpoint.get_checkpointer``, store, fetch
and list checkpoints alike, resume an interrupted graph after a restart, and let two OS
processes carry on one thread."""

from __future__ import annotations

import json
import subprocess
import time
from datetime import datetime, timedelta, timezone

from langgraph.checkpoint.base import create_checkpoint, empty_checkpoint
from langgraph.types import Command

from core.storage.checkpoint import (delete_threads_unused_since, get_checkpointer, reset_checkpointers,
                                     thread_last_used)
from tests.contracts.backends import PYTHON, app_backend, child_env  # noqa: F401 - fixture
from tests.support.postgres import postgres_server_url, postgres_url  # noqa: F401 - fixtures
from tests.support import checkpoint_graph


def _cfg(thread_id: str, checkpoint_id: str | None = None) -> dict:
    cfg = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    if checkpoint_id:
        cfg["configurable"]["checkpoint_id"] = checkpoint_id
    return cfg


def test_put_get_list(app_backend):
    saver = get_checkpointer()
    assert get_checkpointer() is saver  # one per process and location
    assert saver.get_tuple(_cfg("t-none")) is None

    c1 = empty_checkpoint()
    c1["channel_values"] = {"question": "高校毕业生租房补贴怎么申请？"}
    c1["channel_versions"] = {"question": 1}
    cfg1 = saver.put(_cfg("t1"), c1, {"source": "input", "step": -1, "user": "张三"}, {"question": 1})
    c2 = create_checkpoint(c1, None, 1)
    c2["channel_values"] = {"question": "那第二条呢？"}
    c2["channel_versions"] = {"question": 2}
    cfg2 = saver.put(cfg1, c2, {"source": "loop", "step": 0, "user": "张三"}, {"question": 2})
    saver.put(_cfg("t2"), empty_checkpoint(), {"source": "input", "step": -1}, {})
    saver.put_writes(cfg2, [("answer", "第二条：补贴标准")], task_id="task-1")

    latest = saver.get_tuple(_cfg("t1"))
    assert latest.checkpoint["id"] == c2["id"]
    assert latest.checkpoint["channel_values"]["question"] == "那第二条呢？"
    assert latest.metadata["user"] == "张三" and latest.metadata["step"] == 0
    assert latest.parent_config["configurable"]["checkpoint_id"] == c1["id"]
    assert ("task-1", "answer", "第二条：补贴标准") in [tuple(w) for w in latest.pending_writes]

    older = saver.get_tuple(_cfg("t1", c1["id"]))
    assert older.checkpoint["channel_values"]["question"] == "高校毕业生租房补贴怎么申请？"

    listed = list(saver.list(_cfg("t1")))
    assert [t.checkpoint["id"] for t in listed] == [c2["id"], c1["id"]]  # newest first
    assert [t.checkpoint["id"] for t in saver.list(_cfg("t1"), limit=1)] == [c2["id"]]
    assert [t.checkpoint["id"] for t in saver.list(_cfg("t1"), filter={"source": "input"})] == [c1["id"]]
    assert len(list(saver.list(_cfg("t2")))) == 1

    saver.delete_thread("t1")
    assert saver.get_tuple(_cfg("t1")) is None
    assert saver.get_tuple(_cfg("t2")) is not None


def test_graph_resumes_after_restart(app_backend):
    graph = checkpoint_graph.build(get_checkpointer())
    cfg = checkpoint_graph.thread("conv-1")
    out = graph.invoke({"question": "一季度出勤", "log": []}, cfg)
    assert "__interrupt__" in out and out["__interrupt__"][0].value == {"confirm": "一季度出勤"}
    assert graph.get_state(cfg).next == ("review",)

    reset_checkpointers()  # the app restarts: new connection, new saver, new compiled graph
    graph = checkpoint_graph.build(get_checkpointer())
    assert graph.get_state(cfg).next == ("review",)
    final = graph.invoke(Command(resume="确认"), cfg)
    assert final["approved"] == "确认"
    assert [entry.split(":")[0] for entry in final["log"]] == ["plan", "review", "answer"]
    assert graph.get_state(cfg).next == ()
    history = list(graph.get_state_history(cfg))
    assert len(history) >= 4


def _run(action: str, thread_id: str, value: str) -> dict:
    proc = subprocess.run([PYTHON, "-m", "tests.support.checkpoint_graph", action, thread_id, value],
                          env=child_env(), capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_two_processes_share_one_thread(app_backend):
    first = _run("start", "shared-thread", "三月考勤汇总")
    assert first["next"] == ["review"]
    second = _run("resume", "shared-thread", "同意")
    assert second["pid"] != first["pid"]
    assert second["next"] == [] and second["values"]["approved"] == "同意"
    log = second["values"]["log"]
    assert log[0] == f"plan:三月考勤汇总:pid{first['pid']}"
    assert log[-1] == f"answer:三月考勤汇总:同意:pid{second['pid']}"
    # and this (third) process sees the finished thread
    graph = checkpoint_graph.build(get_checkpointer())
    state = graph.get_state(checkpoint_graph.thread("shared-thread"))
    assert state.values["log"] == log


def test_threads_unused_since_a_cutoff_are_deleted_whole(app_backend):
    saver = get_checkpointer()

    def put(thread: str, parent: dict | None = None) -> dict:
        return saver.put(parent or _cfg(thread), empty_checkpoint(), {"source": "input", "step": -1}, {})

    put("old")
    first = put("resumed")
    time.sleep(0.01)
    cutoff = datetime.now(timezone.utc)
    time.sleep(0.01)
    put("resumed", parent=first)  # asked in again after the cutoff
    put("new")

    used = thread_last_used(saver)
    assert set(used) == {"old", "resumed", "new"}
    assert used["old"] < cutoff < used["resumed"]  # a thread's newest checkpoint counts
    assert abs(used["new"] - datetime.now(timezone.utc)) < timedelta(seconds=60)

    assert delete_threads_unused_since(cutoff, saver) == 1
    assert saver.get_tuple(_cfg("old")) is None
    assert len(list(saver.list(_cfg("resumed")))) == 2  # kept whole, first turn included
    assert saver.get_tuple(_cfg("new")) is not None
    assert delete_threads_unused_since(cutoff, saver) == 0
