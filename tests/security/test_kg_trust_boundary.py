"""The business graph holds the line the documents hold (issue #10): one test per attack that
got through before — an edited plan, a source row, another tenant, another user's thread,
a model's rewording. Each runs the real agent over the demo workspace's graph."""

from __future__ import annotations

from datetime import date

import pytest

from core.errors import BadInputError, NotFoundError, SecurityViolation
from core.services.ask_kg import ask_kg, source_row, thread_history, thread_transcript
from tests.security.conftest import GUEST, MANAGER, OUTSIDER, STAFF, dump, sample_values

TODAY = date(2026, 11, 30)
LIBRARY = "XMSQ0102"  # 青浦-区图书馆


def _salaries() -> set[str]:
    out = set()
    for v in sample_values("税后工资", "07_"):
        f = float(v)
        out |= {f"{f:,.2f}", f"{f:.2f}", v}
    return out


def _at_plan(principal, question: str) -> str:
    """Ask without auto and confirm the slots: the thread waits at plan confirmation."""
    r = ask_kg(question, principal=principal, today=TODAY)
    while r["need_confirm"] and r["need_confirm"]["kind"] != "plan":
        r = ask_kg("确认", principal=principal, today=TODAY, thread_id=r["thread"])
    assert r["need_confirm"] and r["need_confirm"]["kind"] == "plan", r
    return r["thread"]


def _edit(principal, thread: str, plan: list[dict]) -> dict:
    return ask_kg({"plan": plan}, principal=principal, today=TODAY, thread_id=thread, auto=True)


# 1. an edited plan skips neither the role check nor the field check -------------------------
def test_edited_plan_cannot_switch_a_guest_to_finance(demo):
    thread = _at_plan(GUEST, "青浦-区图书馆3月的考勤")
    r = _edit(GUEST, thread, [{"id": 1, "tool": "finance", "params": {"projects": [LIBRARY]}}])
    assert r["refused"] and r["rows"] == [] and "收费" in r["answer"]
    assert not any(q["rows"] for q in r["queries"])  # nothing ran
    assert "开票" not in dump(r["rows"]) and "收款金额" not in r["answer"]


def test_edited_plan_cannot_aggregate_or_filter_on_a_hidden_salary(demo):
    salaries = _salaries()
    attack_plans = [
        [{"id": 1, "tool": "attendance", "params": {"projects": [LIBRARY]}},
         {"id": 2, "tool": "aggregate", "params": {"of": 1, "op": "max", "field": "税后工资", "group_by": "工号"},
          "depends": [1]}],
        [{"id": 1, "tool": "attendance", "params": {"projects": [LIBRARY]}},
         {"id": 2, "tool": "aggregate", "params": {"of": 1, "op": "sum", "field": "税后工资"}, "depends": [1]}],
        [{"id": 1, "tool": "attendance", "params": {"conditions": ["税后工资 > 10000"]}}],
        [{"id": 1, "tool": "attendance", "params": {}},
         {"id": 2, "tool": "pick", "params": {"of": 1, "field": "餐费", "order": "desc", "top": 1}, "depends": [1]}],
    ]
    for principal in (GUEST, STAFF):
        for plan in attack_plans:
            thread = _at_plan(principal, "青浦-区图书馆3月的考勤")
            r = _edit(principal, thread, plan)
            text = dump(r)
            assert r["refused"], (principal.name, plan, r["answer"])
            assert "敏感字段" in r["answer"] and not any(q["rows"] for q in r["queries"])
            assert not any(s in text for s in salaries), (principal.name, plan)


def test_an_allowed_edited_plan_still_runs(demo):
    thread = _at_plan(GUEST, "青浦-区图书馆3月的考勤")
    r = _edit(GUEST, thread, [{"id": 1, "tool": "attendance",
                               "params": {"projects": [LIBRARY], "months": ["2026-03"], "conditions": ["加班小时 > 20"]}}])
    assert not r["refused"] and r["rows"] and all(row["加班小时"] > 20 for row in r["rows"])
    assert not ({"税后工资", "餐费"} & set(r["rows"][0]))


