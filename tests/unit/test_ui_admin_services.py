"""Services behind the shell pages (issue 13 part A): routing dropped files to templates, row
ranges, staged ingestion progress, user disable, the empty-workspace check."""

from __future__ import annotations

import pytest

from core.progress import reporting, report, stage_text
from core.security.principals import UserStore
from core.services import build as B


@pytest.mark.parametrize("name, template", [
    ("07_考勤与人员财务_2026-03.xlsx", "考勤与人员财务"), ("7-考勤.xlsx", "考勤与人员财务"),
    ("bad_date_人员信息.xlsx", "人员信息"), ("项目片区关系（新）.xlsx", "项目片区关系"),
    ("2026_汇总.xlsx", None), ("随便.xlsx", None)])
def test_template_for_file(name, template):
    assert B.template_for_file(name) == template


def test_row_ranges_and_stage_text():
    assert B.row_ranges([9, 3, 4, 5]) == "3–5、9" and B.row_ranges([]) == ""
    assert stage_text("ocr", 3, 8) == "OCR 第 3/8 页" and stage_text("embed", 120, 340) == "向量化 120/340"
    assert stage_text("parse") == "解析"


def test_report_without_reporter_is_a_no_op():
    report("embed", 1, 2)  # nothing installed: nothing happens
    seen = []
    with reporting(lambda *a: seen.append(a)):
        report("embed", 1, 2)
    assert seen == [("embed", 1, 2)]


def test_ingestion_reports_its_stages(tmp_path):
    from core.security.principals import resolve_user
    from core.services import ingest

    doc = tmp_path / "办法.txt"
    doc.write_text("示范补贴办法\n第一条 对示范企业一次性奖励20万元。", encoding="utf-8")
    events = []
    report_ = ingest.ingest_paths([doc], resolve_user(None), "demo", on_stage=events.append)
    assert report_["documents"]
    stages = [e["stage"] for e in events]
    assert stages[0] == "parse" and "chunk" in stages and stages[-1] == "done"
    assert all("text" in e for e in events)


def test_disabled_user_cannot_sign_in_and_loses_sessions():
    from core.errors import AuthError, BadInputError
    from core.services import users

    store = UserStore()
    boss = store.add("boss2", "admin", "boss-pass-12")
    store.add("worker", "staff", "work-pass-12", tenants=["demo"])
    _, token = users.login("worker", "work-pass-12")
    users.set_disabled(boss, "worker", True)
    assert users.resume_session(token) is None
    with pytest.raises(AuthError):
        users.login("worker", "work-pass-12")
    with pytest.raises(BadInputError):
        users.set_disabled(boss, "boss2", True)
    users.set_disabled(boss, "worker", False)
    assert users.login("worker", "work-pass-12")[0].name == "worker"
    assert [u["disabled"] for u in users.user_rows(boss)] == [False, False]


def test_workspace_empty():
    from core.services import dashboard

    assert dashboard.workspace_empty()
