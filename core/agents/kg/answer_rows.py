"""Result rows as answer text: standard names ("青浦-区图书馆（XMSQ0102）", "周建国（KWL1801001）"),
one line per record with its source (template · file · row), the scope phrase, listings, group
labels, and the asked columns a record answers or lacks."""

from __future__ import annotations

import re

from core.agents.kg import kgrules
from core.agents.kg.catalog import percent_fields, tool_fields, unit as field_unit
from core.agents.kg.formatting import fmt_field, fmt_value, ym_cn


class _Units:
    """Units of fields, from the catalog generated from the schema (``_UNITS.get(f, "")``). A
    percentage field stored as a fraction has none here: only :func:`fmt_field` scales it to %."""

    def get(self, field, default: str = "") -> str:
        return "" if field in percent_fields() else (field_unit(field) or default)


LIST_LIMIT = 20


PROV_KEYS = ("来源模板", "来源文件", "行号")


_OP_CN = {"count": "数量", "sum": "合计", "avg": "平均值", "max": "最大值", "min": "最小值"}


_UNITS = _Units()


def provenance_of(rows: list[dict]) -> list[dict]:
    seen, out = set(), []
    for r in rows:
        if not r.get("来源文件") and not r.get("来源模板"):
            continue
        key = (r.get("来源模板"), r.get("来源文件"), r.get("行号"))
        if key in seen:
            continue
        seen.add(key)
        out.append({"template": key[0], "file": key[1], "row": key[2]})
    return out


def cite(r: dict) -> str:
    if not r.get("来源文件"):
        return ""
    return f"〔{r.get('来源模板')}｜{r.get('来源文件')}｜第{r.get('行号')}行〕"


def project_name(r: dict) -> str:
    code = r.get("项目编号")
    name = r.get("项目名称") or r.get("项目简称")
    if not code:
        return ""
    return f"{name}（{code}）" if name else str(code)


def person_name(r: dict) -> str:
    if r.get("姓名") and r.get("工号"):
        return f"{r['姓名']}（{r['工号']}）"
    return str(r.get("姓名") or r.get("工号") or "")


def with_person_names(steps: list[dict], person_by_id: dict) -> list[dict]:
    """The steps with the name of each person a record holds only by id (投标经办人工号 KWL2003003 →
    投标经办人姓名 王志强), from the asker's own entity index, so that an answer names them."""
    def named(r: dict) -> dict:
        extra = {f[:-2] + "姓名": person_by_id[str(v)].get("姓名") for f, v in r.items()
                 if f.endswith("工号") and f != "工号" and str(v) in person_by_id and not r.get(f[:-2] + "姓名")}
        return {**r, **extra} if extra else r
    return [{**s, "rows": [named(r) for r in s.get("rows") or []]} for s in steps]


def held_person(r: dict, field: str) -> str:
    """The person a record's id field (投标经办人工号) names, "王志强（KWL2003003）", when the name is known."""
    name = r.get("姓名") if field == "工号" else r.get(field[:-2] + "姓名")
    return f"{name}（{r[field]}）" if name and r.get(field) else ""


def describe_row(r: dict, tool: str, fields: list[str]) -> str:
    parts = []
    if r.get("工号") and r.get("姓名"):
        parts.append(person_name(r))
        if r.get("岗位名称"):
            parts.append(str(r["岗位名称"]))
    pn = project_name(r)
    if pn:
        parts.append(pn)
    skip = {"姓名", "工号", "岗位名称", "项目名称", "项目编号", "项目简称", *PROV_KEYS}
    for f in fields or tool_fields(tool):
        if f in skip or f not in r or r.get(f) in (None, ""):
            continue
        if f.endswith("项目编号") and r.get(f[:-2] + "名称"):  # 续签前项目 赵巷镇政府（XMSQ0031）
            parts.append(f"{f[:-2]} {r[f[:-2] + '名称']}（{r[f]}）")
            skip.add(f[:-2] + "名称")
            continue
        if f.endswith("工号") and held_person(r, f):  # 投标经办人 王志强（KWL2003003）
            parts.append(f"{f[:-2]} {held_person(r, f)}")
            continue
        if f.endswith("项目名称") and r.get(f[:-2] + "编号"):
            parts.append(f"{f[:-2]} {r[f]}（{r[f[:-2] + '编号']}）")
            skip.add(f[:-2] + "编号")
            continue
        parts.append(f"{f} {fmt_field(f, r[f])}")
    return "｜".join(parts)


# grouping by 片区 follows 05_项目片区关系; said under every figure grouped that way
AREA_NOTE = '注：按项目所属片区（05_项目片区关系）归组；同属两个片区的项目在两个片区各计一次。'

# how an outer grouping field is named in an answer
OUTER_WORD = {"片区编号": "片区", "项目编号": "项目", "年月": "月份", "岗位名称": "岗位", "工号": "人员"}


