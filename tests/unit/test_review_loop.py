"""The closed loop in services: a 👎 given through each chat page's service path lands in this
week's queue with its trace; a case becomes a golden case; the next run of that set includes
it; runs are stored with their configuration, compared with the pinned baseline, and
``eval --gate`` fails on a worse run."""

from __future__ import annotations

import json
from datetime import date

import pytest

from core.cli import main
from core.evaluation.runner import CappedIndex
from core.security.principals import Principal, Role, UserStore
from core.services import eval as E
from core.services import review as R
from core.services.review_golden import to_golden
from core.services.ask_kg import ask_kg

from tests.unit.test_kg_graph import store  # noqa: F401 - fixture (a fake graph)

ADMIN = Principal("admin", Role.admin)
MANAGER = Principal("manager_a", Role.manager, tenants=("demo",))
REVIEWER = Principal("rev_a", Role.reviewer, tenants=("demo",))


class _EmptyIndex:
    def search(self, query, principal, k=10, *, scenario=None, doc_ids=None):
        from core.retrieval.index import SearchResult

        return SearchResult([], [], 0.1, False)

    def list_docs(self):
        return []


def test_thumbs_down_from_both_chat_pages_reaches_the_queue_with_its_trace(store):
    from core.services.ask_docs import ask_docs

    docs = ask_docs("北京市人才引进落户需要满足什么条件？", MANAGER, thread_id="pd1", index=_EmptyIndex(), llm=None)
    # exactly what components.chat.render_feedback stores on the 政策问答 page
    R.record_feedback(MANAGER, "docs", "pd1", "北京市人才引进落户需要满足什么条件？", docs["answer"], -1, "没有找到",
                      {k: docs.get(k) for k in ("citations", "checks", "rounds")})
    r = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=MANAGER, thread_id="pk1", today=date(2026, 11, 30))
    r = ask_kg("确认", principal=MANAGER, thread_id="pk1", today=date(2026, 11, 30))
    r = ask_kg("确认", principal=MANAGER, thread_id="pk1", today=date(2026, 11, 30))
    assert r["need_confirm"] is None and "共 1 人" in r["answer"]
    R.record_feedback(MANAGER, "kg", "pk1", "青浦-区图书馆2026年3月有多少人出勤？", r["answer"], -1, "人数不对",
                      {k: r.get(k) for k in ("slots", "plan", "queries", "provenance")})
    q = R.week_queue(REVIEWER)
    down = {c["kind"]: c for c in q["cases"] if c["source"] == "thumbs_down"}
    assert set(down) == {"docs", "kg"}
    d = R.get_case(REVIEWER, down["docs"]["id"])
    assert d["feedback"]["reason"] == "没有找到" and d["refused"] and "refusal" in d["sources"]
    assert any(t["node"] == "retrieve" for t in d["detail"]["trace"]) and d["role"] == "manager"
    k = R.get_case(REVIEWER, down["kg"]["id"])
    assert k["question"] == "青浦-区图书馆2026年3月有多少人出勤？" and "共 1 人" in k["answer"]
    assert k["detail"]["queries"][0]["cypher"].startswith("MATCH") and k["detail"]["provenance"]
    assert k["feedback"]["reason"] == "人数不对" and k["tenant"] == "demo"


