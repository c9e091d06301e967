"""Audit trail (issue #11): every question is recorded with its trace, the log never holds a
sensitive value a manager was shown, only administrators read it (page and command line),
exports are defused, and retention deletes only what is past it."""

from __future__ import annotations

import csv
import io
import json
from datetime import date

import pytest

from core.errors import PermissionDenied
from core.security import audit as A
from core.security.principals import Principal, Role
from core.services import audit as audit_service
from core.services.ask_kg import ask_kg
from tests.unit.test_kg_graph import store  # noqa: F401 - fixture (a fake graph with salaries)

TODAY = date(2026, 11, 30)
ADMIN = Principal("admin", Role.admin)
MANAGER = Principal("manager_a", Role.manager, tenants=("demo",))
GUEST = Principal("guest_a", Role.guest, tenants=("demo",))


def test_a_kg_question_is_recorded_with_its_plan_queries_and_provenance(store):  # noqa: F811
    r = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=MANAGER, today=TODAY, auto=True)
    [event] = audit_service.list_events(ADMIN, of="manager_a", kind="question")
    d = audit_service.event_detail(ADMIN, event["id"])["detail"]
    assert event["kind"] == "question.kg" and event["tenant"] == "demo" and event["outcome"] == "answered"
    assert d["question"] == "青浦-区图书馆2026年3月有多少人出勤？" and d["answer"] == r["answer"]
    assert d["plan"] and d["queries"][0]["cypher"] and d["provenance"] == r["provenance"]
    assert d["thread"] == r["thread"] and d["role"] == "manager" and d["latency_ms"] > 0


def test_the_log_never_holds_a_salary_the_manager_was_shown(store):  # noqa: F811
    r = ask_kg("青浦-区图书馆3月的工资", principal=MANAGER, today=TODAY, auto=True)
    assert "税后工资 5,000元" in r["answer"]
    text = json.dumps(A.recent(5), ensure_ascii=False)
    assert "5,000" not in text and "5000" not in text and "税后工资 ***元" in text


def test_an_edited_plan_and_a_waiting_turn_are_marked(store):  # noqa: F811
    r = ask_kg("青浦-区图书馆3月的考勤", principal=MANAGER, today=TODAY)
    assert r["need_confirm"]
    events = audit_service.list_events(ADMIN, kind="question")
    assert events[0]["outcome"] == "waiting"
    while r["need_confirm"]["kind"] != "plan":
        r = ask_kg("确认", principal=MANAGER, today=TODAY, thread_id=r["thread"])
    ask_kg({"plan": [{"id": 1, "tool": "attendance", "params": {"projects": ["P1"]}}]}, principal=MANAGER, today=TODAY,
           thread_id=r["thread"], auto=True)
    last = audit_service.event_detail(ADMIN, audit_service.list_events(ADMIN, kind="question")[0]["id"])
    assert last["detail"]["edited"] is True and last["detail"]["question"] == "（修改后的查询计划）"


def test_only_administrators_read_the_log(store, capsys):  # noqa: F811
    from core.cli import main
    from core.security.principals import UserStore

    ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=MANAGER, today=TODAY, auto=True)
    for who in (MANAGER, GUEST):
        with pytest.raises(PermissionDenied):
            audit_service.list_events(who)
        with pytest.raises(PermissionDenied):
            A.purge_expired(who)
    UserStore().add("auditor_x", "manager", "Kx7-long-enough-2026", tenants=["demo"])
    assert main(["audit", "--user", "auditor_x", "--json"]) == 1
    assert "管理员" in capsys.readouterr().err
    UserStore().add("root_x", "admin", "Rx7-long-enough-2026")
    assert main(["audit", "--of", "manager_a", "--kind", "question", "--user", "root_x", "--json"]) == 0
    events = json.loads(capsys.readouterr().out)["events"]
    assert events and all({"at", "kind", "user", "tenant", "detail"} <= set(e) for e in events)
    assert all(e["user"] == "manager_a" for e in events)


def test_csv_export_defuses_formulas_and_is_itself_recorded():
    A.audit("mallory", "doc_update", target="=cmd|' /C calc'!A0")
    events = audit_service.list_events(ADMIN)
    rows = list(csv.reader(io.StringIO(audit_service.events_csv(ADMIN, events).decode("utf-8-sig"))))
    assert rows[1][4] == "'=cmd|' /C calc'!A0"
    assert audit_service.list_events(ADMIN, kind="export")[0]["user"] == "admin"


def test_retention_deletes_only_old_events():
    from core.storage.db import get_db

    old = A.audit("someone", "login")
    new = A.audit("someone", "login")
    get_db().execute("UPDATE audit_log SET at = ? WHERE id = ?", ("2020-01-01T00:00:00+00:00", old))
    assert A.purge_expired(ADMIN, days=30) == 1
    ids = {e["id"] for e in audit_service.list_events(ADMIN, of="someone")}
    assert ids == {new}
