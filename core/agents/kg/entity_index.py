"""In-memory entity index over the business graph, for grounding what users wrote.

Projects (编号 / 名称 / 简称 / 地址 / 甲方 / aliases), people (工号 / 姓名), areas (编号 / 名称) and
distinct field values (岗位名称, 设备类型, 检查类型, 证书, 记录类型 …). Matching ladder:
normalised exact (1.0) → contains (0.75–0.95) → difflib edit similarity → embedding fallback
(only when nothing lexical matched). Renewed namesakes (same name, different 编号): 服务中 first.

The alias table (简称 / 曾用名 / common miswritings → 项目编号 or 工号) is read from
:mod:`core.agents.kg.aliases`.
"""

from __future__ import annotations

import difflib
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from core.agents.kg import kgrules
from core.agents.kg.aliases import load_aliases
from core.agents.kg.entity_names import loose, name_key
from core.agents.kg.value_words import VALUE_WAYS, VOCABULARY_FIELDS, exact_values, record_kind_prefix, worded_values
from core.config import get_settings
from core.graph.schema import categorical_columns

EMBED_MARGIN = 0.015
_DEMONSTRATIVE = re.compile(r"(?:那个|这个|那边的?|这边的?)")
# what may follow a short name's head in a question (夏阳那个标, 夏阳的, 夏阳4月): not more of a name
_HEAD_END = re.compile(r"那|这|的|项目|[0-9，。？?、,；;！!\s]|$")
# a four-character short name's two-character head (科创大厦 → 科创, 北斗园区 → 北斗) is a common word as
# often as a name (工业, 人民), so it names the project only before a place or time word: 科创那边,
# 北斗的, 科创上个月 — not 工业项目, 人民币
_SHORT_HEAD_END = re.compile(r"那边|那儿|那里|这边|那个|那台|那次|的|[上下这本]个?月|今年|去年|[0-9，。？?、,；;！!\s]|$")


def _name_heads(short: str, min_len: int = 6) -> list[str]:
    """A long short name without its kind words (夏阳社区中心 → 夏阳社区, 夏阳; 老城厢停车场 → 老城厢): how
    staff name such a project. Short names under ``min_len`` characters keep their kind word (工业园区
    is not 工业)."""
    heads: list[str] = []
    while len(short) >= (min_len if not heads else 4):
        suffix = next((x for x in _SUFFIX_LONGEST_FIRST if short.endswith(x)), "")
        if not suffix or len(short) - len(suffix) < 2:
            break
        short = short[:-len(suffix)]
        heads.append(short)
    return heads


_PROJECT_SUFFIX = ("图书馆", "体育馆", "文化馆", "博物馆", "档案馆", "馆", "中心", "大厦", "园区", "产业园", "园", "政府",
                   "医院", "学校", "大学", "中学", "小学", "小区", "社区", "广场", "商场", "酒店", "公司", "停车场", "场",
                   "站", "局", "委", "院", "楼", "所", "街道", "镇", "大楼", "公园", "办公楼", "写字楼", "剧院", "基地",
                   "法院", "检察院")
_SUFFIX_LONGEST_FIRST = tuple(sorted(_PROJECT_SUFFIX, key=len, reverse=True))


NOT_PLACES = frozenset({"公司", "全公司", "本公司", "集团", "园区", "项目", "中心", "大厦", "医院", "政府", "社区",
                        "片区", "小区", "街道"})


# template column names that contain a value word of another column (完好状况 ⊃ 完好)
COLUMN_NAMES = ("完好状况", "服务状态", "设备类型", "检查类型", "记录类型", "证书类别", "岗位名称", "委托方式", "计费方式",
                "细分业态", "汇总业态", "员工层级")


@dataclass
class Candidate:
    kind: str          # project | person | area
    key: str           # 项目编号 / 工号 / 片区编号
    name: str          # standard display name
    score: float
    method: str        # exact | alias | contains | edit | embedding
    matched: str = ""  # the variant that matched
    status: str = ""

    def to_dict(self) -> dict:
        return {"kind": self.kind, "key": self.key, "name": self.name, "score": round(self.score, 3),
                "method": self.method, "matched": self.matched, "status": self.status}


def project_display(row: dict) -> str:
    name = row.get("项目名称") or row.get("项目简称") or row.get("项目编号")
    return f"{name}（{row.get('项目编号')}）"


