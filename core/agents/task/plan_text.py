"""Plans and tool messages in a manager's words: each step as 操作 + 内容 (检索语句：…；发文机关：…),
document references as 第k步最相关的文件 / 第k步找到的文件, enum values by their labels — and
back, so an edited plan is read from the same Chinese text it was shown as. Nothing English,
no tool names, no JSON reaches the page; the plan that runs is still validated against the
tool schemas (core.agents.task.planner)."""

from __future__ import annotations

import re

from core.agents.task import rules
from core.agents.task.tools import REF, STATUS_LABELS, TOOLS
from core.errors import BadInputError

TOOL_LABELS = {"search_policy": "检索文件", "get_document_detail": "查看文件详情", "compare_documents": "逐项对比",
               "track_changes": "排时间线", "generate_summary": "逐份汇总"}
ARG_LABELS = {"query": "检索语句", "authority": "发文机关", "status": "文件状态", "doc_id": "文件", "doc_ids": "文件",
              "dimensions": "维度", "policy_name": "政策名称", "format": "汇总格式"}
REF_WORDS = {"top": "最相关的文件", "all": "找到的文件"}
_REF_TEXT = re.compile(r"第\s*(\d{1,2})\s*步(最相关的文件|找到的文件)")
_SEP = re.compile(r"[；;\n]+")
_LIST_SEP = re.compile(r"[、,，]+")


def ref_text(value: str) -> str:
    m = REF.fullmatch(value) if isinstance(value, str) else None
    return f"第{m.group(1)}步{REF_WORDS[m.group(2)]}" if m else str(value)


def _value_text(key: str, value) -> str:
    if key == "status":
        return STATUS_LABELS.get(value, value)
    if key == "format":
        return rules.summary_formats().get(value, value)
    if isinstance(value, list):
        return "、".join(ref_text(v) for v in value)
    return ref_text(value)


def args_text(args: dict) -> str:
    """检索语句：济南市家电以旧换新补贴；发文机关：济南市"""
    return "；".join(f"{ARG_LABELS.get(k, k)}：{_value_text(k, v)}" for k, v in (args or {}).items()
                    if v not in (None, "", []))


def step_text(step: dict) -> str:
    """检索文件（检索语句：…；发文机关：…）"""
    inner = args_text(step.get("args") or {})
    return TOOL_LABELS.get(step.get("tool"), "未知操作") + (f"（{inner}）" if inner else "")


def _parse_value(key: str, text: str):
    text = text.strip()
    if key == "status":
        by_label = {v: k for k, v in STATUS_LABELS.items() if k in ("in_effect", "repealed", "upcoming", "draft")}
        if text not in by_label:
            raise BadInputError(f"文件状态只能是：{'、'.join(by_label)}")
        return by_label[text]
    if key == "format":
        by_label = {v: k for k, v in rules.summary_formats().items()}
        if text not in by_label:
            raise BadInputError(f"汇总格式只能是：{'、'.join(by_label)}")
        return by_label[text]
    if key in ("doc_ids", "dimensions"):
        return [_ref_value(x) for x in _LIST_SEP.split(text) if x.strip()]
    return _ref_value(text) if key == "doc_id" else text


def _ref_value(text: str) -> str:
    m = _REF_TEXT.fullmatch(text.strip())
    if not m:
        return text.strip()
    return f"${m.group(1)}.{'top' if m.group(2) == REF_WORDS['top'] else 'all'}"


def parse_step(operation: str, content: str) -> dict:
    """One plan step from its 操作 label and 内容 text; BadInputError (in Chinese) otherwise."""
    tool = next((t for t, label in TOOL_LABELS.items() if label == (operation or "").strip()), None)
    if tool is None:
        raise BadInputError(f"操作只能是：{'、'.join(TOOL_LABELS.values())}")
    fields = list(TOOLS[tool].args_model.model_fields)
    by_label = {ARG_LABELS[f]: f for f in fields}
    args: dict = {}
    for part in _SEP.split(content or ""):
        if not part.strip():
            continue
        m = re.match(r"\s*([^:：]+)[:：](.*)", part, re.S)
        key = by_label.get(m.group(1).strip()) if m else None
        if key is None:
            raise BadInputError(f"“{TOOL_LABELS[tool]}”的内容请写成“项目：值”，可填写：{'、'.join(by_label)}")
        args[key] = _parse_value(key, m.group(2))
    return {"tool": tool, "args": args}


def humanize(text: str) -> str:
    """A tool or validation message in a manager's words: tool and argument names, document
    references and enum values replaced by their Chinese labels."""
    out = REF.sub(lambda m: ref_text(m.group(0)), text or "")
    words = {**TOOL_LABELS, **ARG_LABELS, **STATUS_LABELS, **rules.summary_formats()}
    for word in sorted(words, key=len, reverse=True):
        out = re.sub(rf"(?<![A-Za-z_]){re.escape(word)}(?![A-Za-z_])", words[word], out)
    return out
