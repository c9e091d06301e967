"""Government organisation names compared as the same organisation or not.

The knowledge is data (data/rules/org_aliases.json): canonical bodies with their abbreviations
(发改委 / 发展改革委 → 发展和改革委员会), generic rules applied to every body (和 dropped,
委员会 ↔ 委, 政府 → 人民政府), role words that name an organisation through its level
(各市商务主管部门 → 市商务局), level words and known places. A name is read as
``(place, level, body)``: 济南市市场监督管理局 → (济南, 市, 市场监督管理局); 局 and 厅 (a city's and
a province's bureau) are never merged, so 省商务厅 and 市商务局 stay two organisations.

:func:`canonical_org` gives one comparable string; :func:`org_mentions` finds the organisations a
sentence names (only bodies the table knows: an unknown name is never the basis of a conflict);
:func:`same_org` treats a place or level a name leaves unsaid as matching any."""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

ORG_FILE = Path(__file__).resolve().parents[2] / "data" / "rules" / "org_aliases.json"


class OrgKey(NamedTuple):
    place: str   # 济南 / 山东 / "" when not named (or stripped as the place at hand)
    level: str   # 国家 / 省 / 市 / 区 / 县 / ""
    body: str    # canonical body: 发展和改革委员会, 商务局, 人民政府办公室 …


@lru_cache(maxsize=1)
def org_rules() -> dict:
    return json.loads(ORG_FILE.read_text(encoding="utf-8"))


def _clean(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text or ""))


def _variants(name: str) -> set[str]:
    """Every way the generic rules let ``name`` be written."""
    g = org_rules()["generic"]
    out = {name}
    for ch in g["drop_inner"]:
        out |= {v.replace(ch, "") for v in out}
    for long, short in g["long_short"]:
        out |= {v[: -len(long)] + short for v in out if v.endswith(long)}
        out |= {v[: -len(short)] + long for v in out if v.endswith(short) and not v.endswith(long)}
    for short, full in g["prefix_fill"]:
        out |= {v.replace(full, short) for v in out if full in v}
    return {v for v in out if len(v) >= 2}


@lru_cache(maxsize=1)
def _table() -> dict[str, tuple[str, str]]:
    """written form → ("body", canonical) or ("role", role word)."""
    rules = org_rules()
    out: dict[str, tuple[str, str]] = {}
    for canonical, row in rules["bodies"].items():
        for written in (canonical, *row.get("aliases", [])):
            for v in _variants(written):
                out.setdefault(v, ("body", canonical))
    for role in rules["role_bodies"]:
        out[role] = ("role", role)
    return out


@lru_cache(maxsize=1)
def _mention_re() -> re.Pattern:
    forms = sorted(_table(), key=len, reverse=True)
    office = "|".join(org_rules()["suffixes"]["office"])
    return re.compile(f"(?P<body>{'|'.join(map(re.escape, forms))})(?P<office>{office})?(?!门)")


def _levels() -> dict[str, str]:
    return {k: v for k, v in org_rules()["levels"]["words"].items()}


def _places() -> dict[str, str]:
    return org_rules()["levels"]["places"]


def _place_core(place: str) -> str:
    return re.sub(r"(省|市|区|县|自治区)$", "", place or "")


def _resolve(body: str, office: str, level: str) -> tuple[str, str] | None:
    """(canonical body, level) of a written body, or None when the table does not know it."""
    hit = _table().get(body)
    if hit is None:
        return None
    kind, name = hit
    if kind == "role":
        name = org_rules()["role_bodies"][name].get(level) or name
    if name in org_rules().get("national", {}).get("bodies", []):
        level = "国家"
    return name + (office or ""), level


def _split_prefix(name: str) -> tuple[str, str, str]:
    """(place, level, rest) of a whole organisation name: 淮安市洪泽区人民政府办公室 →
    (洪泽, 区, 人民政府办公室); 各市发展改革委 → ("", 市, 发展改革委)."""
    place, level, rest = "", "", name
    levels = sorted(_levels(), key=len, reverse=True)
    places = sorted(_places(), key=len, reverse=True)
    changed = True
    while changed and rest:
        changed = False
        if _table().get(rest) or _mention_re().fullmatch(rest):
            break  # 市场监督管理局 is a body, not 市 + 场监督管理局
        for p in places:
            if rest.startswith(p):
                place, level, rest, changed = p, _places()[p], rest[len(p):], True
                break
        else:
            m = re.match(r"([\u4e00-\u9fff]{2,4}?)(省|市|自治区|区|县)(?=.)", rest)
            if m and _mention_re().match(rest[m.end():]):
                place, rest, changed = m.group(1), rest[m.end() - len(m.group(2)):], True
        for w in levels:
            if rest.startswith(w) and len(rest) > len(w) and not (_table().get(rest) or _mention_re().fullmatch(rest)):
                level, rest, changed = _levels()[w], rest[len(w):], True
                break
    return place, level, rest


