"""docs/PERFORMANCE.md from scripts/bench_all.py's results (pure formatting: no measuring,
no project imports, so it is tested on small synthetic inputs)."""

from __future__ import annotations

METHODS = (
    ("zhice_hybrid", "ZhiCe hybrid, embedded index (query embedding included)"),
    ("zhice_hybrid_neo4j", "ZhiCe hybrid, Neo4j document index"),
    ("query_embed", "query embedding alone (the floor)"),
    ("dense_only", "dense only, same vectors (numpy)"),
    ("rank_bm25", "rank-bm25 `BM25Okapi.get_scores`"),
    ("bm25s", "bm25s"),
    ("langchain_ensemble", "LangChain `EnsembleRetriever` (BM25Retriever + InMemoryVectorStore)"),
)


def fmt(v, nd: int = 1, unit: str = "") -> str:
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:,.{nd}f}{unit}"
    if isinstance(v, int):
        return f"{v:,}{unit}"
    return str(v)


def table(head: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(fmt(c) if not isinstance(c, str) else c for c in r) + " |" for r in rows]
    return out + [""]


def not_run(part) -> str | None:
    """The reason a part has no figures, or None when it has them."""
    if not isinstance(part, dict):
        return "not run"
    return part.get("error")


def machine_section(res: dict) -> list[str]:
    m, s = res.get("machine", {}), res.get("scale", {})
    label = "quick run (`--quick`)" if s.get("name") == "quick" else "full scale"
    arts = "every law article" if not s.get("articles") else f"the most-cited laws up to {s['articles']:,} articles"
    return [
        "# Performance side by side", "",
        "Written by `python scripts/bench_all.py" + (" --quick" if s.get("name") == "quick" else "") +
        "` (issue #18); do not edit by hand. Raw figures: `.cache/bench/bench_all_<scale>.json`.", "",
        f"**Scale: {label}** — retrieval over {arts} with {fmt(s.get('questions'))} LeCoQA questions; "
        f"{fmt(s.get('agent_questions'))} KG + {fmt(s.get('agent_questions'))} policy golden questions; "
        f"{fmt(s.get('ingest_passages'))} MSGABench passages ingested; graph at "
        + " and ".join(f"{f}×" for f in s.get("graph_factors", [])) + " the sample.", "",
        "## Machine", "",
        *table(["what", "value"], [
            ["CPU", m.get("cpu") or "–"], ["cores", m.get("cores")], ["memory", fmt(m.get("memory_gb"), 1, " GB")],
            ["OS / Python", f"{m.get('os', '–')} / {m.get('python', '–')}"],
            ["load average at start / end", f"{m.get('load_avg')} / {m.get('load_avg_end')}"],
            ["commit / date", f"{m.get('commit', '–')} / {m.get('date', '–')}"],
            ["total run time", fmt(res.get("total_s"), 0, " s")]]),
        "The machine is shared with other jobs (see the load average): wall times are upper bounds.", "",
        *(["Figures kept from an earlier run (this run re-ran only the other parts, `--only`): "
           + ", ".join(f"{k} ({v})" for k, v in res["earlier"].items()), ""] if res.get("earlier") else []),
    ]


