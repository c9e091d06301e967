"""Service API for templates and the business-graph build (CLI ``templates`` / ``build-graph``,
the 数据导入与建图 page, and the lead's ``demo`` command).

Every function that changes the graph or reads uploads takes the acting :class:`Principal`
and refuses non-admins with :class:`core.errors.PermissionDenied`, and names the tenant whose
graph it builds or reads (``None``: the workspace's default tenant, ``ZHICE_DEFAULT_TENANT``).
A build writes a new generation and publishes it atomically (core/graph/store/tenancy.py); the
generation keeps a copy of every source spreadsheet so provenance rows open exactly the file
that was built.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any, Callable, Iterable

from core.config import TENANT_RE, get_settings
from core.errors import BadInputError, OutdatedGraphLayout, PermissionDenied
from core.graph import templates as T
from core.graph.builder import build_graph
from core.graph.reader import ReadResult, read_files
from core.graph.schema import TEMPLATE_BY_NAME, TEMPLATE_NAMES, template
from core.graph.store import current_sources, get_graph_store, graph_build, graph_tenants, validate_tenant
from core.graph.store.tenancy import unique_source_names

REPO = Path(__file__).resolve().parents[2]
SAMPLE_CONFIG = REPO / "data" / "samples" / "business" / "config.json"
ISSUE_COLUMNS = ("level", "template", "file", "row", "column", "value", "reason")
ISSUE_LABELS = {"level": "级别", "template": "模板", "file": "文件", "row": "行号", "column": "字段", "value": "取值",
                "reason": "原因"}

ProgressFn = Callable[[str, float, str], None]


def require_admin(principal) -> None:
    role = getattr(getattr(principal, "role", None), "value", getattr(principal, "role", None))
    if role != "admin":
        raise PermissionDenied("只有管理员可以导入数据和构建图谱")


# ---- templates -------------------------------------------------------------------------
def write_templates(out_dir: str | Path) -> list[Path]:
    """Write the 15 blank templates (数据 + 填写说明) into ``out_dir``."""
    return T.write_all(Path(out_dir))


def template_list() -> list[dict[str, Any]]:
    return [{"name": t.name, "file_name": f"{t.file_stem}.xlsx", "description": t.description,
             "required": t.required_columns, "key": list(t.key)} for t in TEMPLATE_BY_NAME.values()]


def template_bytes(name: str) -> bytes:
    """One blank template workbook as bytes (download button)."""
    buf = io.BytesIO()
    T.template_workbook(template(name)).save(buf)
    return buf.getvalue()


# ---- config ----------------------------------------------------------------------------
def load_config(path: str | Path) -> dict[str, list[tuple[Path, str]]]:
    """Template → [(absolute path, file name)]; paths relative to the config. The file name (no
    folders) is what provenance records as 来源文件."""
    path = Path(path)
    if not path.is_file():
        raise BadInputError(f"构建配置文件不存在：{path}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadInputError(f"构建配置不是有效的 JSON：{path.name}（{exc}）") from None
    if not isinstance(data, dict):
        raise BadInputError("构建配置应为 {模板名: [文件, …]} 形式的 JSON 对象")
    out: dict[str, list[tuple[Path, str]]] = {}
    for name, files in data.items():
        if isinstance(files, str):
            files = [files]
        if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
            raise BadInputError(f"构建配置中模板“{name}”的值应为文件路径列表")
        out[name] = [((path.parent / f).resolve(), Path(f).name) for f in files]
    return out


# ---- build -----------------------------------------------------------------------------
def _tenant(tenant: str | None) -> str:
    return validate_tenant(get_settings().default_tenant if tenant is None else tenant)


def _build(files: dict[str, list[tuple[Path, str]]], *, tenant: str, clear: bool,
           progress: ProgressFn | None) -> dict:
    unique_source_names(files)
    read = read_files(files, progress)
    with graph_build(tenant, clear=clear) as stage:
        for tname, items in files.items():
            for path, name in items:
                if Path(path).is_file():
                    stage.add_source(tname, name, path)
        report = build_graph(stage, read, clear=clear, progress=progress)
    result = {**report.to_dict(), "tenant": tenant, "generation": stage.generation, "files": read.files}
    return result


def _audited_build(principal, files, *, tenant: str, clear: bool, progress, action: str) -> dict:
    """Build and record it (who, tenant, files, counts, errors) in the audit log."""
    from core.security.audit import audit

    try:
        result = _build(files, tenant=tenant, clear=clear, progress=progress)
    except Exception as exc:
        audit(principal.name, action, tenant=tenant, outcome="error", detail={"clear": clear, "error": str(exc)[:300]})
        raise
    audit(principal.name, action, tenant=tenant, outcome="partial" if result["errors"] else "ok",
          detail={"clear": clear, "generation": result["generation"], "files": result["files"],
                  "errors": len(result["errors"]), "warnings": len(result["warnings"]), "nodes": result["nodes"]})
    return result


def build_from_config(principal, config: str | Path, *, tenant: str | None = None, clear: bool = False,
                      progress: ProgressFn | None = None) -> dict:
    require_admin(principal)
    tenant = _tenant(tenant)
    return _audited_build(principal, load_config(config), tenant=tenant, clear=clear, progress=progress,
                          action="build.config")


MAX_NAME_CHARS = 120
XLSX_MAGIC = b"PK\x03\x04"  # an .xlsx workbook is a zip archive


def _safe_name(name: str) -> str:
    """A file name that is safe to store: no folders, no control or odd characters, ≤ 120
    characters (the extension kept)."""
    name = Path(str(name).replace("\\", "/")).name
    name = re.sub(r"[^\w.\-()（）]+", "_", name).strip("._") or "upload.xlsx"
    stem, dot, ext = name.rpartition(".")
    if len(name) > MAX_NAME_CHARS:
        keep = MAX_NAME_CHARS - len(ext) - 1 if dot and len(ext) <= 10 else MAX_NAME_CHARS
        name = (stem[:keep] + "." + ext) if dot and len(ext) <= 10 else name[:MAX_NAME_CHARS]
    return name


def _save_uploads(tenant: str, uploads: dict[str, Iterable[tuple[str, bytes]]]) -> dict[str, list[tuple[Path, str]]]:
    """Save uploads under the tenant's folder: uploads/business/<tenant>/<template>/<file>."""
    settings = get_settings()
    limit = settings.max_upload_mb * 1024 * 1024
    folder = settings.dir("uploads", "business", tenant)
    files: dict[str, list[tuple[Path, str]]] = {}
    for tname, items in uploads.items():
        if tname not in TEMPLATE_BY_NAME:
            raise BadInputError(f"未知模板“{tname}”，可选：{'、'.join(TEMPLATE_NAMES)}")
        for fname, data in items:
            shown = _safe_name(fname)
            if len(data) > limit:
                raise BadInputError(f"文件 {shown} 超过上传大小上限 {settings.max_upload_mb} MB")
            if not bytes(data[:4]) == XLSX_MAGIC:  # sniffed by content, not by the name
                raise BadInputError(f"文件 {shown} 不是 .xlsx 工作簿（按内容识别），请上传模板格式的 Excel 文件")
            target = folder / tname / shown
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            files.setdefault(tname, []).append((target, shown))
    return files


