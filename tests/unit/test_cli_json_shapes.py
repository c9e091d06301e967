"""Every command's ``--json`` output against shared/spec/cli.md, run in-process through
``core.cli.main`` on a fresh workspace (rules mode, keyword-only index, so no model): the
fields the contract names (extra fields are welcome), one JSON document per line on stdout,
written as ``json.dumps(..., ensure_ascii=False)`` writes it, and a batch's failing line as
``{"id", "error"}``."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from core import config
from core.cli import main

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "samples" / "business" / "config.json"
BROKEN = REPO / "data" / "samples" / "broken" / "config.json"
PASSWORD = "pass-word-2026\n"
JINAN = ("济南市2025年家电以旧换新补贴实施细则\n济商务字〔2025〕5号\n济南市商务局\n2025年1月20日\n"
         "第一条 补贴标准\n对个人消费者购买2级及以上能效产品，按最终销售价格的15%给予补贴，每件补贴不超过2000元。\n"
         "第二条 补贴资格领取\n个人消费者通过济南市“泉城购”服务平台完成实名认证，领取补贴资格后核销，享受支付立减。\n")

CITATION = {"n", "chunk_id", "doc_id", "file_name", "doc_number", "page", "bbox", "quote"}
CASE = {"id", "source", "kind", "question", "answer", "user", "thread", "category", "status"}


@pytest.fixture
def run(capsys, monkeypatch):
    """``run(*argv, rc=0, stdin="")`` -> the JSON lines the command printed (a list)."""

    def call(*argv, rc: int = 0, stdin: str = "") -> list:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        assert code == rc, f"{argv}: exit {code}, stderr {err!r}"
        assert out.endswith("\n"), f"{argv}: {out!r}"
        lines = out[:-1].split("\n")
        docs = [json.loads(line) for line in lines]
        for line, doc in zip(lines, docs):
            assert line == json.dumps(doc, ensure_ascii=False), f"{argv}: not written as the contract writes JSON"
        return docs

    return call


def one(docs: list) -> dict:
    assert len(docs) == 1, f"one JSON document expected, got {len(docs)}"
    return docs[0]


def has(d: dict, fields: set, what: str) -> None:
    assert isinstance(d, dict) and fields <= set(d), f"{what}: missing {sorted(fields - set(d or {}))}"


def test_users_templates_demo_and_audit(run, tmp_path, monkeypatch):
    assert one(run("users", "add", "li", "--role", "manager", "--tenant", "demo", "--password-stdin", "--json",
                   stdin=PASSWORD)) == {"user": "li"}
    assert one(run("users", "check", "li", "--password-stdin", "--json", stdin=PASSWORD)) == \
        {"user": "li", "ok": True, "must_change_password": False}
    assert one(run("users", "check", "li", "--password-stdin", "--json", rc=2, stdin="wrong-pass-1\n")) == \
        {"user": "li", "ok": False, "must_change_password": False}
    token = one(run("users", "token", "li", "--json"))
    assert set(token) == {"user", "token", "expires_at"} and token["user"] == "li"
    assert one(run("users", "revoke-tokens", "li", "--json")) == {"user": "li", "revoked": 1}

    written = one(run("templates", tmp_path / "t", "--json"))
    assert set(written) == {"written"} and len(written["written"]) == 15

    import core.services.build as build
    import core.services.ingest as ingest

    monkeypatch.setattr(build, "load_demo_graph", lambda **kw: {"nodes": {}, "edges": {}})
    monkeypatch.setattr(ingest, "ingest_demo_documents", lambda **kw: {"documents": [], "errors": []})
    demo = one(run("demo", "--json"))  # the one-time passwords go to stderr
    has(demo, {"graph", "documents", "users"}, "demo")
    assert {"li", "manager_a"} <= set(demo["users"])

    events = one(run("audit", "--limit", "5", "--json"))
    assert set(events) == {"events"} and events["events"]
    for e in events["events"]:
        has(e, {"at", "kind", "user", "tenant", "detail"}, "audit event")


def test_build_graph_explorer_ask_kg_and_source_row(run, tmp_path):
    broken = one(run("build-graph", BROKEN, "--tenant", "demo", "--clear", "--json"))
    has(broken, {"nodes", "edges", "errors", "warnings", "seconds"}, "build-graph")
    assert broken["errors"] and broken["warnings"]
    for e in broken["errors"]:
        has(e, {"template", "file", "row", "column", "reason"}, "build-graph error")
    for w in broken["warnings"]:
        has(w, {"template", "file", "row", "column", "reason", "value"}, "build-graph warning")
    built = one(run("build-graph", SAMPLE, "--tenant", "demo", "--clear", "--strict", "--json"))
    assert built["errors"] == [] and built["nodes"]["项目"] > 0 and built["edges"]["服务于"] > 0

    found = one(run("graph", "search", "区图书馆", "--json"))
    assert set(found) >= {"results"} and found["results"]
    has(found["results"][0], {"id", "label", "name", "key", "score"}, "graph search result")
    near = one(run("graph", "neighbors", "项目:XMSQ0102", "--limit", "3", "--json"))
    has(near, {"nodes", "edges", "total_nodes", "truncated"}, "graph neighbors")
    assert near["nodes"] and near["edges"] and near["truncated"] is True
    for n in near["nodes"]:
        has(n, {"id", "label", "name", "properties", "provenance"}, "graph node")
    for e in near["edges"]:
        has(e, {"id", "type", "source", "target", "properties", "provenance"}, "graph edge")
    path = one(run("graph", "path", "项目:XMSQ0102", "项目:XMSQ0052", "--json"))
    has(path, {"nodes", "edges"}, "graph path")
    assert path["nodes"] and path["edges"]
    none = one(run("graph", "path", "项目:XMSQ0102", "项目:XMSQ0052", "--max-hops", "1", "--json"))
    assert none["nodes"] == [] and none["edges"] == []

    kg_fields = {"answer", "need_confirm", "slots", "plan", "queries", "rows", "provenance", "latency_ms"}
    answer = one(run("ask-kg", "50岁以下的项目经理有几位？", "--auto", "--json"))
    has(answer, kg_fields | {"thread"}, "ask-kg")
    assert answer["need_confirm"] is None and answer["rows"] and answer["provenance"]
    for step in answer["plan"]:
        has(step, {"tool", "params"}, "ask-kg plan step")
    for q in answer["queries"]:
        has(q, {"cypher", "params", "rows"}, "ask-kg query")
    for p in answer["provenance"]:
        has(p, {"template", "file", "row"}, "ask-kg provenance")
    asking = one(run("ask-kg", "哪些服务中的项目没有人员服务记录？", "--json"))
    has(asking, kg_fields, "ask-kg waiting for a reply")
    has(asking["need_confirm"], {"kind", "text", "options"}, "ask-kg need_confirm")

    batch = tmp_path / "kg.jsonl"
    batch.write_text('{"id": "a", "question": "50岁以下的项目经理有几位？"}\nnot json\n', encoding="utf-8")
    lines = run("ask-kg", "--batch", batch, "--auto", "--json")
    assert [d["id"] for d in lines] == ["a", "2"]
    has(lines[0], kg_fields, "ask-kg batch line")
    assert set(lines[1]) == {"id", "error"}

    p = answer["provenance"][0]
    row = one(run("source-row", p["template"], p["file"], p["row"], "--json"))
    has(row, {"template", "file", "row", "values", "masked_fields"}, "source-row")
    assert (row["template"], row["file"], row["row"]) == (p["template"], p["file"], p["row"]) and row["values"]


def test_documents_questions_task_review_and_eval(run, tmp_path, monkeypatch):
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))  # BM25 + titles only: fast
    config.set_settings(None)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "济南细则.txt").write_text(JINAN, encoding="utf-8")
    (docs / "empty.txt").write_text("", encoding="utf-8")

    report = one(run("ingest-docs", docs, "--tenant", "demo", "--approve", "--json"))
    has(report, {"documents", "errors", "seconds"}, "ingest-docs")
    [doc] = report["documents"]
    has(doc, {"doc_id", "file_name", "pages", "chunks", "doc_number", "authority", "publish_date", "status"},
        "ingest-docs document")
    [error] = report["errors"]
    has(error, {"file", "reason"}, "ingest-docs error")

    hits = one(run("retrieve", "济南市家电以旧换新补贴标准", "--k", "3", "--json"))
    has(hits, {"results", "latency_ms"}, "retrieve")
    assert hits["results"]
    has(hits["results"][0], {"rank", "chunk_id", "doc_id", "file_name", "doc_number", "page", "score", "text"},
        "retrieve result")
    batch = tmp_path / "q.jsonl"
    batch.write_text('{"id": "q1", "question": "补贴标准"}\n{"question": ""}\n', encoding="utf-8")
    lines = run("retrieve", "--batch", batch, "--json")
    assert [d["id"] for d in lines] == ["q1", "2"]
    has(lines[0], {"results", "latency_ms"}, "retrieve batch line")
    assert set(lines[1]) == {"id", "error"}

    answer = one(run("ask-docs", "济南市家电补贴标准是多少？", "--json"))
    has(answer, {"answer", "refused", "citations", "rounds", "trace", "latency_ms", "thread_id"}, "ask-docs")
    assert answer["citations"] and answer["trace"]
    for c in answer["citations"]:
        has(c, CITATION, "ask-docs citation")
    assert all("node" in t for t in answer["trace"])
    lines = run("ask-docs", "--batch", batch, "--json")
    assert [d["id"] for d in lines] == ["q1", "2"]
    has(lines[0], {"answer", "refused", "citations", "rounds", "trace", "latency_ms"}, "ask-docs batch line")
    assert set(lines[1]) == {"id", "error"}

    task = one(run("task", "汇总家电以旧换新政策的有效期", "--max-steps", "2", "--json"))
    has(task, {"report", "steps", "stopped_by", "citations", "latency_ms"}, "task")
    for s in task["steps"]:
        has(s, {"tool", "args", "ok"}, "task step")

    assert set(one(run("feedback", "--thread", answer["thread_id"], "--kind", "docs", "--rating", "-1", "--json"))) \
        == {"feedback_id"}
    week = one(run("review", "week", "--json"))
    has(week, {"week", "cases", "counts"}, "review week")
    for c in week["cases"]:
        has(c, CASE, "review case")
    case = next(c for c in week["cases"] if c["kind"] == "docs" and c["source"] == "thumbs_down")
    classified = one(run("review", "classify", case["id"], "--category", "生成失败", "--expected", "15%", "--json"))
    assert set(classified) == {"case"}
    has(classified["case"], CASE, "review classify")
    golden = one(run("review", "to-golden", case["id"], "--set", "weekly", "--json"))
    has(golden, {"golden", "set", "path"}, "review to-golden")
    assert golden["set"] == "weekly" and golden["golden"]["expect_answer_contains"] == ["15%"]

    result = one(run("eval", "--set", "weekly", "--json"))
    has(result, {"metrics", "per_case", "report", "run_id", "baseline", "regressions"}, "eval")
    assert len(result["per_case"]) == 1
