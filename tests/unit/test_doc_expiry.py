"""A campaign whose own text gives an end date in the past is 已到期 (expired), not 现行有效,
and never reaches 窗口咨询; today is injectable (the ``today`` setting, ZHICE_TODAY, or an argument)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from core import config
from core.documents.metadata import campaign_end, extract_metadata, today
from core.documents.models import DocMeta
from core.documents.parse import parse_file
from core.errors import ConfigError
from core.retrieval.filters import STATUS_LABELS, current_status, doc_allowed
from core.retrieval.metastore import compute_statuses
from core.security.principals import Principal, Role

POLICIES = Path(__file__).resolve().parents[2] / "data" / "samples" / "policies"


def test_campaign_end_from_the_notice_text():
    assert campaign_end("一、活动时间活动时间：自2025年5月1日至2025年6月30日（以发票时间为准）；"
                        "补贴申报时间：2025年5月12日10时至2025年7月15日24时；") == "2025-07-15"
    assert campaign_end("一、消费券发放时间2025年7月19日至2025年11月15日") == "2025-11-15"
    assert campaign_end("报告中所列数据统计期限自2023年1月1日起至2023年12月31日止") == ""


def test_real_campaign_notice_is_expired_after_its_period():
    doc = parse_file(POLICIES / "济南市2025年新车首保消费券活动公告.docx")
    later = extract_metadata(doc, today_=date(2026, 1, 1))
    assert later.expiry_date == "2025-07-15" and later.status == "expired"
    during = extract_metadata(doc, today_=date(2025, 6, 1))
    assert during.status == "in_effect"


@pytest.fixture
def fixed_day():
    """Sets the process settings' ``today`` (as ``ZHICE_TODAY`` would) and restores them."""
    def fix(day: str) -> None:
        config.set_settings(config.load_settings({"today": day}))
    yield fix
    config.set_settings(None)


def test_the_today_setting_decides_expired(fixed_day):
    doc = parse_file(POLICIES / "济南市2025年新车首保消费券活动公告.docx")
    meta = DocMeta("d", "d.docx", tenant="demo", expiry_date="2025-07-15")
    fixed_day("2025-06-01")
    assert today() == date(2025, 6, 1) and extract_metadata(doc).status == "in_effect"
    assert compute_statuses([meta])[0] == {"d": "in_effect"}
    fixed_day("2026-01-01")
    assert extract_metadata(doc).status == "expired"
    assert compute_statuses([meta])[0] == {"d": "expired"}


def test_the_env_var_still_fixes_the_day(monkeypatch):
    monkeypatch.setenv("ZHICE_TODAY", "2025-06-01")
    assert config.load_settings().today_date() == date(2025, 6, 1)
    monkeypatch.setenv("ZHICE_TODAY", "2025-13-01")
    with pytest.raises(ConfigError, match="ZHICE_TODAY"):
        config.load_settings()


def test_expired_is_its_own_status_and_leaves_window():
    m = DocMeta("d", "d.docx", tenant="demo", expiry_date="2025-07-15")
    status, _ = compute_statuses([m], date(2026, 1, 1))
    assert status == {"d": "expired"} and STATUS_LABELS["expired"] == "已到期"
    mgr = Principal("m", Role.manager, tenants=("demo",))
    stored_in_effect = DocMeta("d", "d.docx", tenant="demo", expiry_date="2025-07-15", status="in_effect")
    assert current_status(stored_in_effect, "2026-01-01") == "expired"   # passed since the last recompute
    assert not doc_allowed(stored_in_effect, mgr, "window") and doc_allowed(stored_in_effect, mgr, "research")
    assert re.search("已到期", STATUS_LABELS[current_status(stored_in_effect, "2026-01-01")])
