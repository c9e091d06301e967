"""The 文档库 page (Streamlit AppTest): lists documents, shows chunks, runs the status lifecycle."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import config

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def app(workspace, monkeypatch, tmp_path):
    from streamlit.testing.v1 import AppTest

    from core.security.principals import resolve_user
    from core.services import ingest

    monkeypatch.setenv("ZHICE_DENSE_TIMEOUT_MS", "120000")
    config.set_settings(None)
    doc = tmp_path / "示范办法.txt"
    doc.write_text("济南市示范补贴办法\n济商务字〔2025〕8号\n济南市商务局\n2025年3月1日\n一、对示范企业一次性奖励20万元。",
                   encoding="utf-8")
    admin = resolve_user(None)
    report = ingest.ingest_paths([doc], admin, "济南", approve=True)
    at = AppTest.from_file(str(REPO / "pages" / "2_文档库.py"), default_timeout=120)
    at.session_state["principal"] = admin
    return at, admin, report["documents"][0]["doc_id"]


def test_page_lists_shows_chunks_and_changes_status(app):
    from core.services import ingest

    at, admin, doc_id = app
    at.run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert list(table["文号"]) == ["济商务字〔2025〕8号"] and list(table["状态"]) == ["现行有效"]
    assert any("一次性奖励20万元" in t.value for t in at.text)
    next(b for b in at.button if b.label == "设为已废止").click().run()
    assert not at.exception, at.exception
    assert ingest.get_document(admin, doc_id)["meta"]["status"] != "repealed"  # destructive: asks first
    next(b for b in at.button if b.label == "确认废止").click().run()
    assert not at.exception, at.exception
    assert ingest.get_document(admin, doc_id)["meta"]["status"] == "repealed"
    assert list(at.dataframe[0].value["状态"]) == ["已废止"]