@dataclass
class EntityIndex:
    projects: list[dict] = field(default_factory=list)
    people: list[dict] = field(default_factory=list)
    areas: list[dict] = field(default_factory=list)
    values: dict[str, list[str]] = field(default_factory=dict)   # field -> distinct values
    coverage: tuple[str, str] | None = None
    aliases: dict[str, str] = field(default_factory=dict)
    built_at: float = 0.0
    _embed_cache: dict = field(default_factory=dict, repr=False)

    # ---- construction -----------------------------------------------------------------
    @classmethod
    def from_rows(cls, projects, people, areas=(), values=None, coverage=None, aliases=None) -> "EntityIndex":
        idx = cls(list(projects), list(people), list(areas), dict(values or {}), coverage, dict(aliases or {}))
        idx._prepare()
        return idx

    @classmethod
    def from_store(cls, store) -> "EntityIndex":
        projects = store.run_named("kg_entity_projects")
        people = store.run_named("kg_entity_people")
        areas = store.run_named("kg_entity_areas")
        try:  # each 片区's head ("青浦片区负责人名下的项目" names a person through the area)
            heads = {str(r.get("片区编号")): r.get("工号") for r in store.run_named("kg_areas", {"areas": []})}
            areas = [{**a, "片区负责人工号": heads.get(str(a.get("片区编号")))} for a in areas]
        except Exception:  # noqa: BLE001 - grounding the rest does not depend on it
            pass
        values: dict[str, set] = {}

        def add(f, v):
            if v not in (None, ""):
                values.setdefault(f, set()).add(str(v))

        for r in store.run_named("kg_distinct_values"):
            add(r["字段"], r["值"])
        try:
            for r in store.run_named("kg_suppliers"):  # supplier names are values, not places
                add("供应商名称", r.get("名称"))
        except Exception:  # noqa: BLE001 - an older graph without the query still grounds the rest
            pass
        try:  # purchased items / maintenance contracts by name ("洗地机多少钱")
            for r in store.run_named("kg_procurement", {"projects": [], "types": []}):
                if r.get("记录类型") != "供应商":
                    add("名称", r.get("名称"))
            for r in store.run_named("kg_maintenance", {"projects": []}):
                add("名称", r.get("名称"))
            for query, cols in kgrules.mapping("record_value_columns").items():  # 证书类别, 问题描述 …
                for r in store.run_named(query, {}):
                    for c in cols:
                        add(c, r.get(c))
        except Exception:  # noqa: BLE001 - grounding the rest does not depend on it
            pass
        for r in store.run_named("kg_entity_equipment"):
            add("设备编号", r.get("设备编号"))
            add("设备类型", r.get("设备类型"))
            add("完好状况", r.get("完好状况"))
            add("制造厂商", r.get("制造厂商"))
        for p in people:
            for f in categorical_columns("人员信息"):  # 职级 M3, 组织名称 …: filterable by name (职级是M3)
                add(f, p.get(f))
            add("岗位名称", p.get("岗位名称"))
            add("员工层级", p.get("员工层级"))
            add("性别", p.get("性别"))
        for j in projects:
            for f in ("服务状态", "细分业态", "汇总业态", "市区", "委托方式"):
                add(f, j.get(f))
        cov = store.run_named("kg_coverage")
        coverage = None
        if cov and cov[0].get("起"):
            coverage = (str(cov[0]["起"]), str(cov[0]["止"]))
        # the people list holds sensitive columns; keep only what grounding/derivation needs
        keep = ("工号", "姓名", "岗位名称", "当前服务项目编号", "出生日期", "入职日期", "离职日期", "性别", "员工层级")
        people = [{k: p.get(k) for k in keep} for p in people]
        return cls.from_rows(projects, people, areas, {k: sorted(v) for k, v in values.items()}, coverage,
                             load_aliases())

    def _prepare(self) -> None:
        self.built_at = time.monotonic()
        self.project_by_code = {str(p["项目编号"]): p for p in self.projects}
        self.person_by_id = {str(p["工号"]): p for p in self.people}
        self.area_by_code = {str(a["片区编号"]): a for a in self.areas}
        # variants: (normalised text, kind, key, weight)
        self._variants: list[tuple[str, str, str, str]] = []
        for p in self.projects:
            code = str(p["项目编号"])
            for f in ("项目编号", "项目名称", "项目简称"):
                v = p.get(f)
                if v:
                    self._variants.append((name_key(v), "project", code, f))
                    self._variants += [(w, "project", code, "alias") for w in kgrules.lookalike_spellings(name_key(v))
                                       if f != "项目编号" and len(v) >= 3]
            short = str(p.get("项目简称") or "")
            self._variants += [(name_key(h), "project", code, "head") for h in _name_heads(short)]
            self._variants += [(name_key(h), "project", code, "short_head") for h in _name_heads(short, 4)
                               if len(short) < 6]
            for f in ("项目地址", "甲方名称"):
                v = p.get(f)
                if v and len(str(v)) >= 4:
                    self._variants.append((name_key(v), "project", code, f))
        for a in self.areas:
            for f in ("片区编号", "片区名称"):
                if a.get(f):
                    self._variants.append((name_key(a[f]), "area", str(a["片区编号"]), f))
        for alias, target in self.aliases.items():
            kind = "project" if target in self.project_by_code else "person" if target in self.person_by_id else None
            if kind:
                self._variants.append((name_key(alias), kind, target, "alias"))
        # code shapes learnt from the keys themselves (XMSQ0100 → "xmsq" + digits): a code-shaped
        # mention that is not a key is a missing record, never a near-miss of another code
        self._code_rx = {kind: _code_regex(keys) for kind, keys in
                         (("project", self.project_by_code), ("area", self.area_by_code))}
        self._names_by_person: dict[str, list[str]] = {}
        for p in self.people:
            if p.get("姓名"):
                self._names_by_person.setdefault(name_key(p["姓名"]), []).append(str(p["工号"]))

    # ---- display ------------------------------------------------------------------------
    def display(self, kind: str, key: str) -> str:
        if kind == "project":
            row = self.project_by_code.get(key)
            return project_display(row) if row else key
        if kind == "person":
            row = self.person_by_id.get(key)
            return f"{row.get('姓名')}（{key}）" if row else key
        if kind == "area":
            row = self.area_by_code.get(key)
            return f"{row.get('片区名称')}（{key}）" if row else key
        return key

    def _cand(self, kind, key, score, method, matched) -> Candidate:
        status = ""
        if kind == "project":
            status = str(self.project_by_code.get(key, {}).get("服务状态") or "")
        return Candidate(kind, key, self.display(kind, key), score, method, matched, status)

    # ---- mention detection --------------------------------------------------------------
    def find_mentions(self, question: str) -> list[dict]:
        """Entity mentions in a question: {kind, text, start, end} (longest, non-overlapping)."""
        qn = name_key(question)
        found: list[tuple[int, int, str, str]] = []
        for text, kind, _key, _f in self._variants:
            if len(text) < 2:
                continue
            start = qn.find(text)
            while start >= 0:
                if _f in ("head", "short_head") and not (_HEAD_END if _f == "head" else _SHORT_HEAD_END).match(
                        qn, start + len(text)):
                    start = qn.find(text, start + 1)
                    continue  # 夏阳街道卫生中心: the head of 夏阳社区中心 goes on into another name
                s0 = self._place_prefix_start(qn, start) if kind == "project" and _f != "项目编号" else start
                end = start + len(text) + (_part_suffix_len(qn, start + len(text)) if kind == "project" else 0)
                found.append((s0, end, kind, qn[s0:end]))  # 工业园二期: the phase is part of the asked name
                start = qn.find(text, start + 1)
        for m in re.finditer(r"kwl\d{4,}", qn):
            found.append((m.start(), m.end(), "person", m.group(0).upper()))
        for kind, rx in self._code_rx.items():
            for m in re.finditer(rx, qn) if rx else ():
                found.append((m.start(), m.end(), kind, m.group(0).upper()))
        for name in self._names_by_person:
            if len(name) >= 2:
                s = qn.find(name)
                if s >= 0:
                    found.append((s, s + len(name), "person", name))
        # loose project-like phrases (青浦区图书馆, 青浦-区图书馆) not matched verbatim
        for m in re.finditer(r"[\u4e00-\u9fa5a-z0-9]{1,8}-?[\u4e00-\u9fa5a-z0-9]{0,10}?(?:"
                             + "|".join(_PROJECT_SUFFIX) + r")", qn):
            text = re.sub(r"^(?:换成|改成|改为|换为|查询|查一下|看看|请问|那么|那|在|的)+", "", m.group(0))
            # "3月份全公司", "各项目", "所有园区": time words and quantifiers are not place names, nor
            # a phrase holding a question word ("电梯维保合同是跟哪家公司")
            if re.search(r"\d|月|季度|年|哪|什么|谁|^(?:全|所有|整个|各|每|本|我们)", text) or text in NOT_PLACES:
                continue
            if re.match(r"(?:" + "|".join(COLUMN_NAMES) + r")(?:是|为|=|：|:)", text):
                continue  # "细分业态是办公楼": a field's value (named_value), not a project name
            ext = _part_suffix_len(qn, m.end())
            found.append((m.end() - len(text), m.end() + ext, "project?", text + qn[m.end():m.end() + ext]))
        # verbatim variants first (longest first), loose phrases only where nothing verbatim matched
        found.sort(key=lambda x: (x[2] == "project?", -(x[1] - x[0]), x[0]))
        taken: list[tuple[int, int]] = []
        out = []
        for s, e, kind, text in found:
            if any(s < te and ts < e for ts, te in taken):
                continue
            if kind == "project?" and any(name_key(text) in name_key(v) or name_key(v) in name_key(text)
                                          for v in self.values.get("供应商名称", [])):
                continue  # "(从)上海洁美清洁用品有限公司" is a supplier
            if kind == "project?":
                # a loose phrase is a mention when it resolves lexically, or when it looks enough like
                # a place name (≥ 4 characters ending in a two-character suffix) to try the embedding
                lexical = self.resolve("project", text, allow_embedding=False)
                hyphened = "-" in text[1:-1]  # 徐汇-科技园: a district, a hyphen and a name, as projects are named
                place_like = len(text) >= 4 and (hyphened or any(text.endswith(x) for x in _PROJECT_SUFFIX if len(x) >= 2))
                if text in ("项目", "中心") or not (lexical or place_like):
                    continue
                kind = "project"
            taken.append((s, e))
            out.append({"kind": kind, "text": text, "start": s, "end": e})
        out.sort(key=lambda x: x["start"])
        return out

    # ---- resolution ---------------------------------------------------------------------
    def resolve(self, kind: str, text: str, *, allow_embedding: bool = True,
                embedder: Callable[[], Any] | None = None) -> list[Candidate]:
        """Candidates for ``text`` of ``kind``, best first (empty when nothing plausible)."""
        t = name_key(text)
        if kind == "project":
            t = _DEMONSTRATIVE.sub("", t)  # 徐汇那个夏阳社区中心: the district still leads the name
        if not t:
            return []
        if kind == "person":
            return self._resolve_person(t)
        rx = self._code_rx.get(kind)
        if rx and re.fullmatch(rx, t):  # a code matches exactly or not at all (XMSQ0200 is not XMSQ0100)
            key = t.upper()
            known = self.project_by_code if kind == "project" else self.area_by_code
            return [self._cand(kind, key, 1.0, "exact", t)] if key in known else []
        cands: dict[str, Candidate] = {}

        def put(c: Candidate):
            old = cands.get(c.key)
            if old is None or c.score > old.score:
                cands[c.key] = c

        lt = loose(t)
        for text_v, k, key, f in self._variants:
            if k != kind:
                continue
            if text_v == t or loose(text_v) == lt:
                alias = f in ("alias", "head", "short_head")
                put(self._cand(k, key, 0.98 if alias else 1.0, "alias" if alias else "exact", text_v))
            elif len(t) >= 2 and (t in text_v or (len(text_v) >= 3 and text_v in t)):
                ratio = min(len(t), len(text_v)) / max(len(t), len(text_v))
                score = (0.75 + 0.2 * ratio) * self._extra_name_part(t, text_v, k, key)
                put(self._cand(k, key, score, "contains", text_v))
        if not cands:
            for text_v, k, key, f in self._variants:
                if k != kind or f in ("项目地址", "甲方名称"):
                    continue
                r = difflib.SequenceMatcher(None, lt, loose(text_v)).ratio()
                if r >= 0.6:
                    put(self._cand(k, key, r * 0.9 * self._place_agreement(t, k, key), "edit", text_v))
        if not cands and allow_embedding and kind == "project":
            for c in self._embedding_candidates(t, embedder):
                put(c)
        out = sorted(cands.values(), key=lambda c: (-c.score, c.status != "服务中", c.key))
        # renewed namesakes: equal names/scores, prefer the one in service
        return out[:5]

    def _place_agreement(self, text: str, kind: str, key: str) -> float:
        """1.0 unless the asked name leads with a place ("徐汇-体育中心") and the candidate project
        lies elsewhere (青浦区): a different district is a different project, so such an edit match
        stays a suggestion (× 0.8 keeps it under the confidence bar)."""
        row = self.project_by_code.get(key) if kind == "project" else None
        if not row:
            return 1.0
        places = {_base_place(v) for v in self.values.get("市区", [])} - {""}
        asked = text.split("-", 1)[0] if "-" in text else next((p for p in places if text.startswith(p)), "")
        name = name_key(row.get("项目名称") or "")
        own = {_base_place(row.get("市区") or "")} | ({name.split("-", 1)[0]} if "-" in name else set())
        return 0.8 if asked and not any(asked == o or (o and asked.startswith(o)) for o in own) else 1.0

    def _place_prefix_start(self, qn: str, start: int) -> int:
        """Where a project mention starts when a district leads it: "徐汇-区图书馆" is read whole
        (not as 区图书馆 with 徐汇 left over), so a district the project does not lie in can block
        the match. Districts are the 市区 values of the data plus any "XX-" hyphenated lead."""
        head = qn[:start]
        places = sorted({_base_place(v) for v in self.values.get("市区", [])} - {""}, key=len, reverse=True)
        for p in places:
            m = re.search(re.escape(p) + r"(?:区?-?|-区)" + _DEMONSTRATIVE.pattern + "?$", head)  # 青浦区 / 青浦- / 徐汇那个
            if m:
                return m.start()
        m = re.search(r"[\u4e00-\u9fa5]{2}-$", head)
        return m.start() if m else start

    def _extra_name_part(self, t: str, text_v: str, kind: str, key: str) -> float:
        """1.0, or 0.5 (under the accept bar) when the asked name contains the matched one plus
        characters that the project's own name, district and 简称 do not have (徐汇-区图书馆 holds
        区图书馆, but 徐汇 is not where 青浦-区图书馆 lies): another project, offered as nearest only.
        Generic reference words (``grounding_scores.filler``) do not count."""
        row = self.project_by_code.get(key) if kind == "project" else None
        if not row or text_v not in t:
            return 1.0
        asked = t
        for word in kgrules.rules_file("kg_vocabulary")["grounding_scores"]["filler"]:
            asked = asked.replace(word, "")
        own = set(text_v) | set("".join(name_key(row.get(f) or "") for f in ("项目名称", "项目简称", "市区")))
        return 0.5 if set(asked) - own else 1.0

    def _resolve_person(self, t: str) -> list[Candidate]:
        key = t.upper()
        if key in self.person_by_id:
            return [self._cand("person", key, 1.0, "exact", t)]
        if t in self._names_by_person:
            ids = self._names_by_person[t]
            return [self._cand("person", i, 1.0 if len(ids) == 1 else 0.7, "exact", t) for i in ids]
        for alias, target in self.aliases.items():
            if name_key(alias) == t and target in self.person_by_id:
                return [self._cand("person", target, 0.98, "alias", t)]
        return []

    def _embedding_candidates(self, t: str, embedder) -> list[Candidate]:
        """Embedding fallback; silently empty when the model is unavailable."""
        try:
            if embedder is None:
                from core.retrieval.embed import get_embedder

                embedder = get_embedder
            model = embedder()
            import numpy as np

            # one entry per distinct name (renewed namesakes share a name; the one in service represents it)
            by_name: dict[str, str] = {}
            for p in sorted(self.projects, key=lambda p: p.get("服务状态") != "服务中"):
                by_name.setdefault(str(p.get("项目名称") or p.get("项目简称") or ""), str(p["项目编号"]))
            names = [(code, name) for name, code in by_name.items()]
            if "projects" not in self._embed_cache:
                self._embed_cache["projects"] = model.encode_passages([n for _, n in names])
            mat = self._embed_cache["projects"]
            qv = model.encode_queries([t])[0]
            sims = mat @ qv
            order = np.argsort(-sims)[:3]
            # e5 cosines sit in a narrow band: judge the lead over the runner-up, not the raw value
            # (measured on the sample projects: real paraphrases lead by ≥ 0.02, nonsense by < 0.005)
            top = float(sims[order[0]]) if len(order) else 0.0
            second = float(sims[order[1]]) if len(order) > 1 else -1.0
            clear = top - second >= EMBED_MARGIN
            return [self._cand("project", str(names[i][0]), (0.6 if clear and k == 0 else 0.3), "embedding",
                               names[i][1]) for k, i in enumerate(order)]
        except Exception:  # noqa: BLE001 - the fallback must never break grounding
            return []

    # ---- value grounding ----------------------------------------------------------------
    def ground_values(self, question: str, exclude: list[str] | None = None) -> dict[str, list[str]]:
        """Filter words → canonical field values (保安 → 保安_领班, 保安_普保). ``exclude`` = entity
        mentions already taken (so 工业园区 does not also become the 汇总业态 园区)."""
        q = name_key(question)
        for text in sorted(exclude or [], key=len, reverse=True):
            q = q.replace(name_key(text), "□")
        for col in COLUMN_NAMES:  # "完好状况为待修": the column's own name is not a value (完好)
            q = q.replace(name_key(col), "□")
        out, q = self._tail_values(q)
        for f, vals in self.quoted_values(question).items():
            out.setdefault(f, vals)
        for m in re.finditer(kgrules.rules_file("kg_vocabulary")["quoted_value"]["pattern"], question or ""):
            q = q.replace(name_key(m.group(1)), "□")  # the quoted value's words ground nothing else (消防)
        self._vocabulary_values(question, q, out)
        out.update(worded_values(question, self.values.get("性别", []), known=out))
        for f, v in {**self.coded_values(question), **self.named_values(question)}.items():
            out.setdefault(f, v)
        return out

    def _vocabulary_values(self, question: str, q: str, out: dict[str, list[str]]) -> None:
        """The values of the vocabulary fields (``VOCABULARY_FIELDS``) that the masked question
        ``q`` names, added to ``out``: a whole stored value of 4+ characters first (保洁推车 (名称)
        is not the post 保洁员), then field by field the first of ``VALUE_WAYS`` that finds one,
        for a field not found yet. Each value found is masked for the rest."""
        cert_asked = bool(re.search(r"证|资格|持有|持证", question))
        fields = [f for f in VOCABULARY_FIELDS
                  if cert_asked or f not in ("证书名称", "专业类别", "证书类别")]  # 特种作业证书 → 证书类别
        for v, f in sorted({(v, f) for f in fields for v in self.values.get(f, []) if len(name_key(v)) >= 4
                            and name_key(v) in q}, key=lambda vf: -len(vf[0])):
            if name_key(v) in q:
                out.setdefault(f, []).append(v)
                q = q.replace(name_key(v), "□")
        for f in fields:
            vals = [v for v in self.values.get(f, []) if v not in out.get(f, [])]
            # a field found by a long value takes only other values written out (多项单委 and 全委)
            for way in (VALUE_WAYS if f not in out else (exact_values, record_kind_prefix)):
                hits, written = way(f, vals, q)
                if hits:
                    out[f] = out.get(f, []) + hits
                    for w in written:
                        q = q.replace(w, "□")
                    break

    def quoted_values(self, question: str) -> dict[str, list[str]]:
        """A phrase in quotes is a stored value written out: the fields whose values contain it
        (spaces ignored), {} when none does."""
        rx = kgrules.rules_file("kg_vocabulary")["quoted_value"]["pattern"]
        out: dict[str, list[str]] = {}
        for m in re.finditer(rx, question or ""):
            want = loose(m.group(1))
            for f, vals in self.values.items():
                hits = sorted(v for v in vals if want and want in loose(v))
                if hits:
                    out.setdefault(f, hits)
        return out

    def _tail_values(self, q: str) -> tuple[dict[str, list[str]], str]:
        """Values named by their tail ("徐汇管理处" → 申勤物业徐汇管理处), the longest tail first; the
        matched words are masked so a place inside them (徐汇) is not grounded again."""
        spec = kgrules.rules_file("kg_vocabulary")["tail_value_fields"]
        out: dict[str, list[str]] = {}
        for f in spec["words"]:
            best: dict[str, int] = {}
            for v in self.values.get(f, []):
                k = name_key(v)
                n = next((n for n in range(len(k), spec["min_len"] - 1, -1) if k[-n:] in q), 0)
                if n:
                    best[v] = n
            top = max(best.values(), default=0)
            hits = sorted(v for v, n in best.items() if n == top)
            if hits:
                out[f] = hits
                for v in hits:
                    q = q.replace(name_key(v)[-top:], "□")
        return out, q

    def coded_values(self, question: str) -> dict[str, list[str]]:
        """"SB-0102-001 是什么设备": a code of a record kind the index holds as values (设备编号) filters
        by it — as asked when the data lacks it, so an unknown code finds nothing, not everything."""
        q = name_key(question)
        out: dict[str, list[str]] = {}
        for f, vals in self.values.items():
            rx = _code_regex(vals) if f.endswith("编号") else None
            for m in re.finditer(rx, q) if rx else ():
                stored = [v for v in vals if name_key(v) == m.group(0)]
                out.setdefault(f, []).extend(stored or [m.group(0).upper()])
        return out

    def named_values(self, question: str) -> dict[str, list[str]]:
        """"职级是M3的员工": a field named in the question with its value filters by that value —
        the stored spelling when the data holds it, else as asked (and then nothing matches)."""
        fields = sorted((f for f in self.values if f not in ("名称", "供应商名称")), key=len, reverse=True)
        out: dict[str, list[str]] = {}
        if not fields:
            return out
        for row in kgrules.rules_file("kg_patterns")["named_value"]["rows"]:
            rx = re.compile(row["template"].replace("{fields}", "|".join(map(re.escape, fields))))
            for m in rx.finditer(question or ""):
                f, v = m.group(1), m.group(2)
                stored = [x for x in self.values.get(f, []) if name_key(x) == name_key(v)]
                out.setdefault(f, stored or [v])
        return out


