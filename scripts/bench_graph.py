"""Benchmark the business-graph pipeline on scaled sample data.

    python scripts/bench_graph.py [--rows 10000] [--workdir DIR]

Generates ``--rows`` 考勤与人员财务 rows (staff × months over the 16 sample projects, plus the
matching 人员信息 rows and the sample 项目信息), then prints rows/s for: plain openpyxl read,
reader (read + validate), build (two phases into a fresh LadybugDB), and build time relative
to the plain openpyxl read.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from openpyxl import Workbook, load_workbook  # noqa: E402

from core.graph.builder import build_graph  # noqa: E402
from core.graph.reader import read_files  # noqa: E402
from core.graph.schema import TEMPLATE_BY_NAME  # noqa: E402
from core.graph.store.ladybug import LadybugStore  # noqa: E402

SAMPLE = ROOT / "data" / "samples" / "business"
POSITIONS = ["保安_领班", "保安_普保", "保洁员", "工程维修", "客服"]


def _write(path: Path, name: str, rows) -> int:
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("数据")
    ws.append(TEMPLATE_BY_NAME[name].column_names)
    n = 0
    for r in rows:
        ws.append(r)
        n += 1
    wb.save(path)
    return n


def generate(out: Path, rows: int, seed: int = 7) -> dict[str, list[tuple[Path, str]]]:
    rng = random.Random(seed)
    projects = [r[0] for r in load_workbook(SAMPLE / "01_项目信息.xlsx", read_only=True)["数据"].iter_rows(
        min_row=2, values_only=True)]
    months = [f"{2020 + i // 12}-{i % 12 + 1:02d}" for i in range(76)]  # 2020-01 … 2026-04
    n_staff = max(1, rows // len(months) + (rows % len(months) > 0))
    staff = [(f"KWL9{i:06d}", f"员工{i}", POSITIONS[i % len(POSITIONS)]) for i in range(n_staff)]
    tpl = TEMPLATE_BY_NAME["人员信息"]
    _write(out / "staff.xlsx", "人员信息",
           ([s[1], s[0], s[2]] + [None] * (len(tpl.column_names) - 3) for s in staff))
    att_cols = TEMPLATE_BY_NAME["考勤与人员财务"].column_names

    def att_rows():
        k = 0
        for s in staff:
            proj = rng.choice(projects)
            for ym in months:
                if k >= rows:
                    return
                k += 1
                days = [rng.choice("√√√√√休休事旷加") for _ in range(30)] + [None]
                worked = sum(1 for d in days if d in ("√", "加"))
                row = [s[1], s[0], proj, ym, *days, worked, float(rng.choice([0, 8, 24])), worked * 15.0,
                       0.0, 0.0, 0.0, f"{rng.uniform(4000, 7000):,.2f}", None]
                assert len(row) == len(att_cols)
                yield row

    _write(out / "att.xlsx", "考勤与人员财务", att_rows())
    return {"项目信息": [(SAMPLE / "01_项目信息.xlsx", "01_项目信息.xlsx")],
            "人员信息": [(out / "staff.xlsx", "staff.xlsx")],
            "考勤与人员财务": [(out / "att.xlsx", "att.xlsx")]}


def sample_rows() -> int:
    """Data rows in the bundled sample, all templates (the scale "10x the sample" refers to)."""
    n = 0
    for f in sorted(SAMPLE.glob("*.xlsx")):
        wb = load_workbook(f, read_only=True)
        n += sum(1 for r in wb["数据"].iter_rows(min_row=2, values_only=True) if any(v is not None for v in r))
        wb.close()
    return n


def run(rows: int, work: Path) -> dict:
    """Generate ``rows`` attendance rows under ``work``, then time a plain openpyxl read, the
    reader (read + validate) and the build into a fresh LadybugDB."""
    work.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    files = generate(work, rows)
    gen_s = time.perf_counter() - t

    t, c0 = time.perf_counter(), time.process_time()
    raw_rows = 0
    for paths in files.values():
        for p, _ in paths:
            wb = load_workbook(p, read_only=True, data_only=True)
            raw_rows += sum(1 for _ in wb["数据"].iter_rows(min_row=2, values_only=True))
            wb.close()
    raw_s, raw_cpu = time.perf_counter() - t, time.process_time() - c0

    t, c0 = time.perf_counter(), time.process_time()
    read = read_files(files)
    read_s, read_cpu = time.perf_counter() - t, time.process_time() - c0
    assert not read.errors, read.errors[:3]

    store = LadybugStore(work / "graph" / "bench.lbug")
    c0 = time.process_time()
    report = build_graph(store, read, clear=True)
    build_cpu = time.process_time() - c0
    store.close()
    nodes, edges = sum(report.nodes.values()), sum(report.edges.values())
    return {
        "attendance_rows": rows, "rows_total": read.rows_read, "generate_s": round(gen_s, 2),
        "openpyxl_read_s": round(raw_s, 2), "openpyxl_read_cpu_s": round(raw_cpu, 2), "openpyxl_rows_per_s": round(raw_rows / raw_s),
        "reader_s": round(read_s, 2), "reader_cpu_s": round(read_cpu, 2), "reader_rows_per_s": round(read.rows_read / read_s),
        "validate_overhead_s": round(read_s - raw_s, 2), "validate_overhead_cpu_s": round(read_cpu - raw_cpu, 2),
        "build_s": round(report.seconds, 2), "build_cpu_s": round(build_cpu, 2), "build_rows_per_s": round(read.rows_read / report.seconds),
        "build_phase_s": {k: round(v, 2) for k, v in report.phase_seconds.items()},
        "nodes": nodes, "edges": edges, "build_over_openpyxl_read": round(report.seconds / raw_s, 2),
        "build_over_openpyxl_read_cpu": round(build_cpu / raw_cpu, 2),
    }


def naive_load(store, read) -> float:
    """The loader a first attempt writes: the same nodes and relationships, one MERGE statement
    (and one transaction) per row. Returns seconds."""
    from core.graph.builder import plan_build

    t = time.perf_counter()
    plan = plan_build(read)
    for label, rows in plan.nodes.items():
        for row in rows:
            store.upsert_nodes(label, [row], batch_size=1)
    for (rel, a, b), rows in plan.edges.items():
        for row in rows:
            store.upsert_edges(rel, a, b, [row], batch_size=1)
    return time.perf_counter() - t


def loaders(rows: int, work: Path) -> dict:
    """The same generated rows written three ways: the batched build into LadybugDB (the
    default), a naive one-MERGE-per-row loader into LadybugDB, and the batched build into
    Neo4j (when ZHICE_TEST_NEO4J_URI names a running server; its own scope, cleared after)."""
    import os
    import uuid

    work.mkdir(parents=True, exist_ok=True)
    read = read_files(generate(work, rows))
    out: dict = {"rows_total": read.rows_read}
    store = LadybugStore(work / "graph" / "batched.lbug")
    out["ladybug_batched_s"] = round(build_graph(store, read, clear=True).seconds, 2)
    store.close()
    store = LadybugStore(work / "graph" / "naive.lbug")
    store.ensure_schema()
    out["ladybug_naive_s"] = round(naive_load(store, read), 2)
    store.close()
    uri = os.environ.get("ZHICE_TEST_NEO4J_URI")
    if not uri:
        out["neo4j_batched_s"] = None
        return out
    from core.graph.store.neo4j import Neo4jStore

    for key in ("neo4j_batched_first_s", "neo4j_batched_s"):  # the first pays the server's warm-up
        neo = Neo4jStore(scope=f"bench-{uuid.uuid4().hex[:8]}#1", uri=uri,
                         user=os.environ.get("ZHICE_TEST_NEO4J_USER", "neo4j"),
                         password=os.environ.get("ZHICE_TEST_NEO4J_PASSWORD", ""))
        try:
            out[key] = round(build_graph(neo, read, clear=True).seconds, 2)
        finally:
            neo.clear()
            neo.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000, help="attendance rows to generate")
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--loaders", action="store_true", help="batched vs one-MERGE-per-row, LadybugDB vs Neo4j")
    args = ap.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench_graph_"))
    out = loaders(args.rows, work) if args.loaders else run(args.rows, work)
    print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
