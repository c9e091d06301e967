"""The 政策问答 page renders a turn end to end (Streamlit AppTest, empty workspace → the
question is refused with a clear message) and stores 有帮助/没帮助 feedback."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


class _EmptyIndex:
    """No documents indexed (keeps the embedding model out of this UI test)."""

    def search(self, query, principal, k=10, *, scenario=None, doc_ids=None):
        from core.retrieval.index import SearchResult

        return SearchResult([], ["没有可检索的文档（按当前账号的租户、业务域和有效性范围）"], 0.1, False)

    def list_docs(self):
        return []


@pytest.fixture
def app(workspace, monkeypatch):
    from streamlit.testing.v1 import AppTest

    import core.retrieval.index as index_module

    monkeypatch.setattr(index_module, "get_index", lambda: _EmptyIndex())

    from core.security.principals import Principal, Role

    at = AppTest.from_file(str(REPO / "pages" / "1_政策问答.py"), default_timeout=60)
    at.session_state["principal"] = Principal("admin", Role.admin)
    return at


def test_page_answers_refuses_and_records_feedback(app):
    from core.storage.db import get_db

    app.run()
    assert not app.exception
    app.chat_input[0].set_value("北京市人才引进落户需要满足什么条件？").run()
    assert not app.exception
    warnings = [w.value for w in app.warning]
    assert any("暂未查到" in w for w in warnings)
    assert any("推理过程" in e.label for e in app.expander)
    next(t for t in app.text_input if t.label == "原因（可选）").input("没有找到")
    next(r for r in app.radio if r.label == "这个回答").set_value("down")
    next(b for b in app.button if b.label == "提交").click().run()
    assert not app.exception
    rows = get_db().query("SELECT rating, reason, kind FROM feedback")
    assert rows and rows[-1]["rating"] == -1 and rows[-1]["kind"] == "docs" and rows[-1]["reason"] == "没有找到"
