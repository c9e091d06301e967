"""Performance side by side (issue #18): one command for every benchmark, writing
docs/PERFORMANCE.md (machine, tables, targets) and optionally the headline figures as JSON.

    python scripts/bench_all.py [--quick] [--json OUT.json] [--extra-path DIR] [--home WS]

It calls the benchmark modules rather than repeating them: bench_compare.py (retrieval side
by side, ingestion overhead, a search-only serving process), bench_documents.py (parsing and
chunking throughput), bench_embedding.py (passage-embedding throughput options and int8's recall
change), bench_agents.py (agents in rules mode, 8 concurrent askers, the LLM path against an
instant Chat Completions server, serving memory, dashboard start and first answers),
bench_graph.py (graph build vs openpyxl; batched vs one-MERGE-per-row; LadybugDB vs Neo4j),
bench_retrieval.py (adding documents to large indexes; at full scale only, the whole laws corpus
indexed for real, ``whole_laws``: about half an hour here).
Each part runs in its own child process (``--section``), so one part's memory, caches or
failure never touch another's figures; a part that fails is reported as not run.

Scales: ``--quick`` (a few thousand law articles, 50 questions; ~30 minutes on 2 shared cores
once the vector cache is warm) and the default full scale of the issue's targets (100k law
articles: every law LeCoQA cites, then uncited ones in the corpus order; 200 questions; one to
two hours of embedding on 2 cores the first time, the longer articles last). Passage vectors
are cached by content hash under .cache/bench, so a re-run only embeds what is new. A full-scale
run keeps its retrieval figures and the whole-laws indexing in docs/performance-full-scale.json
(committed; each part replaced only when it ran again, e.g. ``--only whole_laws``), which every
later page shows beside its own, since those targets are stated at the full scale.

The competitors (rank-bm25, bm25s, LangChain) are not product dependencies: install
requirements-bench.txt apart, e.g. ``pip install --target DIR -r requirements-bench.txt``, and
pass ``--extra-path DIR`` (or set ZHICE_BENCH_EXTRA): DIR is appended to sys.path only in the
competitor code path, so the project's own pinned packages win. ``--home`` names a workspace
holding the demo (``python -m core.cli demo``) for the agent and dashboard parts. Neo4j: set
ZHICE_TEST_NEO4J_URI (and _USER / _PASSWORD) as the tests do, else that row says not run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from bench_render import FULL_PARTS, render  # noqa: E402

HEADLINE_KEYS = (
    "hybrid_p50_over_query_embed", "langchain_ensemble_p50_over_hybrid", "hybrid_recall_at_10_minus_langchain",
    "hybrid_recall_at_10_minus_rank_bm25", "ingest_overhead_over_embedding", "build_over_openpyxl_read",
    "kg_rules_p50_ms", "policy_rules_p50_ms", "serve_rss_mb_after_50_questions", "concurrent_8_errors",
)

SCALES = {
    "quick": {"articles": 3000, "questions": 50, "ingest_passages": 40, "agent_questions": 100,
              "graph_factors": [10, 100], "serve_questions": 50, "embed_sample": 512, "llm_questions": 30,
              "ingest_sizes": [27000, 100000], "ingest_adds": 10, "ingest_folder": 2081, "serve_fake": 100000},
    "full": {"articles": 100000, "questions": 200, "ingest_passages": 2081, "agent_questions": 100,
             "graph_factors": [10, 100], "serve_questions": 50, "embed_sample": 2048, "llm_questions": 100,
             "ingest_sizes": [27000, 100000], "ingest_adds": 10, "ingest_folder": 2081, "serve_fake": 100000},
}
SECTIONS = ("retrieval", "search_serve", "serve_at_scale", "ingest", "ingest_scale", "whole_laws", "embedding", "documents",
            "graph", "graph_loaders", "agents", "llm_overhead", "serve_rss", "dashboard")
FULL_ONLY = ("whole_laws",)  # too long for the quick scale's half hour


# ---- the parts (each runs in a child process) ----------------------------------------------
def section(name: str, scale: dict, args) -> dict:
    import bench_agents
    import bench_compare
    import bench_graph

    if name == "retrieval":
        return bench_compare.run(scale["articles"], scale["questions"], args.extra_path, not args.no_neo4j)
    if name in ("search_serve", "ingest"):
        base = compare_workspace(scale)
        if not (base / "index").is_dir():
            return {"error": "no comparison index (the retrieval part did not run)"}
        if name == "ingest":
            return bench_compare.ingest_overhead(base, scale["ingest_passages"])
        return bench_compare.serve_search(base, scale["questions"])
    if name == "documents":
        import bench_documents

        quiet = lambda *_a, **_k: None  # noqa: E731 - the per-file table is bench_documents.py's own output
        return {"policies": bench_documents.bench_policies(ocr=True, echo=quiet), "laws": bench_documents.bench_laws(echo=quiet)}
    if name == "graph":
        import tempfile

        sample = bench_graph.sample_rows()
        out = {"sample_rows": sample, "runs": []}
        for f in scale["graph_factors"]:
            with tempfile.TemporaryDirectory(prefix="bench_graph_") as work:
                out["runs"].append({"factor": f, **bench_graph.run(sample * f, Path(work))})
        return out
    if name == "graph_loaders":
        import tempfile

        with tempfile.TemporaryDirectory(prefix="bench_loaders_") as work:
            return {"factor": 10, **bench_graph.loaders(bench_graph.sample_rows() * 10, Path(work))}
    if name == "serve_at_scale":
        import bench_retrieval

        return bench_retrieval.serve_figures(200, scale["serve_fake"])
    if name == "ingest_scale":
        import bench_retrieval

        return {"runs": bench_retrieval.ingest_at_scale(scale["ingest_sizes"], scale["ingest_adds"],
                                                         scale["ingest_folder"])}
    if name == "whole_laws":
        import bench_retrieval

        return {**bench_retrieval.whole_laws_ingest(), "machine": machine()}
    if name == "embedding":
        import bench_embedding

        return bench_embedding.run(scale["embed_sample"], 3000, 50, extra_path=args.extra_path)
    if name == "agents":
        n = scale["agent_questions"]
        return bench_agents.run_agents(args.home, n, n, 8)
    if name == "llm_overhead":
        n = scale["llm_questions"]
        return bench_agents.llm_overhead(args.home, n, n)
    if name == "serve_rss":
        return bench_agents.serve_rss_child(args.home, scale["serve_questions"])
    if name == "dashboard":
        return bench_agents.dashboard(args.home)
    raise ValueError(name)


def compare_workspace(scale: dict) -> Path:
    """The embedded-index workspace the retrieval part built (bench_compare.zhice_methods)."""
    import bench_compare

    chunks, _, _ = bench_compare.select_corpus(scale["articles"], scale["questions"])
    return bench_compare.CACHE / f"ws-cmp-{len(chunks)}"


def run_child(name: str, args, timeout: int) -> dict:
    """One part in a fresh interpreter; its JSON is the last line of its standard output."""
    cmd = [sys.executable, __file__, "--section", name, "--home", args.home]
    cmd += ["--quick"] if args.quick else []
    cmd += ["--extra-path", args.extra_path] if args.extra_path else []
    cmd += ["--no-neo4j"] if args.no_neo4j else []
    t = time.perf_counter()
    print(f"[bench_all] {name} …", file=sys.stderr, flush=True)
    try:
        out = subprocess.run(cmd, cwd=REPO, stdout=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"not run (timed out after {timeout} s)"}
    secs = round(time.perf_counter() - t, 1)
    lines = out.stdout.strip().splitlines()
    if out.returncode or not lines:
        return {"error": f"not run (exit {out.returncode})", "seconds": secs}
    res = json.loads(lines[-1])
    res.setdefault("seconds", secs)
    print(f"[bench_all] {name} done in {secs} s", file=sys.stderr, flush=True)
    return res


# ---- machine and headline figures ------------------------------------------------------------
def machine() -> dict:
    """What the figures were measured on."""
    cpu = ""
    try:
        cpu = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                    if ln.startswith("model name")), "")
        mem = next(int(ln.split()[1]) for ln in Path("/proc/meminfo").read_text().splitlines()
                   if ln.startswith("MemTotal"))
    except (OSError, StopIteration):
        mem = 0
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                                text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        commit = ""
    return {"cpu": cpu or platform.processor(), "cores": os.cpu_count(), "memory_gb": round(mem / 1024 / 1024, 1),
            "os": f"{platform.system()} {platform.release()}", "python": platform.python_version(),
            "load_avg": [round(x, 2) for x in os.getloadavg()], "commit": commit,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def _get(d: dict, *path):
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


def _ratio(a, b, nd: int = 2):
    return round(a / b, nd) if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b else None


def _diff(a, b, nd: int = 4):
    return round(a - b, nd) if isinstance(a, (int, float)) and isinstance(b, (int, float)) else None


def headline(results: dict) -> dict:
    """Exactly the issue's keys; None where the part was not measured."""
    m = _get(results, "retrieval", "methods") or {}
    hy = m.get("zhice_hybrid") or {}
    lc = m.get("langchain_ensemble") or {}
    graph = [r for r in (_get(results, "graph", "runs") or []) if r.get("factor") == 10]
    return {
        "hybrid_p50_over_query_embed": _ratio(hy.get("p50_ms"), _get(m, "query_embed", "p50_ms")),
        "langchain_ensemble_p50_over_hybrid": _ratio(lc.get("p50_ms"), hy.get("p50_ms")),
        "hybrid_recall_at_10_minus_langchain": _diff(hy.get("recall_at_10"), lc.get("recall_at_10")),
        "hybrid_recall_at_10_minus_rank_bm25": _diff(hy.get("recall_at_10"), _get(m, "rank_bm25", "recall_at_10")),
        # CPU seconds: on 2 cores shared with other jobs, wall time mostly measures the neighbours
        "ingest_overhead_over_embedding": _get(results, "ingest", "overhead_over_embedding_cpu"),
        "build_over_openpyxl_read": graph[0].get("build_over_openpyxl_read") if graph else None,
        "kg_rules_p50_ms": _get(results, "agents", "kg", "p50_ms"),
        "policy_rules_p50_ms": _get(results, "agents", "policy", "p50_ms"),
        "serve_rss_mb_after_50_questions": _get(results, "serve_rss", "rss_mb"),
        "concurrent_8_errors": _get(results, "agents", "concurrency", "errors"),
    }


