"""Graph explorer reads in the audit trail (issue #14): every search / open / expand / detail
(with the source row it served) / path is one ``explore.*`` event with the tenant and what the
viewer was shown, never a value the viewer's role hides; a page redrawing the same read is not a
second event, and a refusal is recorded."""

from __future__ import annotations

import json

import pytest

from core.errors import PermissionDenied
from core.security.principals import Principal, Role
from core.services import audit as audit_service
from core.services import explore as X
from tests.security.conftest import sample_values

ADMIN = Principal("audit_admin", Role.admin)
VIEWER = Principal("explorer_manager", Role.manager, tenants=("demo",))
GUEST = Principal("explorer_guest", Role.guest, tenants=("demo",))
LIB, PERSON = "项目:XMSQ0102", "人员:KWL2012006"


@pytest.fixture
def trail(demo, monkeypatch):
    """The explorer events of one user, oldest first, each with its full detail."""
    monkeypatch.setattr(X, "_recorded", {})

    def events(user: str) -> list[dict]:
        listed = audit_service.list_events(ADMIN, of=user, kind="explore")
        return [audit_service.event_detail(ADMIN, e["id"]) | {"summary": e["summary"]} for e in reversed(listed)]
    return events


def test_each_explorer_action_is_one_event_with_what_was_shown(trail):
    X.search(VIEWER, "青浦-区图书馆")
    shown = {n["id"]: n["name"] for n in X.neighbors(VIEWER, LIB, bundle_over=8)["nodes"]}
    X.neighbors(VIEWER, LIB, bundle_over=8)  # the page drawing itself again after another widget changed
    X.neighbors(VIEWER, LIB, expand=[PERSON], bundle_over=8)
    X.node_detail(VIEWER, PERSON)
    X.shortest_path(VIEWER, PERSON, "项目:XMSQ0052")
    events = trail(VIEWER.name)
    assert [e["kind"] for e in events] == ["explore.search", "explore.open", "explore.expand", "explore.detail",
                                           "explore.path"]
    assert all(e["tenant"] == "demo" and e["outcome"] == "ok" and e["user"] == VIEWER.name for e in events)
    search, opened, expanded, detail, path = (e["detail"] for e in events)
    assert search["found"] >= 1 and "青浦-区图书馆" in search["top"][0] and events[0]["target"] == "青浦-区图书馆"
    assert events[1]["target"] == LIB and opened["name"] == shown[LIB] and opened["total_nodes"] > 0
    assert shown[LIB] in events[1]["summary"] and "显示" in events[1]["summary"]
    assert expanded["expanded"] == [PERSON] and expanded["expanded_names"] == [shown[PERSON]]
    assert detail["source_row"]["template"] and detail["source_row"]["row"] >= 2 and "来源表格行" in events[3]["summary"]
    assert path["hops"] == 3 and path["path"][0] == shown[PERSON]


def test_the_trail_never_holds_what_the_viewer_may_not_see(trail):
    phones, ids = sample_values("联系电话"), sample_values("身份证号码")
    X.node_detail(GUEST, PERSON)  # the guest's source row has 联系电话 masked
    X.search(GUEST, sorted(ids)[0])  # someone typing an ID number into the search box
    finance = next(n["id"] for n in X.neighbors(GUEST, PERSON)["nodes"] if n["label"] == "财务")
    with pytest.raises(PermissionDenied):
        X.node_detail(GUEST, finance)
    events = trail(GUEST.name)
    assert [e["kind"] for e in events] == ["explore.detail", "explore.search", "explore.open", "explore.detail"]
    assert [e["outcome"] for e in events] == ["ok", "ok", "ok", "refused"]
    text = json.dumps(events, ensure_ascii=False)
    assert not [v for v in phones | ids if v in text]
    assert events[0]["detail"]["role"] == "guest" and events[0]["detail"]["source_row"]


def test_the_command_line_is_recorded_too(trail, capsys):
    from core.cli import main
    from core.services.users import add_user

    add_user("explorer_cli", "manager", "viewer-pass-2026", tenants=["demo"])
    assert main(["graph", "neighbors", LIB, "--user", "explorer_cli", "--json"]) == 0
    capsys.readouterr()
    [event] = trail("explorer_cli")
    assert event["kind"] == "explore.open" and event["target"] == LIB and event["detail"]["total_nodes"] > 0
