"""Review: user feedback on answers (👍/👎 with an optional reason) and the weekly bad-case
queue built from it and from the audit log — the page 每周复盘 and ``feedback`` / ``review``
on the command line.

Every ISO week (Asia/Shanghai) the queue collects, from the questions the audit log recorded
(``question.docs`` / ``question.kg`` / ``question.task`` events, core.security.audit.record_question):

- ``thumbs_down``  a 👎 (table ``feedback``) with its reason, tied to the answer it rated;
- ``refusal``      an answer that refused;
- ``check_failed`` a policy answer whose citation check failed or dropped claims;
- ``fallback``     an answer that fell back to rules mode after a model failure;
- ``conflict``     a policy answer whose documents filled the asked slot with different values
                   (冲突证据: the trace names both, the prevailing one and the deciding rule);
- ``edited``       a KG answer run on a plan the user edited;
- ``abandoned``    a KG thread left waiting at a confirm step (no later event, 30 min on);
- ``sample``       a reproducible random sample of 50 answered questions (seed = the week).

One case per question event (its other reasons kept in ``sources``); the cases live in
``bad_cases`` where reviewers classify them, write the expected answer and the documents or rows
that hold it, assign and set a status, and turn them into golden cases. Reviewers see only
their tenants' cases (administrators all), masked as their own role would see them.

Around this module: who may see what in :mod:`core.services.review_access`, turning a case into
a golden case in :mod:`core.services.review_golden`, the weekly summary and its Excel and
Markdown exports in :mod:`core.services.review_report`.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from datetime import date, datetime, timedelta, timezone
from typing import Any, Iterable

from core.errors import BadInputError, NotFoundError, enum_error
from core.security.injection import mask_pii
from core.services.review_access import REVIEW_ROLES, _masked_detail, require_reviewer, tenant_visible
from core.storage.db import get_db

FEEDBACK_KINDS = ("docs", "kg", "task")
MAX_REASON_CHARS = 500
MAX_TEXT_CHARS = 4000

CHINA = timezone(timedelta(hours=8), "Asia/Shanghai")  # no daylight saving time
SAMPLE_SIZE = 50
ABANDON_AFTER = timedelta(minutes=30)

#: where a case came from, most telling first (the first one that applies is its ``source``)
SOURCE_LABELS: dict[str, str] = {
    "thumbs_down": "用户点踩", "refusal": "拒答", "check_failed": "引用核验未通过", "fallback": "模型故障转规则",
    "conflict": "冲突证据", "edited": "用户修改计划", "abandoned": "确认时放弃", "sample": "随机抽样",
}
CATEGORY_LABELS: dict[str, str] = {
    "retrieval": "检索失败", "understanding": "理解错误", "generation": "生成失败", "citation": "引用错误",
    "expectation": "期望偏差", "none": "无问题", "other": "其他",
}
STATUS_LABELS: dict[str, str] = {"open": "待处理", "in_progress": "处理中", "resolved": "已解决", "wontfix": "不处理"}
KIND_LABELS = {"docs": "政策问答", "kg": "图谱问答", "task": "任务"}
_WEEK = re.compile(r"^(\d{4})-W(\d{1,2})$")


# ---- feedback ------------------------------------------------------------------------------
def now_utc() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def record_feedback(principal, kind: str, thread_id: str | None, question: str, answer: str, rating: int,
                    reason: str | None = None, payload: Any = None) -> int:
    """Store one rating (1 = 👍, -1 = 👎) and return its id. PII in the question, answer and
    reason is masked before it is stored."""
    if kind not in FEEDBACK_KINDS:
        raise enum_error("反馈类型", kind, FEEDBACK_KINDS)
    try:
        rating = int(rating)
    except (TypeError, ValueError):
        raise BadInputError("评分只能是 1（有帮助）或 -1（没帮助）") from None
    if rating not in (1, -1):
        raise BadInputError("评分只能是 1（有帮助）或 -1（没帮助）")
    if not (question or "").strip():
        raise BadInputError("反馈缺少对应的问题")
    reason = (reason or "").strip()
    if len(reason) > MAX_REASON_CHARS:
        raise BadInputError(f"反馈原因最多 {MAX_REASON_CHARS} 个字符")
    body = json.dumps(payload, ensure_ascii=False, default=str) if payload is not None else None
    return get_db().insert(
        "INSERT INTO feedback (at, user_name, kind, thread_id, question, answer, rating, reason, payload)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (now_utc(), getattr(principal, "name", None), kind, thread_id, mask_pii(question), mask_pii(answer or ""),
         rating, mask_pii(reason) or None, body))


def feedback_on_thread(principal, kind: str, thread_id: str, rating: int, reason: str | None = None) -> dict:
    """👍/👎 on the last answer of one of ``principal``'s own threads (``feedback`` on the
    command line). Threads are private: another user's thread id is "not found"."""
    from core.agents.runtime import thread_key

    if kind not in FEEDBACK_KINDS:
        raise enum_error("反馈类型", kind, FEEDBACK_KINDS)
    thread_key(kind, principal, thread_id)  # validates the id and the principal
    thread = _thread_events(principal.name, kind, thread_id.strip())
    answered = [e for e in thread if e["outcome"] != "waiting"]
    if not answered:
        raise NotFoundError(f"未找到会话 {thread_id.strip()} 的回答（只能评价自己的会话）")
    last = answered[-1]
    d = last["detail"]
    fid = record_feedback(principal, kind, thread_id.strip(), _turn_question(thread, last["id"]), d.get("answer") or "",
                          rating, reason, {"event_id": last["id"]})
    return {"feedback_id": fid}