def validate_uploads(principal, uploads: dict[str, Iterable[tuple[str, bytes]]], *,
                     tenant: str | None = None) -> dict:
    """Read and check uploaded files without building: {"issues": [...], "rows_read", "files_read", "records"}."""
    require_admin(principal)
    from core.security.audit import audit

    tenant = _tenant(tenant)
    read = read_files(_save_uploads(tenant, uploads))
    audit(principal.name, "build.validate", tenant=tenant, outcome="partial" if read.errors else "ok",
          detail={"files": read.files, "errors": len(read.errors)})
    return {**issues_of(read), "rows_read": read.rows_read, "files_read": read.files_read,
            "records": {k: len(v) for k, v in read.records.items()}, "files": read.files}


def build_from_uploads(principal, uploads: dict[str, Iterable[tuple[str, bytes]]], *, tenant: str | None = None,
                       clear: bool = False, progress: ProgressFn | None = None) -> dict:
    """Build from uploaded files: ``uploads`` = template → [(file name, bytes)]."""
    require_admin(principal)
    tenant = _tenant(tenant)
    files = _save_uploads(tenant, uploads)
    return _audited_build(principal, files, tenant=tenant, clear=clear, progress=progress, action="build.upload")


def clear_graph(principal, *, tenant: str | None = None) -> dict:
    """Replace the tenant's graph by an empty one (a new generation, published atomically)."""
    require_admin(principal)
    with graph_build(_tenant(tenant), clear=True) as stage:
        counts = stage.counts()
    return counts


