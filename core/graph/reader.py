"""Read and validate template workbooks (shared/spec/kg-templates.md, "What bad input gets").

- A file that is not an .xlsx workbook with a ``数据`` sheet, or whose header lacks a required
  column: one error for that file (naming the missing columns); other files still build.
- A row with an empty required value, an unparseable int/number/date/ym, or a value outside
  its enum: the row is skipped and every bad cell is reported (template, file, row, column,
  reason); other rows build.
- Two rows with the same record key (across all files of a template): the later one wins
  and a warning names both rows.

Row numbers are as seen in Excel (header = row 1). Column names match exactly (surrounding
whitespace in a header cell is ignored).
"""

from __future__ import annotations

import datetime as dt
import re
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from core.graph.schema import (ATTENDANCE_CODES, DAY_COLUMNS, SHIFT_CODES, TEMPLATE_BY_NAME, Column, Template)

DATA_SHEET = "数据"
HELP_SHEET = "填写说明"
#: per-file limits: a workbook past one of them is rejected with a clear error, never read for minutes
MAX_ROWS_PER_FILE = 200_000
MAX_COLUMNS = 512
MAX_SECONDS_PER_FILE = 300.0
_EXCEL_EPOCH = dt.datetime(1899, 12, 30)


@dataclass
class Issue:
    template: str
    file: str
    row: int | None
    column: str | None
    reason: str
    value: Any = None
    level: str = "error"  # error | warning

    def to_dict(self) -> dict[str, Any]:
        return {"template": self.template, "file": self.file, "row": self.row, "column": self.column,
                "reason": self.reason, "value": self.value}


@dataclass
class Record:
    template: str
    file: str
    row: int
    values: dict[str, Any]

    def key(self, tpl: Template) -> tuple:
        return tuple(self.values.get(k) for k in tpl.key)


@dataclass
class ReadResult:
    records: dict[str, list[Record]] = field(default_factory=dict)
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    files_read: int = 0
    rows_read: int = 0
    #: per file: {"template", "file", "rows_in_file", "rows_read", "records"} (rows below the header)
    files: list[dict[str, Any]] = field(default_factory=list)

    def merge(self, other: "ReadResult") -> None:
        for k, v in other.records.items():
            self.records.setdefault(k, []).extend(v)
        self.errors += other.errors
        self.warnings += other.warnings
        self.files_read += other.files_read
        self.rows_read += other.rows_read
        self.files += other.files


# ---------------------------------------------------------------------------------------
# Value parsing
# ---------------------------------------------------------------------------------------
class CellError(ValueError):
    pass


_NUM_CLEAN = re.compile(r"[,\s，¥￥元]")
_DATE_RE = re.compile(r"^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$")
_YM_RE = re.compile(r"^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*月?$")
_YM_COMPACT = re.compile(r"^(\d{4})(\d{2})$")


def _excel_serial(v: float) -> dt.date:
    if not (1 <= v < 2958466):
        raise CellError("out of range")
    return (_EXCEL_EPOCH + dt.timedelta(days=float(v))).date()


def parse_text(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, dt.datetime):
        v = v.date() if v.time() == dt.time(0) else v
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    s = str(v).strip()
    return s or None


def parse_number(v: Any) -> float:
    if isinstance(v, bool):
        raise CellError("无法解析为数值")
    if isinstance(v, (int, float)):
        return float(v)
    s = _NUM_CLEAN.sub("", str(v))
    try:
        return float(s)
    except ValueError:
        raise CellError("无法解析为数值") from None


def parse_int(v: Any) -> int:
    try:
        f = parse_number(v)
    except CellError:
        raise CellError("无法解析为整数") from None
    if not f.is_integer():
        raise CellError("无法解析为整数")
    return int(f)


def parse_date(v: Any) -> str:
    if isinstance(v, dt.datetime):
        return v.date().isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        try:
            return _excel_serial(v).isoformat()
        except CellError:
            raise CellError("无法解析为日期（应为 YYYY-MM-DD）") from None
    m = _DATE_RE.match(str(v).strip())
    if m:
        try:
            return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
        except ValueError:
            pass
    raise CellError("无法解析为日期（应为 YYYY-MM-DD）")


