"""Evaluation runs belong to the tenants of the user who ran them: reviewers and managers see
the runs (metrics, per-case answers and traces) of their tenants only — another tenant's run
reads exactly like one that does not exist, in core and on the command line — administrators
see every run, and each tenant pins its own baseline."""

from __future__ import annotations

import json

import pytest

from core.cli import main
from core.errors import NotFoundError
from core.evaluation.golden import write_records
from core.security.principals import Principal, Role, UserStore
from core.services import dashboard as D
from core.services import eval as E

ADMIN = Principal("admin", Role.admin)
REVIEWER = Principal("reviewer_a", Role.reviewer, tenants=("demo",))
MANAGER = Principal("manager_a", Role.manager, tenants=("demo",))
OUTSIDER = Principal("outsider", Role.manager, tenants=("other",))
BOTH = Principal("regional", Role.reviewer, tenants=("other", "demo"))


def _ask(case):
    return {"answer": "补贴标准为15%，最高2000元", "refused": False, "trace": [{"node": "retrieve", "chunks": ["c1"]}]}


@pytest.fixture
def demo_run(workspace):
    write_records("weekly", [{"id": "a", "kind": "kg", "question": "甲项目三月出勤多少人？", "expect_answer_contains": ["15%"]}])
    return E.run_eval(set_name="weekly", pin=True, principal=REVIEWER, ask=_ask)["run_id"]


def _missing_message(call) -> str:
    with pytest.raises(NotFoundError) as exc:
        call()
    return exc.value.user_message


def test_another_tenant_sees_no_run_and_the_same_message_as_for_none(demo_run):
    assert E.list_runs(OUTSIDER, "weekly") == [] and E.trend(OUTSIDER, "weekly") == []
    nothing = _missing_message(lambda: E.get_run(OUTSIDER, 999999)).replace("999999", "N")
    for call in (lambda: E.get_run(OUTSIDER, demo_run), lambda: E.compare(OUTSIDER, demo_run),
                 lambda: E.breakdown(OUTSIDER, demo_run, "category"), lambda: E.run_progress(OUTSIDER, demo_run),
                 lambda: E.flipped(OUTSIDER, demo_run, demo_run), lambda: E.cancel_run(OUTSIDER, demo_run),
                 lambda: E.pin_baseline(OUTSIDER, "weekly", demo_run)):
        assert _missing_message(call).replace(str(demo_run), "N") == nothing
    assert D.eval_stats(OUTSIDER) is None  # 首页 shows no evaluation either
    # nothing pinned for the other tenant: its golden-set list names no baseline
    assert {s["name"]: s["baseline"] for s in E.golden_sets(OUTSIDER)}["weekly"] is None


def test_users_of_the_runs_tenants_and_administrators_see_it(demo_run):
    for viewer in (REVIEWER, MANAGER, BOTH, ADMIN):
        run = E.get_run(viewer, demo_run)
        assert run["tenant"] == "demo" and run["per_case"][0]["trace"]["trace"][0]["node"] == "retrieve"
        assert [r["id"] for r in E.list_runs(viewer, "weekly")] == [demo_run]
    assert D.eval_stats(MANAGER)["run"] == demo_run
    assert {s["name"]: s["baseline"] for s in E.golden_sets(REVIEWER)}["weekly"] == demo_run
    assert dict((r["项"], r["值"]) for r in E.config_rows(E.get_run(ADMIN, demo_run)))["租户"] == "demo"


def test_each_tenant_pins_its_own_baseline(demo_run):
    other = E.run_eval(set_name="weekly", pin=True, principal=OUTSIDER, ask=lambda c: {"answer": "不知道"})
    assert other["baseline"] is None and other["regressions"] == []  # never compared with the demo tenant's run
    assert E.baseline_of("weekly", "demo") == demo_run and E.baseline_of("weekly", "other") == other["run_id"]
    # a worse run of the demo tenant is compared with the demo baseline, not the other tenant's
    worse = E.run_eval(set_name="weekly", principal=REVIEWER, ask=lambda c: {"answer": "不知道"})
    assert worse["baseline"] == demo_run and worse["regressions"] == ["kg.accuracy", "kg.correctness"]
    assert [r["id"] for r in E.list_runs(OUTSIDER, "weekly")] == [other["run_id"]]


def test_command_line_keeps_runs_apart(demo_run, capsys, monkeypatch):
    UserStore().add("outsider", "manager", "outsider-pass-1", tenants=["other"])
    monkeypatch.setattr(E, "make_ask", lambda runner=None, k=None: _ask)
    code = main(["eval", "--set", "weekly", "--baseline", str(demo_run), "--user", "outsider", "--json"])
    err = capsys.readouterr().err
    assert code != 0 and f"评测运行 {demo_run} 不存在" in err
    assert main(["eval", "--set", "weekly", "--baseline", "999999", "--user", "outsider", "--json"]) == code
    assert capsys.readouterr().err.replace("999999", str(demo_run)) == err
    # the outsider's own run is stored for their tenant; staff may not run evaluations at all
    assert main(["eval", "--set", "weekly", "--user", "outsider", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert E.get_run(OUTSIDER, out["run_id"])["tenant"] == "other" and out["baseline"] is None
    UserStore().add("staff_a", "staff", "staff-pass-1", tenants=["demo"])
    assert main(["eval", "--set", "weekly", "--user", "staff_a", "--json"]) != 0
    assert "只有评测员、部门经理和管理员" in capsys.readouterr().err
