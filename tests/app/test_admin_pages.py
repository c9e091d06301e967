"""Issue 13 part A (AppTest): every page of the shell renders for each role without an
exception, the error boundary turns a crash into a Chinese message, confirmations survive the
rerun, the 待审核 queue / reject reason / user management / 首页 behave, and session state
(thread ids) is kept with the session."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.security.principals import UserStore
from core.services import build as B

REPO = Path(__file__).resolve().parents[2]
PW = "role-pass-2026"
ROLE_PAGES = {
    "admin": ["0_首页", "2_文档库", "3_数据导入与建图", "5_每周复盘", "6_评测报告", "8_审计日志", "9_设置与状态"],
    "manager": ["0_首页", "2_文档库", "5_每周复盘", "6_评测报告"],
    "reviewer": ["5_每周复盘", "6_评测报告"],
    "staff": [],
    "guest": [],
}
ENGLISH = ("Upload", "per file", "Choose options", "Press Enter", "Traceback", "prose", "Error")


@pytest.fixture
def people():
    store = UserStore()
    for role in ROLE_PAGES:
        store.add(f"{role}_u", role, PW, tenants=[] if role == "admin" else ["demo"])
    return store


def signed_in(role: str) -> AppTest:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120).run()
    at.text_input[0].input(f"{role}_u")
    at.text_input[1].input(PW)
    at.button[0].click()
    return at.run()


def texts(at: AppTest) -> str:
    parts = [e.value for kind in (at.title, at.subheader, at.caption, at.markdown, at.info, at.success, at.warning,
                                  at.error) for e in kind]
    parts += [b.label for b in at.button]
    return "\n".join(str(p) for p in parts)


@pytest.mark.parametrize("role", list(ROLE_PAGES))
def test_each_role_walks_its_pages(people, role):
    at = signed_in(role)
    assert not at.exception, at.exception
    for page in {"3_数据导入与建图", "9_设置与状态", "8_审计日志", "0_首页"} - set(ROLE_PAGES[role]):
        with pytest.raises(ValueError, match="navigation page"):  # not registered for this role
            at.switch_page(f"pages/{page}.py")
    for page in ROLE_PAGES[role]:
        at.switch_page(f"pages/{page}.py").run()
        assert not at.exception, (page, at.exception)
        body = texts(at)
        assert not [w for w in ENGLISH if w in body], (page, body)


def test_error_boundary_shows_chinese_message_not_traceback(people, monkeypatch, caplog):
    from core.services import dashboard

    def broken(principal):
        raise RuntimeError("boom")

    monkeypatch.setattr(dashboard, "home", broken)
    monkeypatch.setattr(dashboard, "workspace_empty", lambda: False)
    at = signed_in("manager")  # 首页 is the manager's first page
    assert not at.exception
    assert any("页面出错了" in e.value for e in at.error)
    assert "boom" not in texts(at)
    assert any("boom" in (r.exc_text or "") or (r.exc_info and "boom" in str(r.exc_info[1])) for r in caplog.records)


def test_empty_workspace_offers_demo_to_admin_only(people):
    at = signed_in("admin")
    assert any(b.label == "载入示例数据" for b in at.button)
    at = signed_in("manager")
    assert not any(b.label == "载入示例数据" for b in at.button)
    assert any("联系管理员" in i.value for i in at.info)


def test_home_page_figures_are_scoped(people):
    from core.security.audit import record_question
    from core.services import dashboard
    from core.services.review import record_feedback

    manager = people.get("manager_u")
    outsider = people.add("other_m", "manager", PW, tenants=["other"])
    trace = {"trace": []}
    record_question(manager, "docs", thread="t1", question="补贴？", answer="暂未查到", refused=True, tenant="demo",
                    latency_ms=1.0, trace=trace)
    record_question(manager, "kg", thread="t2", question="人数？", answer="12 人", refused=False, tenant="demo",
                    latency_ms=1.0, trace=trace)
    record_feedback(manager, "kg", "t2", "人数？", "12 人", 1)
    q = dashboard.question_stats(manager)
    assert q["questions"] == 2 and q["refused"] == 1 and q["refusal_rate"] == 0.5 and q["up_ratio"] == 1.0
    assert dashboard.question_stats(outsider)["questions"] == 0
    with pytest.raises(Exception):
        dashboard.question_stats(people.get("staff_u"))


def test_user_management_confirms_and_disables(people):
    at = signed_in("admin")
    at.switch_page("pages/9_设置与状态.py").run()
    at.selectbox(key="edit-user").select("guest_u").run()
    form_role = next(s for s in at.selectbox if s.label == "角色")
    form_role.select("staff")
    next(b for b in at.button if b.label == "保存修改").click().run()
    assert not at.exception
    assert people.get("guest_u").role.value == "staff"
    assert any("已保存用户 guest_u" in m for _, m in at.session_state["_flash"])  # shown by app.py next run
    at.selectbox(key="edit-user").select("guest_u").run()
    at.button(key="disable-user").click().run()
    assert any("确定停用" in w.value for w in at.warning)  # asks first
    at.button(key="confirm-user-action").click().run()
    assert "guest_u" not in {u.name for u in people.list()}
    assert "guest_u" in {u.name for u in people.list(include_disabled=True)}
    at.selectbox(key="edit-user").select("staff_u").run()
    at.button(key="reset-pw").click().run()
    at.button(key="confirm-user-action").click().run()
    assert any("一次性密码" in w.value for w in at.warning)
    assert people.get("staff_u").must_change_password


def _flash_app():
    import streamlit as st

    from components.notice import flash, show_flashes

    show_flashes()
    if st.button("保存"):
        flash("元数据已保存：a.pdf")
        st.rerun()


def test_flash_survives_the_rerun_and_shows_once():
    at = AppTest.from_function(_flash_app, default_timeout=30).run()
    at.button[0].click().run()
    assert any("元数据已保存" in s.value for s in at.success)
    assert any("元数据已保存" in t.value for t in at.toast)
    at.run()
    assert not any("元数据已保存" in s.value for s in at.success)


def test_reject_with_reason_is_stored_and_seen_by_uploader(people, tmp_path):
    from core.services import ingest

    doc = tmp_path / "示范办法.txt"
    doc.write_text("济南市示范补贴办法\n济商务字〔2025〕8号\n一、对示范企业一次性奖励20万元。", encoding="utf-8")
    manager = people.get("manager_u")
    report = ingest.ingest_paths([doc], manager, "demo")
    doc_id = report["documents"][0]["doc_id"]
    at = signed_in("admin")
    at.switch_page("pages/2_文档库.py").run()
    assert not at.exception, at.exception
    assert any("待审核（1）" in e.label for e in at.expander)
    at.button(key=f"reject-{doc_id}").click().run()
    next(b for b in at.button if b.label == "确认驳回").click().run()
    assert any("请填写驳回原因" in e.value for e in at.error)
    at.text_area[0].input("文号与正文不符")
    next(b for b in at.button if b.label == "确认驳回").click().run()
    assert not at.exception
    mine = ingest.my_uploads(manager)
    assert mine[0]["state"] == "rejected" and mine[0]["reason"] == "文号与正文不符"
    from core.security.audit import events
    assert events(people.get("admin_u"), kind="doc_reject")
    at = signed_in("manager")
    at.switch_page("pages/2_文档库.py").run()
    table = at.dataframe[0].value
    assert list(table["驳回原因"]) == ["文号与正文不符"]


def test_validate_result_does_not_crash_and_reports_rows():
    """仅校验 used to crash: the page fed the validation result (counts) back to issues_of."""
    from core.security.principals import Principal, Role

    admin = Principal("admin", Role.admin)
    broken = REPO / "data" / "samples" / "broken"
    routed = B.route_uploads([(p.name, p.read_bytes()) for p in sorted(broken.glob("*.xlsx"))])
    assert {r["file"]: r["template"] for r in routed["routes"]}["bad_date_人员信息.xlsx"] == "人员信息"
    assert [r["file"] for r in routed["rejected"]] == ["not_a_workbook_排班月报.xlsx"]
    result = B.validate_uploads(admin, routed["uploads"], tenant="demo")
    table = B.issues_of(result)
    assert table["errors"] == result["errors"] and table["issues"]
    outcomes = {o["file"]: o for o in B.file_outcomes(result)}
    bad = outcomes["bad_date_人员信息.xlsx"]
    assert bad["skipped_rows"] and bad["imported"] == bad["rows_in_file"] - len(bad["skipped_rows"])


def test_session_state_is_kept_with_the_session(people):
    from core.services import users

    _, token = users.login("staff_u", PW)
    users.save_session_state(token, {"threads": {"docs_thread": "abc"}})
    assert users.session_state(token) == {"threads": {"docs_thread": "abc"}}
    users.logout(token)
    assert users.resume_session(token) is None and users.session_state(token) == {}


def test_an_outdated_graph_is_rebuilt_from_the_import_page(people):
    """After an upgrade changed the graph's layout the import page says so and rebuilds it from the
    spreadsheets it kept, with one click and no upload."""
    from core.graph.store import get_graph_store
    from tests.support.old_graph import replace_with_an_older_layout

    B.load_demo_graph(clear=True)
    replace_with_an_older_layout("demo")
    at = signed_in("admin")
    at.switch_page("pages/3_数据导入与建图.py").run()
    assert not at.exception, at.exception
    assert any("旧版本" in w.value for w in at.warning)
    next(b for b in at.button if b.label == "按已保存的原始表格重新构建").click()
    at.run()
    assert not at.exception, at.exception
    assert not any("旧版本" in w.value for w in at.warning)
    assert any("已构建（第 2 版）" in m for _, m in at.session_state["_flash"])  # shown by app.py next run
    assert get_graph_store(tenant="demo").counts()["nodes"]["项目"] == 16
