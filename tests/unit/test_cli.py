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


def test_feedback_and_review_commands(workspace):
    from core.security.audit import record_question
    from core.security.principals import Principal, Role

    for name in ("manager_a", "manager_b"):
        assert run_cli("users", "add", name, "--role", "manager", "--tenant", "demo", "--password-stdin",
                       stdin="pass-word-2026\n").returncode == 0
    assert run_cli("users", "add", "rev_a", "--role", "reviewer", "--tenant", "demo", "--password-stdin",
                   stdin="pass-word-2026\n").returncode == 0
    record_question(Principal("manager_a", Role.manager, tenants=("demo",)), "docs", thread="t1", question="补贴标准？",
                    answer="补贴 15%[1]。", refused=False, tenant="demo", latency_ms=1.0,
                    trace={"checks": {}, "notices": [], "citations": [], "trace": []})
    other = run_cli("feedback", "--thread", "t1", "--kind", "docs", "--rating", "-1", "--user", "manager_b")
    assert other.returncode != 0 and "未找到" in other.stderr
    out = run_cli("feedback", "--thread", "t1", "--kind", "docs", "--rating", "-1", "--reason", "不对", "--user",
                  "manager_a", "--json")
    assert out.returncode == 0, out.stderr and "feedback_id" in json.loads(out.stdout)
    week = run_cli("review", "week", "--user", "rev_a", "--json")
    assert week.returncode == 0, week.stderr
    q = json.loads(week.stdout)
    case = q["cases"][0]
    assert case["source"] == "thumbs_down" and case["question"] == "补贴标准？" and q["counts"]["total"] == 1
    assert set(case) >= {"id", "source", "kind", "question", "answer", "user", "thread", "category", "status"}
    cls = run_cli("review", "classify", str(case["id"]), "--category", "生成失败", "--expected", "15%", "--user", "rev_a",
                  "--json")
    assert cls.returncode == 0 and json.loads(cls.stdout)["case"]["category"] == "generation"
    bad = run_cli("review", "classify", str(case["id"]), "--category", "nope", "--user", "rev_a")
    assert bad.returncode == 2 and "检索失败" in bad.stderr
    gold = run_cli("review", "to-golden", str(case["id"]), "--set", "weekly", "--user", "rev_a", "--json")
    assert gold.returncode == 0, gold.stderr
    g = json.loads(gold.stdout)
    assert g["set"] == "weekly" and g["golden"]["expect_answer_contains"] == ["15%"] and Path(g["path"]).is_file()
    staff = run_cli("users", "add", "staff_a", "--role", "staff", "--tenant", "demo", "--password-stdin",
                    stdin="pass-word-2026\n")
    assert staff.returncode == 0
    refused = run_cli("review", "week", "--user", "staff_a")
    assert refused.returncode != 0 and "评测员" in refused.stderr
