"""Uploads (issue #11): a template key or file name never writes outside the workspace, odd
names (very long, NUL, folders) are cleaned instead of crashing, the type is sniffed from the
content, and files skipped in hidden folders are reported, not dropped silently."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import get_settings
from core.errors import BadInputError
from core.security.principals import Principal, Role
from core.services import build, ingest

ADMIN = Principal("admin", Role.admin)
SAMPLE = Path(__file__).resolve().parents[2] / "data" / "samples" / "business" / "01_项目信息.xlsx"


def _inside_workspace() -> list[Path]:
    return [p for p in get_settings().home.rglob("*") if p.is_file()]


def test_a_template_key_cannot_climb_out_of_the_workspace(tmp_path):
    for key in ("../../x", "..", "/etc", "项目信息/../../x"):
        with pytest.raises(BadInputError, match="未知模板"):
            build.validate_uploads(ADMIN, {key: [("a.xlsx", SAMPLE.read_bytes())]}, tenant="demo")
    assert not list(tmp_path.parent.glob("x"))


def test_odd_file_names_are_cleaned_not_crashing():
    data = SAMPLE.read_bytes()
    names = ["a" * 300 + ".xlsx", "bad\x00name.xlsx", "../../../evil.xlsx", "sub\\dir\\项目.xlsx"]
    out = build.validate_uploads(ADMIN, {"项目信息": [(n, data) for n in names]}, tenant="demo")
    stored = [f["file"] for f in out["files"]]
    assert all(len(n) <= build.MAX_NAME_CHARS and "/" not in n and "\x00" not in n and n.endswith(".xlsx")
               for n in stored)
    assert stored[2] == "evil.xlsx" and stored[3] == "项目.xlsx"  # folders dropped, either separator
    home = get_settings().home.resolve()
    assert all(p.resolve().is_relative_to(home) for p in _inside_workspace())
    assert out["files"][0]["records"] == out["files"][2]["records"] > 0


def test_the_type_is_sniffed_from_the_content():
    with pytest.raises(BadInputError, match="不是 .xlsx"):
        build.validate_uploads(ADMIN, {"项目信息": [("pretend.xlsx", b"<html>not a workbook</html>")]}, tenant="demo")


def test_files_in_hidden_folders_are_reported(tmp_path):
    (tmp_path / "docs" / ".git").mkdir(parents=True)
    (tmp_path / "docs" / ".git" / "notice.txt").write_text("关于印发某办法的通知", encoding="utf-8")
    (tmp_path / "docs" / ".hidden.txt").write_text("x", encoding="utf-8")
    files, errors = ingest._expand([tmp_path / "docs"])
    assert files == [] and {e["file"] for e in errors} == {".git/notice.txt", ".hidden.txt"}
    assert all("跳过" in e["reason"] for e in errors)