def retrieval_section(res: dict) -> list[str]:
    r = res.get("retrieval")
    out = ["## Retrieval side by side", ""]
    if not_run(r):
        return out + [f"Not run: {not_run(r)}", ""]
    out.append(f"{fmt(r.get('chunks'))} article-level chunks of {fmt(r.get('laws'))} laws; "
               f"{fmt(r.get('questions'))} LeCoQA train questions whose gold articles all lie in the corpus. "
               "Same tokeniser (`core.retrieval.tokenize`) and the same e5-small passage vectors for every "
               "method; every query is embedded anew (no query cache). LangChain runs with its default equal "
               "weights. The in-process methods are measured in turns, question by question, so a busy spell of "
               "the shared machine hits them alike; the Neo4j row is measured after them.")
    out.append("")
    rows = []
    for key, label in METHODS:
        v = r.get("methods", {}).get(key)
        if v is None:
            continue
        if not_run(v):
            rows.append([label, not_run(v), "", "", "", ""])
        else:
            rows.append([label, fmt(v.get("p50_ms"), 1), fmt(v.get("p95_ms"), 1),
                         fmt(v.get("recall_at_10"), 3), fmt(v.get("build_s"), 1), fmt(v.get("rss_after_mb"), 0)])
    out += table(["method", "p50 ms", "p95 ms", "recall@10", "build / load s", "RSS after, MB"], rows)
    out += ["RSS after: the benchmark process's resident set once the method's index was built — cumulative, as "
            f"the indexes are built one after another in one process (peak {fmt(r.get('peak_rss_mb'), 0)} MB; the ZhiCe row includes "
            "the passage-embedding model, which a serving process does not load: see the next line).", ""]
    s = res.get("search_serve")
    if isinstance(s, dict) and not not_run(s):
        out += [f"A search-only process over the same embedded index ({fmt(s.get('chunks'))} chunks, "
                f"{fmt(s.get('questions'))} questions): hybrid p50 {fmt(s.get('p50_ms'))} ms / p95 "
                f"{fmt(s.get('p95_ms'))} ms, resident set {fmt(s.get('rss_mb'), 0)} MB (peak "
                f"{fmt(s.get('peak_rss_mb'), 0)} MB), torch imported: {fmt(s.get('torch_imported'))}.", ""]
    return out


def ingest_section(res: dict) -> list[str]:
    g = res.get("ingest")
    out = ["## Ingestion overhead over bare embedding", ""]
    if not_run(g):
        return out + [f"Not run: {not_run(g)}", ""]
    t = g.get("timing", {})
    out += table(["what", "value"], [
        ["base index", f"{fmt(g.get('base_chunks'))} chunks"],
        ["added", f"{fmt(g.get('documents'))} MSGABench passages → {fmt(g.get('chunks'))} chunks, one `ingest_paths` call"],
        ["ingest wall / CPU", f"{fmt(g.get('ingest_s'), 2)} s / {fmt(g.get('ingest_cpu_s'), 2)} s"],
        ["of which parse / chunk / embed / index", " / ".join(fmt(t.get(k), 2) for k in ("parse_s", "chunk_s", "embed_s", "index_s")) + " s"],
        ["bare embedding of the same chunks before ingesting (model warming up to these lengths), wall",
         f"{fmt(g.get('embedding_before_s'), 2)} s"],
        ["bare embedding of the same chunks after ingesting, wall / CPU", f"{fmt(g.get('embedding_s'), 2)} s / {fmt(g.get('embedding_cpu_s'), 2)} s"],
        ["overhead over bare embedding (wall, CPU)", f"{fmt(g.get('overhead_over_embedding'), 3)}, {fmt(g.get('overhead_over_embedding_cpu'), 3)}"],
    ])
    out += ["The headline `ingest_overhead_over_embedding` is the CPU figure: this process's CPU seconds (all its "
            "threads) for ingesting vs for embedding the same chunks. On cores shared with other jobs the wall "
            "times mostly measure the neighbours (compare the two bare-embedding rows above).", ""]
    return out


def documents_section(res: dict) -> list[str]:
    d = res.get("documents")
    out = ["## Parsing and chunking throughput", ""]
    if not_run(d):
        return out + [f"Not run: {not_run(d)}", ""]
    p, law = d.get("policies", {}), d.get("laws", {})
    return out + table(["material", "files", "size", "seconds", "throughput", "chunks"], [
        ["shared policy PDFs / DOCX: parse (OCR included, cached per page) + metadata", p.get("files"),
         f"{fmt(p.get('pages'))} pages ({fmt(p.get('ocr_pages'))} OCR)", fmt(p.get("parse_s"), 2),
         f"{fmt(p.get('pages_per_s'), 1)} pages/s", f"{fmt(p.get('chunks'))} in {fmt((p.get('chunk_s') or 0) * 1000, 0)} ms"],
        ["all shared laws (Markdown fast path): parse + chunk", law.get("files"),
         f"{fmt(law.get('articles'))} articles", fmt(law.get("seconds"), 2), f"{fmt(law.get('chunks_per_s'))} chunks/s",
         fmt(law.get("chunks"))]])


