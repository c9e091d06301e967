"""Document pipeline benchmark: parse → metadata → chunk on the real policy documents, and the
Markdown law fast path on the whole law corpus (prints Markdown tables).

Material is read from ../shared/data (never copied into the repo). OCR results are cached per
page under .cache/ocr, so only the first run pays for OCR (9–23 s a page on 2 busy cores).

    python scripts/bench_documents.py              # policies + laws
    python scripts/bench_documents.py --no-laws    # policies only
    python scripts/bench_documents.py --no-ocr     # skip OCR (the scanned PDF is reported as an error)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from core.documents.chunk import canonical_law_name, chunk_document, chunk_markdown_law, law_article_name  # noqa: E402
from core.documents.metadata import extract_metadata  # noqa: E402
from core.documents.parse import parse_file  # noqa: E402
from core.errors import AppError  # noqa: E402

SHARED = Path(os.environ.get("ZHICE_SHARED_DATA", REPO.parent / "shared" / "data"))


def bench_policies(ocr: bool, echo=print) -> dict:
    """Parse + metadata + chunk every shared policy PDF/DOCX; prints one table row per file
    (through ``echo``) and returns the totals."""
    folder = SHARED / "policies"
    files = sorted(f for f in folder.iterdir() if f.suffix.lower() in (".pdf", ".docx"))
    echo("| file | pages | OCR pages | chunks (article/prose/table/figure) | 文号 | 发文机关 | 成文/发布日期 | review | parse s | chunk ms |")
    echo("|---|---|---|---|---|---|---|---|---|---|")
    tot = {"files": len(files), "errors": 0, "pages": 0, "ocr_pages": 0, "chunks": 0, "parse_s": 0.0, "chunk_s": 0.0}
    for f in files:
        t = time.perf_counter()
        try:
            doc = parse_file(f, ocr=ocr, ocr_cache_dir=REPO / ".cache" / "ocr", max_bytes=100 * 1024 * 1024)
        except AppError as exc:
            tot["errors"] += 1
            echo(f"| {f.name} | – | – | error: {exc.user_message} | | | | | | |")
            continue
        meta = extract_metadata(doc)
        t_parse = time.perf_counter() - t
        t = time.perf_counter()
        chunks = chunk_document(doc, meta)
        t_chunk = time.perf_counter() - t
        kinds = {k: sum(1 for c in chunks if c.kind == k) for k in ("article", "prose", "preamble", "table", "figure")}
        tot["pages"] += doc.pages
        tot["ocr_pages"] += len(doc.ocr_pages)
        tot["chunks"] += len(chunks)
        tot["parse_s"] += t_parse
        tot["chunk_s"] += t_chunk
        counts = f"{len(chunks)} ({kinds['article']}/{kinds['prose'] + kinds['preamble']}/{kinds['table']}/{kinds['figure']})"
        dates = meta.sign_date or "–"
        if meta.publish_date:
            dates += f" / {meta.publish_date}"
        echo(f"| {f.name} | {doc.pages} | {len(doc.ocr_pages)} | {counts} | {meta.doc_number or '–'} | "
             f"{'、'.join(meta.authorities) or '–'} | {dates} | {meta.review_state} | {t_parse:.2f} | {t_chunk * 1000:.0f} |")
    tot["pages_per_s"] = round(tot["pages"] / max(tot["parse_s"], 1e-9), 2)
    echo(f"\nparse+metadata: {tot['pages']} pages in {tot['parse_s']:.1f} s ({tot['pages_per_s']:.1f} pages/s); "
         f"chunking: {tot['chunks']} chunks in {tot['chunk_s'] * 1000:.0f} ms")
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in tot.items()}


def bench_laws(echo=print) -> dict:
    """The Markdown law fast path over every shared law file; returns the figures."""
    files = sorted(f for f in (SHARED / "laws").rglob("*.md") if f.name != "_index.md")
    t = time.perf_counter()
    chars = articles = chunks = 0
    names = set()
    for f in files:
        text = f.read_text(encoding="utf-8")
        chars += len(text)
        out = chunk_markdown_law(text)
        chunks += len(out)
        for c in out:
            if c.kind == "article":
                articles += 1
                names.add(canonical_law_name(law_article_name(c.path[0], c.heading)))
    dt = time.perf_counter() - t
    gold = missing = 0
    qa = SHARED / "qa" / "lecoqa-train.jsonl"
    if qa.is_file():
        for line in qa.open(encoding="utf-8"):
            for g in json.loads(line)["gold_articles"]:
                gold += 1
                missing += canonical_law_name(g["name"]) not in names
    echo(f"\nlaws: {len(files)} files, {chars / 1e6:.1f} M chars -> {chunks} chunks ({articles} articles) in {dt:.1f} s "
         f"({articles / dt:.0f} articles/s); LeCoQA gold articles found by canonical name: {gold - missing}/{gold}")
    return {"files": len(files), "chars": chars, "chunks": chunks, "articles": articles, "seconds": round(dt, 2),
            "chunks_per_s": round(chunks / dt), "gold_found": gold - missing, "gold": gold}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--no-laws", action="store_true")
    ap.add_argument("--no-ocr", action="store_true")
    args = ap.parse_args()
    bench_policies(ocr=not args.no_ocr)
    if not args.no_laws:
        bench_laws()


if __name__ == "__main__":
    main()
