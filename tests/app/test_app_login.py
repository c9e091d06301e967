"""Streamlit AppTest: login gate, forced password change, navigation by role, status page."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.security.principals import UserStore

REPO = Path(__file__).resolve().parents[2]


def app() -> AppTest:
    return AppTest.from_file(str(REPO / "app.py"), default_timeout=120)


def login(at: AppTest, name: str, password: str) -> AppTest:
    at.text_input[0].input(name)
    at.text_input[1].input(password)
    at.button[0].click()
    return at.run()


def page_titles(at: AppTest) -> list[str]:
    return [t.value for t in at.title]


@pytest.fixture
def users():
    store = UserStore()
    store.add("boss", "admin", "boss-pass-1")
    store.add("visitor", "guest", "guest-pass-1", tenants=["demo"])
    store.add("fresh", "manager", "temp-pass-1", tenants=["demo"], must_change_password=True)
    return store


def test_login_required_and_wrong_password_rejected(users):
    at = app().run()
    assert not at.exception
    assert "知策 ZhiCe" in page_titles(at)
    at = login(at, "boss", "wrong-pass-9")
    assert any("用户名或密码错误" in e.value for e in at.error)
    assert "设置与状态" not in [t.value for t in at.title]


def test_admin_sees_every_page_and_true_status(users):
    at = login(app().run(), "boss", "boss-pass-1")
    assert not at.exception
    sidebar = " ".join(c.value for c in at.sidebar.caption)
    assert "离线规则模式" in sidebar and "LadybugDB" in sidebar
    at.switch_page("pages/9_设置与状态.py").run()
    assert not at.exception
    assert "设置与状态" in page_titles(at)
    status = at.dataframe[0].value
    states = dict(zip(status["组件"], status["详情"]))
    assert "SQLite" in states["应用数据库"]
    assert "离线规则模式" in states["大模型"]
    assert "为空" in states["业务图谱"]  # nothing built yet, and the page says so
    assert "用户管理" in [h.value for h in at.subheader]


def test_guest_cannot_open_admin_pages(users):
    at = login(app().run(), "visitor", "guest-pass-1")
    assert not at.exception
    with pytest.raises(ValueError, match="navigation page"):  # not registered for this role
        at.switch_page("pages/3_数据导入与建图.py")
    with pytest.raises(ValueError, match="navigation page"):  # settings and status: admins only
        at.switch_page("pages/9_设置与状态.py")


def test_one_time_password_must_be_changed_first(users):
    at = login(app().run(), "fresh", "temp-pass-1")
    assert "修改密码" in page_titles(at)
    at.text_input[0].input("temp-pass-1")
    at.text_input[1].input("brand-new-2026")
    at.text_input[2].input("brand-new-2026")
    at.button[0].click()
    at.run()
    assert any("密码已修改" in s.value for s in at.success) or "知策 ZhiCe" in page_titles(at)
    assert not users.get("fresh").must_change_password