# ---- weeks ---------------------------------------------------------------------------------
def week_of(when: datetime | date | None = None) -> str:
    """The ISO week (Asia/Shanghai) of ``when`` (default now) as ``YYYY-Www``."""
    if when is None:
        when = datetime.now(timezone.utc)
    if isinstance(when, datetime):
        when = (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).astimezone(CHINA).date()
    y, w, _ = when.isocalendar()
    return f"{y}-W{w:02d}"


def parse_week(week: str | None) -> str:
    if not week:
        return week_of()
    m = _WEEK.match(str(week).strip())
    try:
        if not m:
            raise ValueError
        date.fromisocalendar(int(m.group(1)), int(m.group(2)), 1)
    except ValueError:
        raise BadInputError(f"周的格式应为 YYYY-Www（例如 {week_of()}），收到“{week}”") from None
    return f"{int(m.group(1))}-W{int(m.group(2)):02d}"


def week_bounds(week: str) -> tuple[str, str]:
    """[start, end) of the week as ISO UTC timestamps (Monday 00:00 Asia/Shanghai)."""
    y, w = (int(x) for x in parse_week(week).split("-W"))
    start = datetime.combine(date.fromisocalendar(y, w, 1), datetime.min.time(), CHINA)
    end = start + timedelta(days=7)
    return (start.astimezone(timezone.utc).isoformat(timespec="seconds"),
            end.astimezone(timezone.utc).isoformat(timespec="seconds"))


def weeks_back(week: str, n: int) -> list[str]:
    """``n`` weeks ending with ``week``, oldest first."""
    y, w = (int(x) for x in parse_week(week).split("-W"))
    monday = date.fromisocalendar(y, w, 1)
    return [week_of(monday - timedelta(weeks=i)) for i in range(n - 1, -1, -1)]