def scope_phrase(slots: dict, grounded: dict) -> str:
    bits = []
    names = [p["name"] for p in grounded.get("projects") or []]
    names += [a["name"] for a in grounded.get("areas") or []]
    names += [p["name"] for p in grounded.get("people") or []]
    names = list(dict.fromkeys(names))  # "赵巷镇政府XMSQ0131": the name and the code ground to one project
    if names:
        bits.append("、".join(names))
    growth = slots.get("growth")
    if grounded.get("time") and growth:
        bits.append(f"本期 {ym_cn(growth.get('current_months') or growth['current'])}，"
                    f"基期 {ym_cn(growth.get('base_months') or growth['base'])}")
    elif grounded.get("time"):
        months = grounded.get("months") or []
        bits.append(_time_scope(grounded["time"], months))
    filt = grounded.get("filters") or {}
    lacking = slots.get("intent") == "人员无"  # "没有保安员证的保安": the certificate is the one they lack
    for k, vals in filt.items():
        if vals:
            bits.append(f"{'没有' if lacking and k in ('证书名称', '专业类别', '证书类别') else ''}{k}：{'、'.join(vals)}")
    for c in slots.get("conditions") or []:
        text = c.get("text") or ""
        if c.get("field") in percent_fields() and re.search(r"\d$", text) and abs(c.get("value") or 0) > 1:
            text += "%"  # "毛利率低于10" read as a percentage: say so
        if text and text not in ("出勤", "有加班") and text not in bits and text not in filt.get(c.get("field"), ()):
            bits.append(text)
    return "；".join(bits)


def _time_scope(time: dict, months: list[str]) -> str:
    """The asked period as the asker said it, and the months of it the data holds when fewer
    ("2026年上半年（数据中有 2026年1月至2026年4月）"), never a bare list of month codes."""
    from core.agents.kg.timeparse import of_months

    if not months or months == time["months"]:
        return time["label"]
    held = of_months(months).label()
    return f"{time['label']}（数据中有 {held}）" if time.get("label") else held


def _source_step(steps: list[dict], agg_step: dict) -> dict | None:
    of = (agg_step.get("executed_params") or {}).get("of")
    if isinstance(of, list):
        of = of[0] if of else None
    return next((s for s in steps if s["id"] == of), None)


def _is_person_list(rows: list[dict]) -> bool:
    return bool(rows) and "工号" in rows[0] and "姓名" in rows[0]


def _not_found(scope: str, cov: str | None, grounded: dict) -> str:
    msg = "数据中未找到符合条件的记录"
    if scope:
        msg += f"（{scope}）"
    return msg + "。"


def _listing(rows: list[dict], tool: str, fields: list[str], distinct_key: str | None = None):
    shown, seen = [], set()
    for r in rows:
        if distinct_key:
            k = r.get(distinct_key)
            if k in seen:
                continue
            seen.add(k)
        shown.append(r)
    lines = []
    for i, r in enumerate(shown[:LIST_LIMIT], 1):
        lines.append(f"{i}. {describe_row(r, tool, fields)} {cite(r)}".rstrip())
    if len(shown) > LIST_LIMIT:
        lines.append(f"……其余 {len(shown) - LIST_LIMIT} 条见结果表。")
    return "\n".join(lines), provenance_of(rows)


def _person_months(rows: list[dict], fields: list[str]):
    by: dict[str, list[dict]] = {}
    for r in rows:
        by.setdefault(str(r.get("工号")), []).append(r)
    metric = next((f for f in ("加班小时", "旷工天数", "请假天数", "夜班天数", "出勤天数") if f in fields and rows
                   and f in rows[0]), None)
    lines = []
    for i, (_k, rs) in enumerate(by.items(), 1):
        if i > LIST_LIMIT:
            lines.append(f"……其余 {len(by) - LIST_LIMIT} 人见结果表。")
            break
        r0 = rs[0]
        head = "｜".join(x for x in (person_name(r0), str(r0.get("岗位名称") or ""), project_name(r0)) if x)
        months = "；".join(f"{r.get('年月')}{(' ' + metric + ' ' + fmt_value(r.get(metric)) + _UNITS.get(metric, '')) if metric else ''}"
                          f" {cite(r)}" for r in sorted(rs, key=lambda x: str(x.get("年月"))))
        lines.append(f"{i}. {head}：{months}")
    return "\n".join(lines), provenance_of(rows)


_GROUP_WORD = {"项目编号": "项目", "片区编号": "片区", "岗位名称": "岗位"}


def _group_label(key, group_by: str, src_rows: list[dict]) -> str:
    keys = str(group_by).split("+")
    parts = list(key) if isinstance(key, (tuple, list)) else [key]
    out = []
    for k, v in zip(keys, parts):
        if k == "项目编号":
            r = next((x for x in src_rows if x.get("项目编号") == v), {})
            out.append(project_name(r) or str(v))
        elif k.endswith("工号"):
            r = next((x for x in src_rows if x.get(k) == v), {})
            out.append(held_person(r, k) or str(v))
        else:
            out.append(str(v))
    return " ".join(out)