def test_case_to_golden_then_the_next_run_includes_it_and_the_gate(store, workspace, monkeypatch):
    UserStore().add("manager_a", "manager", "manager-pass-1", tenants=["demo"])
    r = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=MANAGER, thread_id="g1", auto=True,
               today=date(2026, 11, 30))
    R.record_feedback(MANAGER, "kg", "g1", "青浦-区图书馆2026年3月有多少人出勤？", r["answer"], -1, "要看人数")
    case = next(c for c in R.week_queue(REVIEWER)["cases"] if c["source"] == "thumbs_down")
    R.classify(REVIEWER, case["id"], category="期望偏差", expected="共 1 人", status="已解决")
    res = to_golden(REVIEWER, case["id"], "weekly")
    assert res["golden"]["kind"] == "kg" and res["golden"]["expect_answer_contains"] == ["共 1 人"]
    assert any(s["name"] == "weekly" and not s["builtin"] for s in E.golden_sets(REVIEWER))

    # the case's relative dates run against the same "today"
    monkeypatch.setattr(E, "make_ask", _fixed_today_ask(date(2026, 11, 30)))
    first = E.run_eval(set_name="weekly", pin=True, principal=ADMIN)
    assert first["per_case"][0]["id"] == res["golden"]["id"] and first["per_case"][0]["ok"], first["per_case"]
    assert first["metrics"]["kg"]["accuracy"] == 1.0 and first["config"]["mode"] == "rules"
    assert first["config"]["code_version"] and first["config"]["retrieval"]["k"] == 16
    assert E.baseline_of("weekly") == first["run_id"]  # pinned for the administrators' runs

    # a worse run: the gate fails, the page's comparison flags it, the flip is listed
    monkeypatch.setattr(E, "make_ask", lambda runner=None, k=None: (lambda case: {"answer": "不知道", "rows": []}))
    code = main(["eval", "--set", "weekly", "--gate", "--json"])
    assert code == 1
    runs = E.list_runs(ADMIN, "weekly")
    worse = runs[0]["id"]
    cmp = E.compare(ADMIN, worse)
    assert cmp["baseline"] == first["run_id"] and "kg.accuracy" in cmp["regressions"]
    assert [f["id"] for f in E.flipped(ADMIN, first["run_id"], worse)] == [res["golden"]["id"]]
    assert E.breakdown(ADMIN, worse, "category")[0]["group"] == "期望偏差"
    assert [t["run"] for t in E.trend(ADMIN, "weekly")] == [first["run_id"], worse]
    # the same run without --gate succeeds and reports the regression
    assert main(["eval", "--set", "weekly", "--json"]) == 0


def _fixed_today_ask(today):
    def make(runner=None, retrieval_k=None):
        def ask(case):
            from core.security.principals import resolve_user

            return ask_kg(case.question, principal=resolve_user(case.user), auto=True, today=today)
        return ask
    return make


def test_background_run_progress_and_cancel(workspace):
    from core.evaluation.golden import write_records

    write_records("bg", [{"id": f"k{i}", "kind": "kg", "question": f"问题{i}", "expect_answer_contains": ["x"]}
                         for i in range(5)])
    import threading

    gate = threading.Event()
    seen = []

    def ask(case):
        seen.append(case.id)
        if case.id == "k1":
            gate.wait(10)
        return {"answer": "x"}

    run_id = E.start_run(REVIEWER, "bg", ask=ask)
    E.cancel_run(REVIEWER, run_id)
    gate.set()
    E.wait_run(run_id)
    p = E.run_progress(REVIEWER, run_id)
    assert p["status"] == "cancelled" and p["total"] == 5 and p["done"] < 5
    run = E.get_run(REVIEWER, run_id)
    assert run["status"] == "cancelled" and len(run["per_case"]) == p["done"]
    with pytest.raises(Exception):
        E.pin_baseline(ADMIN, "bg", run_id)  # only complete runs can be the baseline
    done_id = E.start_run(REVIEWER, "bg", ask=lambda case: {"answer": "x"})
    E.wait_run(done_id)
    assert E.run_progress(REVIEWER, done_id)["status"] == "done"
    assert E.get_run(REVIEWER, done_id)["metrics"]["kg"]["accuracy"] == 1.0


