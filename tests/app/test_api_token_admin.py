"""设置与状态 → API 令牌: an administrator issues a token for a user (shown once, with a
warning), sees the user's tokens without any secret, and revokes one or all after confirming;
each action is audited and takes effect in core."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.security.api_tokens import ApiTokenStore
from core.security.principals import Principal, Role, UserStore
from core.storage.db import get_db

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "9_设置与状态.py")
ADMIN = Principal("boss", Role.admin)


def _button(at: AppTest, label: str):
    return next(b for b in at.button if b.label == label)


def _token_table(at: AppTest):
    return next(df.value for df in at.dataframe if "最近使用" in df.value.columns)


def _issue(at: AppTest, days: int) -> str:
    next(n for n in at.number_input if n.label == "有效期（天）").set_value(days)
    _button(at, "签发令牌").click().run()
    assert not at.exception
    return at.code[0].value


def test_admin_issues_lists_and_revokes_api_tokens():
    store = UserStore()
    store.add("boss", "admin", "boss-pass-2026x")
    store.add("alice", "staff", "alice-pass-2026", tenants=["demo"])
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state["principal"] = ADMIN
    at.run()
    assert not at.exception
    next(s for s in at.selectbox if s.label == "令牌所属用户").select("alice").run()
    assert any("还没有 API 令牌" in c.value for c in at.caption)

    token = _issue(at, 7)
    assert token.startswith("zc_") and ApiTokenStore().resolve(token)[0].name == "alice"
    assert any("只显示这一次" in w.value for w in at.warning)
    assert any("复制" in c.value for c in at.caption)
    table = _token_table(at)
    assert list(table["状态"]) == ["有效"] and list(table["最近使用"]) == ["从未使用"]
    assert list(table["签发人"]) == ["boss"]
    assert token not in " ".join(df.value.to_string() for df in at.dataframe)

    _button(at, "我已复制保存，隐藏").click().run()
    assert not at.code  # gone for good: the page cannot show it again

    second = _issue(at, 30)
    _button(at, "我已复制保存，隐藏").click().run()
    first_id = int(_token_table(at)["编号"].iloc[-1])
    next(s for s in at.selectbox if s.label == "要吊销的令牌").select(first_id).run()
    _button(at, "吊销此令牌").click().run()
    assert any("确定吊销 alice 的 " in w.value for w in at.warning)
    assert ApiTokenStore().resolve(token) is not None  # nothing happens before the confirmation
    _button(at, "确认吊销").click().run()
    assert not at.exception
    assert ApiTokenStore().resolve(token) is None and ApiTokenStore().resolve(second) is not None
    assert sorted(_token_table(at)["状态"]) == ["已吊销", "有效"]

    _button(at, "吊销全部").click().run()
    _button(at, "取消").click().run()
    assert ApiTokenStore().resolve(second) is not None
    _button(at, "吊销全部").click().run()
    assert any("全部 API 令牌" in w.value for w in at.warning)
    _button(at, "确认吊销").click().run()
    assert ApiTokenStore().resolve(second) is None
    assert list(_token_table(at)["状态"]) == ["已吊销", "已吊销"]

    events = get_db().query("SELECT user_name, action, target FROM audit_log ORDER BY id")
    assert [(e["user_name"], e["action"], e["target"]) for e in events if "api_token" in e["action"]] == [
        ("boss", "users.api_token", "alice"), ("boss", "users.api_token", "alice"),
        ("boss", "users.api_token_revoke", "alice"), ("boss", "users.api_token_revoke", "alice")]
