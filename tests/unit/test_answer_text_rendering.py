"""KG answers are plain text composed from graph values: shown with every line break and with
nothing in a value rendered as markdown (links, images, colours, maths, lists, headings)."""

from __future__ import annotations

import re

from components.chat import escape_markdown, plain_markdown


def test_every_line_is_kept_and_a_blank_line_starts_a_paragraph():
    text = "查询范围：青浦-区图书馆（XMSQ0102）；2026年3月。\n共 5 人。\n依据：\n1. 周建国\n\n注：数据时间覆盖"
    shown = plain_markdown(text)
    assert shown.split("\n\n")[0].split("  \n") == ["查询范围：青浦\\-区图书馆（XMSQ0102）；2026年3月。", "共 5 人。",
                                                     "依据：", "1\\. 周建国"]
    assert shown.split("\n\n")[1] == "注：数据时间覆盖"


def test_values_from_the_graph_render_as_text():
    nasty = "[点我](javascript:alert(1)) ![x](http://evil/x.png) :red[红] $x^2$ <img src=x> # 标题 *粗* `码` ~删~"
    shown = escape_markdown(nasty)
    assert not re.search(r"(?<!\\)[\[\]()!:$<>#*`~^=]", shown)  # every markup character escaped
    assert shown.replace("\\", "") == nasty  # nothing dropped: only escaped


def test_indentation_is_kept_without_becoming_a_code_block():
    assert escape_markdown("    - 子项") == "\u00a0\u00a0\u00a0\u00a0\\- 子项"
