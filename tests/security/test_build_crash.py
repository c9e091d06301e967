"""kill -9 during ``build-graph --clear`` (issue #10, finding 5): a real build process killed
while it writes leaves the previous graph, and the KG agent still answers correctly — never a
half-empty graph that answers "数据中未找到". (The contract suite kills builds at every step on
both backends; this is the attack as a user meets it.)"""

from __future__ import annotations

from datetime import date

from core.config import get_settings
from core.security.principals import Principal, Role
from core.services.ask_kg import ask_kg
from core.services.build import load_demo_graph
from tests.contracts.graph_contract import SAMPLE_CONFIG, TenancyContract

MANAGER = Principal("manager_a", Role.manager, tenants=("demo",))
QUESTION = "青浦-区图书馆2026年3月有多少人出勤？"


def test_a_killed_clear_build_leaves_a_graph_that_still_answers():
    load_demo_graph(clear=True, tenant="demo")
    before = ask_kg(QUESTION, principal=MANAGER, today=date(2026, 11, 30), auto=True)
    assert "共 5 人" in before["answer"]
    for moment in ("run:nodes", "run:edges"):
        TenancyContract()._kill_at(get_settings(), moment, SAMPLE_CONFIG, clear=True, tenant="demo")
        after = ask_kg(QUESTION, principal=MANAGER, today=date(2026, 11, 30), auto=True)
        assert after["answer"] == before["answer"] and after["provenance"] == before["provenance"], moment
