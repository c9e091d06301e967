"""``feedback`` (👍/👎 on the last answer of one's thread) and ``review week | classify |
to-golden`` (the weekly bad-case queue) — core.services.review and review_golden."""

from __future__ import annotations

from core.cli.output import emit
from core.security.principals import resolve_user
from core.services import review as service
from core.services.review import CATEGORY_LABELS, KIND_LABELS, SOURCE_LABELS, STATUS_LABELS
from core.services.review_golden import to_golden

#: the fields of a case the command prints (the contract's, and a few more)
CASE_FIELDS = ("id", "source", "sources", "kind", "question", "answer", "user", "tenant", "thread", "category", "status",
               "expected", "evidence", "assignee", "golden_id", "golden_set", "feedback", "at")


def public_case(c: dict) -> dict:
    return {k: c.get(k) for k in CASE_FIELDS}


def cmd_feedback(args) -> int:
    res = service.feedback_on_thread(resolve_user(args.user), args.kind, args.thread, args.rating, args.reason)
    emit(res, args.json, lambda r: f"已记录反馈（编号 {r['feedback_id']}）")
    return 0


def cmd_review(args) -> int:
    principal = resolve_user(getattr(args, "user", None))
    cmd = args.review_command
    if cmd == "week":
        q = service.week_queue(principal, args.week)
        res = {"week": q["week"], "cases": [public_case(c) for c in q["cases"]], "counts": q["counts"]}

        def human(r: dict) -> str:
            lines = [f"{r['week']}：{r['counts']['total']} 个复盘用例"]
            lines += [f"#{c['id']:<5} {SOURCE_LABELS.get(c['source'], c['source']):<8} {KIND_LABELS.get(c['kind'], '')} "
                      f"{STATUS_LABELS.get(c['status'], c['status'])} {CATEGORY_LABELS.get(c['category'] or '', '未分类')}  "
                      f"{(c['question'] or '')[:40]}" for c in r["cases"]]
            return "\n".join(lines)

        emit(res, args.json, human)
    elif cmd == "classify":
        case = service.classify(principal, args.id, category=args.category, expected=args.expected, status=args.status,
                                assignee=args.assignee, evidence=args.evidence)
        emit({"case": public_case(case)}, args.json,
             lambda r: f"用例 {r['case']['id']}：{CATEGORY_LABELS.get(r['case']['category'] or '', '未分类')}，"
                       f"{STATUS_LABELS.get(r['case']['status'], r['case']['status'])}")
    else:
        res = to_golden(principal, args.id, args.set, expected=args.expected)
        emit(res, args.json, lambda r: f"已加入评测集 {r['set']}：{r['golden']['id']}（{r['path']}）")
    return 0
