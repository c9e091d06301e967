"""The policy task agent on small documents of three tenants (keyword-only index, so no
embedding model): the rules data, every tool's validation, tenant isolation ("not found",
never "forbidden"), per-tool timeouts, every fuse (steps, tokens with the scripted FakeLLM,
time with an injected clock), LLM plans validated against the tool schemas, the plan review
(confirm / edit / cancel), exports, the audit trail and the CLI JSON shape."""

from __future__ import annotations

import io
import json
import os
import re
import threading
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from core import config
from core.agents.task import rules
from core.agents.task.graph import mermaid
from core.agents.task.planner import validate_plan
from core.agents.task.runtime import tool_context
from core.agents.task.tools import TOOLS, ToolTimeout, run_tool, validate_args
from core.agents.runtime import AgentRuntime
from core.errors import BadInputError, NotFoundError
from core.llm.fake import FakeLLM
from core.security.principals import Principal, Role, resolve_user
from core.services import ingest
from core.services.task import export_excel, export_markdown, resume_task, run_task, start_task, task_state

SNAPSHOT = Path(__file__).parent / "snapshots" / "task_graph.mmd"

JINAN = ("济南市2025年家电以旧换新补贴实施细则\n济商务字〔2025〕5号\n济南市商务局\n2025年1月20日\n"
         "第一条 补贴标准\n对个人消费者购买2级及以上能效产品，按最终销售价格的15%给予补贴，每件补贴不超过2000元。\n"
         "第二条 补贴资格领取\n个人消费者通过济南市“泉城购”服务平台完成实名认证，领取补贴资格后核销，享受支付立减。\n"
         "第三条 其他事项\n补贴资金实行限额管理，资金使用完毕即活动结束。\n")
PROVINCE = ("山东省2025年家电以旧换新实施方案\n鲁商字〔2025〕1号\n山东省商务厅\n2025年1月20日\n"
            "一、补贴标准为上述产品最终销售价格的15%，每件补贴不超过2000元。\n"
            "二、补贴采用支付立减等方式，简化流程。补贴时间至2025年12月31日止。\n")
QINGDAO = ("青岛市2025年家电以旧换新补贴细则\n青商字〔2025〕3号\n青岛市商务局\n2025年2月1日\n"
           "第一条 补贴标准\n青岛机密补贴标准为最终销售价格的30%，每件补贴不超过9999元。\n"
           "第二条 补贴资格领取\n个人消费者通过青岛“琴岛购”平台领取补贴资格后核销。\n")


@pytest.fixture(autouse=True)
def keyword_only(monkeypatch, tmp_path):
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))  # BM25 + titles only: fast
    config.set_settings(None)
    from core.llm.client import set_llm_override

    set_llm_override(None)
    yield
    set_llm_override(None)


@pytest.fixture
def docs(tmp_path) -> dict:
    admin = resolve_user(None)
    out = {}
    for key, name, text, tenant in (("jinan", "济南细则.txt", JINAN, "济南"), ("province", "省方案.txt", PROVINCE, "山东省"),
                                    ("qingdao", "青岛细则.txt", QINGDAO, "青岛")):
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        out[key] = ingest.ingest_paths([p], admin, tenant, approve=True)["documents"][0]["doc_id"]
    return out


JINAN_USER = Principal("jn", Role.manager, tenants=("济南", "山东省"))
ADMIN = Principal("admin", Role.admin)


def _ctx(principal=ADMIN):
    from core.retrieval.index import get_index

    return tool_context(AgentRuntime(principal=principal, index=get_index()))


