"""Spreadsheets whose recorded size lies (issue #11): a workbook's ``<dimension>`` is not
trusted — rows past a too-small one are read, a huge one does not keep the reader busy — and
files past the per-file limits are refused whole with a clear error."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from core.graph import reader
from core.graph.reader import read_file
from core.graph.schema import TEMPLATE_BY_NAME

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "samples" / "business" / "01_项目信息.xlsx"
TPL = TEMPLATE_BY_NAME["项目信息"]


def _with_dimension(src: Path, dst: Path, ref: str) -> Path:
    """A copy of ``src`` whose 数据 sheet claims the range ``ref``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                text = data.decode("utf-8")
                if "<dimension" in text:
                    text = re.sub(r'<dimension ref="[^"]*"', f'<dimension ref="{ref}"', text)
                else:
                    text = text.replace("<sheetData", f'<dimension ref="{ref}"/><sheetData', 1)
                data = text.encode("utf-8")
            zout.writestr(item, data)
    return dst


def _truth() -> int:
    return len(read_file(TPL, SAMPLE).records["项目信息"])


def test_a_too_small_recorded_size_loses_no_rows(tmp_path):
    lying = _with_dimension(SAMPLE, tmp_path / "small.xlsx", "A1:Y5")
    out = read_file(TPL, lying)
    assert len(out.records["项目信息"]) == _truth() > 4
    assert out.files[0]["rows_in_file"] == out.files[0]["rows_read"] == _truth()


def test_a_huge_recorded_size_reads_only_the_real_rows(tmp_path):
    lying = _with_dimension(SAMPLE, tmp_path / "huge.xlsx", "A1:XFD1048576")
    out = read_file(TPL, lying)
    assert not out.errors and len(out.records["项目信息"]) == _truth()


def test_files_past_the_limits_are_refused_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "MAX_ROWS_PER_FILE", 5)
    out = read_file(TPL, shutil.copy(SAMPLE, tmp_path / "many.xlsx") and tmp_path / "many.xlsx")
    assert out.records["项目信息"] == [] and "上限" in out.errors[0].reason and "未导入" in out.errors[0].reason
    monkeypatch.setattr(reader, "MAX_ROWS_PER_FILE", 200_000)
    monkeypatch.setattr(reader, "MAX_COLUMNS", 10)
    out = read_file(TPL, SAMPLE)
    assert out.records["项目信息"] == [] and "列" in out.errors[0].reason


@pytest.mark.parametrize("ref", ["A1:Y5", "A1:XFD1048576"])
def test_the_build_report_counts_rows_read(tmp_path, ref):
    from core.graph.reader import read_files

    lying = _with_dimension(SAMPLE, tmp_path / "p.xlsx", ref)
    out = read_files({"项目信息": [(lying, "p.xlsx")]})
    assert out.files == [{"template": "项目信息", "file": "p.xlsx", "rows_in_file": _truth(), "rows_read": _truth(),
                          "records": _truth()}]
