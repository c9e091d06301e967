"""出生日期 is personal data: sensitive for staff and guest like 身份证号码. A 年龄 derived from a
hidden 出生日期 must not be revealed either (nor used to pick people by age). Checked at the
service level (core.services.ask_kg.ask_kg) over the bundled sample graph."""

from __future__ import annotations

import re
from datetime import date

import pytest

from core.graph.schema import SENSITIVE_FIELDS
from core.security.masking import strip_sensitive
from core.security.principals import Principal, Role
from core.services.ask_kg import ask_kg

TODAY = date(2026, 11, 30)
PERSON, AGE = "秦家豪", "27岁"  # data/eval/kg_golden.jsonl k-478 (admin)


def test_birth_date_is_a_sensitive_field():
    assert "出生日期" in SENSITIVE_FIELDS and "身份证号码" in SENSITIVE_FIELDS
    rows, removed = strip_sensitive([{"姓名": PERSON, "出生日期": "1999-05-01"}], Principal("s", Role.staff))
    assert rows == [{"姓名": PERSON}] and removed == ["出生日期"]


@pytest.fixture
def kg(demo):
    """The demo workspace's graph (tenant demo), built by the real build service."""
    return demo


def _ask(q: str, role: Role) -> str:
    r = ask_kg(q, principal=Principal(f"u_{role.value}", role, tenants=("demo",)), auto=True, today=TODAY)
    return r["answer"] + " " + " ".join(str(row) for row in r.get("rows") or [])


def test_roles_that_may_see_birth_dates_still_get_ages(kg):
    assert AGE in _ask(f"{PERSON}今年多大", Role.admin)


@pytest.mark.parametrize("role", [Role.staff, Role.guest])
def test_staff_and_guest_never_see_a_birth_date(kg, role):
    admin_view = _ask(f"{PERSON}的出生日期是哪天？", Role.admin)
    born = re.search(r"(19|20)\d{2}-\d{2}-\d{2}", admin_view.split("入职日期")[0] if "出生日期" not in admin_view
                     else admin_view[admin_view.index("出生日期"):])
    assert born, admin_view
    out = _ask(f"{PERSON}的出生日期是哪天？", role)
    assert born.group(0) not in out and "出生日期': '" not in out, out


@pytest.mark.parametrize("role", [Role.staff, Role.guest])
def test_staff_and_guest_never_see_an_age_derived_from_a_hidden_birth_date(kg, role):
    out = _ask(f"{PERSON}今年多大", role)
    assert AGE not in out and not re.search(r"\d{2}\s*岁", out), out
    out = _ask("30岁以下的员工有哪些", role)
    assert PERSON not in out, out