def parse_ym(v: Any) -> str:
    bad = "无法解析为年月（应为 YYYY-MM）"
    if isinstance(v, (dt.date, dt.datetime)):
        return f"{v.year:04d}-{v.month:02d}"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if isinstance(v, int) or float(v).is_integer():
            m = _YM_COMPACT.match(str(int(v)))
            if m and 1 <= int(m.group(2)) <= 12:
                return f"{m.group(1)}-{m.group(2)}"
        try:
            d = _excel_serial(v)
        except CellError:
            raise CellError(bad) from None
        return f"{d.year:04d}-{d.month:02d}"
    s = str(v).strip()
    m = _YM_RE.match(s) or _YM_COMPACT.match(s)
    if not m:
        try:
            d = dt.date.fromisoformat(parse_date(s))
            return f"{d.year:04d}-{d.month:02d}"
        except (CellError, ValueError):
            raise CellError(bad) from None
    year, month = int(m.group(1)), int(m.group(2))
    if not 1 <= month <= 12:
        raise CellError(bad)
    return f"{year:04d}-{month:02d}"


def parse_value(col: Column, v: Any) -> Any:
    """Parse one cell for ``col``; None for an empty cell; raise CellError with a Chinese reason."""
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    if col.type == "text":
        return parse_text(v)
    if col.type == "int":
        return parse_int(v)
    if col.type == "number":
        return parse_number(v)
    if col.type == "date":
        return parse_date(v)
    if col.type == "ym":
        return parse_ym(v)
    if col.type == "enum":
        s = parse_text(v)
        if s not in col.enum:
            raise CellError(f"取值“{s}”无效，可选值：{'、'.join(col.enum)}")
        return s
    raise AssertionError(col.type)