def write_json(path: Path, results: dict) -> dict:
    """The headline figures under exactly HEADLINE_KEYS."""
    head = headline(results)
    assert tuple(head) == HEADLINE_KEYS
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(head, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return head


# the retrieval targets are stated at 100k chunks: the last full-scale run's figures are kept in the
# repository and shown on every page, so a quick run does not lose them
FULL_RECORD = REPO / "docs" / "performance-full-scale.json"


def keep_full_scale(results: dict, path: Path = FULL_RECORD, ran: tuple = FULL_PARTS) -> None:
    """After a full-scale run: the kept record's parts that ran without error are replaced (the
    retrieval pair together with this run's scale and machine; ``whole_laws`` carries its own)."""
    if results.get("scale", {}).get("name") != "full":
        return
    rec = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    fresh = [k for k in FULL_PARTS if k in ran and isinstance(results.get(k), dict) and not results[k].get("error")]
    if "retrieval" in fresh:
        rec.update({k: results[k] for k in ("scale", "machine") if k in results})
    else:  # the serving figures are of the retrieval part's index: kept with it only
        fresh = [k for k in fresh if k != "search_serve"]
    rec.update({k: results[k] for k in fresh})
    if fresh:
        path.write_text(json.dumps(rec, ensure_ascii=False, indent=1, default=str) + "\n", encoding="utf-8")


def page_results(results: dict, path: Path = FULL_RECORD) -> dict:
    """What the page shows: this run's figures and, on a quick page, the kept full-scale record."""
    if results.get("scale", {}).get("name") == "full" or not path.is_file():
        return results
    rec = json.loads(path.read_text(encoding="utf-8"))
    return {**results, "full_scale": {**rec, "headline": headline(rec)}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the small scale (~30 min here)")
    ap.add_argument("--json", type=Path, help="write the headline figures here")
    ap.add_argument("--extra-path", default=os.environ.get("ZHICE_BENCH_EXTRA"),
                    help="folder holding the competitor packages (appended to sys.path)")
    ap.add_argument("--home", default=os.environ.get("ZHICE_BENCH_HOME", str(REPO / ".cache" / "bench" / "demo")),
                    help="workspace holding the demo (agents, dashboard)")
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "PERFORMANCE.md")
    ap.add_argument("--only", help="comma-separated parts to run (default: all); the other parts keep the figures "
                    "of the previous run at this scale: " + ",".join(SECTIONS))
    ap.add_argument("--no-neo4j", action="store_true")
    ap.add_argument("--render-only", action="store_true", help="measure nothing: rewrite the page (and --json) "
                    "from the last run's raw figures at this scale")
    ap.add_argument("--section", choices=SECTIONS, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    os.environ.setdefault("ZHICE_MODEL_CACHE", str(REPO / ".cache" / "models"))
    scale_name = "quick" if args.quick else "full"
    scale = SCALES[scale_name]
    if args.section:
        print(json.dumps(section(args.section, scale, args), ensure_ascii=False, default=str))
        return 0
    parts = [p for p in (args.only.split(",") if args.only else SECTIONS)
             if p and (scale_name == "full" or p not in FULL_ONLY)]
    raw = REPO / ".cache" / "bench" / f"bench_all_{scale_name}.json"
    if args.render_only:  # formatting changed: rewrite the page from the last run's figures
        results = json.loads(raw.read_text(encoding="utf-8"))
        args.out.write_text(render(page_results(results), headline(results)), encoding="utf-8")
        if args.json:
            write_json(args.json, results)
        return 0
    if not (Path(args.home) / "app.db").is_file():  # a clean clone: make the demo workspace first
        print(f"[bench_all] creating the demo workspace in {args.home} …", file=sys.stderr, flush=True)
        subprocess.run([sys.executable, "-m", "core.cli", "demo"], cwd=REPO, check=False,
                       env={**os.environ, "ZHICE_HOME": args.home}, stdout=subprocess.DEVNULL)
    t0 = time.perf_counter()
    results = {"scale": {"name": scale_name, **scale}, "machine": machine()}
    if args.only and raw.is_file():  # re-running some parts: keep the others' figures, marked as earlier
        earlier = json.loads(raw.read_text(encoding="utf-8"))
        results.update({k: v for k, v in earlier.items() if k in SECTIONS and k not in parts})
        results["earlier"] = {k: earlier.get("machine", {}).get("date") for k in SECTIONS
                              if k in earlier and k not in parts}
    for name in parts:
        results[name] = run_child(name, args, timeout=4 * 3600 if scale_name == "full" else 3600)
    results["total_s"] = round(time.perf_counter() - t0, 1)
    results["machine"]["load_avg_end"] = [round(x, 2) for x in os.getloadavg()]
    head = headline(results)
    keep_full_scale(results, ran=tuple(parts))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(page_results(results), head), encoding="utf-8")
    raw.parent.mkdir(parents=True, exist_ok=True)
    raw.write_text(json.dumps(results, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    if args.json:
        write_json(args.json, results)
    print(json.dumps(head, ensure_ascii=False, indent=1))
    print(f"[bench_all] wrote {args.out} (raw figures: {raw})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
