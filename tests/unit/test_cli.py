import json
import subprocess
import sys
from pathlib import Path

from core.cli import COMMANDS

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args, stdin: str = "", cwd=REPO):
    return subprocess.run([sys.executable, "-m", "core.cli", *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def test_help_lists_every_contract_command():
    out = run_cli("--help")
    assert out.returncode == 0
    for command in ["demo", "templates", "build-graph", "ingest-docs", "retrieve", "ask-docs", "task", "ask-kg",
                    "eval", "users"]:
        assert command in out.stdout
    assert set(COMMANDS) >= {"demo", "templates", "build-graph", "ingest-docs", "retrieve", "ask-docs", "task",
                             "ask-kg", "eval", "users"}


def test_users_add_json_and_bad_input_exit_codes(workspace):
    out = run_cli("users", "add", "li_ming", "--role", "manager", "--tenant", "demo", "--password-stdin", "--json",
                  stdin="pass-word-2026\n")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"user": "li_ming"}
    dup = run_cli("users", "add", "li_ming", "--role", "staff", "--password-stdin", stdin="pass-word-2026\n")
    assert dup.returncode == 2 and "已存在" in dup.stderr and "Traceback" not in dup.stderr
    weak = run_cli("users", "add", "wang", "--role", "staff", "--password-stdin", stdin="123\n")
    assert weak.returncode == 2 and "密码" in weak.stderr


def test_unknown_role_is_rejected_by_the_parser():
    out = run_cli("users", "add", "x", "--role", "nobody", "--password-stdin")
    assert out.returncode == 2 and "invalid choice" in out.stderr


def test_unknown_acting_user_is_bad_input():
    out = run_cli("retrieve", "补贴标准", "--user", "ghost", "--json")
    assert out.returncode == 2 and "未知用户" in out.stderr