def tenant_choices(principal) -> list[str]:
    """Tenants an administrator may build: the default tenant first, then the principal's own
    tenants and those that already have a graph."""
    require_admin(principal)
    default = get_settings().default_tenant
    others = set(getattr(principal, "tenants", ()) or ()) | set(graph_tenants())
    return [default] + sorted(t for t in others - {default} if TENANT_RE.fullmatch(str(t)))


def rebuild_from_sources(principal, *, tenant: str | None = None, progress: ProgressFn | None = None) -> dict:
    """Rebuild the tenant's graph from scratch out of the spreadsheets kept with its current
    generation (after an upgrade changed the graph's layout, or to start clean); the current
    graph serves questions until the new one is published, and a failed rebuild leaves it as it was."""
    require_admin(principal)
    tenant = _tenant(tenant)
    kept = current_sources(tenant)
    if not kept:
        raise BadInputError(f"租户 {tenant} 没有保存构建所用的原始表格，无法重新构建；请在“数据导入与建图”页上传表格构建")
    files = {tname: [(path, path.name) for path in paths] for tname, paths in kept.items()}
    return _audited_build(principal, files, tenant=tenant, clear=True, progress=progress, action="build.rebuild")


def graph_layout_outdated(principal, *, tenant: str | None = None) -> bool:
    """True when the tenant's graph was built by an older version and must be rebuilt before use."""
    require_admin(principal)
    try:
        get_graph_store(tenant=_tenant(tenant)).counts()
    except OutdatedGraphLayout:
        return True
    return False


def graph_counts(principal, *, tenant: str | None = None) -> dict:
    """Counts per label / relationship type of the tenant's current graph (admins: the import page)."""
    require_admin(principal)
    return get_graph_store(tenant=_tenant(tenant)).counts()


def load_demo_graph(clear: bool = True, *, tenant: str = "demo", progress: ProgressFn | None = None) -> dict:
    """Build the bundled sample spreadsheets (data/samples/business) into ``tenant``'s graph."""
    return _build(load_config(SAMPLE_CONFIG), tenant=validate_tenant(tenant), clear=clear, progress=progress)


# ---- one drop zone: route files to templates by name -------------------------------------------
def template_for_file(file_name: str) -> str | None:
    """The template a file belongs to by its name: a leading template number (``07_考勤…``,
    ``7-…``) or the template's name anywhere in it (longest name first); None when neither."""
    stem = Path(str(file_name).replace("\\", "/")).name
    m = re.match(r"\s*0*(\d{1,2})(?!\d)", stem)
    by_number = {int(template(n).file_stem.split("_", 1)[0]): n for n in TEMPLATE_NAMES}
    if m and int(m.group(1)) in by_number:
        return by_number[int(m.group(1))]
    for name in sorted(TEMPLATE_NAMES, key=len, reverse=True):
        if name in stem:
            return name
    return None


