"""A demo workspace shared by the attack tests of a module: the bundled sample spreadsheets
built as tenant ``demo`` through the real build service, the demo's users as principals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core import config
from core.security.principals import Principal, Role

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "data" / "samples" / "business"

GUEST = Principal("guest_a", Role.guest, tenants=("demo",))
STAFF = Principal("staff_a", Role.staff, tenants=("demo",))
MANAGER = Principal("manager_a", Role.manager, tenants=("demo",))
OUTSIDER = Principal("outsider", Role.manager, tenants=("other",))


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("security_demo")
    mp = pytest.MonkeyPatch()
    mp.setenv("ZHICE_HOME", str(home))
    config.set_settings(None)
    try:
        from core.graph.store import close_graph_stores
        from core.services.build import load_demo_graph

        report = load_demo_graph(clear=True)
        assert not report["errors"], report["errors"][:3]
        close_graph_stores()
    finally:
        mp.undo()
        config.set_settings(None)
    return home


@pytest.fixture
def demo(demo_home, monkeypatch) -> Path:
    """This test runs in the demo workspace (after the autouse empty-workspace fixture)."""
    from core.agents.kg.entity_index import invalidate
    from core.graph.store import close_graph_stores

    monkeypatch.setenv("ZHICE_HOME", str(demo_home))
    config.set_settings(None)
    invalidate()
    yield demo_home
    close_graph_stores()
    invalidate()
    config.set_settings(None)


def sample_values(column: str, prefix: str = "") -> set[str]:
    """Every non-empty value of ``column`` in the sample spreadsheets (as text)."""
    from openpyxl import load_workbook

    out: set[str] = set()
    for path in sorted(SAMPLES.glob(f"{prefix}*.xlsx")):
        wb = load_workbook(path, read_only=True, data_only=True)
        try:
            rows = wb["数据"].iter_rows(values_only=True)
            header = list(next(rows))
            if column not in header:
                continue
            i = header.index(column)
            out |= {str(r[i]) for r in rows if r[i] not in (None, "")}
        finally:
            wb.close()
    return out


def dump(result) -> str:
    return json.dumps(result, ensure_ascii=False, default=str)
