"""Timelines from every relation the documents state, on the real notices of the demo set:
the 济南市2025年新车首保消费券活动补充公告 says it supplements the 活动公告, so tracking the
campaign gives the 公告's own dates (发布 / 到期) and the 补充 event, each cited to the
sentence that carries it. Relations between tenants act only from a trusted issuer: until
the 公告's tenant trusts the 补充公告's, the supplement is not linked to it."""

from __future__ import annotations

import re
import shutil

import pytest

from core import config
from core.security.principals import Principal, Role, Scenario, resolve_user
from core.services import ingest
from core.services.task import run_task

NOTICE = "济南市2025年新车首保消费券活动公告.docx"
SUPPLEMENT = "济南市2025年新车首保消费券活动补充公告.docx"
TRACK = "跟踪济南市2025年新车首保消费券活动的变化"


@pytest.fixture(autouse=True)
def keyword_only(monkeypatch, tmp_path):
    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))  # BM25 + titles: no model
    config.set_settings(None)
    from core.llm.client import set_llm_override

    set_llm_override(None)


def _ingest(shared_data, tmp_path, name: str, tenant: str) -> str:
    src = tmp_path / tenant / name
    src.parent.mkdir(exist_ok=True)
    shutil.copy(shared_data / "policies" / name, src)
    return ingest.ingest_paths([src], resolve_user(None), tenant, approve=True)["documents"][0]["doc_id"]


def _timeline(res: dict) -> dict:
    return next(s for s in res["sections"] if s["kind"] == "timeline")


def _cited(cell: str, res: dict) -> list[dict]:
    by_n = {c["n"]: c for c in res["citations"]}
    return [by_n[int(n)] for n in re.findall(r"\[(\d+)\]", cell)]


def test_supplement_notice_appears_on_the_timeline(shared_data, tmp_path):
    notice = _ingest(shared_data, tmp_path, NOTICE, "demo")
    supplement = _ingest(shared_data, tmp_path, SUPPLEMENT, "demo")
    rels = ingest.get_document(resolve_user(None), notice)["relations"]
    assert [(r["from_doc"], r["kind"], r["to_doc"], r["label"]) for r in rels] == \
        [(supplement, "supplements", notice, "补充")]
    res = run_task(TRACK, resolve_user(None), llm=None)
    assert [s["tool"] for s in res["steps"]] == ["track_changes"] and res["steps"][0]["ok"]
    rows = _timeline(res)["rows"]
    events = {re.sub(r"\[\d+\]", "", r[2]): r for r in rows}
    assert "补充《济南市2025年新车首保消费券活动公告》" in events
    sup = events["补充《济南市2025年新车首保消费券活动公告》"]
    assert "补充公告" in sup[1] and sup[0] == "日期不详"  # the notice itself carries no date
    [cite] = _cited(sup[2], res)
    assert cite["file_name"] == SUPPLEMENT and "给予补充" in cite["quote"]
    due = events["到期"]
    assert due[0] == "2025-07-15" and "活动公告" in due[1]
    assert "2025年7月15日" in _cited(due[2], res)[0]["quote"]
    assert rows.index(due) < rows.index(sup)  # dated events first, in date order


def _researcher(*tenants: str) -> Principal:
    return Principal("r", Role.manager, tenants=tenants, scenario=Scenario.research, scenarios=(Scenario.research,))


def test_relation_across_tenants_needs_a_trusted_issuer(shared_data, tmp_path):
    admin = resolve_user(None)
    notice = _ingest(shared_data, tmp_path, NOTICE, "济南")
    supplement = _ingest(shared_data, tmp_path, SUPPLEMENT, "外部")
    assert ingest.get_document(admin, notice)["relations"] == []  # not linked: 外部 is not trusted by 济南
    ingest.set_trusted_issuers(admin, "济南", [{"issuer_tenant": "外部", "authority": ""}])
    both = _researcher("济南", "外部")
    assert [(r["from_doc"], r["to_doc"]) for r in ingest.get_document(both, notice)["relations"]] == \
        [(supplement, notice)]
    assert any(r[2].startswith("补充《") for r in _timeline(run_task(TRACK, both, llm=None))["rows"])
    jinan_only = _researcher("济南")
    assert ingest.get_document(jinan_only, notice)["relations"] == []  # the other end is not theirs
    res = run_task(TRACK, jinan_only, llm=None)
    rows = _timeline(res)["rows"]
    assert any(r[2].startswith("到期") for r in rows) and all("补充" not in "".join(r) for r in rows)
    assert all(c["file_name"] != SUPPLEMENT for c in res["citations"])