# ---- graph and rules data -------------------------------------------------------------------
def test_mermaid_snapshot():
    text = mermaid()
    if os.environ.get("ZHICE_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert SNAPSHOT.exists(), "snapshot missing: rerun with ZHICE_UPDATE_SNAPSHOTS=1 after checking the graph"
    assert text == SNAPSHOT.read_text(encoding="utf-8")
    for edge in ("plan --> review", "execute --> check", "check --> route", "route -.-> execute", "route -.-> summarize"):
        assert edge in text


def test_every_rules_row_parses_its_example():
    for row in rules.rules()["request_kinds"]:
        assert rules.parse_request(row["example"]).kind == row["kind"], row["example"]
    for d in rules.rules()["dimensions"]:
        assert d["name"] in rules.parse_request(d["example"]).dimensions, d["example"]
    req = rules.parse_request("对比济南市和山东省家电以旧换新补贴的补贴标准和申领流程")
    assert (req.kind, req.dimensions, req.places, req.topic) == ("compare", ["补贴标准", "申领流程"],
                                                                 ["济南市", "山东省"], "家电以旧换新补贴")
    plan = rules.plan_offline(req)
    assert [s["tool"] for s in plan] == ["search_policy", "search_policy", "compare_documents"]
    assert plan[2]["args"]["doc_ids"] == ["$1.top", "$2.top"] and not validate_plan(plan)
    for row in rules.rules()["request_kinds"]:  # every offline plan validates against the schemas
        assert not validate_plan(rules.plan_offline(rules.parse_request(row["example"])))


# ---- tool validation ------------------------------------------------------------------------
def test_exactly_five_tools_with_schemas_and_descriptions():
    assert set(TOOLS) == {"search_policy", "get_document_detail", "compare_documents", "track_changes",
                          "generate_summary"}
    for t in TOOLS.values():
        assert t.description and t.args_model.model_json_schema()["properties"]
    assert TOOLS["search_policy"].timeout_s == 5 and TOOLS["get_document_detail"].timeout_s == 3


@pytest.mark.parametrize("tool, args, message", [
    ("search_policy", {"query": "补贴", "status": "valid"}, "in_effect、repealed、upcoming、draft"),
    ("search_policy", {"query": ""}, "query"),
    ("search_policy", {"query": "补贴", "city": "济南"}, "不是该工具的参数"),
    ("get_document_detail", {"doc_id": "../etc/passwd"}, "格式无效"),
    ("get_document_detail", {}, "缺少必填参数"),
    ("compare_documents", {"doc_ids": ["0123456789abcdef"], "dimensions": ["颜色"]}, "补贴标准、补贴范围、申领流程"),
    ("compare_documents", {"doc_ids": [], "dimensions": ["补贴标准"]}, "至少需要 1 个"),
    ("compare_documents", {"doc_ids": ["0123456789abcdef"] * 1 + [f"{i:016x}" for i in range(9)],
                           "dimensions": ["补贴标准"]}, "最多 8 个"),
    ("track_changes", {"policy_name": "x"}, "policy_name"),
    ("generate_summary", {"doc_ids": ["0123456789abcdef"], "format": "pdf"}, "brief、validity、checklist"),
    ("delete_document", {"doc_id": "0123456789abcdef"}, "search_policy、get_document_detail"),
])
def test_arguments_validated_before_running(tool, args, message):
    with pytest.raises(BadInputError) as err:
        validate_args(tool, args)
    assert message in err.value.user_message


def test_aliases_normalised():
    assert validate_args("compare_documents", {"doc_ids": ["0123456789abcdef"], "dimensions": ["申请流程", "标准"]}
                         ).dimensions == ["申领流程", "补贴标准"]
    assert validate_args("generate_summary", {"doc_ids": ["0123456789abcdef"], "format": "有效期与状态"}).format == "validity"


def test_plan_references_checked():
    problems = validate_plan([{"tool": "compare_documents", "args": {"doc_ids": ["$1.top"], "dimensions": ["补贴标准"]}}])
    assert "只能引用之前的步骤" in problems[0]
    problems = validate_plan([{"tool": "track_changes", "args": {"policy_name": "家电以旧换新"}},
                              {"tool": "generate_summary", "args": {"doc_ids": ["$1.all"], "format": "brief"}}])
    assert "不是 search_policy" in problems[0]
    assert validate_plan([]) == ["计划为空"]


# ---- tenant isolation -------------------------------------------------------------------------
def test_other_tenants_documents_are_not_found(docs):
    ctx = _ctx(JINAN_USER)
    res = run_tool(ctx, "search_policy", {"query": "青岛家电以旧换新补贴", "authority": "青岛市"})
    assert res["documents"] == [] and "未找到" in res["message"]
    res = run_tool(ctx, "search_policy", {"query": "青岛 琴岛购 家电补贴"})
    assert docs["qingdao"] not in {d["doc_id"] for d in res["documents"]}
    with pytest.raises(NotFoundError) as theirs:
        run_tool(ctx, "get_document_detail", {"doc_id": docs["qingdao"]})
    with pytest.raises(NotFoundError) as nobody:
        run_tool(ctx, "get_document_detail", {"doc_id": "0123456789abcdef"})
    assert theirs.value.user_message.replace(docs["qingdao"], "X") == nobody.value.user_message.replace("0123456789abcdef", "X")
    with pytest.raises(NotFoundError):
        run_tool(ctx, "compare_documents", {"doc_ids": [docs["qingdao"]], "dimensions": ["补贴标准"]})
    both = run_tool(ctx, "generate_summary", {"doc_ids": [docs["qingdao"], docs["jinan"]], "format": "validity"})
    assert [i["doc_id"] for i in both["items"]] == [docs["jinan"]] and both["not_found"] == [docs["qingdao"]]
    assert all(e["doc_id"] != docs["qingdao"] for e in both["evidence"])
    track = run_tool(ctx, "track_changes", {"policy_name": "青岛市家电以旧换新补贴细则"})
    assert docs["qingdao"] not in {d["doc_id"] for d in track["documents"]}


def test_task_about_another_tenant_gets_nothing_from_it(docs):
    res = run_task("对比青岛市和济南市家电以旧换新补贴的补贴标准", JINAN_USER, llm=None)
    assert all(c["doc_id"] != docs["qingdao"] for c in res["citations"])
    assert "9999" not in res["report"] and "琴岛购" not in res["report"] and "30%" not in res["report"]
    first = res["steps"][0]
    assert first["args"]["authority"] == "青岛市" and first["ok"]
    compare = res["steps"][-1]
    assert compare["tool"] == "compare_documents" and compare["args"]["doc_ids"] == [docs["jinan"]]
    assert "未找到青岛市的相关文件" in res["report"]  # said as "not found", never "forbidden"
    assert "无权" not in res["report"]
    # the administrator of all tenants does see it
    admin = run_task("对比青岛市和济南市家电以旧换新补贴的补贴标准", ADMIN, llm=None)
    assert docs["qingdao"] in {c["doc_id"] for c in admin["citations"]}


# ---- timeouts and fuses -------------------------------------------------------------------------
class _SlowIndex:
    def __init__(self, inner, gate: threading.Event):
        self.inner, self.gate = inner, gate

    def search(self, *a, **kw):
        self.gate.wait(5)
        return self.inner.search(*a, **kw)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_tool_timeout_fails_the_step_not_the_run(docs):
    from core.retrieval.index import get_index

    gate = threading.Event()
    try:
        rt = AgentRuntime(principal=ADMIN, index=_SlowIndex(get_index(), gate))
        with pytest.raises(ToolTimeout, match="search_policy 超过"):
            run_tool(tool_context(rt), "search_policy", {"query": "家电补贴"}, timeout_s=0.05)
        res = run_task("济南市家电以旧换新补贴需要哪些材料清单", ADMIN, llm=None, deadline_s=0.2,
                       index=_SlowIndex(get_index(), gate))
    finally:
        gate.set()
    assert res["steps"][0]["ok"] is False and "超过" in res["steps"][0]["error"]
    assert res["report"]


def test_steps_fuse_gives_partial_report(docs):
    res = run_task("对比济南市和山东省家电以旧换新补贴的补贴标准和申领流程", ADMIN, llm=None, max_steps=1)
    assert res["stopped_by"] == "steps" and len(res["steps"]) == 1
    assert "步数熔断" in res["report"] and "尚缺" in res["report"]
    assert any("逐项对比（文件：第1步最相关的文件、第2步最相关的文件" in m and "未执行" in m for m in res["missing"])
    assert not re.search(r"[a-z_]{6,}|\$\d", res["report"])  # no tool names or references in a manager's report
    assert "已收集的文件" in res["report"] and res["citations"]  # what was collected, cited
    assert res["counters"]["steps"] == 1 and res["limits"]["max_steps"] == 1


class _Clock:
    """Advances 25 s each time the budget reads it."""

    def __init__(self):
        self.t = 0.0

    def __call__(self):
        self.t += 25.0
        return self.t


def test_time_fuse_with_injected_clock(docs):
    res = run_task("对比济南市和山东省家电以旧换新补贴的补贴标准和申领流程", ADMIN, llm=None, clock=_Clock())
    assert res["stopped_by"] == "time" and len(res["steps"]) < 3
    assert "时间熔断" in res["report"] and res["missing"]


def test_token_fuse_with_fake_llm(docs):
    fake = FakeLLM(tokens_per_call=500)
    fake.enqueue({"steps": [{"tool": "search_policy", "args": {"query": "家电补贴"}}]})
    res = run_task("汇总家电以旧换新政策的有效期", ADMIN, llm=fake, max_tokens=100)
    assert res["stopped_by"] == "tokens" and res["steps"] == []
    assert "Token熔断" in res["report"] and res["missing"]


def test_llm_plan_validated_against_tool_schemas(docs):
    good = FakeLLM().enqueue({"steps": [
        {"tool": "search_policy", "args": {"query": "济南市家电以旧换新补贴", "authority": "济南市"}, "note": "检索"},
        {"tool": "generate_summary", "args": {"doc_ids": ["$1.top"], "format": "checklist"}, "note": "清单"}]})
    res = run_task("列出济南市家电以旧换新补贴的申报条件和材料清单", ADMIN, llm=good)
    assert res["planned_by"] == "llm" and [s["ok"] for s in res["steps"]] == [True, True]
    assert "身份证" not in res["report"] or res["citations"]
    bad = FakeLLM().enqueue({"steps": [{"tool": "delete_document", "args": {"doc_id": docs["jinan"]}}]})
    res = run_task("列出济南市家电以旧换新补贴的申报条件和材料清单", ADMIN, llm=bad)
    assert res["planned_by"] == "rules" and any("未通过工具参数校验" in n for n in res["notices"])
    assert [s["tool"] for s in res["steps"]] == ["search_policy", "generate_summary"]


# ---- review, resume, exports, audit, CLI ----------------------------------------------------------
def test_plan_review_confirm_edit_cancel(docs):
    first = start_task("对比济南市和山东省家电以旧换新补贴的补贴标准", JINAN_USER, llm=None, thread_id="t1")
    assert first["need_confirm"]["kind"] == "plan" and first["steps"] == [] and first["report"] == ""
    plan = first["need_confirm"]["plan"]
    bad = resume_task(JINAN_USER, "t1", {"plan": [{"tool": "search_policy", "args": {"status": "old"}}]}, llm=None)
    assert bad["need_confirm"] and "in_effect" in bad["need_confirm"]["error"]
    edited = [plan[0], {"tool": "generate_summary", "args": {"doc_ids": ["$1.top"], "format": "validity"}}]
    done = resume_task(JINAN_USER, "t1", {"plan": edited}, llm=None)
    assert done["need_confirm"] is None and done["planned_by"] == "user"
    assert [s["tool"] for s in done["steps"]] == ["search_policy", "generate_summary"]
    with pytest.raises(NotFoundError):
        resume_task(JINAN_USER, "t1", "确认", llm=None)  # nothing waits any more
    with pytest.raises(NotFoundError):
        resume_task(ADMIN, "t2", "确认", llm=None)
    start_task("汇总家电以旧换新政策的有效期", JINAN_USER, llm=None, thread_id="t3")
    other = Principal("someone", Role.manager, tenants=("济南",))
    with pytest.raises(NotFoundError):
        resume_task(other, "t3", "确认", llm=None)  # threads are private to their user
    cancelled = resume_task(JINAN_USER, "t3", "取消", llm=None)
    assert cancelled["cancelled"] and cancelled["steps"] == []


def test_a_reload_gets_the_plan_or_the_report_back_and_only_its_owner_does(docs):
    waiting = start_task("汇总家电以旧换新政策的有效期", JINAN_USER, llm=None, thread_id="r1")
    again = task_state(JINAN_USER, "r1")
    assert again["need_confirm"]["plan"] == waiting["need_confirm"]["plan"] and again["request"] == waiting["request"]
    done = resume_task(JINAN_USER, "r1", "确认", llm=None)
    back = task_state(JINAN_USER, "r1")
    assert back["need_confirm"] is None and back["report"] == done["report"] and back["citations"] == done["citations"]
    other = Principal("someone", Role.manager, tenants=("济南",))
    assert task_state(other, "r1") is None and task_state(JINAN_USER, "never-used") is None


def test_exports_markdown_and_excel_are_cited_and_safe(docs):
    from openpyxl import load_workbook

    res = run_task("对比济南市和山东省家电以旧换新补贴的补贴标准和申领流程", ADMIN, llm=None)
    md = export_markdown(res)
    assert "| 文件 | 补贴标准 | 申领流程 |" in md and "### 出处" in md and "[1]" in md
    res["sections"][0]["rows"].append(["=HYPERLINK(\"http://x\")", "+1", "@x"])
    wb = load_workbook(io.BytesIO(export_excel(res)))
    assert "出处" in wb.sheetnames
    ws = wb[wb.sheetnames[0]]
    values = [c.value for row in ws.iter_rows() for c in row]
    assert "'=HYPERLINK(\"http://x\")" in values and "'@x" in values
    assert any("[1]" in str(v) for v in values)


def test_run_recorded_in_audit_and_feedback(docs):
    from core.services.review import feedback_on_thread
    from core.storage.db import get_db

    res = run_task("汇总家电以旧换新政策的有效期", ADMIN, llm=None, thread_id="audit-1")
    row = get_db().one("SELECT action, outcome, detail FROM audit_log WHERE action = 'question.task' ORDER BY id DESC")
    detail = json.loads(row["detail"])
    assert row["outcome"] == "answered" and detail["steps"] and detail["question"] == "汇总家电以旧换新政策的有效期"
    assert feedback_on_thread(ADMIN, "task", res["thread_id"], -1, "漏了文件")["feedback_id"]
    from core.services.review import week_queue

    cases = [c for c in week_queue(ADMIN)["cases"] if c["kind"] == "task"]
    assert cases and cases[0]["thread"] == "audit-1" and "thumbs_down" in cases[0]["sources"]
    assert "有效期" in cases[0]["answer"] and cases[0]["question"] == "汇总家电以旧换新政策的有效期"


def test_cli_json_shape(docs):
    from core.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = main(["task", "对比济南市和山东省家电以旧换新补贴的补贴标准", "--json", "--max-steps", "2",
                   "--deadline-s", "30"])
    assert rc == 0
    out = json.loads(buf.getvalue())
    assert set(out) >= {"report", "steps", "stopped_by", "citations", "latency_ms"}
    assert out["stopped_by"] == "steps" and len(out["steps"]) == 2
    assert all(set(s) >= {"tool", "args", "ok"} for s in out["steps"])
    for c in out["citations"]:
        assert set(c) >= {"n", "chunk_id", "doc_id", "file_name", "doc_number", "page", "bbox", "quote"}
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main(["task", "x", "--max-steps", "0", "--json"]) == 2
