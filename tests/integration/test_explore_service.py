"""core.services.explore on the demo tenant graph (the bundled sample spreadsheets built as
tenant ``demo``): search, neighbourhoods with filters / cap / bundles, detail with masking,
locked finance records, schema view, shortest path, the CLI shapes, and an outsider."""

from __future__ import annotations

import json

import pytest

from core.errors import BadInputError, NotFoundError, PermissionDenied
from core.security.principals import Principal, Role
from core.services import explore as X
from tests.security.conftest import (GUEST, MANAGER, OUTSIDER, STAFF, demo, demo_home, dump,  # noqa: F401 - fixtures
                                     sample_values)

LIB, PERSON = "项目:XMSQ0102", "人员:KWL2012006"


def _ids(res: dict) -> set[str]:
    return {n["id"] for n in res["nodes"]}


def test_search_by_name_code_alias_partial_and_typo(demo):
    top = lambda text: X.search(MANAGER, text)["results"][0]["id"]  # noqa: E731
    assert top("青浦-区图书馆") == top("青浦区图书馆") == top("XMSQ0102") == top("区图书") == LIB
    assert top("青浦区图书管") == LIB  # typo
    assert top("刘德明") == top("KWL2012006") == PERSON
    assert top("青浦片区") == "片区:PQ01"
    assert top("1号客梯").startswith("设备:XMSQ0102|SB-0102-001")
    assert top("迅达电梯") == "供应商:上海迅达电梯有限公司"
    r = X.search(MANAGER, "刘德明")["results"][0]
    assert set(r) >= {"id", "label", "name", "key", "score"} and r["label"] == "人员" and r["key"] == "KWL2012006"
    assert X.search(MANAGER, "  ")["results"] == []


def test_project_neighbourhood_staff_area_parent_and_bundles(demo):
    res = X.neighbors(MANAGER, LIB, bundle_over=8)
    ids = _ids(res)
    assert {PERSON, "人员:KWL1801001", "片区:PQ01", "项目:XMSQ0100"} <= ids  # staff, 片区, parent (包含)
    assert any(e["type"] == "包含" and e["source"] == "项目:XMSQ0100" for e in res["edges"])
    names = {n["name"] for n in res["nodes"] if n.get("bundle")}
    assert names == {"+20 条考勤记录", "+16 条排班记录"}
    assert res["total_nodes"] == res["shown_nodes"] + res["bundled_nodes"] and not res["truncated"]
    assert all(e["provenance"] for e in res["edges"] if not e.get("bundle"))
    assert all(n["provenance"] for n in res["nodes"] if not n.get("bundle"))
    # renewal chain: 北斗园区 (XMSQ0152) 续签自 its previous contract period
    chain = X.neighbors(MANAGER, "项目:XMSQ0152", rels=["续签自"])
    assert _ids(chain) == {"项目:XMSQ0152", "项目:XMSQ0052"}


def test_expand_a_person_to_their_months_and_open_a_bundle(demo):
    res = X.neighbors(MANAGER, LIB, expand=[PERSON], bundle_over=8)
    months = sorted(n["properties"]["年月"] for n in res["nodes"] if n["label"] == "考勤" and PERSON[3:] in n["id"])
    assert months == ["2026-01", "2026-02", "2026-03", "2026-04"]
    opened = X.neighbors(MANAGER, LIB, bundle_over=8, open_bundles=["合并:项目:XMSQ0102:考勤"])
    assert sum(n["label"] == "考勤" for n in opened["nodes"]) == 20


def test_filters_cap_and_depth(demo):
    people = X.neighbors(MANAGER, LIB, labels=["人员"])
    assert {n["label"] for n in people["nodes"]} == {"项目", "人员"}
    march = X.neighbors(MANAGER, PERSON, months="2026-03:2026-03")
    assert {n["properties"].get("年月") for n in march["nodes"] if n["label"] in ("考勤", "排班月报", "财务")} == {"2026-03"}
    capped = X.neighbors(MANAGER, LIB, limit=10)
    assert len(capped["nodes"]) == 10 and capped["truncated"] and capped["total_nodes"] > 10
    assert capped["nodes"][0]["id"] == LIB and sum(capped["hidden_by_label"].values()) == capped["total_nodes"] - 10
    deep = X.neighbors(MANAGER, LIB, depth=2, limit=2000)
    assert deep["total_nodes"] > X.neighbors(MANAGER, LIB, limit=2000)["total_nodes"]
    assert "项目:XMSQ0103" in _ids(deep)  # the sibling under the same parent
    for bad in (dict(depth=3), dict(limit=0), dict(labels=["不存在"]), dict(rels=["x"]), dict(months="2026-3")):
        with pytest.raises(BadInputError):
            X.neighbors(MANAGER, LIB, **bad)
    with pytest.raises(BadInputError):
        X.neighbors(MANAGER, "XMSQ9999")