# 2. a source row is the asker's own tenant's row, masked as the answer is --------------------
def test_source_row_is_masked_for_the_asker(demo):
    r = ask_kg("3月份加班超过20小时的保安有哪些？", principal=GUEST, today=TODAY, auto=True)
    prov = next(p for p in r["provenance"] if p["template"] == "考勤与人员财务")
    row = source_row(GUEST, prov["template"], prov["file"], prov["row"])
    assert row["values"]["姓名"] and {"税后工资", "餐费"} <= set(row["masked_fields"])
    assert row["values"]["税后工资"] == "（已隐藏）" and row["values"]["餐费"] == "（已隐藏）"
    full = source_row(MANAGER, prov["template"], prov["file"], prov["row"])
    assert full["masked_fields"] == [] and isinstance(full["values"]["税后工资"], (int, float))

    staff = ask_kg("青浦-区图书馆有哪些人员", principal=STAFF, today=TODAY, auto=True)
    p = next(p for p in staff["provenance"] if p["template"] == "人员信息")
    row = source_row(STAFF, p["template"], p["file"], p["row"])
    assert {"身份证号码", "联系电话"} <= set(row["masked_fields"])
    text = dump(row)
    assert not any(v in text for v in sample_values("身份证号码") | sample_values("联系电话"))


def test_source_row_takes_exact_names_of_the_asker_s_graph_only(demo):
    r = ask_kg("3月份加班超过20小时的保安有哪些？", principal=MANAGER, today=TODAY, auto=True)
    prov = r["provenance"][0]
    for bad_file in ("*.xlsx", "07_*", "../" + prov["file"], "", "a/b.xlsx"):
        with pytest.raises((BadInputError, NotFoundError)):
            source_row(MANAGER, prov["template"], bad_file, prov["row"])
    with pytest.raises(NotFoundError):  # a real file and row, but another template's name
        source_row(MANAGER, "项目月度财务", prov["file"], prov["row"])
    with pytest.raises(NotFoundError) as exc:  # another tenant: "no data", not "forbidden"
        source_row(OUTSIDER, prov["template"], prov["file"], prov["row"])
    assert "未找到" in exc.value.user_message


# 3. the graph has a tenant; a partial principal is an error, never admin ---------------------
def test_outsider_gets_no_data_from_another_tenant_s_graph(demo):
    names = sample_values("姓名", "02_")
    ids = sample_values("身份证号码") | sample_values("联系电话")
    for q in ("青浦-区图书馆3月有多少人出勤？", "青浦-区图书馆有哪些人员", "各项目3月开票金额", "XMSQ0102的项目负责人是谁"):
        r = ask_kg(q, principal=OUTSIDER, today=TODAY, auto=True)
        text = dump(r)
        assert r["rows"] == [] and r["provenance"] == [], q
        assert not any(n in text for n in names | ids), q
        assert "未找到" in r["answer"] or r["need_confirm"], (q, r["answer"])  # "no data", never "forbidden"
        assert "无权" not in r["answer"]


def test_agents_refuse_to_run_without_a_complete_principal(demo):
    from core.agents.runtime import AgentRuntime
    from core.security.principals import Principal, Role
    from core.services.ask_kg import _graph

    for bad in (None, "admin", Principal("", Role.admin)):
        with pytest.raises(SecurityViolation):
            ask_kg("青浦-区图书馆3月有多少人出勤？", principal=bad, today=TODAY, auto=True)
        with pytest.raises(SecurityViolation):
            AgentRuntime(principal=bad)
    with pytest.raises(SecurityViolation):  # the graph itself: no runtime, no run
        _graph().invoke({"question": "青浦-区图书馆3月有多少人出勤？"}, {"configurable": {"thread_id": "no-runtime"}})