def _generic_body(rest: str) -> str:
    """A body the table does not know, written one way (和 dropped, 委 → 委员会, 政府 → 人民政府)."""
    g = org_rules()["generic"]
    out = rest
    for ch in g["drop_inner"]:
        out = out.replace(ch, "")
    for long, short in g["long_short"]:
        if out.endswith(short) and not out.endswith(long):
            out = out[: -len(short)] + long
    for short, full in g["prefix_fill"]:
        out = re.sub(f"(?<!{full[: len(full) - len(short)]}){short}", full, out)
    return out


def org_key(name: str, place: str | None = None) -> OrgKey:
    """``name`` as (place, level, canonical body). The place prefix is kept only when it names
    another place than ``place`` (with ``place`` None every place prefix is stripped: names are
    then compared at their level)."""
    n = _clean(name)
    own_place, level, rest = _split_prefix(n)
    m = _mention_re().fullmatch(rest)
    resolved = _resolve(m.group("body"), m.group("office") or "", level) if m else None
    if resolved:
        body, level = resolved
    else:
        body = _generic_body(rest)
    keep = own_place and place is not None and _place_core(own_place) != _place_core(place)
    return OrgKey(_place_core(own_place) if keep else "", level, body)


def canonical_org(name: str, place: str | None = None) -> str:
    """One string per organisation: 济南市发展和改革委员会 / 市发改委 / 市发展改革委 →
    市发展和改革委员会; 省商务厅 → 省商务厅 (never 商务局); with ``place`` 济南, 青岛市商务局 →
    青岛市商务局 (another city's bureau keeps its place)."""
    k = org_key(name, place)
    national = k.body.split("办公")[0] in org_rules().get("national", {}).get("bodies", [])
    return f"{k.place}{'' if national else k.level}{k.body}"


def same_org(a: str | OrgKey, b: str | OrgKey, place: str | None = None) -> bool:
    """The same organisation, a place or level one name leaves unsaid matching any."""
    ka = a if isinstance(a, OrgKey) else org_key(a, place)
    kb = b if isinstance(b, OrgKey) else org_key(b, place)
    return ka.body == kb.body and (not ka.level or not kb.level or ka.level == kb.level) \
        and (not ka.place or not kb.place or ka.place == kb.place)


def _place_before(text: str, end: int) -> str:
    """A known place word ending at ``end`` (济南 in 济南市商务局), or ""."""
    for p in sorted(_places(), key=len, reverse=True):
        if text[:end].endswith(p):
            return p
    return ""


def org_mentions(text: str, place: str | None = None) -> list[tuple[str, OrgKey]]:
    """The organisations of the table that ``text`` names, each as (written form, key): the level
    word and place written right before the body belong to it (汇总上报市商务局 → 市商务局;
    各市发展改革委负责 → 市 发展和改革委员会). A bare short form without a level or place (政府
    信息公开) names no organisation."""
    t = _clean(text)
    out: list[tuple[str, OrgKey]] = []
    levels = sorted(_levels(), key=len, reverse=True)
    for m in _mention_re().finditer(t):
        start, level, own_place = m.start(), "", ""
        for w in levels:
            if t[:start].endswith(w):
                level, start = _levels()[w], start - len(w)
                break
        p = _place_before(t, start)
        if p:
            own_place, start = p, start - len(p)
            level = level or _places()[p]
        body = m.group("body")
        if len(body) <= 2 and not level and not own_place:
            continue
        resolved = _resolve(body, m.group("office") or "", level)
        if resolved is None:
            continue
        canonical, level = resolved
        keep = own_place and place is not None and _place_core(own_place) != _place_core(place)
        out.append((t[start:m.end()], OrgKey(_place_core(own_place) if keep else "", level, canonical)))
    return out
