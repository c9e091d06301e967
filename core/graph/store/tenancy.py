"""Tenants and generations of the business graph, on both backends.

A tenant's graph is a sequence of immutable *generations*. Readers see the tenant's CURRENT
committed generation; a build writes the next generation on the side (a staging store) and
publishes it in one atomic step only when it finished, so readers never see a half-built graph
and a build killed at any moment (``kill -9`` included) leaves the previous graph untouched.

Workspace layout (``$ZHICE_HOME/graph/<backend>/<tenant>/``)::

    CURRENT        LadybugDB only: {"generation": N} — written to a temp file, fsynced, then
                   os.replace()d over the old one (atomic on POSIX)
    build.lock     flock()ed by the one running build of this tenant; the OS releases it when the
                   process dies, so a killed build never blocks the next one
    gen-000007/    generation 7: graph.lbug (LadybugDB) and sources/<template>/<file>, the exact
                   spreadsheets the generation was built from (provenance rows open these)
    gen-000008/    a build in progress, or the leftover of a killed one

On Neo4j (one database) the pointer is the tenant's meta node and the nodes of generation N
carry ``_scope = "<tenant>#N"`` (see :mod:`core.graph.store.neo4j`); the workspace folder holds
the generations' source files only.

Leftovers (generation folders other than CURRENT's, Neo4j scopes marked building/retired) are
removed by the next build and whenever a tenant's store is opened while no build holds the lock.

Handed-out read stores follow the pointer: a store returned by ``get_graph_store`` earlier sees a
generation published later (by this or another process) on its next query, and its
``generation`` attribute is always the one its next query reads (on LadybugDB the store of
:mod:`core.graph.store.ladybug_tenant`).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from core.config import TENANT_RE, Settings
from core.errors import BadInputError, GraphBuildBusy, GraphStoreError
from core.graph.schema import TEMPLATE_NAMES
from core.graph.store.ladybug_tenant import LadybugTenantStore

POINTER = "CURRENT"
LOCK = "build.lock"
DB_FILE = "graph.lbug"
SOURCES = "sources"

# ---- names -------------------------------------------------------------------------------


def validate_tenant(tenant: Any) -> str:
    """The tenant name, or BadInputError (it names folders and Neo4j scopes)."""
    if not isinstance(tenant, str) or not TENANT_RE.fullmatch(tenant):
        raise BadInputError(f"租户名“{tenant}”无效：只能包含字母、数字、下划线或连字符，以字母或数字开头，至多 32 个字符")
    return tenant


def _check_file_name(name: Any) -> str:
    if (not isinstance(name, str) or not name or name in (".", "..") or "/" in name or "\\" in name
            or "\0" in name or len(name.encode("utf-8")) > 255):
        raise BadInputError(f"来源文件名“{name}”无效：应为不含路径的文件名")
    return name


def _check_template(template: Any) -> str:
    if template not in TEMPLATE_NAMES:
        raise BadInputError(f"未知模板“{template}”，可选：{'、'.join(TEMPLATE_NAMES)}")
    return template


def gen_dir_name(generation: int) -> str:
    return f"gen-{generation:06d}"


def _gen_of(name: str) -> int | None:
    if name.startswith("gen-") and name[4:].isdigit():
        return int(name[4:])
    return None


# ---- build steps (tests hook into these to kill a build at a chosen moment) ----------------
_step_hooks: list[Callable[[str, str], None]] = []


def add_build_hook(fn: Callable[[str, str], None]) -> Callable[[], None]:
    """Call ``fn(step, tenant)`` at each step of every build in this process: ``staged`` (the
    staging store is ready), ``written`` (the build block finished), ``published`` (readers now
    see the new generation), ``retired`` (the previous generation is deleted). Returns a remover."""
    _step_hooks.append(fn)
    return lambda: _step_hooks.remove(fn) if fn in _step_hooks else None


def _step(step: str, tenant: str) -> None:
    for fn in list(_step_hooks):
        fn(step, tenant)


# ---- files -------------------------------------------------------------------------------
def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _fsync_file(path: Path) -> None:
    with open(path, "rb") as f:
        os.fsync(f.fileno())


class BuildLock:
    """An exclusive, non-blocking flock on ``build.lock``: one build per tenant across every
    thread and process of this workspace; released by the OS if the holder dies."""

    def __init__(self, folder: Path, tenant: str):
        self.path = folder / LOCK
        self.tenant = tenant
        self._fd: int | None = None

    def try_acquire(self) -> bool:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return False
            raise
        self._fd = fd
        return True

    def acquire(self) -> None:
        if not self.try_acquire():
            raise GraphBuildBusy(f"租户“{self.tenant}”的业务图谱正在由另一个任务构建（可能是另一个进程或看板），"
                                 "请等它完成后再试")

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


# ---- staging -----------------------------------------------------------------------------
class StagingStore:
    """The writable store a build writes into (a :class:`GraphStore`), plus the generation's
    source files. Nothing written here is visible to readers before the build is published."""

    def __init__(self, inner, tenant: str, generation: int, folder: Path):
        self.inner = inner
        self.tenant = tenant
        self.generation = generation
        self.folder = folder  # the generation's folder (sources; the LadybugDB file)
        self.backend = inner.backend
        self.dialect = inner.dialect

    def add_source(self, template: str, file_name: str, path: str | Path) -> Path:
        """Copy the spreadsheet behind provenance rows ``(template, file_name)`` into the generation."""
        target = self.folder / SOURCES / _check_template(template) / _check_file_name(file_name)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
        shutil.copyfile(path, tmp)
        os.replace(tmp, target)  # replaces a link carried over from the previous generation, never its file
        return target

    # GraphStore protocol, delegated
    def ensure_schema(self) -> None:
        self.inner.ensure_schema()

    def clear(self) -> None:
        self.inner.clear()

    def upsert_nodes(self, label, rows, *, batch_size: int = 2000) -> int:
        return self.inner.upsert_nodes(label, rows, batch_size=batch_size)

    def upsert_edges(self, rel_type, from_label, to_label, rows, *, batch_size: int = 2000) -> int:
        return self.inner.upsert_edges(rel_type, from_label, to_label, rows, batch_size=batch_size)

    def delete_edges(self, rel_type, from_label, to_label, rows) -> int:
        return self.inner.delete_edges(rel_type, from_label, to_label, rows)

    def query(self, cypher, params=None):
        return self.inner.query(cypher, params)

    def run_named(self, name, params=None):
        return self.inner.run_named(name, params)

    def counts(self):
        return self.inner.counts()

    def close(self) -> None:
        self.inner.close()


def _link_tree(src: Path, dst: Path) -> None:
    """Carry the previous generation's source files over (hard links; copies across devices)."""
    if not src.is_dir():
        return
    for p in src.rglob("*"):
        if p.is_file():
            t = dst / p.relative_to(src)
            t.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(p, t)
            except OSError:
                shutil.copyfile(p, t)


