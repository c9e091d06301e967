"""设置与状态: an administrator sets the issuers a tenant trusts, and core stores them."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.security.principals import Principal, Role
from core.services import ingest

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "9_设置与状态.py")
ADMIN = Principal("admin", Role.admin)


def test_admin_saves_trusted_issuers_for_a_tenant():
    from core.security.principals import UserStore

    UserStore().add("admin", "admin", "Adm1n-long-pass-2026")  # the signed-in administrator exists
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state["principal"] = ADMIN
    at.run()
    assert not at.exception
    next(t for t in at.text_input if t.label == "租户").input("jinan")
    next(t for t in at.text_area if t.label == "可信发文方").input("shandong:山东省商务厅")
    next(b for b in at.button if b.label == "保存").click().run()
    assert not at.exception
    assert ingest.trusted_issuers(ADMIN, "jinan") == [{"issuer_tenant": "shandong", "authority": "山东省商务厅"}]
