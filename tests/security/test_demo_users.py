"""Demo users have no shared fixed password: each gets a random one-time password, printed
once, that must be changed at first sign-in; ``demo --json`` keeps stdout pure JSON."""

import json

import pytest

from core import cli
from core.security.principals import UserStore
from core.services import demo, users


@pytest.fixture
def no_data(monkeypatch):
    import core.services.build as build
    import core.services.ingest as ingest

    monkeypatch.setattr(build, "load_demo_graph", lambda clear=False, tenant=None: {"nodes": {}, "edges": {}})
    monkeypatch.setattr(ingest, "ingest_demo_documents", lambda reset=False: {"documents": [], "errors": []})


def test_demo_users_get_distinct_one_time_passwords(no_data):
    printed = []
    names, created = demo.create_demo_users(echo=printed.append)
    assert set(created) == {"admin", "manager_a", "researcher_a", "staff_a", "guest_a", "reviewer_a", "outsider"}
    assert len(set(created.values())) == len(created)  # no shared password
    assert not hasattr(demo, "DEMO_PASSWORD")
    for name, password in created.items():
        assert any(password in line and name in line for line in printed)
        result, token = users.login(name, password)
        assert isinstance(result, users.PasswordChangeOnly) and users.resume_session(token) is None
    assert UserStore().get("researcher_a").with_scenario("research").name == "researcher_a"
    assert demo.create_demo_users(echo=printed.append)[1] == {}  # printed once: not again


def test_demo_json_prints_only_json_on_stdout(no_data, capsys):
    assert cli.main(["demo", "--json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)  # the whole stdout is one JSON document
    assert "manager_a" in result["users"]
    assert "一次性密码" not in out and "一次性密码" in err and "admin" in err


def test_demo_human_output_shows_the_passwords_once(no_data, capsys):
    assert cli.main(["demo"]) == 0
    out = capsys.readouterr().out
    assert out.count("一次性密码") >= 6 and "zhice-demo-2026" not in out
    assert cli.main(["demo"]) == 0
    assert "一次性密码：" not in capsys.readouterr().out
