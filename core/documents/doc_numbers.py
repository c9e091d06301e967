"""文号 (document numbers): "济商务字〔2025〕6号", "国办发（2019）35号", "国令第711号" — found in
text and normalised to one spelling (``X〔YYYY〕N号``). Used by the metadata extractor
(:mod:`metadata`) and by the relation rules (:mod:`relations`) for the documents a sentence
names."""

from __future__ import annotations

import re

from core.documents.normalize import normalize_text

_YEAR_OPEN = "〔\\[【(（［{「"
_YEAR_CLOSE = "〕\\]】)）］}」"
RE_DOC_NUMBER = re.compile(
    f"([\u4e00-\u9fff]{{1,14}}?)\\s*[{_YEAR_OPEN}]\\s*((?:19|20)\\d{{2}})\\s*[{_YEAR_CLOSE}]\\s*(第?\\s*\\d{{1,5}})\\s*号"
)
_NUM_PREFIX_STOP = re.compile(r"^.*(?:印发|转发|根据|按照|依据|落实|关于|请问|查询|和|及|与|跟|同|、|的|是|在|见|对|由|按)(?=[\u4e00-\u9fff]{2,})")
# 国令第711号 style (no year): only a text that is one whole such number, since the issuer's start
# cannot be told in running text (依据中华人民共和国国务院令第76号)
RE_DOC_NUMBER_NOYEAR = re.compile(r"([\u4e00-\u9fff]{1,20}令)第(\d{1,5})号")


def normalize_doc_number(text: str) -> str:
    """The first 文号 in ``text`` in its one spelling; "" when there is none.

    "济商务字〔2025〕6 号" / "济商务字[2025]6号" / "鲁商字【2025】1号" / "发改办财金规〔2019〕第860号"
    -> "X〔YYYY〕N号"; a text that is one decree number, "国务院令第 707 号" -> "国务院令第707号"."""
    t = normalize_text(text)
    t = re.sub(r"\s+", "", t)
    m = RE_DOC_NUMBER.search(t)
    if not m:
        m2 = RE_DOC_NUMBER_NOYEAR.fullmatch(t)
        return f"{m2.group(1)}第{m2.group(2)}号" if m2 else ""
    num = m.group(3).lstrip("第").lstrip("0") or "0"
    return f"{m.group(1)}〔{m.group(2)}〕{num}号"


def find_doc_numbers(text: str) -> list[str]:
    """Every 文号 in a text, normalised, in order of appearance, without duplicates."""
    t = re.sub(r"\s+", "", normalize_text(text))
    out: list[str] = []
    for m in RE_DOC_NUMBER.finditer(t):
        prefix = m.group(1)
        # strip words glued before the issuer code: "印发国发" -> "国发", "（商办流通函" ok
        prefix = _NUM_PREFIX_STOP.sub("", prefix) or prefix
        num = m.group(3).lstrip("第").lstrip("0") or "0"
        dn = f"{prefix}〔{m.group(2)}〕{num}号"
        if dn not in out:
            out.append(dn)
    return out
