"""Building the bundled sample and the broken set through the service/CLI layer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.errors import PermissionDenied
from core.graph.builder import month_runs
from core.graph.store import close_graph_stores, get_graph_store
from core.security.principals import Principal, Role
from core.services import build as B

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "samples" / "business" / "config.json"
BROKEN = REPO / "data" / "samples" / "broken" / "config.json"
ADMIN = Principal("admin", Role.admin)
DEMO = "demo"


@pytest.fixture(autouse=True)
def _close_stores():
    yield
    close_graph_stores()


def test_month_runs():
    assert month_runs(["2026-02", "2025-12", "2026-01", "2026-04"]) == [("2025-12", "2026-02"), ("2026-04", "2026-04")]


def test_sample_builds_clean_and_idempotent(capsys):
    assert main(["build-graph", str(SAMPLE), "--json", "--strict", "--tenant", DEMO]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["errors"] == [] and first["warnings"] == []
    assert first["nodes"]["项目"] == 16 and first["nodes"]["人员"] == 34 and first["nodes"]["片区"] == 2
    assert first["edges"]["续签自"] == 2 and first["edges"]["包含"] == 2
    assert main(["build-graph", str(SAMPLE), "--json", "--tenant", DEMO]) == 0
    second = json.loads(capsys.readouterr().out)
    assert (second["nodes"], second["edges"]) == (first["nodes"], first["edges"])

    s = get_graph_store(tenant=DEMO)
    # seed 003: KWL2307024 = 赵巷镇政府 (2026-01~02) + 青浦-北斗园区 (2026-03~)
    hist = [(r["项目名称"], r["开始"], r["结束"]) for r in s.run_named("person_service_history", {"工号": "KWL2307024"})]
    assert hist == [("赵巷镇政府", "2026-01", "2026-02"), ("青浦-北斗园区", "2026-03", None)]
    # derived runs: one edge per unbroken run of months (gap in March → two edges)
    runs = [(r["开始"], r["结束"], r["依据"]) for r in s.run_named("person_service_history", {"工号": "KWL2506018"})]
    assert runs == [("2026-01", "2026-02", "考勤/排班推导"), ("2026-04", "2026-04", "考勤/排班推导")]
    march = s.run_named("overtime_over", {"从": "2026-03", "到": "2026-03", "最少小时": 20.0,
                                          "岗位列表": ["保安_领班", "保安_普保"]})
    assert len(march) == 3 and all(r["来源模板"] == "考勤与人员财务" and r["行号"] >= 2 for r in march)
    gap = s.run_named("projects_without_staff", {"从": "2026-04", "到": "2026-04"})
    assert [r["项目编号"] for r in gap] == ["XMSQ0125"]
    lib = s.run_named("project_profile", {"项目编号": "XMSQ0102"})[0]
    assert lib["项目名称"] == "青浦-区图书馆" and lib["负责人"] == "周建国"
    renew = s.run_named("renewal_chain", {"项目编号": "XMSQ0152"})
    assert [(r["项目编号"], r["服务状态"]) for r in renew] == [("XMSQ0052", "已结束")]
    # 员工层级 filled from 岗位字典 when empty
    levels = {r["工号"]: r["员工层级"] for r in s.run_named("staff_by_position")}
    assert None not in levels.values()


def test_broken_files_give_exactly_the_spec_errors(capsys):
    assert main(["build-graph", str(BROKEN), "--json", "--strict", "--clear"]) == 2
    out = json.loads(capsys.readouterr().out)
    errors = {(e["file"], e["row"], e["column"], e["reason"]) for e in out["errors"]}
    assert errors == {
        ("missing_column_项目信息.xlsx", 1, "项目负责人工号", "缺少模板必填字段：项目负责人工号"),
        ("bad_date_人员信息.xlsx", 3, "入职日期", "无法解析为日期（应为 YYYY-MM-DD）"),
        ("bad_enum_项目信息.xlsx", 2, "服务状态", "取值“进行中”无效，可选值：服务中、已结束、未开始"),
        ("not_a_workbook_排班月报.xlsx", None, None, "不是有效的 .xlsx 工作簿，无法读取"),
    }
    warnings = {(w["file"], w["row"], w["column"], w["value"]) for w in out["warnings"]}
    assert warnings == {("dangling_工号_人员证书.xlsx", 3, "工号", "KWL9999999"),
                        ("duplicate_key_岗位字典.xlsx", 5, "岗位名称", "项目经理")}
    dup = next(w for w in out["warnings"] if w["column"] == "岗位名称")
    assert "第 2 行" in dup["reason"] and "第 5 行" in dup["reason"]
    # the other files and rows still built: good projects + XMSQ0902, good staff + KWL2609901, both certificates
    assert out["nodes"]["项目"] == 17 and out["nodes"]["人员"] == 35 and out["nodes"]["证书"] == 2
    assert out["edges"]["持有"] == 1


def test_build_requires_admin():
    staff = Principal("u", Role.staff)
    with pytest.raises(PermissionDenied):
        B.build_from_config(staff, SAMPLE)
    with pytest.raises(PermissionDenied):
        B.clear_graph(staff)
    with pytest.raises(PermissionDenied):
        B.build_from_uploads(staff, {})


def test_upload_build_with_progress_and_dangling_reference():
    from core.graph.schema import template
    from core.graph.templates import template_workbook
    import io

    def xlsx(name, rows):
        buf = io.BytesIO()
        template_workbook(template(name), rows).save(buf)
        return buf.getvalue()

    phases = []
    out = B.build_from_uploads(ADMIN, {
        "项目信息": [("p.xlsx", xlsx("项目信息", [["XMSQ0102", "青浦-区图书馆"] + [None] * 21 + ["KWL1", None]]))],
        "人员信息": [("s.xlsx", xlsx("人员信息", [["张三", "KWL1", "项目经理"]]))],
        "项目片区关系": [("r.xlsx", xlsx("项目片区关系", [["XMSQ0102", "PQ09"]]))]},
        clear=True, progress=lambda phase, frac, msg: phases.append(phase))
    assert {"read", "nodes", "edges"} <= set(phases)
    assert out["edges"]["负责人"] == 1 and out["edges"]["属于片区"] == 0
    assert out["warnings"] == [{"template": "项目片区关系", "file": "r.xlsx", "row": 2, "column": "片区编号",
                                "reason": "引用的片区编号不存在，未建立关系", "value": "PQ09"}]
    table = B.issues_of(out)
    assert table["warnings"] == 1 and "PQ09" in B.issues_csv(table["issues"]).decode("utf-8")


def test_templates_cli(tmp_path, capsys):
    assert main(["templates", str(tmp_path / "t"), "--json"]) == 0
    written = json.loads(capsys.readouterr().out)["written"]
    assert len(written) == 15 and all(Path(p).is_file() for p in written)


def test_load_demo_graph():
    stats = B.load_demo_graph(clear=True)
    assert stats["nodes"]["考勤"] > 100 and stats["errors"] == []


def test_incremental_build_resolves_references_already_in_the_graph():
    B.load_demo_graph(clear=True)
    before = get_graph_store(tenant=DEMO).counts()
    att = REPO / "data" / "samples" / "business" / "07_考勤与人员财务_2026-03.xlsx"
    out = B.build_from_uploads(ADMIN, {"考勤与人员财务": [(att.name, att.read_bytes())]}, tenant=DEMO)
    assert out["errors"] == [] and out["warnings"] == []
    assert (out["nodes"], out["edges"]) == (before["nodes"], before["edges"])


def test_cli_human_summary(capsys):
    assert main(["build-graph", str(BROKEN), "--clear"]) == 0
    text = capsys.readouterr().out
    assert "构建完成" in text and "缺少模板必填字段：项目负责人工号" in text and "KWL9999999" in text


def test_bad_config_is_bad_input(tmp_path, capsys):
    bad = tmp_path / "c.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["build-graph", str(bad)]) == 2
    assert "不是有效的 JSON" in capsys.readouterr().err
    assert main(["build-graph", str(tmp_path / "missing.json")]) == 2


def test_incremental_months_extend_derived_runs_without_stale_edges(tmp_path):
    cfg = json.loads(SAMPLE.read_text(encoding="utf-8"))
    cfg.pop("排班月报")
    jan = cfg["考勤与人员财务"].pop(0)
    base = SAMPLE.parent
    part = tmp_path / "part.json"
    part.write_text(json.dumps({k: [str(base / f) for f in v] for k, v in cfg.items()}, ensure_ascii=False),
                    encoding="utf-8")
    B.build_from_config(ADMIN, part, tenant=DEMO, clear=True)
    s = get_graph_store(tenant=DEMO)
    hist = lambda: [(r["开始"], r["结束"]) for r in s.run_named("person_service_history", {"工号": "KWL2208011"})]  # noqa: E731
    assert hist() == [("2026-02", "2026-04")]
    out = B.build_from_uploads(ADMIN, {"考勤与人员财务": [(jan, (base / jan).read_bytes())]}, tenant=DEMO)
    assert out["warnings"] == [] and hist() == [("2026-01", "2026-04")]


def test_validate_uploads_reports_without_building():
    bad = (REPO / "data" / "samples" / "broken" / "bad_enum_项目信息.xlsx").read_bytes()
    out = B.validate_uploads(ADMIN, {"项目信息": [("bad_enum_项目信息.xlsx", bad)]}, tenant=DEMO)
    assert out["errors"] == 1 and out["records"] == {"项目信息": 1}
    (issue,) = out["issues"]
    assert (issue["level"], issue["row"], issue["column"], issue["value"]) == ("错误", 2, "服务状态", "进行中")
    assert B.graph_counts(ADMIN, tenant=DEMO)["nodes"]["项目"] == 0
