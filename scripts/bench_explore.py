"""Benchmark the graph explorer (图谱浏览) on a large embedded graph.

    python scripts/bench_explore.py [--nodes 50000] [--edges 200000] [--repeat 5] [--workdir DIR]

Generates staff × months attendance spreadsheets from the sample projects with the generator
of scripts/bench_graph.py (each row gives a 考勤 and a 人员财务 node), builds them as tenant
``bench`` through the real build path (LadybugDB, the embedded default), tops the graph up to
``--edges`` relationships with service-period edges (服务于, one per person × project × start
month, as rotations between projects would give), then times what the page does when a user
opens an entity: ``core.services.explore.neighbors`` (with the page's cap and bundles) for a
person, for a hub project and for a person at depth 2, plus a search and a shortest path.
Prints the figures as JSON (p50 / max over ``--repeat`` runs after one warm-up).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))


def _timed(fn, repeat: int) -> dict:
    fn()  # warm-up: caches, the read-only connection
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t) * 1000)
    return {"p50_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1), "last": out}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=50_000)
    ap.add_argument("--edges", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--workdir", type=Path)
    args = ap.parse_args(argv)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench_explore_"))
    work.mkdir(parents=True, exist_ok=True)
    os.environ["ZHICE_HOME"] = str(work / "workspace")
    os.environ.pop("ZHICE_NEO4J_URI", None)

    from bench_graph import generate

    from core.graph.builder import build_graph
    from core.graph.reader import read_files
    from core.graph.store import get_graph_store, graph_build
    from core.security.principals import Principal, Role
    from core.services import explore as X

    t0 = time.perf_counter()
    rows = max(1, (args.nodes - 16) * 76 // (2 * 76 + 1))  # 2 nodes per row + one person per 76 rows
    files = generate(work, rows)
    read = read_files(files)
    assert not read.errors, read.errors[:3]
    with graph_build("bench", clear=True) as stage:
        build_graph(stage, read, clear=True)
        counts = stage.counts()
        have = sum(counts["edges"].values())
        people = [r["工号"] for r in stage.query("MATCH (p:人员) RETURN p.工号 AS 工号 ORDER BY 工号")]
        projects = [r["k"] for r in stage.query("MATCH (j:项目) RETURN j.项目编号 AS k ORDER BY k")]
        months = [f"{2010 + i // 12}-{i % 12 + 1:02d}" for i in range(120)]  # before the generated ones
        extra = []
        i = 0
        while have + len(extra) < args.edges:
            p, j, m = people[i % len(people)], projects[(i // len(people)) % len(projects)], \
                months[(i // (len(people) * len(projects))) % len(months)]
            extra.append({"from": p, "to": j, "开始": m, "结束": m, "依据": "基准测试", "来源模板": "人员服务期",
                          "来源文件": "bench.xlsx", "行号": i + 2})
            i += 1
        stage.upsert_edges("服务于", "人员", "项目", extra, batch_size=20_000)
    build_s = time.perf_counter() - t0
    store = get_graph_store(tenant="bench")
    counts = store.counts()
    who = Principal("bench_manager", Role.manager, tenants=("bench",))
    person, project = f"人员:{people[len(people) // 2]}", f"项目:{projects[0]}"

    def open_entity(node, depth=1):
        return lambda: X.neighbors(who, node, depth=depth, limit=X.DEFAULT_NODE_CAP,
                                   bundle_over=X.DEFAULT_BUNDLE_OVER)

    figures = {}
    for name, fn in (("open_person", open_entity(person)), ("open_hub_project", open_entity(project)),
                     ("open_person_depth2", open_entity(person, 2)),
                     ("node_detail", lambda: X.node_detail(who, person, with_source=False)),
                     ("search", lambda: X.search(who, people[7])),
                     ("shortest_path", lambda: X.shortest_path(who, person, f"项目:{projects[-1]}"))):
        r = _timed(fn, args.repeat)
        last = r.pop("last")
        if "total_nodes" in last:
            r.update(total_nodes=last["total_nodes"], drawn=len(last["nodes"]), truncated=last["truncated"])
        figures[name] = r
    out = {"nodes": sum(counts["nodes"].values()), "edges": sum(counts["edges"].values()),
           "build_s": round(build_s, 1), "backend": store.backend, "figures": figures,
           "open_under_1s": all(figures[k]["p50_ms"] < 1000 for k in ("open_person", "open_hub_project", "open_person_depth2"))}
    print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