# ---------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------
def _open_rows(path: Path) -> Iterable[tuple]:
    """Yield the rows of the 数据 sheet; raise CellError with the file-level reason."""
    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import InvalidFileException

    if not path.is_file():
        raise CellError("文件不存在")
    if path.suffix.lower() not in (".xlsx", ".xlsm"):
        raise CellError(f"不是 .xlsx 工作簿（文件类型 {path.suffix or '无扩展名'}），无法读取")
    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except (InvalidFileException, zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise CellError("不是有效的 .xlsx 工作簿，无法读取") from exc
    try:
        if DATA_SHEET not in wb.sheetnames:
            raise CellError(f"缺少工作表“{DATA_SHEET}”（现有工作表：{'、'.join(wb.sheetnames)}）")
        ws = wb[DATA_SHEET]
        # the size a workbook records (<dimension>) may lie either way: read the real rows
        ws.reset_dimensions()
        yield from ws.iter_rows(values_only=True)
    finally:
        wb.close()


def check_day_code(tpl: Template, col: str, value: str) -> bool:
    if col not in DAY_COLUMNS:
        return True
    codes = ATTENDANCE_CODES if tpl.name == "考勤与人员财务" else SHIFT_CODES
    return value in codes


def read_file(tpl: Template, path: Path, display: str | None = None) -> ReadResult:
    """Read one workbook of template ``tpl``; ``display`` is the file name in reports/provenance."""
    name = display or path.name
    out = ReadResult()
    rows = _open_rows(Path(path))
    try:
        header = next(rows, None)
    except CellError as exc:
        out.errors.append(Issue(tpl.name, name, None, None, str(exc)))
        return out
    except Exception as exc:  # noqa: BLE001 - a corrupt workbook is bad input, not a crash
        out.errors.append(Issue(tpl.name, name, None, None, f"工作簿无法读取：{type(exc).__name__}"))
        return out
    header = [parse_text(h) for h in (header or ())]
    index: dict[str, int] = {}
    for i, h in enumerate(header):
        if h is None:
            continue
        if h in index:
            out.warnings.append(Issue(tpl.name, name, 1, h, "表头重复，只读取第一列", h, "warning"))
            continue
        index[h] = i
    missing = [c for c in tpl.required_columns if c not in index]
    if missing:
        out.errors.append(Issue(tpl.name, name, 1, "、".join(missing), f"缺少模板必填字段：{'、'.join(missing)}"))
        return out
    known = set(tpl.column_names)
    for h in index:
        if h not in known:
            out.warnings.append(Issue(tpl.name, name, 1, h, "不是模板字段，已忽略", h, "warning"))
    out.files_read = 1
    cols = [(c, index.get(c.name)) for c in tpl.columns]
    recs: list[Record] = []
    last_row = 1
    started = time.monotonic()
    try:
        for rownum, raw in enumerate(rows, start=2):
            if raw is None or all(v is None or (isinstance(v, str) and not v.strip()) for v in raw):
                continue
            limit = _over_limit(rownum, len(raw), started)
            if limit:  # the whole file stays out: a silently cut file is worse than none
                out.errors.append(Issue(tpl.name, name, rownum, None, limit + "；该文件未导入"))
                recs = []
                break
            last_row = rownum
            out.rows_read += 1
            values: dict[str, Any] = {}
            bad: list[Issue] = []
            for col, i in cols:
                cell = raw[i] if i is not None and i < len(raw) else None
                try:
                    val = parse_value(col, cell)
                except CellError as exc:
                    bad.append(Issue(tpl.name, name, rownum, col.name, str(exc), parse_text(cell)))
                    continue
                if val is None and col.required:
                    bad.append(Issue(tpl.name, name, rownum, col.name, "必填字段为空"))
                    continue
                if val is not None and col.name in DAY_COLUMNS and not check_day_code(tpl, col.name, val):
                    out.warnings.append(Issue(tpl.name, name, rownum, col.name, "未知的逐日代码，已原样保留", val,
                                              "warning"))
                values[col.name] = val
            if bad:
                out.errors.extend(bad)
                continue
            recs.append(Record(tpl.name, name, rownum, values))
    except Exception as exc:  # noqa: BLE001 - a workbook that breaks mid-read
        out.errors.append(Issue(tpl.name, name, None, None, f"工作簿读取中断：{type(exc).__name__}"))
    out.records[tpl.name] = recs
    out.files.append({"template": tpl.name, "file": name, "rows_in_file": last_row - 1, "rows_read": out.rows_read,
                      "records": len(recs)})
    return out


def _over_limit(rownum: int, width: int, started: float) -> str:
    """Why a file must stop being read at this row ("" = go on)."""
    if rownum - 1 > MAX_ROWS_PER_FILE:
        return f"数据行超过每个文件 {MAX_ROWS_PER_FILE} 行的上限，请拆分文件后重新导入"
    if width > MAX_COLUMNS:
        return f"第 {rownum} 行有 {width} 列，超过 {MAX_COLUMNS} 列的上限，请检查文件（模板只有几十列）"
    if rownum % 1000 == 0 and time.monotonic() - started > MAX_SECONDS_PER_FILE:
        return f"读取超过 {int(MAX_SECONDS_PER_FILE)} 秒仍未完成，已停止，请拆分文件后重新导入"
    return ""


def dedup_records(tpl: Template, records: list[Record]) -> tuple[list[Record], list[Issue]]:
    """Later row wins (file order, then row order); a warning names both rows."""
    seen: dict[tuple, int] = {}
    kept: list[Record | None] = []
    warnings: list[Issue] = []
    for rec in records:
        k = rec.key(tpl)
        if k in seen:
            prev = kept[seen[k]]
            assert prev is not None
            warnings.append(Issue(tpl.name, rec.file, rec.row, "+".join(tpl.key),
                                  f"记录键重复：与 {prev.file} 第 {prev.row} 行相同，以后者（{rec.file} 第 {rec.row} 行）为准",
                                  "|".join("" if v is None else str(v) for v in k), "warning"))
            kept[seen[k]] = None
        seen[k] = len(kept)
        kept.append(rec)
    return [r for r in kept if r is not None], warnings


ProgressFn = Callable[[str, float, str], None]


def read_files(files: dict[str, list[tuple[Path, str]]], progress: ProgressFn | None = None) -> ReadResult:
    """Read every file of every template. ``files``: template → [(path, display name)].
    Unknown template names are reported as errors. ``progress(phase, fraction, message)``."""
    result = ReadResult()
    total = sum(len(v) for v in files.values()) or 1
    done = 0
    for tname, paths in files.items():
        tpl = TEMPLATE_BY_NAME.get(tname)
        if tpl is None:
            for _path, display in paths or [(None, "")]:
                result.errors.append(Issue(tname, display, None, None,
                                           f"未知模板“{tname}”，可选：{'、'.join(TEMPLATE_BY_NAME)}"))
            continue
        recs: list[Record] = []
        for path, display in paths:
            one = read_file(tpl, Path(path), display)
            recs += one.records.get(tname, [])
            one.records = {}
            result.merge(one)
            done += 1
            if progress:
                progress("read", done / total, f"已读取 {display}")
        recs, warns = dedup_records(tpl, recs)
        result.warnings += warns
        result.records[tname] = recs
    return result
