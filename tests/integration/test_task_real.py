"""The issue's "done when" requests in rules mode on the real policy documents (the two 家电
以旧换新 PDFs of shared/data/policies plus two other 2025 notices as distractors), ingested
ONCE per module into a workspace (keyword + title retrieval, so no embedding model is
needed): a correct comparison table cited to the right documents and pages, and a cited list
of validity dates; the CLI prints the contract shape."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from core import config

REPO = Path(__file__).resolve().parents[2]
JINAN = "关于印发《济南市2025年家电以旧换新补贴实施细则》的通知(1).pdf"
PROVINCE = "省商务厅等4部门关于印发《山东省2025年家电以旧换新实施方案》的通知.pdf"
OTHERS = ["2025年政府汽车消费补贴活动公告.docx", "2025年济南市“泉城购”零售、餐饮消费券发放活动公告.docx"]
COMPARE = "对比济南市和山东省家电以旧换新补贴的补贴标准和申领流程"
VALIDITY = "汇总山东省2025年以旧换新相关政策的有效期"


@pytest.fixture(scope="module")
def task_home(tmp_path_factory, shared_data, model_cache) -> Path:
    home = tmp_path_factory.mktemp("task_policies")
    keys = ("ZHICE_HOME", "ZHICE_MODEL_CACHE", "ZHICE_LLM_API_KEY", "ZHICE_EMBED_MODEL")
    saved = {k: os.environ.get(k) for k in keys}
    os.environ.update({"ZHICE_HOME": str(home), "ZHICE_MODEL_CACHE": str(model_cache),
                       "ZHICE_EMBED_MODEL": str(home / "no-model")})
    os.environ.pop("ZHICE_LLM_API_KEY", None)
    config.set_settings(None)
    try:
        from core.security.principals import resolve_user
        from core.services.ingest import ingest_paths

        files = [shared_data / "policies" / n for n in (JINAN, PROVINCE, *OTHERS)]
        report = ingest_paths(files, resolve_user(None), "demo", approve=True)
        assert len(report["documents"]) == 4, report["errors"]
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        config.set_settings(None)
    return home


@pytest.fixture(autouse=True)
def _use_home(task_home, workspace, monkeypatch):
    monkeypatch.setenv("ZHICE_HOME", str(task_home))
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(task_home / "no-model"))
    config.set_settings(None)
    from core.llm.client import set_llm_override

    set_llm_override(None)
    yield
    config.set_settings(None)


def _cell(section: dict, file_word: str, column: str) -> str:
    row = next(r for r in section["rows"] if file_word in r[0])
    return row[section["columns"].index(column)]


def _cited_files(cell: str, citations: list[dict]) -> set[str]:
    by_n = {c["n"]: c for c in citations}
    return {by_n[int(n)]["file_name"] for n in re.findall(r"\[(\d+)\]", cell)}


def test_compare_request_gives_cited_table():
    from core.security.principals import resolve_user
    from core.services.task import run_task

    res = run_task(COMPARE, resolve_user(None))
    assert res["stopped_by"] is None and all(s["ok"] for s in res["steps"])
    assert res["kind"] == "compare" and res["mode"] == "rules"
    table = res["sections"][0]
    assert table["kind"] == "table" and table["columns"] == ["文件", "补贴标准", "申领流程"]
    assert len(table["rows"]) == 2
    jn_std, sd_std = _cell(table, "济南市", "补贴标准"), _cell(table, "山东省", "补贴标准")
    for cell in (jn_std, sd_std):
        assert "15%" in cell and "5%" in cell and "2000元" in cell
    assert _cited_files(jn_std, res["citations"]) == {JINAN}
    assert _cited_files(sd_std, res["citations"]) == {PROVINCE}
    jn_flow, sd_flow = _cell(table, "济南市", "申领流程"), _cell(table, "山东省", "申领流程")
    assert "泉城购" in jn_flow and "实名认证" in jn_flow and "核销" in jn_flow
    assert _cited_files(jn_flow, res["citations"]) == {JINAN}
    assert "支付立减" in sd_flow and _cited_files(sd_flow, res["citations"]) == {PROVINCE}
    for row in table["rows"]:  # every cell has its [n] or says 未规定
        assert all(re.search(r"\[\d+\]", c) or c == "未规定" for c in row[1:])
    for c in res["citations"]:
        assert c["quote"] and c["page"] and c["file_name"] in (JINAN, PROVINCE)
    jn_cite = next(c for c in res["citations"] if "15%" in c["quote"] and c["file_name"] == JINAN)
    assert jn_cite["page"] == 4 and jn_cite["heading"].startswith("第二条")


def test_validity_request_gives_cited_list_with_dates():
    from core.security.principals import resolve_user
    from core.services.task import run_task

    res = run_task(VALIDITY, resolve_user(None))
    assert res["stopped_by"] is None and [s["tool"] for s in res["steps"]] == ["search_policy", "generate_summary"]
    section = res["sections"][0]
    assert section["title"] == "有效期与状态"
    files = {c["file_name"] for c in res["citations"]}
    assert files == {JINAN, PROVINCE}  # the two 以旧换新 documents, not the car / voucher notices
    rows = ["".join(r) for r in section["rows"]]
    assert any("山东省" in r and "2025年12月31日" in r and re.search(r"\[\d+\]", r) for r in rows)
    assert any("济南市" in r and "2025-01-20" in r and re.search(r"\[\d+\]", r) for r in rows)
    assert any("济南市" in r and "资金使用完毕即活动结束" in r for r in rows)
    assert all(re.search(r"\[\d+\]", r[2]) or r[2] == "未规定" for r in section["rows"])
    assert all(r[3] == "现行有效" for r in section["rows"])


def test_cli_task_json(tmp_path, task_home):
    env = {**os.environ, "ZHICE_HOME": str(task_home), "ZHICE_EMBED_MODEL": str(task_home / "no-model")}
    out_xlsx = tmp_path / "r.xlsx"
    proc = subprocess.run([sys.executable, "-m", "core.cli", "task", COMPARE, "--json", "--out-xlsx", str(out_xlsx)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert set(res) >= {"report", "steps", "stopped_by", "citations", "latency_ms"}
    assert [s["tool"] for s in res["steps"]] == ["search_policy", "search_policy", "compare_documents"]
    assert res["stopped_by"] is None and "| 文件 | 补贴标准 | 申领流程 |" in res["report"]
    assert out_xlsx.stat().st_size > 0