def _base_place(value) -> str:
    """青浦区 → 青浦 (the form a place takes in a project name)."""
    v = name_key(value)
    return v[:-1] if len(v) >= 3 and v[-1] in "区市县" else v


def _code_regex(keys) -> str | None:
    """A regex for the code shape of ``keys``: their letters and as many digits as they have
    (XMSQ0100 → xmsq\\d{4}), so "XMSQ0118 2026年" (blanks are dropped before matching) is the
    code XMSQ0118 followed by a year, not the code XMSQ01182026."""
    shape = r"([a-z]{2,})[-_]?(\d{2,})(?:[-_]\d+)*"
    found = [m for k in keys if (m := re.fullmatch(shape, name_key(k)))]
    if not found:
        return None
    prefixes = sorted({m.group(1) for m in found})
    lo, hi = min(len(m.group(2)) for m in found), max(len(m.group(2)) for m in found)
    return r"(?<![a-z])(?:" + "|".join(map(re.escape, prefixes)) + rf")[-_]?\d{{{lo},{hi}}}(?:[-_]\d+)*(?![-])"



# ---- process cache ----------------------------------------------------------------------
_cache: dict[str, EntityIndex] = {}
_cache_lock = threading.Lock()
TTL_S = 60.0


def invalidate() -> None:
    with _cache_lock:
        _cache.clear()


def get_entity_index(store, *, key: str | None = None) -> EntityIndex:
    """The cached index for ``store`` (rebuilt after ``TTL_S`` seconds or :func:`invalidate`)."""
    # a store follows its tenant's current generation: a new build is a new index
    k = key or (f"{getattr(store, 'backend', '?')}:{id(store)}:{getattr(store, 'tenant', '')}:"
                f"{getattr(store, 'generation', '')}:{get_settings().home}")
    with _cache_lock:
        idx = _cache.get(k)
        if idx is not None and time.monotonic() - idx.built_at < TTL_S:
            return idx
    idx = EntityIndex.from_store(store)
    with _cache_lock:
        _cache[k] = idx
    return idx


def _part_suffix_len(qn: str, end: int) -> int:
    """Length of a phase / building suffix (二期, 3号楼, 东区) right after a project name in ``qn``:
    a part the project's own name lacks names another project (``grounding_scores.part_suffix``)."""
    m = re.match(kgrules.rules_file("kg_vocabulary")["grounding_scores"]["part_suffix"], qn[end:])
    return m.end() if m else 0
