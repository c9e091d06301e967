"""设置与状态 (configuration, component status, all-tenant counts) is for administrators only,
enforced in core; every secret shown there is masked, credentials inside URLs included."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core import config
from core.errors import PermissionDenied
from core.security.principals import Principal, Role, UserStore
from core.security.redact import mask_secrets, mask_url
from core.services import settings_view, status, users

REPO = Path(__file__).resolve().parents[2]
SECRETS = ("llmpass", "sk-live-0123456789", "pgpass", "neo4jpass", "tok3n")


@pytest.fixture
def secret_env(monkeypatch):
    monkeypatch.setenv("ZHICE_LLM_BASE_URL", "https://llmuser:llmpass@llm.internal.example/v1?api_key=tok3n")
    monkeypatch.setenv("ZHICE_LLM_API_KEY", "sk-live-0123456789")
    monkeypatch.setenv("ZHICE_NEO4J_URI", "bolt://neo:neo4jpass@graph.internal.example:7687")
    monkeypatch.setenv("ZHICE_NEO4J_PASSWORD", "neo4jpass")
    config.set_settings(None)
    yield
    config.set_settings(None)


@pytest.mark.parametrize("role", ["manager", "staff", "guest"])
def test_core_refuses_settings_and_status_to_non_admins(role):
    p = Principal("p", Role(role), tenants=("demo",))
    with pytest.raises(PermissionDenied, match="只有管理员"):
        settings_view.effective_settings(p)
    with pytest.raises(PermissionDenied, match="只有管理员"):
        status.check_all(p)
    with pytest.raises(PermissionDenied):
        settings_view.effective_settings(None)


def test_effective_settings_mask_every_secret(secret_env):
    shown = str(settings_view.effective_settings(Principal("root", Role.admin)))
    for secret in SECRETS:
        assert secret not in shown
    assert "https://llmuser:***@llm.internal.example/v1?api_key=***" in shown
    assert "bolt://neo:***@graph.internal.example:7687" in shown


@pytest.mark.parametrize("text, expected", [
    ("postgresql://u:p4ss@h/db", "postgresql://u:***@h/db"),
    ("https://user:pass@host/v1", "https://user:***@host/v1"),
    ("https://ghp_abcdef@host/x", "https://***@host/x"),
    ("https://host/v1?key=abc&model=m", "https://host/v1?key=***&model=m"),
    ("connect failed: password=hunter22 host=db", "connect failed: password=*** host=db"),
    ("https://api.deepseek.com/v1", "https://api.deepseek.com/v1"),
])
def test_mask_url(text, expected):
    assert mask_url(text) == expected


def test_status_details_are_masked(secret_env, monkeypatch):
    monkeypatch.setattr(status, "CHECKS", [("大模型", lambda: ("error", "连接失败 "
                                              "https://llmuser:llmpass@llm.internal.example/v1 key sk-live-0123456789"))])
    rows = status.check_all(Principal("root", Role.admin))
    assert rows[0]["detail"] == "连接失败 https://llmuser:***@llm.internal.example/v1 key ***"
    assert mask_secrets("DSN postgresql://a:pgpass@h/db") == "DSN postgresql://a:***@h/db"


def test_page_is_only_in_the_admins_navigation_and_shows_no_secret(secret_env, monkeypatch):
    # no call to the (made-up) model server from a test
    monkeypatch.setattr(status, "CHECKS", [c for c in status.CHECKS if c[0] != "大模型"])
    store = UserStore()
    store.add("boss", "admin", "boss-pass-2026")
    store.add("clerk", "manager", "clerk-pass-2026", tenants=["demo"])
    for name, password, allowed in (("clerk", "clerk-pass-2026", False), ("boss", "boss-pass-2026", True)):
        _principal, token = users.login(name, password)
        at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
        at.session_state["session_token"] = token
        at.run()
        if not allowed:
            with pytest.raises(ValueError, match="navigation page"):
                at.switch_page("pages/9_设置与状态.py")
            continue
        at.switch_page("pages/9_设置与状态.py").run()
        assert not at.exception and "设置与状态" in [t.value for t in at.title]
        shown = " ".join(df.value.to_string() for df in at.dataframe)
        assert "llm.internal.example" in shown
        for secret in SECRETS:
            assert secret not in shown
