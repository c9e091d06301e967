"""A second process (the CLI while the dashboard runs) can still query the embedded graph;
its writes are refused with a clear message and nothing stored is touched."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.errors import GraphStoreError
from core.graph.store.ladybug import LadybugStore

REPO = Path(__file__).resolve().parents[2]

HOLDER = """
import sys, time
sys.path.insert(0, {repo!r})
from core.graph.store.ladybug import LadybugStore
s = LadybugStore({path!r})
s.upsert_nodes("片区", [{{"片区编号": "A1", "片区名称": "青浦片区", "片区负责人工号": "KWL1",
                        "来源模板": "片区信息", "来源文件": "a.xlsx", "行号": 2}}])
print("ready", flush=True)
sys.stdin.readline()
"""


def test_query_only_beside_a_writer(tmp_path):
    path = str(tmp_path / "g.lbug")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER.format(repo=str(REPO), path=path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        store = LadybugStore(path)
        assert store.query_only
        assert store.counts()["nodes"]["片区"] == 1
        with pytest.raises(GraphStoreError, match="只能查询"):
            store.clear()
        store.close()
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    writer = LadybugStore(path)  # the writer's data survived
    assert not writer.query_only and writer.counts()["nodes"]["片区"] == 1
    writer.close()