def _parse_at(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        dt = datetime.fromisoformat(str(value).replace(" ", "T").replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


def _at_range(start: str, end: str) -> tuple[str, str]:
    """SQL bounds that also catch ``YYYY-MM-DD HH:MM:SS`` rows (database default timestamps);
    rows are filtered exactly in Python."""
    return start[:10], (datetime.fromisoformat(end) + timedelta(days=1)).isoformat()[:10] + "~"


# ---- reading the audit log (the service layer's SQL) ---------------------------------------
def _event_row(row: dict) -> dict:
    try:
        detail = json.loads(row["detail"]) if row.get("detail") else {}
    except ValueError:
        detail = {}
    if not isinstance(detail, dict) or detail.get("truncated"):
        detail = {"question": "（记录过长，已截断）", "answer": ""} if isinstance(detail, dict) else {}
    return {"id": row["id"], "at": row["at"], "kind": row["action"].split(".", 1)[-1], "action": row["action"],
            "user": row["user_name"], "tenant": row.get("tenant"), "thread": row.get("target"),
            "outcome": row["outcome"], "detail": detail}


_EVENT_COLS = "id, at, action, user_name, tenant, target, outcome, detail"


def _week_events(week: str) -> list[dict]:
    start, end = week_bounds(week)
    lo, hi = _at_range(start, end)
    rows = get_db().query(f"SELECT {_EVENT_COLS} FROM audit_log WHERE action IN ('question.docs', 'question.kg', 'question.task')"
                          " AND at >= ? AND at < ? ORDER BY id", (lo, hi))
    out = []
    for r in rows:
        at = _parse_at(r["at"])
        if at is not None and start <= at.astimezone(timezone.utc).isoformat(timespec="seconds") < end:
            out.append(_event_row(r))
    return out


def _thread_events(user: str, kind: str, thread: str) -> list[dict]:
    rows = get_db().query(f"SELECT {_EVENT_COLS} FROM audit_log WHERE action = ? AND user_name = ? AND target = ?"
                          " ORDER BY id", (f"question.{kind}", user, thread))
    return [_event_row(r) for r in rows]


def _turn_question(thread: list[dict], event_id: int) -> str:
    """The question that started the turn ending at ``event_id``: a KG reply ("确认", an
    edited plan) belongs to the question that stopped at the confirm step before it."""
    idx = next((i for i, e in enumerate(thread) if e["id"] == event_id), None)
    if idx is None:
        return ""
    while idx > 0 and thread[idx - 1]["outcome"] == "waiting":
        idx -= 1
    return str(thread[idx]["detail"].get("question") or "")


def _earlier_turns(thread: list[dict], event_id: int) -> list[str]:
    """The questions of the finished turns before the one ending at ``event_id``."""
    out = []
    for e in thread:
        if e["id"] == event_id:
            break
        if e["outcome"] != "waiting":
            out.append(_turn_question(thread, e["id"]))
    return [q for q in out if q]


# ---- collecting a week ---------------------------------------------------------------------
def _check_failed(e: dict) -> bool:
    checks = e["detail"].get("checks") or {}
    return e["kind"] == "docs" and (checks.get("citation_check") in ("failed", "dropped_claims")
                                    or checks.get("citations_exist") is False)


def _fell_back(e: dict) -> bool:
    d = e["detail"]
    if e["kind"] == "kg":
        return bool(d.get("fallback"))
    return any("离线规则模式" in str(n) for n in d.get("notices") or [])


def _week_feedback(week: str) -> list[dict]:
    start, end = week_bounds(week)
    lo, hi = _at_range(start, end)
    rows = get_db().query("SELECT id, at, user_name, kind, thread_id, question, answer, rating, reason, payload"
                          " FROM feedback WHERE at >= ? AND at < ? ORDER BY id", (lo, hi))
    out = []
    for r in rows:
        at = _parse_at(r["at"])
        if at is not None and start <= at.astimezone(timezone.utc).isoformat(timespec="seconds") < end:
            out.append(r)
    return out


def _feedback_event(fb: dict, cache: dict) -> int | None:
    """The answer a rating is about: the event named in its payload, else the last answered
    event of the rater's thread recorded before (or at) the rating."""
    try:
        payload = json.loads(fb.get("payload") or "null")
    except ValueError:
        payload = None
    if isinstance(payload, dict) and isinstance(payload.get("event_id"), int):
        return payload["event_id"]
    if not fb.get("thread_id") or fb["kind"] not in ("docs", "kg", "task"):
        return None
    key = (fb["user_name"], fb["kind"], fb["thread_id"])
    if key not in cache:
        cache[key] = _thread_events(*key)
    at = _parse_at(fb["at"])
    cands = [e for e in cache[key] if e["outcome"] != "waiting"
             and (at is None or (_parse_at(e["at"]) or at) <= at + timedelta(seconds=1))]
    return cands[-1]["id"] if cands else None


def collect_week(week: str, *, now: datetime | None = None) -> list[dict]:
    """The cases of ``week`` as the rules find them now: ``[{"ref", "source", "sources",
    "kind", "event_id", "feedback_id", "user", "tenant", "thread", "at"}]`` (all tenants)."""
    week = parse_week(week)
    now = now or datetime.now(timezone.utc)
    events = _week_events(week)
    by_id = {e["id"]: e for e in events}
    reasons: dict[int, set[str]] = {}
    for e in events:
        r = reasons.setdefault(e["id"], set())
        if e["outcome"] == "refused" or e["detail"].get("refused"):
            r.add("refusal")
        if _check_failed(e):
            r.add("check_failed")
        if _fell_back(e):
            r.add("fallback")
        if e["kind"] == "docs" and e["detail"].get("conflicts"):
            r.add("conflict")
        if e["kind"] == "kg" and e["detail"].get("edited"):
            r.add("edited")
    # abandoned: a KG thread whose last event waits at a confirm step
    waiting = [e for e in events if e["kind"] in ("kg", "task") and e["outcome"] == "waiting"]
    for e in waiting:
        later = get_db().one("SELECT id FROM audit_log WHERE action LIKE 'question.%' AND user_name = ? AND target = ?"
                             " AND id > ? LIMIT 1", (e["user"], e["thread"], e["id"]))
        at = _parse_at(e["at"])
        if later is None and at is not None and now - at >= ABANDON_AFTER:
            reasons[e["id"]].add("abandoned")
    # the sample: reproducible for the week
    answered = sorted(e["id"] for e in events if e["outcome"] == "answered")
    for eid in random.Random(week).sample(answered, min(SAMPLE_SIZE, len(answered))):
        reasons[eid].add("sample")
    cases: dict[str, dict] = {}
    order = list(SOURCE_LABELS)

    def add(ref: str, srcs: set[str], e: dict | None, fb: dict | None) -> None:
        srcs = sorted(srcs, key=order.index)
        old = cases.get(ref)
        if old is not None:
            srcs = sorted(set(srcs) | set(old["sources"]), key=order.index)
            fb = fb or old.get("_fb")
        cases[ref] = {"ref": ref, "source": srcs[0], "sources": srcs, "kind": (e or fb or {}).get("kind"),
                      "event_id": e["id"] if e else None, "feedback_id": fb["id"] if fb else None,
                      "user": e["user"] if e else fb["user_name"], "tenant": e["tenant"] if e else _user_tenant(fb["user_name"]),
                      "thread": e["thread"] if e else fb.get("thread_id"), "at": e["at"] if e else fb["at"], "_fb": fb}

    for eid, srcs in reasons.items():
        if srcs:
            add(f"event:{eid}", srcs, by_id[eid], None)
    cache: dict = {}
    for fb in _week_feedback(week):
        if int(fb["rating"]) != -1:
            continue
        eid = _feedback_event(fb, cache)
        e = by_id.get(eid) if eid is not None else None
        if e is None and eid is not None:
            row = get_db().one(f"SELECT {_EVENT_COLS} FROM audit_log WHERE id = ?", (eid,))
            e = _event_row(row) if row else None
        add(f"event:{e['id']}" if e else f"feedback:{fb['id']}", {"thumbs_down"}, e, fb)
    return [{k: v for k, v in c.items() if k != "_fb"} for c in cases.values()]


def _user_tenant(name: str | None) -> str | None:
    from core.security.principals import UserStore

    try:
        return ",".join(UserStore().get(name).tenants) or None
    except Exception:  # noqa: BLE001 - a deleted user keeps their feedback, without a tenant
        return None


def sync_week(week: str, *, now: datetime | None = None) -> int:
    """Store the week's cases in ``bad_cases`` (new ones added, the reasons of known ones
    updated; a reviewer's classification is never touched). Returns how many were added."""
    week = parse_week(week)
    db = get_db()
    known = {r["ref"]: r for r in db.query("SELECT id, ref, sources, feedback_id FROM bad_cases WHERE week = ?", (week,))}
    added = 0
    with db.transaction():
        for c in collect_week(week, now=now):
            old = known.get(c["ref"])
            if old is None:
                db.execute("INSERT INTO bad_cases (feedback_id, week, status, ref, source, sources, kind, event_id,"
                           " user_name, tenant, thread_id, asked_at) VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (c["feedback_id"], week, c["ref"], c["source"], json.dumps(c["sources"]), c["kind"],
                            c["event_id"], c["user"], c["tenant"], c["thread"], c["at"]))
                added += 1
            elif json.loads(old["sources"] or "[]") != c["sources"] or (c["feedback_id"] and not old["feedback_id"]):
                db.execute("UPDATE bad_cases SET source = ?, sources = ?, feedback_id = ? WHERE id = ?",
                           (c["source"], json.dumps(c["sources"]), c["feedback_id"] or old["feedback_id"], old["id"]))
    return added


# ---- the queue -----------------------------------------------------------------------------
_CASE_COLS = ("id, week, status, category, note, golden_id, feedback_id, ref, source, sources, kind, event_id,"
              " user_name, tenant, thread_id, asked_at, expected, evidence, assignee, golden_set, updated_by, updated_at")


def _case_row(principal, row: dict, *, full: bool, events: dict | None = None, feedback: dict | None = None) -> dict:
    ev = (events or {}).get(row["event_id"]) if row.get("event_id") else None
    if ev is None and row.get("event_id") and events is None:
        r = get_db().one(f"SELECT {_EVENT_COLS} FROM audit_log WHERE id = ?", (row["event_id"],))
        ev = _event_row(r) if r else None
    fb = (feedback or {}).get(row["feedback_id"]) if row.get("feedback_id") else None
    if fb is None and row.get("feedback_id") and feedback is None:
        fb = get_db().one("SELECT id, at, rating, reason, question, answer FROM feedback WHERE id = ?", (row["feedback_id"],))
    detail = _masked_detail(principal, row["kind"] or "docs", ev["detail"]) if ev else {}
    question = detail.get("question") or (fb or {}).get("question") or ""
    if ev and row["kind"] == "kg" and ev["outcome"] != "waiting":
        question = _turn_question(_thread_events(ev["user"], "kg", ev["thread"]), ev["id"]) or question
    out = {
        "id": row["id"], "week": row["week"], "source": row["source"], "sources": json.loads(row["sources"] or "[]"),
        "kind": row["kind"], "question": question, "answer": detail.get("answer") if ev else (fb or {}).get("answer", ""),
        "user": row["user_name"], "role": detail.get("role"), "tenant": row["tenant"], "thread": row["thread_id"],
        "at": row["asked_at"], "refused": bool(detail.get("refused")), "category": row["category"],
        "status": row["status"], "expected": row["expected"] or "", "evidence": row["evidence"] or "",
        "assignee": row["assignee"] or "", "golden_id": row["golden_id"], "golden_set": row["golden_set"],
        "feedback": ({"rating": fb.get("rating"), "reason": fb.get("reason") or "", "at": fb.get("at")} if fb else None),
        "waiting": ev["outcome"] == "waiting" if ev else False,
    }
    if full:
        out["detail"] = detail
        out["event"] = ({"id": ev["id"], "at": ev["at"], "kind": ev["action"], "user": ev["user"], "tenant": ev["tenant"],
                         "outcome": ev["outcome"], "detail": detail} if ev else None)
        out["citations"] = detail.get("citations") or []
    return out


def week_queue(principal, week: str | None = None, *, source: str | None = None, status: str | None = None,
               category: str | None = None, now: datetime | None = None) -> dict:
    """The week's cases ``principal`` may review, newest first, with counts:
    ``{"week", "cases": [...], "counts": {"total", "by_source", "by_status", "by_category"}}``."""
    require_reviewer(principal)
    week = parse_week(week)
    sync_week(week, now=now)
    rows = get_db().query(f"SELECT {_CASE_COLS} FROM bad_cases WHERE week = ? ORDER BY id DESC", (week,))
    rows = [r for r in rows if tenant_visible(principal, r["tenant"])]
    counts = {"total": len(rows), "by_source": dict(Counter(r["source"] for r in rows)),
              "by_status": dict(Counter(r["status"] for r in rows)),
              "by_category": dict(Counter(r["category"] or "unclassified" for r in rows))}
    if source:
        rows = [r for r in rows if source in json.loads(r["sources"] or "[]")]
    if status:
        rows = [r for r in rows if r["status"] == status]
    if category:
        rows = [r for r in rows if (r["category"] or "unclassified") == category]
    events = _events_by_id([r["event_id"] for r in rows if r["event_id"]])
    fbs = _feedback_by_id([r["feedback_id"] for r in rows if r["feedback_id"]])
    cases = [_case_row(principal, r, full=False, events=events, feedback=fbs) for r in rows]
    return {"week": week, "cases": cases, "counts": counts}


def _events_by_id(ids: list[int]) -> dict[int, dict]:
    out: dict[int, dict] = {}
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        for r in get_db().query(f"SELECT {_EVENT_COLS} FROM audit_log WHERE id IN ({', '.join('?' * len(part))})", part):
            out[r["id"]] = _event_row(r)
    return out


def _feedback_by_id(ids: list[int]) -> dict[int, dict]:
    out: dict[int, dict] = {}
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        for r in get_db().query(f"SELECT id, at, rating, reason, question, answer FROM feedback WHERE id IN "
                                f"({', '.join('?' * len(part))})", part):
            out[r["id"]] = r
    return out


def get_case(principal, case_id: int) -> dict:
    """One case with its masked trace and citations; a case of another tenant is "not found"."""
    require_reviewer(principal)
    row = get_db().one(f"SELECT {_CASE_COLS} FROM bad_cases WHERE id = ?", (_int(case_id),))
    if row is None or not tenant_visible(principal, row["tenant"]):
        raise NotFoundError(f"复盘用例 {case_id} 不存在")
    return _case_row(principal, row, full=True)


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BadInputError(f"用例编号应为数字，收到“{value}”") from None


def _code(value: str | None, labels: dict[str, str], what: str) -> str | None:
    if value in (None, ""):
        return None
    v = str(value).strip()
    if v in labels:
        return v
    for code, label in labels.items():
        if v == label:
            return code
    raise enum_error(what, v, [f"{c}（{label}）" for c, label in labels.items()])


def classify(principal, case_id: int, *, category: str | None = None, expected: str | None = None,
             evidence: str | None = None, status: str | None = None, assignee: str | None = None) -> dict:
    """Classify one case (category, expected answer, the documents or rows holding it,
    assignee, status); fields left None stay as they are."""
    from core.security.audit import audit
    from core.security.principals import UserStore

    case = get_case(principal, case_id)
    cat = _code(category, CATEGORY_LABELS, "分类")
    st = _code(status, STATUS_LABELS, "状态")
    if assignee not in (None, "") and not UserStore().exists(str(assignee).strip()):
        raise BadInputError(f"指派对象“{assignee}”不是工作区用户")
    for name, text in (("期望答案", expected), ("依据", evidence)):
        if text is not None and len(text) > MAX_TEXT_CHARS:
            raise BadInputError(f"{name}最多 {MAX_TEXT_CHARS} 个字符")
    if cat is not None and st is None and case["status"] == "open":
        st = "in_progress" if cat != "none" else "resolved"
    get_db().execute(
        "UPDATE bad_cases SET category = COALESCE(?, category), expected = COALESCE(?, expected),"
        " evidence = COALESCE(?, evidence), status = COALESCE(?, status), assignee = COALESCE(?, assignee),"
        " updated_by = ?, updated_at = ? WHERE id = ?",
        (cat, mask_pii(expected) if expected is not None else None, evidence, st,
         str(assignee).strip() if assignee is not None else None, principal.name, now_utc(), case["id"]))
    audit(principal.name, "review.classify", target=str(case["id"]), tenant=case["tenant"],
          detail={"category": cat, "status": st, "assignee": assignee})
    return get_case(principal, case["id"])


def bulk_update(principal, case_ids: Iterable[int], *, category: str | None = None, status: str | None = None) -> int:
    """Set the category and/or status of many cases at once (e.g. the whole random sample
    marked 无问题 / 已解决); returns how many changed."""
    ids = [_int(i) for i in case_ids]
    if category in (None, "") and status in (None, ""):
        raise BadInputError("请选择要批量设置的分类或状态")
    n = 0
    for i in ids:
        classify(principal, i, category=category, status=status)
        n += 1
    return n


def assignees(principal) -> list[str]:
    """Users a case can be assigned to: the reviewer's colleagues (same tenants)."""
    from core.security.principals import UserStore

    require_reviewer(principal)
    return [u.name for u in UserStore().list() if u.role.value in REVIEW_ROLES
            and (principal.is_admin or set(u.tenants) & set(principal.tenants))]
