"""Reader: exact headers, tolerant parsing, bad rows/files reported with Excel row numbers."""

from __future__ import annotations

import datetime as dt

import pytest
from openpyxl import Workbook

from core.graph.reader import CellError, parse_date, parse_number, parse_ym, read_file, read_files
from core.graph.schema import template
from core.graph.templates import write_template


@pytest.mark.parametrize("raw,expected", [("4,896.25", 4896.25), (12, 12.0), (" 1 200 ", 1200.0), ("￥35.50", 35.5)])
def test_numbers(raw, expected):
    assert parse_number(raw) == expected


@pytest.mark.parametrize("raw,expected", [
    ("2026-03-05", "2026-03-05"), ("2026/3/5", "2026-03-05"), ("2026年3月5日", "2026-03-05"),
    (dt.datetime(2026, 3, 5), "2026-03-05"), (46086, "2026-03-05")])
def test_dates(raw, expected):
    assert parse_date(raw) == expected


@pytest.mark.parametrize("raw,expected", [
    ("2026-3", "2026-03"), ("2026/03", "2026-03"), ("2026年3月", "2026-03"), (dt.datetime(2026, 3, 1), "2026-03"),
    ("2026-03-15", "2026-03"), (202603, "2026-03")])
def test_year_months(raw, expected):
    assert parse_ym(raw) == expected


@pytest.mark.parametrize("raw", ["2026-13-45", "三月五日", "2026/2/30"])
def test_bad_dates(raw):
    with pytest.raises(CellError):
        parse_date(raw)


def test_rows_and_cells_reported_with_excel_row_numbers(tmp_path):
    tpl = template("项目月度财务")
    p = write_template(tpl, tmp_path / "fin.xlsx", [
        ["XMSQ0102", "2026年3月", "4,896.25", None, "含税", "KWL1"],
        ["XMSQ0102", "2026-13", 1, 1, None, "KWL1"],
        [None, "2026-04", "abc", 1, None, "KWL1"],
        [None, None, None, None, None, None],
        ["XMSQ0103", dt.datetime(2026, 4, 1), 10, 9.5, None, "KWL1"]])
    res = read_file(tpl, p)
    assert [(r.row, r.values["年月"], r.values["开票金额"]) for r in res.records["项目月度财务"]] == \
        [(2, "2026-03", 4896.25), (6, "2026-04", 10.0)]
    errs = sorted((e.row, e.column, e.reason) for e in res.errors)
    assert errs == [(3, "年月", "无法解析为年月（应为 YYYY-MM）"), (4, "开票金额", "无法解析为数值"), (4, "项目编号", "必填字段为空")]


def test_missing_required_columns_reject_the_file_with_their_names(tmp_path):
    wb = Workbook()
    ws = wb.active
    ws.title = "数据"
    ws.append(["姓名", "岗位名称", "组织名称"])
    ws.append(["张三", "保洁员", "x"])
    wb.save(tmp_path / "staff.xlsx")
    res = read_file(template("人员信息"), tmp_path / "staff.xlsx")
    assert [e.to_dict() for e in res.errors] == [{"template": "人员信息", "file": "staff.xlsx", "row": 1, "column": "工号",
                                                  "reason": "缺少模板必填字段：工号", "value": None}]
    assert res.records.get("人员信息") is None or res.records["人员信息"] == []


def test_missing_data_sheet_and_non_xlsx(tmp_path):
    wb = Workbook()
    wb.active.title = "Sheet1"
    wb.save(tmp_path / "a.xlsx")
    (tmp_path / "b.csv").write_text("姓名,工号\n", encoding="utf-8")
    res = read_files({"人员信息": [(tmp_path / "a.xlsx", "a.xlsx"), (tmp_path / "b.csv", "b.csv")]})
    reasons = {e.file: e.reason for e in res.errors}
    assert reasons["a.xlsx"].startswith("缺少工作表“数据”")
    assert "不是 .xlsx 工作簿" in reasons["b.csv"]


def test_duplicate_keys_across_files_later_wins_and_warning_names_both(tmp_path):
    tpl = template("岗位字典")
    a = write_template(tpl, tmp_path / "a.xlsx", [["保洁员", "一线员工"], ["客服", "一线员工"]])
    b = write_template(tpl, tmp_path / "b.xlsx", [["保洁员", "职能人员"]])
    res = read_files({"岗位字典": [(a, "a.xlsx"), (b, "b.xlsx")]})
    assert {r.values["岗位名称"]: r.values["员工层级"] for r in res.records["岗位字典"]} == {"保洁员": "职能人员", "客服": "一线员工"}
    (w,) = res.warnings
    assert (w.file, w.row, w.value) == ("b.xlsx", 2, "保洁员") and "a.xlsx 第 2 行" in w.reason


def test_unknown_template_in_config_is_an_error(tmp_path):
    res = read_files({"项目清单": [(tmp_path / "x.xlsx", "x.xlsx")]})
    assert "未知模板“项目清单”" in res.errors[0].reason


def test_missing_file_is_reported_and_others_still_read(tmp_path):
    tpl = template("岗位字典")
    good = write_template(tpl, tmp_path / "good.xlsx", [["保洁员", "一线员工"]])
    res = read_files({"岗位字典": [(tmp_path / "nope.xlsx", "nope.xlsx"), (good, "good.xlsx")]})
    assert [(e.file, e.reason) for e in res.errors] == [("nope.xlsx", "文件不存在")]
    assert len(res.records["岗位字典"]) == 1


def test_bad_cell_error_carries_the_value(tmp_path):
    tpl = template("岗位字典")
    p = write_template(tpl, tmp_path / "d.xlsx", [["保洁员", "临时工"]])
    (e,) = read_file(tpl, p).errors
    assert e.to_dict() == {"template": "岗位字典", "file": "d.xlsx", "row": 2, "column": "员工层级",
                           "reason": "取值“临时工”无效，可选值：一线员工、项目管理人员、职能人员", "value": "临时工"}
