"""The task plan as a manager reads and edits it: every rules plan shown as 操作 + 内容 in
Chinese (no tool names, no JSON, no $k references) and read back to the same plan; an edit
in the same words becomes a plan that validates; a wrong edit is answered in Chinese; tool
and validation messages are put into the same words."""

from __future__ import annotations

import re

import pytest

from core.agents.task import rules
from core.agents.task.planner import validate_plan
from core.errors import BadInputError
from core.services.task import humanize, plan_from_rows, plan_rows, step_text

ENGLISH = re.compile(r"[A-Za-z_$]{3,}|\$\d|[{}\[\]\"]")


@pytest.mark.parametrize("row", rules.rules()["request_kinds"], ids=lambda r: r["kind"])
def test_every_rules_plan_reads_in_chinese_and_back(row):
    plan = rules.plan_offline(rules.parse_request(row["example"]))
    rows = plan_rows(plan)
    for r in rows:
        assert not ENGLISH.search(r["操作"] + r["内容"] + r["说明"]), r
    assert [{"tool": s["tool"], "args": s["args"]} for s in plan_from_rows(rows)] == \
        [{"tool": s["tool"], "args": s["args"]} for s in plan]


def test_an_edit_in_plain_words_becomes_a_valid_plan():
    rows = [{"操作": "检索文件", "内容": "检索语句：济南市家电以旧换新补贴；发文机关：济南市；文件状态：现行有效"},
            {"操作": "", "内容": ""},  # an added row left empty
            {"操作": "逐份汇总", "内容": "文件：第1步找到的文件；汇总格式：条件与材料清单", "说明": "列清单"}]
    plan = plan_from_rows(rows)
    assert plan == [{"tool": "search_policy", "args": {"query": "济南市家电以旧换新补贴", "authority": "济南市",
                                                       "status": "in_effect"}, "note": ""},
                    {"tool": "generate_summary", "args": {"doc_ids": ["$1.all"], "format": "checklist"},
                     "note": "列清单"}]
    assert validate_plan(plan) == []
    assert step_text(plan[1]) == "逐份汇总（文件：第1步找到的文件；汇总格式：条件与材料清单）"


@pytest.mark.parametrize("row, message", [
    ({"操作": "删除文件", "内容": "文件：第1步找到的文件"}, "操作只能是：检索文件、查看文件详情"),
    ({"操作": "检索文件", "内容": "城市：济南"}, "可填写：检索语句、发文机关、文件状态"),
    ({"操作": "检索文件", "内容": "检索语句：补贴；文件状态：有效"}, "文件状态只能是：现行有效、已废止"),
    ({"操作": "逐份汇总", "内容": "文件：第1步找到的文件；汇总格式：PDF"}, "汇总格式只能是：要点摘要"),
])
def test_a_wrong_edit_is_answered_in_chinese(row, message):
    with pytest.raises(BadInputError) as err:
        plan_from_rows([{"操作": "检索文件", "内容": "检索语句：补贴"}, row])
    assert err.value.user_message.startswith("第 2 步：") and message in err.value.user_message


def test_messages_in_a_managers_words():
    text = humanize("第 1 步：search_policy 参数无效：status：status 的取值“old”无效，可选值：in_effect、repealed；"
                    "前序步骤未找到相关文件（$1.top）；track_changes 超过 5 秒未完成")
    assert text == ("第 1 步：检索文件 参数无效：文件状态：文件状态 的取值“old”无效，可选值：现行有效、已废止；"
                    "前序步骤未找到相关文件（第1步最相关的文件）；排时间线 超过 5 秒未完成")