def test_import_export_and_edit_sets(workspace):
    from core.errors import BadInputError

    good = json.dumps({"id": "a", "kind": "docs", "question": "q", "expect_answer_contains": ["x"]}, ensure_ascii=False)
    with pytest.raises(BadInputError) as e:
        E.import_set(REVIEWER, "mine", good + "\n{bad json\n" + json.dumps({"id": "b", "kind": "sql", "question": "q"}))
    assert "第 2 行" in e.value.user_message and "第 3 行" in e.value.user_message
    assert not (workspace / "eval" / "sets" / "mine.jsonl").exists()
    assert E.import_set(REVIEWER, "mine", good)["cases"] == 1
    E.save_case(REVIEWER, "mine", {"id": "a", "kind": "docs", "question": "改过的问题", "expect_answer_contains": ["y"]})
    assert json.loads(E.export_set(REVIEWER, "mine"))["question"] == "改过的问题"
    # editing a built-in set copies it into the workspace, the shipped file is untouched
    E.save_case(REVIEWER, "kg_golden", {"id": "new-1", "kind": "kg", "question": "新问题"})
    sets = {s["name"]: s for s in E.golden_sets(REVIEWER)}
    assert not sets["kg_golden"]["builtin"] and sets["kg_golden"]["cases"] > 500
    with pytest.raises(Exception):
        E.import_set(Principal("staff_a", Role.staff, tenants=("demo",)), "mine", good)


def test_a_tenants_golden_cases_stay_with_its_reviewers(workspace):
    from core.errors import BadInputError, NotFoundError, PermissionDenied

    UserStore().add("manager_a", "manager", "manager-pass-1", tenants=["demo"])
    other = Principal("rev_b", Role.reviewer, tenants=("other",))
    secret = {"id": "a", "kind": "kg", "question": "刘德明2026年3月税后工资是多少？", "expect_answer_contains": ["8123.45"]}
    E.import_set(REVIEWER, "复盘", json.dumps(secret, ensure_ascii=False))
    assert E.set_records(REVIEWER, "复盘")[0]["tenant"] == "demo"
    # the other tenant's reviewer: the set is not listed, not readable, not exportable, not runnable
    assert "复盘" not in {s["name"] for s in E.golden_sets(other)}
    for call in (lambda: E.set_records(other, "复盘"), lambda: E.export_set(other, "复盘"),
                 lambda: E.start_run(other, "复盘", ask=lambda c: {"answer": "x"}),
                 lambda: E.delete_case(other, "复盘", "a")):
        with pytest.raises(NotFoundError) as e:
            call()
        assert "8123.45" not in e.value.user_message and "刘德明" not in e.value.user_message
    # nor overwritten, nor written as the first tenant's users or tag
    with pytest.raises(BadInputError):
        E.save_case(other, "复盘", {**secret, "question": "改写"})
    with pytest.raises(PermissionDenied):
        E.save_case(other, "复盘", {"id": "b", "kind": "kg", "question": "q", "tenant": "demo"})
    with pytest.raises(PermissionDenied):
        E.save_case(other, "复盘", {"id": "b", "kind": "kg", "question": "q", "user": "manager_a"})
    # both tenants can keep cases in a set of the same name; a replace touches only one's own
    E.import_set(other, "复盘", json.dumps({"id": "b", "kind": "kg", "question": "自己的问题"}, ensure_ascii=False),
                 replace=True)
    assert [r["id"] for r in E.set_records(other, "复盘")] == ["b"]
    assert [r["id"] for r in E.set_records(REVIEWER, "复盘")] == ["a"]
    assert sorted(r["id"] for r in E.set_records(ADMIN, "复盘")) == ["a", "b"]
    run = E.run_eval(set_name="复盘", principal=other, ask=lambda c: {"answer": "x"})
    assert [c["id"] for c in run["per_case"]] == ["b"]


def test_non_admin_runner_cannot_run_cases_as_an_administrator(workspace):
    from core.evaluation.golden import GoldenCase
    from core.evaluation.runner import case_principal
    from core.errors import PermissionDenied

    UserStore().add("manager_a", "manager", "manager-pass-1", tenants=["demo"])
    UserStore().ensure_admin(echo=lambda m: None)
    with pytest.raises(PermissionDenied):
        case_principal(GoldenCase(id="x", kind="kg", question="q", user="admin"), REVIEWER)
    assert case_principal(GoldenCase(id="x", kind="kg", question="q", user="manager_a"), REVIEWER).name == "manager_a"


def test_capped_index_limits_retrieval_depth():
    calls = []

    class Idx:
        def search(self, q, p, k=10, **kw):
            calls.append(k)

        other = 3

    c = CappedIndex(Idx(), 1)
    c.search("q", None, k=16, scenario=None)
    assert calls == [1] and c.other == 3