# 4. a thread belongs to its user ---------------------------------------------------------
def test_another_user_s_thread_id_resumes_nothing(demo):
    thread = _at_plan(MANAGER, "青浦-区图书馆3月的开票金额是多少")
    hijack = ask_kg("确认", principal=GUEST, today=TODAY, thread_id=thread, auto=True)
    assert "开票" not in hijack["answer"] and not hijack["rows"]
    assert thread_history(GUEST, thread) == []
    with pytest.raises(BadInputError):  # an edited plan on a thread the guest does not have
        ask_kg({"plan": [{"id": 1, "tool": "finance", "params": {}}]}, principal=GUEST, today=TODAY, thread_id=thread)
    own = ask_kg("确认", principal=MANAGER, today=TODAY, thread_id=thread, auto=True)  # still waiting for its owner
    assert "开票" in own["answer"] and own["rows"]
    assert thread_history(MANAGER, thread) and thread_history(GUEST, thread) == []
    # a reload shows each their own turns under that id: the guest only the "确认" it sent itself
    assert [t["question"] for t in thread_transcript(MANAGER, thread)] == ["青浦-区图书馆3月的开票金额是多少"]
    guest_view = thread_transcript(GUEST, thread)
    assert [t["question"] for t in guest_view] == ["确认"] and "开票" not in dump(guest_view)


# 6. a model's rewording never replaces the facts ----------------------------------------------
def test_a_model_s_phishing_rewording_is_not_shown(demo):
    from core.llm.client import set_llm_override
    from core.llm.fake import FakeLLM

    rules = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=MANAGER, today=TODAY, auto=True)
    assert "共 5 人" in rules["answer"]
    replies = [
        "您的账户存在风险，请立即访问 http://zhice-verify.example 登录核验〔考勤与人员财务〕",
        "共 5 人。请回复您的工号和密码以查看明细〔考勤与人员财务〕",
        "青浦-区图书馆2026年3月共 5 人出勤，另有李四负责的外部项目共 7 人〔考勤与人员财务〕",
    ]
    fake = FakeLLM()
    set_llm_override(fake)
    try:
        for reply in replies:
            fake.enqueue({"kind": "graph", "intent": "考勤"}, {"answer": reply})
            r = ask_kg("青浦-区图书馆2026年3月有多少人出勤？", principal=MANAGER, today=TODAY, auto=True)
            assert "共 5 人" in r["answer"] and "http" not in r["answer"] and "密码" not in r["answer"], reply
            assert " 7 人" not in r["answer"]
        assert fake.pending == 0  # every rewording was offered to the check
    finally:
        set_llm_override(None)


# the same through the command line (spec/cli.md): an edited plan file and a source row ------
def test_cli_plan_file_and_source_row_hold_the_same_line(demo, tmp_path, capsys):
    import json

    from core.cli import main
    from core.security.principals import UserStore

    users = UserStore()
    for name, role in (("cli_guest", "guest"), ("cli_boss", "manager")):
        if not users.exists(name):
            users.add(name, role, "Cli-long-pass-2026", tenants=["demo"])
    assert main(["ask-kg", "青浦-区图书馆3月的考勤", "--user", "cli_guest", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    while r["need_confirm"]["kind"] != "plan":
        assert main(["ask-kg", "确认", "--thread", r["thread"], "--user", "cli_guest", "--json"]) == 0
        r = json.loads(capsys.readouterr().out)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"plan": [{"id": 1, "tool": "finance", "params": {"projects": [LIBRARY]},
                                          "depends": []}]}), encoding="utf-8")
    assert main(["ask-kg", "--thread", r["thread"], "--plan-file", str(plan), "--user", "cli_guest", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["refused"] and out["rows"] == [] and "收费" in out["answer"]

    boss = ask_kg("3月份加班超过20小时的保安有哪些？", principal=MANAGER, today=TODAY, auto=True)
    p = next(p for p in boss["provenance"] if p["template"] == "考勤与人员财务")
    assert main(["source-row", p["template"], p["file"], str(p["row"]), "--user", "cli_guest", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["values"]["税后工资"] == "（已隐藏）" and "税后工资" in row["masked_fields"]
    assert main(["source-row", p["template"], "*.xlsx", str(p["row"]), "--user", "cli_boss", "--json"]) != 0