def graph_section(res: dict) -> list[str]:
    g = res.get("graph")
    out = ["## Graph build vs plain openpyxl reading", ""]
    if not_run(g):
        return out + [f"Not run: {not_run(g)}", ""]
    out.append(f"Generated attendance rows at N × the sample's {fmt(g.get('sample_rows'))} data rows "
               "(`scripts/bench_graph.py`'s generator), built into a fresh LadybugDB.")
    out.append("")
    rows = [[f"{r['factor']}×", fmt(r.get("rows_total")), fmt(r.get("openpyxl_rows_per_s")),
             fmt(r.get("reader_rows_per_s")), fmt(r.get("build_rows_per_s")), fmt(r.get("build_s"), 2),
             f"{fmt(r.get('nodes'))} / {fmt(r.get('edges'))}", fmt(r.get("build_over_openpyxl_read"), 2),
             fmt(r.get("build_over_openpyxl_read_cpu"), 2)] for r in g.get("runs", [])]
    return out + table(["scale", "rows", "openpyxl rows/s", "reader rows/s", "build rows/s", "build s",
                        "nodes / edges", "build ÷ openpyxl (wall)", "(CPU)"], rows)


def agents_section(res: dict) -> list[str]:
    a = res.get("agents")
    out = ["## Agents in rules mode, concurrency, serving", ""]
    if not_run(a):
        out += [f"Agents not run: {not_run(a)}", ""]
    else:
        out += ["Golden questions on the demo workspace, each asked once on a fresh thread after one warm-up "
                "question per engine (follow-ups: earlier turns untimed).", ""]
        out += table(["engine", "questions", "p50 ms", "p95 ms", "mean ms", "CPU p50 ms", "errors"],
                     [[name, a[k].get("n"), fmt(a[k].get("p50_ms")), fmt(a[k].get("p95_ms")),
                       fmt(a[k].get("mean_ms")), fmt(a[k].get("cpu_p50_ms")), a[k].get("errors")]
                      for k, name in (("kg", "KG"), ("policy", "policy")) if isinstance(a.get(k), dict)])
        out += ["CPU p50: the process's CPU time per question (the question's own work: wall time minus the "
                "wait for a core on the shared machine, plus any parallel threads).", ""]
        c = a.get("concurrency", {})
        out += [f"Concurrency: {fmt(c.get('threads'))} threads calling the services in one process against the one "
                f"workspace, {fmt(c.get('questions'))} questions (KG and policy mixed) in {fmt(c.get('wall_s'))} s "
                f"({fmt(c.get('throughput_qps'), 2)} questions/s, p95 {fmt(c.get('p95_ms'))} ms): "
                f"{fmt(c.get('exceptions'))} exceptions, {fmt(c.get('different_answers'))} answers different from "
                "the single-thread answer (cross-talk).", ""]
    s, d = res.get("serve_rss"), res.get("dashboard")
    out.append("Serving memory: " + (f"not run: {not_run(s)}" if not_run(s) else
               f"{fmt(s.get('questions'))} questions (half KG, half policy) through the services in one fresh "
               f"process (the pages' code path, without streamlit itself): resident set {fmt(s.get('rss_mb'), 0)} MB, "
               f"peak {fmt(s.get('peak_rss_mb'), 0)} MB, torch imported: {fmt(s.get('torch_imported'))}."))
    out.append("")
    out.append("Dashboard: " + (f"not run: {not_run(d)}" if not_run(d) else dashboard_text(d)))
    return out + [""]


def dashboard_text(d: dict) -> str:
    text = (f"`streamlit run app.py` served its page shell (HTTP 200 on `/` and the health endpoint) after "
            f"{fmt(d.get('first_page_s'), 1)} s (idle server: {fmt(d.get('server_rss_mb'), 0)} MB); ")
    f = d.get("first_script_run") or {}
    if f.get("first_run_s") is None:
        return text + f"the first script run was not measured ({f.get('error', 'no figure')})."
    return text + (f"the first run of `app.py` behind it (streamlit's AppTest, what a new browser session waits for: "
                   f"imports, settings, the login page) took {fmt(f.get('first_run_s'), 1)} s"
                   f"{', with an exception' if f.get('exception') else ''}.")


