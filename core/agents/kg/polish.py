"""Which LLM rewording of a rules answer may be shown (LLM mode, the answer node).

The rules answer is built from the result rows only. A model's rewording is kept sentence by
sentence: a sentence survives only when every number and every known entity (project,
person, area, code) it names is already in the rules answer. A reply carrying a link, an
e-mail address or an instruction to the reader is refused whole, and so is one that lost the
headline (the numbers of the summary above "依据") or the source marks of the rules answer.
``None`` means: show the rules answer.
"""

from __future__ import annotations

import re
from typing import Iterable

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_LINK = re.compile(r"(?i)(https?://|www\.|\b[\w-]+\.(?:com|cn|net|org|io|top|xyz|info|gov)\b|[\w.+-]+@[\w-]+\.\w+)")
_SENTENCE = re.compile(r"[^。！？!?\n；;]+[。！？!?；;]?\n?|\n")
# wording that tells the reader to do something the data never asks for
INSTRUCTION_WORDS: tuple[str, ...] = (
    "点击", "访问", "登录", "登陆", "链接", "扫码", "二维码", "下载", "验证码", "密码", "转账", "汇款", "账户",
    "拨打", "致电", "联系客服", "请提供", "回复", "忽略", "系统提示", "click", "login", "password", "visit",
)


def numbers(text: str) -> set[str]:
    return set(_NUMBER.findall((text or "").replace(",", "")))


def _mentions(text: str, entities: Iterable[str]) -> set[str]:
    return {e for e in entities if e and e in text}


def supported_rewrite(rules_text: str, candidate: str, entities: Iterable[str] = ()) -> str | None:
    """The part of ``candidate`` that may replace ``rules_text``, or None."""
    cand = (candidate or "").strip()
    if not cand or _LINK.search(cand) or any(w in cand.lower() for w in INSTRUCTION_WORDS):
        return None
    entities = [str(e) for e in entities if e and len(str(e)) >= 2]
    allowed_numbers, allowed_entities = numbers(rules_text), _mentions(rules_text, entities)
    kept = [s for s in _SENTENCE.findall(cand)
            if numbers(s) <= allowed_numbers and _mentions(s, entities) <= allowed_entities]
    text = "".join(kept).strip()
    headline = rules_text.split("依据", 1)[0]
    if not text or not numbers(headline) <= numbers(text):
        return None
    if "〔" in rules_text and "〔" not in text:
        return None
    return text