def route_uploads(files: Iterable[tuple[str, bytes]]) -> dict:
    """Sort dropped files by template: {"uploads": {template: [(name, bytes)]}, "routes":
    [{"file", "template", "problem"}], "unmatched": [file names], "rejected": [{"file", "reason"}]}.
    A file that is not an .xlsx workbook by content is rejected here, with the reason."""
    uploads: dict[str, list[tuple[str, bytes]]] = {}
    routes, unmatched, rejected = [], [], []
    limit = get_settings().max_upload_mb * 1024 * 1024
    for name, data in files:
        tname = template_for_file(name)
        problem = ""
        if len(data) > limit:
            problem = f"超过上传大小上限 {get_settings().max_upload_mb} MB"
        elif bytes(data[:4]) != XLSX_MAGIC:
            problem = "不是 .xlsx 工作簿（按内容识别），请上传模板格式的 Excel 文件"
        routes.append({"file": name, "template": tname, "problem": problem})
        if problem:
            rejected.append({"file": name, "reason": problem})
        elif tname is None:
            unmatched.append(name)
        else:
            uploads.setdefault(tname, []).append((name, data))
    return {"uploads": uploads, "routes": routes, "unmatched": unmatched, "rejected": rejected}


def file_outcomes(result: dict) -> list[dict]:
    """Per file of a validation or build: rows in the file, rows imported (records), and the
    row numbers skipped because of errors — what the result page shows."""
    issues = result.get("issues")
    if issues is None:
        issues = issues_of(result)["issues"]
    out = []
    for f in result.get("files") or []:
        errs = [i for i in issues if i.get("level") == "错误" and i.get("file") == f.get("file")]
        skipped = sorted({int(i["row"]) for i in errs if isinstance(i.get("row"), int)})
        whole_file = any(i.get("row") is None for i in errs)
        out.append({"template": f.get("template"), "file": f.get("file"), "rows_in_file": f.get("rows_in_file", 0),
                    "imported": f.get("records", 0), "skipped_rows": skipped,
                    "file_error": "；".join(i["reason"] for i in errs if i.get("row") is None) if whole_file else ""})
    return out


def row_ranges(rows: list[int]) -> str:
    """[3, 4, 5, 9] → "3–5、9"."""
    parts, start, prev = [], None, None
    for r in sorted(rows):
        if start is None:
            start = prev = r
        elif r == prev + 1:
            prev = r
        else:
            parts.append(f"{start}–{prev}" if prev != start else str(start))
            start = prev = r
    if start is not None:
        parts.append(f"{start}–{prev}" if prev != start else str(start))
    return "、".join(parts)


# ---- issues table ----------------------------------------------------------------------
def issues_of(read_or_report: ReadResult | dict) -> dict:
    """{"issues", "errors", "warnings"} from a read result, a build report (lists of errors and
    warnings) or a validation result that already carries its issues (counts in errors/warnings)."""
    if isinstance(read_or_report, dict) and isinstance(read_or_report.get("issues"), list):
        issues = read_or_report["issues"]
        return {"issues": issues, "errors": sum(1 for i in issues if i.get("level") == "错误"),
                "warnings": sum(1 for i in issues if i.get("level") == "警告")}
    if isinstance(read_or_report, ReadResult):
        errors = [e.to_dict() for e in read_or_report.errors]
        warnings = [w.to_dict() for w in read_or_report.warnings]
    else:
        errors, warnings = read_or_report["errors"], read_or_report["warnings"]
    rows = [{"level": "错误", **e} for e in errors] + \
           [{"level": "警告", **w} for w in warnings]
    return {"issues": [{k: r.get(k) for k in ISSUE_COLUMNS} for r in rows], "errors": len(errors),
            "warnings": len(warnings)}


def issues_csv(issues: list[dict]) -> bytes:
    from core.security.export import safe_row  # cells starting with = + - @ are not run as formulas

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow([ISSUE_LABELS[c] for c in ISSUE_COLUMNS])
    for r in issues:
        w.writerow(safe_row(r.get(c) for c in ISSUE_COLUMNS))
    return ("\ufeff" + buf.getvalue()).encode("utf-8")


__all__ = ["write_templates", "template_list", "template_bytes", "load_config", "build_from_config", "validate_uploads",
           "build_from_uploads", "clear_graph", "graph_counts", "tenant_choices", "load_demo_graph", "issues_of",
           "issues_csv", "require_admin", "TEMPLATE_NAMES", "template_for_file", "route_uploads", "file_outcomes",
           "row_ranges"]