def test_guest_sees_the_same_graph_masked(demo):
    m, g = X.neighbors(MANAGER, PERSON), X.neighbors(GUEST, PERSON)
    assert _ids(m) == _ids(g) and len(m["edges"]) == len(g["edges"])
    secret = (sample_values("联系电话") | sample_values("身份证号码") | sample_values("出生日期")
              | sample_values("税后工资"))
    locked = {n["id"] for n in g["nodes"] if n["locked"]}
    open_edge = next(e for e in g["edges"] if not e.get("bundle") and not {e["source"], e["target"]} & locked)
    text = dump([g, X.node_detail(GUEST, PERSON), X.edge_detail(GUEST, open_edge["id"])])
    assert not [s for s in secret if s in text]
    d = X.node_detail(GUEST, PERSON)
    assert "联系电话" not in d["properties"] and "联系电话" in d["masked_fields"]
    assert d["source"]["values"]["联系电话"] == "（已隐藏）"
    assert X.node_detail(MANAGER, PERSON)["properties"]["联系电话"] in sample_values("联系电话")
    # finance records: drawn without values, no provenance, not expandable, not openable
    fin = [n for n in g["nodes"] if n["label"] == "财务"]
    assert len(fin) == 4 and all(n["locked"] and not n["properties"] and not n["provenance"] for n in fin)
    assert all(not e["provenance"] for e in g["edges"] if e["type"] == "月度财务")
    for who in (GUEST, STAFF):
        with pytest.raises(PermissionDenied):
            X.node_detail(who, fin[0]["id"])
        with pytest.raises(PermissionDenied):
            X.neighbors(who, fin[0]["id"])
    assert X.node_detail(MANAGER, fin[0]["id"])["properties"]


def test_schema_view_counts_and_completeness(demo):
    from core.services.ask_kg import kg_store

    view = X.schema_view(MANAGER)
    counts = kg_store(MANAGER).counts()
    assert {x["label"]: x["count"] for x in view["labels"]} == counts["nodes"]
    by_type: dict[str, int] = {}
    for e in view["edges"]:
        by_type[e["type"]] = by_type.get(e["type"], 0) + e["count"]
    assert by_type == {t: n for t, n in counts["edges"].items() if n}
    person = {r["field"]: r for r in view["completeness"]["人员"]}
    assert person["姓名"]["share"] == 1.0 and 0 < person["当前服务项目编号"]["share"] < 1


def test_shortest_path(demo):
    p = X.shortest_path(MANAGER, PERSON, "项目:XMSQ0052")
    assert p["hops"] == 3 and [n["id"] for n in p["nodes"]][0] == PERSON and p["nodes"][-1]["id"] == "项目:XMSQ0052"
    assert len(p["edges"]) == 3 and all(e["provenance"] for e in p["edges"])
    assert X.shortest_path(MANAGER, PERSON, PERSON)["hops"] == 0
    assert X.shortest_path(MANAGER, PERSON, "项目:XMSQ0052", max_hops=2) == {"nodes": [], "edges": [], "hops": None}


def test_outsider_and_reviewer_get_nothing(demo):
    assert X.search(OUTSIDER, "青浦区图书馆")["results"] == []
    with pytest.raises(NotFoundError):
        X.neighbors(OUTSIDER, LIB)
    with pytest.raises(NotFoundError):
        X.shortest_path(OUTSIDER, PERSON, LIB)
    assert X.schema_view(OUTSIDER)["empty"]
    with pytest.raises(PermissionDenied):
        X.search(Principal("rev", Role.reviewer, tenants=("demo",)), "青浦")


def test_cli_graph_commands(demo, capsys):
    from core.cli import main
    from core.services.users import add_user

    assert main(["graph", "search", "区图书馆", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"][0]["id"] == LIB
    assert main(["graph", "neighbors", LIB, "--label", "人员", "--limit", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"nodes", "edges", "total_nodes", "truncated"} and out["truncated"] and len(out["nodes"]) == 3
    assert set(out["nodes"][0]) >= {"id", "label", "name", "properties", "provenance"}
    assert set(out["edges"][0]) >= {"id", "type", "source", "target", "properties", "provenance"}
    assert main(["graph", "neighbors", PERSON, "--months", "2026-01:2026-02", "--depth", "2", "--json"]) == 0
    json.loads(capsys.readouterr().out)
    assert main(["graph", "path", PERSON, "项目:XMSQ0052", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["nodes"]) == 4 and len(out["edges"]) == 3
    assert main(["graph", "path", PERSON, "项目:XMSQ0052", "--max-hops", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == []
    add_user("guest_cli", "guest", "guest-pass-2026", tenants=["demo"])
    assert main(["graph", "neighbors", PERSON, "--user", "guest_cli", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    person = next(n for n in out["nodes"] if n["id"] == PERSON)
    assert person["properties"]["姓名"] == "刘德明" and "联系电话" not in person["properties"]
    assert main(["graph", "neighbors", "项目", "--json"]) == 2
    assert "标签:主键" in capsys.readouterr().err
