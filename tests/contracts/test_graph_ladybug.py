"""The GraphStore contract on the embedded LadybugDB backend."""

from __future__ import annotations

import pytest

from core.errors import ReadOnlyViolation
from core.graph.store.ladybug import LadybugStore
from tests.contracts.graph_contract import GraphStoreContract, TenancyContract, _seed, two_tenants  # noqa: F401 - fixture


class TestLadybugStore(GraphStoreContract):
    @pytest.fixture
    def store(self, tmp_path):
        s = LadybugStore(tmp_path / "graph" / "g.lbug")
        yield s
        s.close()


@pytest.fixture(scope="class")
def shared_graph_settings(tmp_path_factory, model_cache):
    """One empty workspace for a whole class (``two_tenants``)."""
    from core import config
    from core.graph.store import close_graph_stores

    home = tmp_path_factory.mktemp("tenancy-ladybug") / "workspace"
    yield config.load_settings({"home": home, "neo4j_uri": "", "model_cache": str(model_cache)},
                               dotenv_path=home / ".env")
    close_graph_stores()


class TestLadybugTenancy(TenancyContract):
    @pytest.fixture
    def graph_settings(self, workspace):
        from core import config
        from core.graph.store import close_graph_stores

        yield config.get_settings()
        close_graph_stores()


def test_reads_run_on_a_read_only_database(tmp_path):
    s = LadybugStore(tmp_path / "g.lbug")
    try:
        _seed(s)
        assert s.run_named("entity_people") and s.read_only_connection
        # even if the code-level check were bypassed, the read connection refuses writes
        with pytest.raises(RuntimeError, match="read-only"):
            s._read_conn().execute("CREATE (n:片区 {片区编号: 'X'})")
        # a write after a read is visible to the next read (read-only database reopened)
        s.upsert_nodes("片区", [{"片区编号": "A1", "片区名称": "新片区", "来源模板": "t", "来源文件": "f", "行号": 2}])
        assert [r["片区编号"] for r in s.run_named("entity_areas")] == ["A1"]
    finally:
        s.close()


def test_store_reopens_with_data(tmp_path):
    s = LadybugStore(tmp_path / "g.lbug")
    _seed(s)
    before = s.counts()
    s.close()
    s2 = LadybugStore(tmp_path / "g.lbug")
    try:
        assert s2.counts() == before
        with pytest.raises(ReadOnlyViolation):
            s2.query("MATCH (n) DELETE n")
    finally:
        s2.close()


def test_old_layout_is_refused_until_cleared(tmp_path):
    import ladybug

    from core.errors import GraphStoreError

    path = tmp_path / "old.lbug"
    db = ladybug.Database(str(path))
    ladybug.Connection(db).execute("CREATE NODE TABLE `项目`(`项目编号` STRING, `名称` STRING, PRIMARY KEY (`项目编号`))")
    db.close()
    s = LadybugStore(path)
    try:
        with pytest.raises(GraphStoreError, match="--rebuild"):
            s.counts()
        s.clear()
        _seed(s)
        assert s.counts()["nodes"]["项目"] == 2
    finally:
        s.close()


def test_a_committed_graph_of_an_older_layout_says_rebuild_instead_of_failing_queries(tmp_path):
    """A tenant's committed generation is opened read-only; built by an older version, its
    queries would fail on missing columns. The reader says what to do, in words, at once."""
    import ladybug

    from core.errors import GraphStoreError

    path = tmp_path / "old.lbug"
    db = ladybug.Database(str(path))
    ladybug.Connection(db).execute("CREATE NODE TABLE `项目`(`项目编号` STRING, `名称` STRING, PRIMARY KEY (`项目编号`))")
    db.close()
    s = LadybugStore(path, read_only=True)
    try:
        with pytest.raises(GraphStoreError, match="重新构建") as e:
            s.run_named("kg_entity_projects")
        assert "Binder" not in e.value.user_message and "exception" not in e.value.user_message.lower()
    finally:
        s.close()


def test_reads_from_threads_while_writing(tmp_path):
    import threading

    s = LadybugStore(tmp_path / "t.lbug")
    errors: list[BaseException] = []
    stop = threading.Event()

    def reader():
        while not stop.is_set():
            try:
                s.run_named("entity_people")
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)
                return

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        for i in range(20):
            s.upsert_nodes("人员", [{"工号": f"T{i}", "姓名": "x", "来源模板": "t", "来源文件": "f", "行号": i + 2}])
    finally:
        stop.set()
        for t in threads:
            t.join()
    try:
        assert errors == []
        assert len(s.run_named("entity_people")) == 20
    finally:
        s.close()


class _FullPoolConnection:
    """A read connection whose database has run out of buffer pool (LadybugDB's own error
    text), as seen after ~600 agent turns in one process."""

    def execute(self, *args, **kwargs):
        raise RuntimeError("Buffer manager exception: Unable to allocate memory! The buffer pool is full and "
                           "no memory could be freed!")

    def close(self):
        pass


def test_a_full_buffer_pool_reopens_the_read_database(tmp_path, monkeypatch):
    from core.errors import GraphStoreError

    s = LadybugStore(tmp_path / "g.lbug")
    try:
        _seed(s)
        expected = s.run_named("entity_areas")
        s._read_conn()
        s._ro_conn = _FullPoolConnection()  # the current read database is exhausted
        assert s.run_named("entity_areas") == expected  # reopened once, answered
        assert s._ro_conn is not None and not isinstance(s._ro_conn, _FullPoolConnection)

        # when even a fresh read database cannot hold the query, the user gets a clear error
        monkeypatch.setattr(LadybugStore, "_read_conn", lambda self: _FullPoolConnection())
        with pytest.raises(GraphStoreError, match="缓冲区"):
            s.run_named("entity_areas")
    finally:
        monkeypatch.undo()
        s.close()


def test_readers_in_threads_see_whole_generations_while_builds_publish(workspace):
    """Reader threads on one handed-out store while builds replace the graph: every answer is
    one whole generation (never empty, never a mix), and no query fails on a retired database."""
    import threading

    from core import config
    from core.graph.store import close_graph_stores, get_graph_store, graph_build

    settings = config.get_settings()
    areas = {"A": ["A1", "A2"], "B": ["B1", "B2", "B3"]}

    def build(kind):
        with graph_build("ta", clear=True, settings=settings) as stage:
            stage.upsert_nodes("片区", [{"片区编号": k, "片区名称": k, "来源模板": "片区信息", "来源文件": "a.xlsx",
                                         "行号": i + 2} for i, k in enumerate(areas[kind])])

    build("A")
    store = get_graph_store(settings, tenant="ta")
    errors: list[BaseException] = []
    seen: set[tuple] = set()
    stop = threading.Event()

    def reader():
        while not stop.is_set():
            try:
                seen.add(tuple(r["片区编号"] for r in store.run_named("entity_areas")))
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)
                return

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        for i in range(6):
            build("B" if i % 2 == 0 else "A")
    finally:
        stop.set()
        for t in threads:
            t.join()
    try:
        assert errors == []
        assert seen <= {tuple(areas["A"]), tuple(areas["B"])} and seen
        assert store.generation == 7 and [r["片区编号"] for r in store.run_named("entity_areas")] == areas["A"]
    finally:
        close_graph_stores()
