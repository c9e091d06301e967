"""Golden cases from the weekly review (``review to-golden``, the page 每周复盘): a reviewed
case becomes a golden record (the spec/cli.md shape) in a workspace evaluation set, which the
next evaluation run of that set includes."""

from __future__ import annotations

import re
from typing import Any

from core.errors import BadInputError
from core.services.review import (CATEGORY_LABELS, _earlier_turns, _int, _thread_events, classify, get_case,
                                  now_utc)
from core.storage.db import get_db

_SET_NAME = re.compile(r"^[A-Za-z0-9_\-\u4e00-\u9fff]{1,64}$")


def _facts(expected: str) -> list[str]:
    return [p.strip() for p in re.split(r"[\n；;]+", expected or "") if p.strip()]


def golden_record(principal, case_id: int, *, expected: str | None = None, expect_refusal: bool | None = None) -> dict:
    """The golden record (spec/cli.md shape) a case becomes."""
    case = get_case(principal, case_id)
    if case["kind"] not in ("docs", "kg"):
        raise BadInputError("只有政策问答和图谱问答的用例可以加入评测集")
    facts = _facts(expected if expected is not None else case["expected"])
    refusal = bool(case["refused"] and not facts) if expect_refusal is None else bool(expect_refusal)
    if not facts and not refusal:
        raise BadInputError("请先写出期望答案（每行一个要点，评测时逐条核对），或标记为应当拒答")
    history: list[str] = []
    if case.get("event") and case["thread"]:
        history = _earlier_turns(_thread_events(case["user"], case["kind"], case["thread"]), case["event"]["id"])
    rec: dict[str, Any] = {"id": f"bc-{case['week']}-{case['id']}", "kind": case["kind"], "question": case["question"],
                           "user": case["user"]}
    if case.get("tenant"):
        rec["tenant"] = case["tenant"]  # the case holds that tenant's data: its reviewers only
    evidence = [e.strip() for e in (case["evidence"] or "").splitlines() if e.strip()]
    if case["kind"] == "docs":
        rec.update({"expect_files": [e for e in evidence if "." in e] if evidence else [],
                    "expect_answer_contains": [] if refusal else facts, "expect_refusal": refusal})
    else:
        rec.update({"expect_answer_contains": facts})
    if history:
        rec["history"] = history
    rec["category"] = CATEGORY_LABELS.get(case["category"] or "", "复盘")
    rec["source"] = {"bad_case": case["id"], "week": case["week"], "evidence": evidence}
    return rec


def to_golden(principal, case_id: int, set_name: str, *, expected: str | None = None,
              expect_refusal: bool | None = None) -> dict:
    """Turn a case into a golden case in the workspace set ``set_name`` (created when new; a
    case added before is replaced). The next evaluation run of that set includes it."""
    from core.evaluation.golden import upsert_record
    from core.security.audit import audit

    name = (set_name or "").strip()
    if not _SET_NAME.match(name):
        raise BadInputError("评测集名称只能包含字母、数字、汉字、下划线和连字符（最长 64 个字符）")
    if expected is not None:
        classify(principal, case_id, expected=expected)
    rec = golden_record(principal, case_id, expect_refusal=expect_refusal)
    path = upsert_record(name, rec)
    get_db().execute("UPDATE bad_cases SET golden_id = ?, golden_set = ?, updated_by = ?, updated_at = ? WHERE id = ?",
                     (rec["id"], name, principal.name, now_utc(), _int(case_id)))
    audit(principal.name, "review.to_golden", target=str(case_id), detail={"set": name, "golden_id": rec["id"]})
    return {"golden": rec, "set": name, "path": str(path)}
