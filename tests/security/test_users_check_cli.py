"""``users check NAME --password-stdin`` verifies a sign-in exactly as the login page does;
``users add --scenario`` is repeatable."""

import json
import subprocess
import sys
from pathlib import Path

from core.security import audit, signin
from core.security.principals import Scenario, UserStore

REPO = Path(__file__).resolve().parents[2]


def cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "core.cli", *args], input=stdin, capture_output=True, text=True,
                          cwd=REPO, timeout=120)


def test_check_json_ok_wrong_and_locked():
    UserStore().add("li_ming", "staff", "li-ming-pass-2026", must_change_password=True)
    ok = cli("users", "check", "li_ming", "--password-stdin", "--json", stdin="li-ming-pass-2026\n")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout) == {"user": "li_ming", "ok": True, "must_change_password": True}
    bad = cli("users", "check", "li_ming", "--password-stdin", "--json", stdin="wrong-guess-1\n")
    assert bad.returncode == 2 and "用户名或密码错误" in bad.stderr and "Traceback" not in bad.stderr
    assert json.loads(bad.stdout)["ok"] is False
    ghost = cli("users", "check", "ghost", "--password-stdin", stdin="wrong-guess-1\n")
    assert ghost.returncode == 2 and ghost.stderr == bad.stderr  # unknown user: the same answer
    for _ in range(signin.USER_THRESHOLD - 1):
        cli("users", "check", "li_ming", "--password-stdin", stdin="wrong-guess-1\n")
    locked = cli("users", "check", "li_ming", "--password-stdin", stdin="li-ming-pass-2026\n")
    assert locked.returncode == 2 and "登录失败次数过多" in locked.stderr
    outcomes = [e["outcome"] for e in audit.recent(action="login", user="li_ming")]
    assert outcomes[0] == "locked" and outcomes[-1] == "ok" and outcomes.count("denied") == signin.USER_THRESHOLD
    assert "cli" in audit.recent(action="login", user="li_ming")[0]["detail"]


def test_add_lists_scenarios():
    out = cli("users", "add", "yan_jiu", "--role", "manager", "--tenant", "demo", "--scenario", "research",
              "--scenario", "window", "--password-stdin", "--json", stdin="yan-jiu-pass-2026\n")
    assert out.returncode == 0, out.stderr
    user = UserStore().get("yan_jiu")
    assert user.scenario is Scenario.research and set(user.scenarios) == {Scenario.research, Scenario.window}
    out = cli("users", "add", "chuang_kou", "--role", "staff", "--password-stdin", stdin="chuang-kou-pass-2026\n")
    assert out.returncode == 0, out.stderr
    assert UserStore().get("chuang_kou").allowed_scenarios == (Scenario.window,)