def _pct(v) -> str:
    return f"{fmt_value(v)}%"


# columns a tool answers by what it returns rather than as a field (the parent project IS the 上级项目)
ANSWERED_BY: dict[str, tuple[str, ...]] = {"project_parent": ("上级项目编号",), "areas": ("项目负责人",),
                                           "project_children": ("上级项目编号",), "renewals": ("续签前项目编号",),
                                           "suppliers": ("供应商名称",)}


def _missing_asked(steps: list[dict], masked: list[str] | tuple = ()) -> str:
    """The columns the question asked for (甲方, 电话 …) that the queried records do not have; a
    column hidden by the user's role is said to be hidden, not missing."""
    from core.agents.kg.tools import TOOLS

    out = []
    hidden = [f for s in steps for f in (s.get("asked") or []) if f in masked]
    if hidden:
        out.append(f"按您的权限无权查看“{'、'.join(dict.fromkeys(hidden))}”（敏感字段已隐藏），以下是可查看的记录。")
    for s in steps:
        rows = s.get("rows") or []
        if not rows or not s.get("asked"):
            continue
        what = (TOOLS[s["tool"]].label or TOOLS[s["tool"]].description) if s.get("tool") in TOOLS else s.get("tool")
        absent = [f for f in s["asked"] if f not in rows[0] and f not in ANSWERED_BY.get(s.get("tool"), ())
                  and f not in masked]
        wanted_empty = {c.split("==")[0].strip() for c in s.get("executed_params", {}).get("conditions") or []
                        if str(c).replace(" ", "").endswith("==None")}  # 在职 = 离职日期 is empty: asked so
        empty = [f for f in s["asked"] if f in rows[0] and f not in wanted_empty and all(r.get(f) in (None, "") for r in rows)]
        if absent:
            out.append(f"数据中未找到“{'、'.join(absent)}”：所查的{what}记录中没有这一字段，以下是查到的记录。")
        if empty:
            out.append(f"数据中未找到“{'、'.join(empty)}”的取值：所查的{len(rows)}条{what}记录中该字段为空。")
    return "\n".join(out)


#: tools whose rows are records of one project or person, where the asked column can be said
_RECORD_TOOLS = frozenset({"projects", "staff", "attendance", "schedule", "staffing", "equipment", "service_periods",
                           "procurement", "maintenance"})


def _asked_attributes(q: str, rows: list[dict]) -> str:
    """"科创大厦的甲方是谁", "刘德明的联系电话是多少": the asked column of each named project or person,
    said first, so the answer fills the asked slot instead of leaving it in the row. Masked values
    are never said (the row already carries the viewer's masking)."""
    from core.agents.kg.understanding import PROJECT_ATTRS

    from core.agents.kg.concepts import NUMERIC_FIELDS

    person = "姓名" in rows[0]
    cues = {} if person else dict(PROJECT_ATTRS)
    cues.update({w: p for w, p, _u in NUMERIC_FIELDS if p in rows[0]})
    cues.update({k: k for k in rows[0] if len(k) >= 2 and k not in ("姓名", "项目名称", "项目编号", "工号", "年月")})
    cues.update({w: c for w, c in kgrules.rules_file("kg_column_words")["words"].items() if c in rows[0] and w not in cues})  # 哪家厂 → 制造厂商
    said, rest = set(), q
    for cue in sorted(cues, key=len, reverse=True):  # 委托方式 is its own column, not 委托方 (甲方名称)
        if cue in rest:
            said.add(cue)
            rest = rest.replace(cue, "□")
    fields = list(dict.fromkeys(f for cue, f in cues.items() if cue in said))
    if "负责人" in q and not re.search(r"负责人是(?:谁|哪位)|谁(?:在|来)?负责|负责人叫什么|负责人的?工号|谁是.{0,20}负责人", q):
        fields = [f for f in fields if f != "项目负责人"]  # "周建国负责的项目…" names the person already
    parts = []
    for r in rows:
        for f in fields:
            v = r.get(f)
            if v in (None, "") or "已隐藏" in str(v):
                continue
            if f == "项目负责人" and r.get("项目负责人工号"):
                v = f"{v}（{r['项目负责人工号']}）"
            who = (person_name(r) if person else _record_name(r)) + (f"在{r['年月']}" if r.get("年月") else "")
            parts.append(f"{who}的{f}是{fmt_field(f, v)}")
    return "；".join(dict.fromkeys(parts))


def _record_name(r: dict) -> str:
    """A project row by its project, a device row by the device (1号客梯 SB-0105-001), a purchase or
    contract by its name (青浦-工业园区的LED 灯管)."""
    if r.get("设备编号"):
        return f"{project_name(r)}的{r.get('设备名称') or ''}（{r['设备编号']}）"
    if r.get("名称") and r.get("记录类型"):
        return f"{project_name(r)}的{r['名称']}"
    return project_name(r)
