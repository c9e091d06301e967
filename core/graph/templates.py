"""Write the 15 template workbooks from :mod:`core.graph.schema` (sheet 数据 + sheet 填写说明)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from core.graph.reader import DATA_SHEET, HELP_SHEET
from core.graph.schema import TEMPLATES, Template

_REQ_FILL = PatternFill("solid", fgColor="F4B183")
_OPT_FILL = PatternFill("solid", fgColor="BDD7EE")
_HEAD_FONT = Font(bold=True)
HELP_HEADER = ("字段名", "含义", "类型", "是否必填", "示例", "字段来源")


def template_workbook(tpl: Template, rows: Iterable[Iterable[Any]] = ()) -> Workbook:
    """A workbook for ``tpl``; ``rows`` (values in column order) fill 数据 from row 2."""
    wb = Workbook()
    ws = wb.active
    ws.title = DATA_SHEET
    ws.append(tpl.column_names)
    for i, col in enumerate(tpl.columns, 1):
        cell = ws.cell(row=1, column=i)
        cell.font = _HEAD_FONT
        cell.fill = _REQ_FILL if col.required else _OPT_FILL
        cell.alignment = Alignment(horizontal="center")
        ws.column_dimensions[get_column_letter(i)].width = 6 if col.name.endswith("日") and len(col.name) <= 3 \
            else max(10, 2 * len(col.name) + 4)
        letter = get_column_letter(i)
        if col.type == "enum":
            dv = DataValidation(type="list", formula1='"' + ",".join(col.enum) + '"', allow_blank=not col.required,
                                showErrorMessage=True, errorTitle="取值无效", error="可选值：" + "、".join(col.enum))
            dv.add(f"{letter}2:{letter}1048576")
            ws.add_data_validation(dv)
    ws.freeze_panes = "A2"
    for r in rows:
        ws.append(list(r))
    help_ws = wb.create_sheet(HELP_SHEET)
    help_ws.append(HELP_HEADER)
    for c in help_ws[1]:
        c.font = _HEAD_FONT
    for col in tpl.columns:
        help_ws.append([col.name, col.meaning, col.type_label, "必填" if col.required else "选填", col.example,
                        col.source or tpl.default_source])
    help_ws.append([])
    help_ws.append(["说明", f"{tpl.description}；记录唯一键：{' + '.join(tpl.key)}；表头写在第 1 行，"
                          f"从第 2 行起每行一条记录；字段名不得修改（橙色为必填列）。"])
    for letter, width in zip("ABCDEF", (16, 48, 40, 10, 22, 36)):
        help_ws.column_dimensions[letter].width = width
    return wb


def write_template(tpl: Template, path: Path, rows: Iterable[Iterable[Any]] = ()) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    template_workbook(tpl, rows).save(path)
    return path


def write_all(out_dir: Path) -> list[Path]:
    out_dir = Path(out_dir)
    return [write_template(t, out_dir / f"{t.file_stem}.xlsx") for t in TEMPLATES]