# (target text, headline key, test on the value)
TARGETS = (
    ("hybrid p50 ≤ 1.5 × query embedding (at 100k chunks)", "hybrid_p50_over_query_embed", lambda v: v <= 1.5),
    ("≥ 10× faster than the LangChain ensemble", "langchain_ensemble_p50_over_hybrid", lambda v: v >= 10),
    ("recall@10 not lower than the LangChain ensemble", "hybrid_recall_at_10_minus_langchain", lambda v: v >= 0),
    ("recall@10 not lower than rank-bm25 (no target in the issue; shown)", "hybrid_recall_at_10_minus_rank_bm25", lambda v: v >= 0),
    ("ingestion overhead over bare embedding ≤ 25 % (CPU seconds)", "ingest_overhead_over_embedding", lambda v: v <= 0.25),
    ("graph build ≤ 1.5 × openpyxl read (10× sample)", "build_over_openpyxl_read", lambda v: v <= 1.5),
    ("KG rules p50 ≤ 100 ms", "kg_rules_p50_ms", lambda v: v <= 100),
    ("policy rules p50 ≤ 300 ms", "policy_rules_p50_ms", lambda v: v <= 300),
    ("serving RSS after 50 questions < 1.2 GB", "serve_rss_mb_after_50_questions", lambda v: v < 1200),
    ("8 concurrent askers: no errors or cross-talk", "concurrent_8_errors", lambda v: v == 0),
)

NOT_MEASURED = (
    "ingestion: 2,081 passages into a 27k-chunk index ≤ 5 min, ≤ 0.5 s per small document at 100k chunks, the whole "
    "laws corpus in < 30 min (`scripts/bench_retrieval.py --stage ingest` measures the first two; see the README)",
    "ingestion split with OCR apart from parsing, and embedding-throughput options (length bucketing, threads, "
    "an ONNX/int8 export) with their recall change",
    "graph build vs a naive one-MERGE-per-row loader, and LadybugDB vs Neo4j",
    "the LLM path's overhead against a local instant Chat Completions server",
    "dashboard time to the first answer (needs a browser session; not driven here)",
)


def _verdict(v, ok) -> str:
    return "not measured" if v is None else ("met" if ok(v) else "NOT met")


def targets_section(head: dict, scale: dict, results: dict | None = None) -> list[str]:
    rows = []
    for text, key, ok in TARGETS:
        v = head.get(key)
        rows.append([text, f"`{key}`", fmt(v, 3) if isinstance(v, float) else fmt(v), _verdict(v, ok)])
    serve = (results or {}).get("search_serve")
    rss = serve.get("rss_mb") if isinstance(serve, dict) else None
    rows.append(["steady-state RSS of a search process < 1 GB (not a headline key)", "search-only process, MB",
                 fmt(rss, 0), _verdict(rss, lambda v: v < 1024)])
    graph = (results or {}).get("graph")
    for run in (graph.get("runs", []) if isinstance(graph, dict) else []):
        if run.get("factor") != 10:
            v = run.get("build_over_openpyxl_read")
            rows.append([f"graph build ≤ 1.5 × openpyxl read at {run['factor']}× the sample (not a headline key)",
                         "build ÷ openpyxl, wall", fmt(v, 2), _verdict(v, lambda x: x <= 1.5)])
    note = ("" if scale.get("name") != "quick" else
            " At the quick scale: the retrieval targets are stated for 100k chunks, so a ratio met here is not yet "
            "evidence at the target scale (BM25 and the dense product grow with the corpus; query embedding does not).")
    noise = (" One run on a machine shared with other jobs: ratios of short timings (a 5-second build, a 70 ms "
             "search) move by tens of percent between runs, so a verdict near its threshold is not settled by one run.")
    return ["## Targets (issue #18)", "", f"Headline figures (`--json`) at this run's scale.{note}{noise}", "",
            *table(["target", "key", "value", "verdict"], rows),
            "Not measured by this command:", "", *[f"- {x}" for x in NOT_MEASURED], ""]


def render(results: dict, head: dict) -> str:
    lines = machine_section(results)
    lines += targets_section(head, results.get("scale", {}), results)
    for part in (retrieval_section, ingest_section, documents_section, graph_section, agents_section):
        lines += part(results)
    return "\n".join(lines).rstrip() + "\n"