class _Graphs:
    """What both backends share: the tenant folders, the build lock, the source files."""

    backend = ""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.root = settings.home / "graph" / self.backend

    def folder(self, tenant: str) -> Path:
        return self.root / validate_tenant(tenant)

    def current(self, tenant: str) -> int:  # pragma: no cover - per backend
        raise NotImplementedError

    def tenants(self) -> list[str]:  # pragma: no cover - per backend
        raise NotImplementedError

    def _remove_generation_dirs(self, tenant: str, keep: int) -> None:
        folder = self.folder(tenant)
        if not folder.is_dir():
            return
        for p in folder.iterdir():
            gen = _gen_of(p.name)
            if gen is not None and gen != keep:
                shutil.rmtree(p, ignore_errors=True)
            elif p.name.startswith(POINTER + ".tmp-"):
                p.unlink(missing_ok=True)

    def cleanup_if_idle(self, tenant: str) -> None:
        """Remove leftovers of an unfinished build when no build of ``tenant`` is running."""
        if not self.folder(tenant).is_dir():
            return
        lock = BuildLock(self.folder(tenant), tenant)
        if lock.try_acquire():
            try:
                self.cleanup(tenant)
            finally:
                lock.release()

    def cleanup(self, tenant: str) -> None:  # caller holds the build lock
        self._remove_generation_dirs(tenant, self.current(tenant))

    def source_file(self, tenant: str, template: str, file_name: str) -> Path | None:
        tenant, template, file_name = validate_tenant(tenant), _check_template(template), _check_file_name(file_name)
        gen = self.current(tenant)
        if not gen:
            return None
        path = self.folder(tenant) / gen_dir_name(gen) / SOURCES / template / file_name
        home = self.settings.home.resolve()
        try:
            resolved = path.resolve(strict=True)
        except (FileNotFoundError, RuntimeError, OSError):
            return None
        if not resolved.is_relative_to(home) or not resolved.is_file():
            return None
        return resolved

    def current_sources(self, tenant: str) -> dict[str, list[Path]]:
        """The spreadsheets the tenant's current generation was built from, template → files
        (sorted by name); empty when the tenant has no graph or kept no sources."""
        gen = self.current(validate_tenant(tenant))
        root = self.folder(tenant) / gen_dir_name(gen) / SOURCES
        if not gen or not root.is_dir():
            return {}
        out: dict[str, list[Path]] = {}
        for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name in TEMPLATE_NAMES):
            files = sorted(f for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
            if files:
                out[folder.name] = files
        return out

    @contextmanager
    def build(self, tenant: str, *, clear: bool) -> Iterator[StagingStore]:
        tenant = validate_tenant(tenant)
        folder = self.folder(tenant)
        lock = BuildLock(folder, tenant)
        lock.acquire()
        try:
            self.cleanup(tenant)
            stage = self._begin(tenant, clear)
            try:
                _step("staged", tenant)
                yield stage
                _step("written", tenant)
            except BaseException:
                self._abort(stage)
                raise
            self._commit(stage)
        finally:
            lock.release()

    def _new_generation_dir(self, tenant: str, current: int, clear: bool) -> tuple[int, Path]:
        gen = current + 1
        path = self.folder(tenant) / gen_dir_name(gen)
        shutil.rmtree(path, ignore_errors=True)
        path.mkdir(parents=True)
        if current and not clear:
            _link_tree(self.folder(tenant) / gen_dir_name(current) / SOURCES, path / SOURCES)
        return gen, path


# ---- LadybugDB -----------------------------------------------------------------------------
class LadybugGraphs(_Graphs):
    """One LadybugDB file per tenant per generation; the CURRENT file names the committed one."""

    backend = "ladybug"

    def _read_pointer(self, folder: Path) -> int:
        try:
            data = json.loads((folder / POINTER).read_text(encoding="utf-8"))
            return int(data["generation"])
        except (FileNotFoundError, NotADirectoryError):
            return 0
        except (ValueError, KeyError, TypeError) as exc:
            raise GraphStoreError("图谱版本指针文件已损坏", detail=f"{folder / POINTER}: {exc}") from exc

    def current(self, tenant: str) -> int:
        folder = self.folder(tenant)
        gen = self._read_pointer(folder)
        while gen and not (folder / gen_dir_name(gen) / DB_FILE).is_file():
            again = self._read_pointer(folder)  # a build may have published and removed it just now
            if again == gen:
                return 0
            gen = again
        return gen

    def db_file(self, tenant: str, generation: int) -> Path:
        return self.folder(tenant) / gen_dir_name(generation) / DB_FILE

    def pointer_file(self, tenant: str) -> Path:
        """The tenant's CURRENT file (a reader's one ``stat`` per query tells it a build published)."""
        return self.folder(tenant) / POINTER

    def tenants(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir()
                      if p.is_dir() and TENANT_RE.fullmatch(p.name) and self.current(p.name))

    def _write_pointer(self, tenant: str, generation: int) -> None:
        folder = self.folder(tenant)
        tmp = folder / f"{POINTER}.tmp-{os.getpid()}"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"generation": generation, "dir": gen_dir_name(generation)}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, folder / POINTER)
        _fsync_dir(folder)

    def _begin(self, tenant: str, clear: bool) -> StagingStore:
        from core.graph.store.ladybug import LadybugStore

        current = self.current(tenant)
        gen, path = self._new_generation_dir(tenant, current, clear)
        if current and not clear:
            shutil.copyfile(self.db_file(tenant, current), path / DB_FILE)
        inner = LadybugStore(path / DB_FILE)
        return StagingStore(inner, tenant, gen, path)

    def _abort(self, stage: StagingStore) -> None:
        try:
            stage.inner.close()
        finally:
            shutil.rmtree(stage.folder, ignore_errors=True)

    def _commit(self, stage: StagingStore) -> None:
        previous = self.current(stage.tenant)
        stage.inner.checkpoint()
        stage.inner.close()
        _fsync_file(stage.folder / DB_FILE)
        for p in (stage.folder / SOURCES).rglob("*"):
            if p.is_file():
                _fsync_file(p)
        _fsync_dir(stage.folder)
        self._write_pointer(stage.tenant, stage.generation)
        _step("published", stage.tenant)
        if previous:
            shutil.rmtree(self.folder(stage.tenant) / gen_dir_name(previous), ignore_errors=True)
        _step("retired", stage.tenant)

    def reader(self, tenant: str) -> LadybugTenantStore:
        self.cleanup_if_idle(tenant)
        return LadybugTenantStore(self, tenant)


