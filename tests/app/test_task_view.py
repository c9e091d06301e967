"""任务 mode of the 政策问答 page (Streamlit AppTest): the request planned, the plan shown as a
table before anything runs, confirmed, run, and the report rendered with its gauges, steps,
citation cards and downloads; 👎 stored as feedback kind "task"."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import config

REPO = Path(__file__).resolve().parents[2]
JINAN = ("济南市2025年家电以旧换新补贴实施细则\n济商务字〔2025〕5号\n济南市商务局\n2025年1月20日\n"
         "第一条 补贴标准\n对个人消费者购买2级及以上能效产品，按最终销售价格的15%给予补贴，每件补贴不超过2000元。\n"
         "第二条 补贴资格领取\n个人消费者通过济南市“泉城购”服务平台完成实名认证，领取补贴资格后核销，享受支付立减。\n")
PROVINCE = ("山东省2025年家电以旧换新实施方案\n鲁商字〔2025〕1号\n山东省商务厅\n2025年1月20日\n"
            "一、补贴标准为上述产品最终销售价格的15%，每件补贴不超过2000元。\n"
            "二、补贴采用支付立减等方式，简化流程。补贴时间至2025年12月31日止。\n")


@pytest.fixture
def app(workspace, monkeypatch, tmp_path):
    from streamlit.testing.v1 import AppTest

    from core.security.principals import Principal, Role, resolve_user
    from core.services.ingest import ingest_paths

    monkeypatch.setenv("ZHICE_EMBED_MODEL", str(tmp_path / "no-model"))
    config.set_settings(None)
    for name, text in (("济南细则.txt", JINAN), ("省方案.txt", PROVINCE)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    ingest_paths([tmp_path / "济南细则.txt", tmp_path / "省方案.txt"], resolve_user(None), "demo", approve=True)
    at = AppTest.from_file(str(REPO / "pages" / "1_政策问答.py"), default_timeout=120)
    at.session_state["principal"] = Principal("admin", Role.admin)
    return at


def test_task_mode_plans_confirms_runs_and_reports(app):
    from core.storage.db import get_db

    app.run()
    assert not app.exception
    next(r for r in app.radio if r.label == "模式").set_value("任务").run()
    assert not app.exception and not app.chat_input  # the Q&A chat is not shown in task mode
    app.text_area[0].input("对比济南市和山东省家电以旧换新补贴的补贴标准和申领流程")
    next(b for b in app.button if b.label == "生成计划").click().run()
    assert not app.exception
    assert any("任务计划" in m.value for m in app.markdown)
    assert not any("任务报告" in m.value for m in app.markdown)  # nothing ran before the confirmation
    next(b for b in app.button if b.label == "确认执行").click().run()
    assert not app.exception
    report = next(m.value for m in app.markdown if "任务报告" in m.value)
    assert "| 文件 | 补贴标准 | 申领流程 |" in report and "[1]" in report
    assert any("步数" in p.proto.text for p in app.get("progress"))
    assert any(b.label == "查看原文" for b in app.button)
    next(t for t in app.text_input if t.label == "原因（可选）").input("缺少补贴范围")
    next(r for r in app.radio if r.label == "这个回答").set_value("down")
    next(b for b in app.button if b.label == "提交").click().run()
    assert not app.exception
    rows = get_db().query("SELECT rating, kind FROM feedback")
    assert rows and rows[-1]["kind"] == "task" and rows[-1]["rating"] == -1
