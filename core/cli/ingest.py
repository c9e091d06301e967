"""``ingest-docs PATH...`` and ``retrieve "QUESTION"`` (also ``--batch``): policy documents
into the index, and hybrid retrieval without generation — core.services.ingest."""

from __future__ import annotations

import argparse
import re
import sys

from core.cli.batch import run_batch
from core.cli.output import emit
from core.errors import BadInputError
from core.retrieval.filters import STATUS_LABELS
from core.security.principals import Principal, resolve_user
from core.services import ingest as service


def human_ingest(r: dict) -> str:
    lines = [f"已导入 {len(r['documents'])} 篇，失败 {len(r['errors'])} 篇，用时 {r['seconds']} 秒"]
    for d in r["documents"]:
        lines.append(f"  ✓ {d['file_name']}  {d['doc_number'] or '（无文号）'}  {d['chunks']} 块  "
                     f"{STATUS_LABELS.get(d['status'], d['status'])}"
                     f"{'  待审核' if d['review_state'] == 'pending' else ''}"
                     f"{'  （未变化）' if d['action'] == 'unchanged' else ''}")
    for e in r["errors"]:
        lines.append(f"  ✗ {e['file']}：{e['reason']}")
    if any(d["review_state"] == "pending" for d in r["documents"]):
        lines.append("待审核的文档缺少文号、发文机关或日期，审核通过前不参与检索：请在“文档库”补全后审核，"
                     "或由管理员加 --approve 重新导入。")
    return "\n".join(lines)


def cmd_ingest_docs(args: argparse.Namespace) -> int:
    principal = resolve_user(args.user)
    report = service.ingest_paths(args.paths, principal, args.tenant, args.domain, args.status,
                                  approve=getattr(args, "approve", False))
    emit(report, args.json, human_ingest)
    return 2 if report["errors"] and not report["documents"] else 0


def human_retrieve(r: dict) -> str:
    lines = [*(f"提示：{n}" for n in r["notices"])]
    for x in r["results"]:
        text = re.sub(r"\s+", " ", x["text"])[:80]
        lines.append(f"{x['rank']:>2}. [{x['file_name']} 第{x['page']}页] {x['score']:.4f}  {text}")
    lines.append(f"用时 {r['latency_ms']} ms")
    return "\n".join(lines)


def cmd_retrieve(args: argparse.Namespace) -> int:
    if args.batch:
        default = resolve_user(args.user)
        users: dict[str, Principal] = {}

        def one(rec: dict) -> dict:
            name = rec.get("user")
            principal = default if not name else users.setdefault(name, resolve_user(name))
            return service.retrieve(str(rec["question"]), principal, args.k)

        return run_batch(args, one)
    if not args.question or not args.question.strip():
        raise BadInputError("请提供检索问题，或使用 --batch 指定批量文件")
    result = service.retrieve(args.question, resolve_user(args.user), args.k)
    emit(result, args.json, human_retrieve)
    return 0


def human_reembed(r: dict) -> str:
    if "text" in r:
        return r["text"]
    return (f"已重建文档向量：{r['documents']} 篇 {r['chunks']} 块（新向量化 {r['embedded']} 块，"
            f"缓存复用 {r['cached']} 块），用时 {r['seconds']} 秒，模型 {r['model']}")


def cmd_reembed(args: argparse.Namespace) -> int:
    from core.services import reembed

    principal = resolve_user(args.user)
    if args.check:
        state = reembed.vector_state(principal)
        emit(state, args.json, human_reembed)
        return 0 if state["matches"] else 1

    def progress(done: int, total: int) -> None:  # on stderr, so --json stays one object
        print(f"\r向量化 {done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)

    emit(reembed.reembed_documents(principal, progress), args.json, human_reembed)
    return 0