# ---- Neo4j -------------------------------------------------------------------------------
class Neo4jGraphs(_Graphs):
    """One Neo4j database; a tenant's generation N is the set of nodes with ``_scope = "T#N"``."""

    backend = "neo4j"

    def __init__(self, settings: Settings):
        super().__init__(settings)
        self._admin = None
        self._lock = threading.Lock()

    def admin(self):
        from core.graph.store.neo4j import Neo4jStore

        with self._lock:
            if self._admin is None or self._admin.closed:
                self._admin = Neo4jStore(self.settings)
            return self._admin

    @staticmethod
    def scope(tenant: str, generation: int) -> str:
        return f"{tenant}#{generation}"

    def current(self, tenant: str) -> int:
        return self.admin().current(validate_tenant(tenant))[0]

    def tenants(self) -> list[str]:
        return self.admin().tenants()

    def cleanup(self, tenant: str) -> None:  # caller holds the build lock
        admin = self.admin()
        current = admin.current(tenant)[0]
        for mark in admin.marks(tenant):
            if mark["scope"] != self.scope(tenant, current):
                admin.delete_scope(mark["scope"])
            admin.unmark(mark["scope"])
        self._remove_generation_dirs(tenant, current)

    def cleanup_if_idle(self, tenant: str) -> None:
        lock = BuildLock(self.folder(tenant), tenant)
        if lock.try_acquire():
            try:
                self.cleanup(tenant)
            finally:
                lock.release()

    def _begin(self, tenant: str, clear: bool) -> StagingStore:
        from core.graph.store.neo4j import Neo4jStore

        admin = self.admin()
        current = admin.current(tenant)[0]
        gen, path = self._new_generation_dir(tenant, current, clear)
        scope = self.scope(tenant, gen)
        admin.mark(scope, tenant, gen, "building")  # committed first: a killed build leaves a mark
        admin.delete_scope(scope)
        if current and not clear:
            admin.copy_scope(self.scope(tenant, current), scope)
        inner = Neo4jStore(self.settings, scope=scope)
        return StagingStore(inner, tenant, gen, path)

    def _abort(self, stage: StagingStore) -> None:
        try:
            stage.inner.close()
            admin = self.admin()
            admin.delete_scope(self.scope(stage.tenant, stage.generation))
            admin.unmark(self.scope(stage.tenant, stage.generation))
        finally:
            shutil.rmtree(stage.folder, ignore_errors=True)

    def _commit(self, stage: StagingStore) -> None:
        admin = self.admin()
        stage.inner.close()
        for p in (stage.folder / SOURCES).rglob("*"):
            if p.is_file():
                _fsync_file(p)
        _fsync_dir(stage.folder)
        previous = admin.current(stage.tenant)[0]
        old = self.scope(stage.tenant, previous) if previous else None
        admin.publish(stage.tenant, stage.generation, self.scope(stage.tenant, stage.generation), old)
        _step("published", stage.tenant)
        if old:
            admin.delete_scope(old)
            admin.unmark(old)
            shutil.rmtree(self.folder(stage.tenant) / gen_dir_name(previous), ignore_errors=True)
        _step("retired", stage.tenant)

    def reader(self, tenant: str):
        from core.graph.store.neo4j import Neo4jStore

        self.cleanup_if_idle(tenant)
        return Neo4jStore(self.settings, tenant=tenant)

    def close(self) -> None:
        with self._lock:
            if self._admin is not None:
                self._admin.close()
                self._admin = None


def graphs_for(settings: Settings) -> _Graphs:
    return Neo4jGraphs(settings) if settings.graph_backend == "neo4j" else LadybugGraphs(settings)


def unique_source_names(files: dict[str, Iterable[tuple[Path, str]]]) -> None:
    """Refuse two different files recorded under one (template, file name) in one build."""
    for template, items in files.items():
        seen: dict[str, Path] = {}
        for path, name in items:
            prev = seen.setdefault(name, Path(path))
            if Path(path).resolve() != prev.resolve():
                raise BadInputError(f"模板“{template}”有两个同名文件“{name}”，溯源无法区分，请改名后再构建")
