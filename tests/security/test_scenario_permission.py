"""A scenario is a permission: a window-only user cannot switch to research (政策研究) in core,
on the CLI or on the 政策问答 page; existing user records keep their current scenario."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core import config
from core.errors import PermissionDenied
from core.security.principals import Principal, Role, Scenario, UserStore
from core.services import ingest, users
from core.services.ask_docs import ask_docs
from core.storage import db as dbmod

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def window_user():
    return UserStore().add("chuang_kou", "staff", "chuang-kou-pass-2026", tenants=["demo"])


def test_core_refuses_research_for_a_window_only_user(window_user):
    assert window_user.allowed_scenarios == (Scenario.window,)
    with pytest.raises(PermissionDenied, match="政策研究"):
        window_user.with_scenario("research")
    with pytest.raises(PermissionDenied, match="无权使用“政策研究”场景"):
        ask_docs("济南市家电以旧换新的补贴标准是什么？", window_user, scenario="research", index=object(), llm=None)
    with pytest.raises(PermissionDenied):
        ingest.search("补贴标准", window_user, k=5, scenario="research")
    assert window_user.with_scenario("window") == window_user


def test_granted_scenarios_and_administrators():
    both = UserStore().add("yan_jiu", "manager", "yan-jiu-pass-2026", tenants=["demo"],
                           scenarios=["window", "research"])
    assert both.with_scenario("research").scenario is Scenario.research
    assert Principal("root", Role.admin).with_scenario("research").scenario is Scenario.research


def test_cli_ask_docs_refuses_research(window_user):
    out = subprocess.run([sys.executable, "-m", "core.cli", "ask-docs", "补贴标准是什么", "--user", "chuang_kou",
                          "--scenario", "research", "--json"], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert out.returncode == 2 and "无权使用“政策研究”场景" in out.stderr and "Traceback" not in out.stderr


def test_page_offers_only_the_granted_scenarios(window_user, monkeypatch):
    principal, token = users.login("chuang_kou", "chuang-kou-pass-2026")
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.session_state["session_token"] = token
    at.run()
    assert not at.exception and "政策问答" in [t.value for t in at.title]
    assert list(at.sidebar.radio[0].options) == ["窗口咨询（仅现行有效）"]


def test_migration_gives_existing_users_their_current_scenario(workspace, monkeypatch):
    cut = [name for name, _ in dbmod.MIGRATIONS].index("1100_signin_hardening")
    monkeypatch.setattr(dbmod, "MIGRATIONS", dbmod.MIGRATIONS[:cut])
    old = dbmod.AppDB(config.get_settings())
    old.execute("INSERT INTO users (name, password_hash, role, tenants, domains, scenario) VALUES"
                " ('old_research', 'x', 'manager', '[\"demo\"]', '[]', 'research'),"
                " ('old_window', 'x', 'staff', '[\"demo\"]', '[]', 'window'),"
                " ('Old_Window', 'x', 'staff', '[\"demo\"]', '[]', 'window')")
    old.close()
    monkeypatch.undo()
    monkeypatch.setenv("ZHICE_HOME", str(workspace))
    dbmod.reset_db_cache()
    store = UserStore()
    assert "1100_signin_hardening" in store.db.applied_migrations()
    assert store.get("old_research").allowed_scenarios == (Scenario.research,)
    assert store.get("old_window").allowed_scenarios == (Scenario.window,)
    assert store.get("Old_Window").name == "Old_Window"  # a legacy case-twin is still found by its exact name
    rows = store.db.query("SELECT name, scenarios FROM users ORDER BY name")
    assert {r["name"]: json.loads(r["scenarios"]) for r in rows}["old_research"] == ["research"]
