"""``eval DATASET.jsonl | --set NAME``: run a golden set, compare with a baseline, ``--gate``
exits 1 on a regression — core.services.eval."""

from __future__ import annotations

import argparse
import sys

from core.cli.output import emit
from core.errors import BadInputError
from core.evaluation.metrics import HEADLINE
from core.security.principals import resolve_user
from core.services import eval as service


def human(r: dict) -> str:
    m = r["metrics"]
    parts = [f"\n运行 {r['run_id']}（{r['set']}）：用例 {m['cases']}，出错 {m['errors']}"]
    for kind, title in (("docs", "政策问答"), ("kg", "图谱问答")):
        if kind in m and m[kind]["accuracy"] is not None:
            parts.append(f"{title}：通过率 {m[kind]['accuracy']:.1%}（{m[kind]['cases']} 例），"
                         f"p50 {m[kind]['latency_p50_ms']} ms")
        if service.judge_summary(m.get(kind) or {}):
            parts.append(f"{title} {service.judge_summary(m[kind])}")
    if r["baseline"] is not None:
        parts.append(f"对比基线 {r['baseline']}：" + ("退步 " + "、".join(HEADLINE[k] for k in r["regressions"])
                                                   if r["regressions"] else "无退步"))
    parts.append(f"报告：{r['report']}")
    return "\n".join(parts)


def cmd_eval(args: argparse.Namespace) -> int:
    def progress(i: int, n: int) -> None:
        if not args.json:
            print(f"\r{i}/{n}", end="", file=sys.stderr, flush=True)

    if getattr(args, "dataset", None) is None and not getattr(args, "set", None):
        raise BadInputError("请指定评测集文件（DATASET.jsonl）或 --set NAME")
    principal = resolve_user(getattr(args, "user", None))
    result = service.run_eval(args.dataset, args.out, progress, set_name=getattr(args, "set", None),
                              baseline=getattr(args, "baseline", None), pin=bool(getattr(args, "pin", False)),
                              tolerance=getattr(args, "tolerance", None) or service.DEFAULT_TOLERANCE,
                              retrieval_k=getattr(args, "retrieval_k", None), judge=bool(getattr(args, "judge", False)),
                              principal=principal)
    emit(result, args.json, human)
    if getattr(args, "gate", False) and result["regressions"]:
        print("错误：相对基线有指标退步：" + "、".join(HEADLINE[k] for k in result["regressions"]), file=sys.stderr)
        return 1
    return 0
