"""The policy documents of shared/data ingested ONCE per test session (the scanned PDF left
out to avoid OCR cost), for every integration test that asks them questions."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core import config

# the golden questions were written while every campaign in the set was running: answer them as
# of that day (campaigns whose own period has ended since are 已到期 and leave 窗口咨询)
AS_OF = "2025-04-15"
SCANNED = "山东省商务厅等5部门关于印发《山东省手机、平板、智能手表（手环）购新补贴实施细则》的通知.pdf"


@pytest.fixture(scope="session")
def policy_home(tmp_path_factory, shared_data, model_cache) -> Path:
    home = tmp_path_factory.mktemp("rag_policies")
    saved = {k: os.environ.get(k) for k in ("ZHICE_HOME", "ZHICE_MODEL_CACHE", "ZHICE_LLM_API_KEY", "ZHICE_TODAY")}
    os.environ["ZHICE_HOME"] = str(home)
    os.environ["ZHICE_TODAY"] = AS_OF
    os.environ["ZHICE_MODEL_CACHE"] = str(model_cache)
    os.environ.pop("ZHICE_LLM_API_KEY", None)
    config.set_settings(None)
    try:
        from core.security.principals import resolve_user
        from core.services.ingest import ingest_paths

        files = sorted(p for p in (shared_data / "policies").iterdir()
                       if p.suffix.lower() in (".pdf", ".docx") and p.name != SCANNED)
        report = ingest_paths(files, resolve_user(None), "demo", approve=True)
        assert len(report["documents"]) >= 10, report["errors"]
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        config.set_settings(None)
    return home


@pytest.fixture
def in_policy_home(policy_home, workspace, monkeypatch):
    """This test asks on the session's policy workspace, rules mode, as of AS_OF."""
    monkeypatch.setenv("ZHICE_HOME", str(policy_home))
    monkeypatch.setenv("ZHICE_TODAY", AS_OF)
    config.set_settings(None)
    from core.llm.client import set_llm_override

    set_llm_override(None)
    yield
    set_llm_override(None)
    config.set_settings(None)


def ask_policy(question: str) -> dict:
    """ask-docs as the default user on a fresh thread."""
    from core.security.principals import resolve_user
    from core.services.ask_docs import ask_docs

    return ask_docs(question, resolve_user(None))


def assert_answered_with(res: dict, *needles: str) -> None:
    """An answer, not a refusal, holding each needle (compared as the agent normalises text),
    every claim cited with a quote."""
    from core.agents.rag.textutil import norm

    assert not res["refused"], res["answer"]
    for n in needles:
        assert norm(n) in norm(res["answer"]), (n, res["answer"])
    assert res["citations"] and all(c["quote"] for c in res["citations"])


def assert_refused_saying(res: dict, *needles: str) -> None:
    """A refusal ("暂未查到…", no citations) that names each needle: what was not found."""
    from core.agents.rag.textutil import norm

    assert res["refused"], res["answer"]
    assert res["answer"].startswith("暂未查到"), res["answer"]
    assert not res["citations"]
    for n in needles:
        assert norm(n) in norm(res["answer"]), (n, res["answer"])
