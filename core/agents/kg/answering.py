"""Rules path of ``answer``: templates over the result rows only. Standard names
("青浦-区图书馆（XMSQ0102）"), every listed fact with its source (template · file · row),
"数据中未找到" when nothing matched, and the data's time coverage when the question's time is
outside it."""

from __future__ import annotations

import re

from core.agents.kg.formatting import field_label, fmt_field, fmt_value, ym_cn
from core.agents.kg.catalog import percent_fields, tool_fields, unit as field_unit
from core.agents.kg.tools import pick

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
        if f.endswith("项目名称") and r.get(f[:-2] + "编号"):
            parts.append(f"{f[:-2]} {r[f]}（{r[f[:-2] + '编号']}）")
            skip.add(f[:-2] + "编号")
            continue
        parts.append(f"{f} {fmt_field(f, r[f])}")
    return "｜".join(parts)


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
        t = grounded["time"]
        bits.append(t["label"] if months == t["months"] else "、".join(months) or t["label"])
    filt = grounded.get("filters") or {}
    for k, vals in filt.items():
        if vals:
            bits.append(f"{k}：{'、'.join(vals)}")
    for c in slots.get("conditions") or []:
        text = c.get("text") or ""
        if c.get("field") in percent_fields() and re.search(r"\d$", text) and abs(c.get("value") or 0) > 1:
            text += "%"  # "毛利率低于10" read as a percentage: say so
        if text and text not in ("出勤", "有加班") and text not in bits:
            bits.append(text)
    return "；".join(bits)


def compose(slots: dict, grounded: dict, steps: list[dict], *, masked: list[str] | None = None,
            extra_notes: list[str] | None = None) -> tuple[str, list[dict]]:
    """(answer text, provenance)."""
    notes = list(extra_notes or [])
    scope = scope_phrase(slots, grounded)
    head = f"查询范围：{scope}。\n" if scope else ""
    cov = grounded.get("coverage_label")
    if grounded.get("time_outside"):
        return (f"数据中未找到：{grounded.get('time_note')}\n可查询的数据时间范围为 {cov}。", [])
    if grounded.get("time_note") and not (steps and steps[-1]["tool"] == "change"):
        notes.append(grounded["time_note"])  # a comparison says itself which period is missing
    missing = []
    for u in grounded.get("ungrounded") or []:
        kind = {"project": "项目", "person": "人员", "area": "片区"}.get(u["kind"], u["kind"])
        near = f"（最接近的是：{'、'.join(u['nearest'])}）" if u.get("nearest") else ""
        missing.append(f"{kind}“{u['text']}”{near}")
    if not steps and missing:
        return f"数据中未找到{'、'.join(missing)}：图谱中没有与之匹配的记录，请检查名称或编号。", []
    for m in missing:
        notes.append(f"未在图谱中找到{m}，该条件未能应用。")
    if not steps:
        return head + "数据中未找到：没有可执行的查询步骤。", []
    errors = [s for s in steps if s.get("error")]
    last = steps[-1]
    body = ""
    prov: list[dict] = []
    if errors and not last.get("rows"):
        body = "查询未能完成：" + "；".join(f"第{s['id']}步 {s['error']}" for s in errors)
    elif last["tool"] == "ratio":
        body, prov = _ratio_body(steps, last, scope, cov, grounded)
    elif last["tool"] == "change":
        body, prov = _change_body(steps, last, scope, cov, grounded)
    elif last["tool"] == "aggregate" and (last.get("executed_params") or {}).get("having") and not last.get("rows"):
        src = _source_step(steps, last)
        body = _having_none(last, (src or {}).get("rows") or [], scope)
        prov = provenance_of((src or {}).get("rows") or [])  # the records every group was computed from
    elif last["tool"] == "aggregate" and last.get("rows") and (last.get("executed_params") or {}).get("outer"):
        src = _source_step(steps, last)
        src_rows = src["rows"] if src else []
        body = _nested_outer(last["rows"], src_rows, str(last["executed_params"]["outer"]))
        prov = provenance_of(src_rows)
    elif last["tool"] == "pick" and last.get("rows"):
        body, prov = _pick_body(steps, last)
    elif last["tool"] == "aggregate" and last.get("rows") and last["rows"][0].get("各组") is not None:
        src = _source_step(steps, last)
        src_rows = src["rows"] if src else []
        if not src_rows:
            body = _not_found(scope, cov, grounded)
        else:
            body = _nested_avg(last["rows"][0], src_rows)
            prov = provenance_of(src_rows)
    elif last["tool"] == "aggregate":
        src = _source_step(steps, last)
        src_rows = src["rows"] if src else []
        res = last["rows"][0] if last["rows"] else {}
        op, field, value = res.get("统计"), res.get("字段"), res.get("值")
        group_by = (last.get("executed_params") or {}).get("group_by")
        if not src_rows:
            body = _not_found(scope, cov, grounded)
        elif group_by:
            ep = last.get("executed_params") or {}
            body = _grouped(last["rows"], group_by, src_rows, ep.get("top"), ep.get("order"),
                            _having_words(ep.get("having"), ep.get("op"), ep.get("field"), last["rows"]),
                            bool(ep.get("delta")))
            prov = provenance_of(src_rows)
        else:
            body = _agg_sentence(op, field, value, src_rows, last)
            basis = src_rows
            if op in ("max", "min") and value is not None:
                from core.agents.kg.expr import to_number

                basis = [r for r in src_rows if to_number(r.get(field)) == value] or src_rows
            listing, prov = _listing(basis, src["tool"], src.get("fields") or [], distinct_key=field
                                     if op == "count" else None)
            body += "\n依据：\n" + listing
    else:
        rows = last["rows"]
        if not rows and last["tool"] == "absence" and len(steps) >= 2 and steps[0].get("rows"):
            n = len({r.get("工号") for r in steps[0]["rows"]})
            body = f"数据中未找到在册但无出勤记录的人员：{n} 位在册人员在所查月份都有出勤记录。"
        elif not rows:
            body = _not_found(scope, cov, grounded)
        else:
            tool = last["tool"]
            fields = last.get("fields") or tool_fields(tool)
            if tool == "intersect":
                run = (last.get("executed_params") or {}).get("run")
                ids = {r.get("工号") for r in rows}
                what = f"连续 {run} 个月" if run else "每个月"
                body = f"共 {len(ids)} 人{what}都满足条件（{len(rows)} 条月度记录）：\n"
            elif _is_person_list(rows):
                n_people = len({r.get('工号') for r in rows})
                body = f"共 {len(rows)} 条记录（{n_people} 人）：\n" if n_people != len(rows) else f"共 {n_people} 人：\n"
            else:
                body = f"共 {len(rows)} 条记录：\n"
            if tool == "intersect":
                listing, prov = _person_months(rows, fields)
            else:
                listing, prov = _listing(rows, tool, fields)
            body += listing
    gaps = _missing_asked(steps, masked or [])
    if slots.get("unsupported"):
        gaps = (f"数据中未找到“{'、'.join(slots['unsupported'])}”：模板中没有这一指标，以下是可用于计算它的原始数据，"
                f"比率未计算。" + ("\n" + gaps if gaps else ""))
    if gaps:
        body = gaps + "\n" + body
    for s in steps:
        for n in s.get("notes") or []:
            notes.append(n)
        if s.get("dropped_params"):
            notes.append(f"第{s['id']}步忽略了工具不支持的参数：{'、'.join(s['dropped_params'])}")
        for d in s.get("derived") or []:
            from core.agents.kg.catalog import DERIVED

            rule = DERIVED.get(d)
            if rule:
                notes.append(f"{d}由{rule.source}换算（截至今天）。")
    if masked:
        notes.append(f"按您的权限，已隐藏敏感字段：{'、'.join(masked)}。")
    body = _refined(slots, steps, body)
    if cov and (slots.get("time") or any(s["tool"] in ("attendance", "schedule", "finance") for s in steps)):
        notes.append(f"数据时间覆盖：{cov}。")
    text = head + body
    if notes:
        text += "\n" + "\n".join(f"注：{n}" for n in dict.fromkeys(notes))
    return text, prov


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


def _agg_sentence(op: str, field: str | None, value, rows: list[dict], step: dict) -> str:
    if op == "count":
        if field == "工号":
            return f"共 {value} 人。"
        if field == "项目编号":
            return f"共 {value} 个项目。"
        if field == "设备编号":
            return f"共 {value} 台设备。"
        return f"共 {value} 条记录。"
    if value is None:
        return f"{field}在结果中没有可计算的数值。"
    if len(rows) == 1 and op in ("sum", "avg", "max", "min"):
        return f"{field_label(field)}为 {fmt_field(field, value)}。"
    said = f"{field_label(field)}{_OP_CN.get(op, op)}为 {fmt_field(field, value)}（基于 {len(rows)} 条记录）"
    holders = _holders(rows, field, value) if op in ("max", "min") else ""
    return f"{said}，{'最高' if op == 'max' else '最低'}的是{holders}。" if holders else f"{said}。"


#: tools whose rows are records of one project or person, where the asked column can be said
_RECORD_TOOLS = frozenset({"projects", "staff", "attendance", "schedule", "staffing", "equipment", "service_periods"})


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
    fields = list(dict.fromkeys(f for cue, f in cues.items() if cue in q))
    if "负责人" in q and not re.search(r"负责人是(?:谁|哪位)|谁负责|负责人叫什么|谁是.{0,20}负责人", q):
        fields = [f for f in fields if f != "项目负责人"]  # "周建国负责的项目…" names the person already
    parts = []
    for r in rows:
        for f in fields:
            v = r.get(f)
            if v in (None, "") or "已隐藏" in str(v):
                continue
            if f == "项目负责人" and r.get("项目负责人工号"):
                v = f"{v}（{r['项目负责人工号']}）"
            who = (person_name(r) if person else project_name(r)) + (f"在{r['年月']}" if r.get("年月") else "")
            parts.append(f"{who}的{f}是{fmt_field(f, v)}")
    return "；".join(parts)


def _holders(rows: list[dict], field: str | None, value) -> str:
    """Who holds the extreme value ("哪个项目的合同金额最高" asks for the project, not only the figure)."""
    from core.agents.kg.expr import to_number

    hits = [r for r in rows if r.get(field) is not None and to_number(r.get(field)) == to_number(value)]
    names = list(dict.fromkeys(person_name(r) if "姓名" in r else project_name(r) for r in hits))
    names = [n for n in names if n]
    return "、".join(names[:5]) if names and len(names) <= 5 else ""


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


def _grouped(rows: list[dict], group_by: str, src_rows: list[dict], top: int | None = None,
             order: str | None = None, having: str | None = None, delta: bool = False) -> str:
    names = {}
    for r in src_rows:
        if group_by == "项目编号":
            names[r.get("项目编号")] = project_name(r)
        elif group_by == "工号":
            names[r.get("工号")] = person_name(r)
    if group_by == "片区编号":
        names = {r.get("片区编号"): f"{r.get('片区名称')}（{r.get('片区编号')}）" if r.get("片区名称") else r.get("片区编号")
                 for r in rows}
    op, field = rows[0].get("统计"), rows[0].get("字段")
    what = ("人数" if field == "工号" else "数量") if op == "count" else f"{field}{_OP_CN.get(op, op)}"
    count_units = {"工号": "人", "设备编号": "台", "项目编号": "个"}
    unit = count_units.get(field or "", "") if op == "count" else _UNITS.get(field or "", "")
    by = {"工号": "人员", "项目编号": "项目", "片区编号": "片区", "年月": "月份", "岗位名称": "岗位"}.get(group_by, group_by)
    rank = "最少" if order == "asc" else "排名前"
    lines = [f"按{by}统计{what}（共 {len(rows)} 组）：" if not top else f"按{by}统计{what}，{rank} {top}："]
    if having:
        lines = [f"{having}的{by}共 {len(rows)} 个（按{what}从高到低）："]
    if len(rows) == 2 and op == "sum" and not top and not having and all(r.get("值") is not None for r in rows):
        a, b = rows
        diff = round(float(b["值"]) - float(a["值"]), 2)
        la, lb = names.get(a.get(group_by)) or a.get(group_by), names.get(b.get(group_by)) or b.get(group_by)
        lines.append(f"{lb}比{la}{'多' if diff >= 0 else '少'} {fmt_value(abs(diff))}{unit}。")
    if op == "sum" and not top and not having and len(rows) > 2 and group_by != "片区编号":
        # "各项目…合计": the per-group figures, and the grand total the question may ask for
        total = sum(float(r["值"]) for r in rows if r.get("值") is not None)
        lines.append(f"全部{by}合计：{fmt_value(round(total, 2))}{unit}。")
    if delta and group_by == "年月":
        rows = sorted(rows, key=lambda r: str(r.get("年月")))
    prev = None
    for i, r in enumerate(rows, 1):
        label = names.get(r.get(group_by)) or (project_name(r) if group_by == "项目编号" else "") or r.get(group_by)
        change = ""
        if delta and group_by == "年月" and prev is not None and r.get("值") is not None \
                and prev.get("值") is not None:
            d = round(float(r["值"]) - float(prev["值"]), 2)
            pct = f"，{'+' if d >= 0 else '−'}{fmt_value(abs(round(d / float(prev['值']) * 100, 2)))}%" if prev["值"] else ""
            change = f"；较上月{'增加' if d >= 0 else '减少'} {fmt_value(abs(d))}{unit}{pct}"
        shown = ("无数据" if r.get("值") is None else fmt_field(field, r["值"]) if op != "count"
                 else f"{fmt_value(r['值'])}{unit}")
        lines.append(f"{i}. {label}：{shown}"
                     f"（{r.get('行数')} 条记录{change}）")
        prev = r
    zero = [r for r in rows if r.get("无记录")]
    if zero:
        lines.append(f"注：其中 {len(zero)} 个服务中的项目没有任何相关记录，按 0 计入。")
    if group_by == "片区编号":
        lines.append("注：按项目所属片区（05_项目片区关系）归组；同属两个片区的项目在两个片区各计一次。")
    return "\n".join(lines)


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


_GROUP_WORD = {"项目编号": "项目", "片区编号": "片区", "岗位名称": "岗位"}


def _group_label(key, group_by: str, src_rows: list[dict]) -> str:
    keys = str(group_by).split("+")
    parts = list(key) if isinstance(key, (tuple, list)) else [key]
    out = []
    for k, v in zip(keys, parts):
        if k == "项目编号":
            r = next((x for x in src_rows if x.get("项目编号") == v), {})
            out.append(project_name(r) or str(v))
        elif k == "工号":
            r = next((x for x in src_rows if x.get("工号") == v), {})
            out.append(person_name(r) or str(v))
        else:
            out.append(str(v))
    return " ".join(out)


def _nested_avg(res: dict, src_rows: list[dict]) -> str:
    """平均每个项目…: the per-group figures, their total, the number of groups, the quotient."""
    inner, field, group_by = res.get("内层统计"), res.get("字段"), str(res.get("分组") or "")
    keys = group_by.split("+")
    base_word = _GROUP_WORD.get(keys[0], "人" if keys[0] == "工号" else "月" if keys[0] == "年月" else keys[0])
    unit_word = base_word + ("每月" if "年月" in keys[1:] else "")
    if inner == "count":
        what = {"工号": "人数", "项目编号": "项目数", "设备编号": "设备数"}.get(field or "", "记录数")
        unit = {"工号": "人", "项目编号": "个", "设备编号": "台"}.get(field or "", "条")
        if not field and src_rows and "证书名称" in src_rows[0]:
            what, unit = "证书数", "张"  # "平均每个员工有几张证书"
    else:
        what, unit = f"{field}", _UNITS.get(field or "", "")
    n, total, value = res.get("组数") or 0, res.get("合计"), res.get("值")
    if not n or value is None:
        return f"数据中未找到可计算的{what}（没有任何分组有数值），无法求平均。"
    group_n = ("个" + base_word if keys[0] != "年月" else "个月") if "年月" not in keys[1:] else \
        f"个{'人员' if keys[0] == '工号' else base_word}月份"
    if res.get("全员口径"):
        pop = "名在职员工" if keys[0] == "工号" else "个服务中项目" if keys[0] == "项目编号" else group_n
        lines = [f"平均每个{unit_word}的{what}为 {fmt_value(value)}{unit}"
                 f"（{what}合计 {fmt_value(total)}{unit} ÷ {n} {pop}；{fmt_value(total)} ÷ {n} = {fmt_value(value)}）。",
                 f"分母口径：全部 {n} {pop}，其中 {res.get('无记录组数', 0)} 个没有记录、按 0 计；"
                 f"只算有记录的 {res.get('有记录组数')} 个则为 {fmt_value(round(total / res['有记录组数'], 2)) if res.get('有记录组数') else '—'}{unit}。",
                 f"按{unit_word}统计{what}（有记录的 {res.get('有记录组数')} 组）："]
    else:
        lines = [f"平均每个{unit_word}的{what}为 {fmt_value(value)}{unit}"
                 f"（{what}合计 {fmt_value(total)}{unit} ÷ {n} {group_n}；{fmt_value(total)} ÷ {n} = {fmt_value(value)}）。",
                 f"按{unit_word}统计{what}（共 {n} 组，只计有记录的{base_word}）："]
    groups = [g for g in res.get("各组") or [] if g.get("值") is not None]
    for i, g in enumerate(groups[:LIST_LIMIT], 1):
        label = (f"{g['片区名称']}（{g.get(group_by)}）" if g.get("片区名称") and group_by == "片区编号"
                 else _group_label(g.get(group_by), group_by, src_rows))
        lines.append(f"{i}. {label}：{fmt_value(g['值'])}{unit}"
                     f"（{g.get('行数')} 条记录）")
    if len(groups) > LIST_LIMIT:
        lines.append(f"……其余 {len(groups) - LIST_LIMIT} 组见结果表。")
    if group_by.startswith("片区编号"):
        lines.append("注：按项目所属片区（05_项目片区关系）归组；同属两个片区的项目在两个片区各计一次。")
    return "\n".join(lines)


def _pct(v) -> str:
    return f"{fmt_value(v)}%"


def _ratio_body(steps: list[dict], last: dict, scope: str, cov, grounded: dict) -> tuple[str, list[dict]]:
    """比率 = 分子 ÷ 分母 with both operands and their records; a zero denominator is said, not divided."""
    ep = last.get("executed_params") or {}
    of = ep.get("of") if isinstance(ep.get("of"), list) else [ep.get("of")]
    num_step = next((s for s in steps if s["id"] == of[0]), steps[0])
    den_step = next((s for s in steps if len(of) > 1 and s["id"] == of[1]), None)
    rows = last.get("rows") or []
    src_rows = list(num_step.get("rows") or []) + list((den_step or {}).get("rows") or [])
    if not rows and src_rows and ep.get("having"):
        n = len({r.get(ep.get("group_by")) for r in num_step.get("rows") or []} - {None, ""})
        name = ep.get("name") or "比例"
        word = {"工号": "人员", "项目编号": "项目", "片区编号": "片区", "年月": "月份"}.get(ep.get("group_by"), "组")
        return (f"数据中未找到{name}{_cmp_cn(ep['having'])}的{word}：共比较了 {n} 个{word}"
                f"（{scope or '全部数据'}），都不满足该条件。"), provenance_of(src_rows)
    if not src_rows or not rows:
        return _not_found(scope, cov, grounded), []
    name = rows[0].get("名称") or "比例"
    group_by = ep.get("group_by")
    if ep.get("num") and ep.get("den"):
        formula = f"{name} = Σ{'+'.join(ep['num'])} ÷ Σ({'+'.join(ep['den'])})"
    else:
        formula = f"{name} = 分子（满足条件的{'合计' if ep.get('op') == 'sum' else '数量'}） ÷ 分母（全部）"

    def sentence(r: dict, label: str = "") -> str:
        head = f"{label}：" if label else ""
        if r.get("分母为零"):
            return (f"{head}分母为 0（{r.get('分母口径')} 合计为 0，共 {r.get('分母行数')} 条记录），"
                    f"无法计算{name}。")
        if r.get("比率") is None:
            return f"{head}分子没有可计算的数值，无法计算{name}。"
        return f"{head}{name}为 {_pct(r['比率'])}（{fmt_value(r['分子'])} ÷ {fmt_value(r['分母'])} = {_pct(r['比率'])}）"

    lines = [f"计算公式：{formula}。"]
    if group_by and ep.get("having"):
        hv = str(ep["having"])
        if "平均值" in hv and rows and rows[0].get("比较基准") is not None:
            hv = hv.replace("平均值", str(rows[0]["比较基准"]))
        lines.insert(0, f"{name}{_cmp_cn(hv)}{'（整体' + name + '）' if '平均值' in str(ep['having']) else ''}的"
                        f"{_GROUP_WORD.get(group_by, '人员' if group_by == '工号' else group_by)}共 {len(rows)} 个：")
    elif group_by and ep.get("top") and int(ep["top"]) >= len(rows) > 1:
        lines.insert(0, f"按{_GROUP_WORD.get(group_by, '人员' if group_by == '工号' else group_by)}统计{name}，"
                        f"{'从低到高' if ep.get('order') == 'asc' else '从高到低'}排列：")
    elif group_by and ep.get("top"):
        word = "最低" if ep.get("order") == "asc" else "最高"
        lines.insert(0, f"按{_GROUP_WORD.get(group_by, '人员' if group_by == '工号' else group_by)}统计{name}，{word}的"
                        f"{'前 ' + str(ep['top']) + ' 名' if int(ep['top']) > 1 else '是'}：")
    if group_by:
        for i, r in enumerate(rows, 1):
            label = (f"{r['片区名称']}（{r.get(group_by)}）" if group_by == "片区编号" and r.get("片区名称")
                     else _group_label(r.get(group_by), group_by, src_rows))
            lines.append(f"{i}. {sentence(r, label)}")
    else:
        r = rows[0]
        lines.insert(0, sentence(r) + "。" if not sentence(r).endswith("。") else sentence(r))
        if den_step is not None:
            lines.append(f"分子：{fmt_value(r.get('分子'))}（第{num_step['id']}步，{r.get('分子行数')} 条记录）；"
                         f"分母：{fmt_value(r.get('分母'))}（第{den_step['id']}步，{r.get('分母行数')} 条记录）。")
        else:
            lines.append(f"分子：Σ{r.get('分子口径')} = {fmt_value(r.get('分子'))}；分母：Σ({r.get('分母口径')}) = "
                         f"{fmt_value(r.get('分母'))}（基于 {r.get('分子行数')} 条记录）。")
    basis = num_step.get("rows") or []
    if group_by and (ep.get("top") or ep.get("having")) and group_by in (basis[0] if basis else {}):
        keep = {r.get(group_by) for r in rows}
        basis = [r for r in basis if r.get(group_by) in keep] or basis
    listing, _ = _listing(basis, num_step["tool"], num_step.get("fields") or [])
    lines.append(("分子依据：\n" if den_step is not None else "依据：\n") + listing)
    return "\n".join(lines), provenance_of(src_rows)


def _pick_body(steps: list[dict], last: dict) -> tuple[str, list[dict]]:
    ep = last.get("executed_params") or {}
    field, order = ep.get("field"), ep.get("order")
    rows = last["rows"]
    word = "最早" if order == "asc" else "最晚（最近）"
    values = list(dict.fromkeys(str(r.get(field)) for r in rows))
    src = next((s for s in steps if s["id"] == ep.get("of")), None)
    total = len((src or {}).get("rows") or [])
    head = (f"{field}{word}的是 {values[0]}" if len(values) == 1 else
            f"按{field}{word}排序的前 {ep.get('top') or len(rows)} 条：{values[0]} 至 {values[-1]}")
    fields = [field] + [f for f in (last.get("fields") or []) if f != field]
    listing, prov = _listing(rows, (src or {}).get("tool") or "", fields)
    text = f"{head}（在 {total} 条有{field}的记录中比较）：\n{listing}"
    src_rows = (src or {}).get("rows") or []
    if field == "结束日期" and int(ep.get("top") or 1) == 1 and \
            any(r.get("服务状态") not in (None, "服务中") for r in rows):
        live = pick([r for r in src_rows if r.get("服务状态") == "服务中"], field, str(order), 1)
        if live:  # "最早到期" also read as "which running contract ends first"
            text += (f"\n其中服务中的项目{field}{word}的是："
                     + "、".join(f"{project_name(r)}（{r.get(field)}）{cite(r)}" for r in live))
            prov += [x for x in provenance_of(live) if x not in prov]
    return text, prov



_CMP_CN = {">": "超过", ">=": "不低于", "<": "低于", "<=": "不超过", "==": "等于", "!=": "不等于"}


def _cmp_cn(having: str, pct: bool = True) -> str:
    """"比率 < 95" → "低于 95%"."""
    parts = str(having).split()
    if len(parts) != 3:
        return str(having)
    from core.agents.kg.expr import to_number

    num = to_number(parts[2])
    shown = fmt_value(float(num)) if num is not None else parts[2]
    return f"{_CMP_CN.get(parts[1], parts[1])} {shown}{'%' if pct and parts[0] == '比率' else ''}"


def _having_words(having: str | None, op: str | None, field: str | None, rows: list[dict] | None = None
                  ) -> str | None:
    if not having:
        return None
    if "平均值" in having and rows and rows[0].get("比较基准") is not None:
        having = having.replace("平均值", str(rows[0]["比较基准"]))
        return _having_words(having, op, field) + "（各组平均值）"
    what = ("人数" if field == "工号" else "数量") if op == "count" else f"{field}{_OP_CN.get(op or '', op or '')}"
    unit = {"工号": "人", "设备编号": "台", "项目编号": "个"}.get(field or "", "") if op == "count" \
        else _UNITS.get(field or "", "")
    return f"{what}{_cmp_cn(having, False)}{unit}"


def _having_none(last: dict, src_rows: list[dict], scope: str) -> str:
    ep = last.get("executed_params") or {}
    gb = str(ep.get("group_by") or "")
    word = {"工号": "人员", "项目编号": "项目", "片区编号": "片区", "年月": "月份", "岗位名称": "岗位"}.get(gb, "组")
    n = len({r.get(gb) for r in src_rows} - {None, ""})
    cond = _having_words(ep.get("having"), ep.get("op"), ep.get("field"))
    return (f"数据中未找到{cond}的{word}：共比较了 {n} 个{word}（{scope or '全部数据'}），都不满足该条件。"
            if src_rows else f"数据中未找到符合条件的记录（{scope}）。" if scope else "数据中未找到符合条件的记录。")


def _nested_outer(rows: list[dict], src_rows: list[dict], outer: str) -> str:
    """各片区平均每个项目…: per outer group, Σ inner figures ÷ number of inner groups."""
    r0 = rows[0]
    inner, field, group_by = r0.get("内层统计"), r0.get("字段"), str(r0.get("分组") or "")
    keys = group_by.split("+")
    per = _GROUP_WORD.get(keys[0], "人" if keys[0] == "工号" else "月" if keys[0] == "年月" else keys[0])
    per_word = per + ("每月" if "年月" in keys and keys[0] != "年月" else "")
    if inner == "count":
        what = {"工号": "人数", "项目编号": "项目数", "设备编号": "设备数"}.get(field or "", "记录数")
        unit = {"工号": "人", "项目编号": "个", "设备编号": "台"}.get(field or "", "条")
    else:
        what, unit = f"{field}", _UNITS.get(field or "", "")
    by = {"片区编号": "片区", "项目编号": "项目", "年月": "月份", "岗位名称": "岗位", "工号": "人员"}.get(outer, outer)
    n_word = per_word if "年月" not in keys[1:] else f"{'人员' if keys[0] == '工号' else per}月份"
    count_word = {"人": "人数", "月": "月数"}.get(n_word, n_word + "数")
    lines = [f"按{by}统计平均每个{per_word}的{what}（各{by}的{what}合计 ÷ 该{by}内有记录的{count_word}）："]
    empty = [r for r in rows if r.get("值") is None]
    rows = [r for r in rows if r.get("值") is not None]
    for i, r in enumerate(rows[:LIST_LIMIT], 1):
        g = r.get(outer)
        label = (f"{r['片区名称']}（{g}）" if outer == "片区编号" and r.get("片区名称")
                 else _group_label(g, outer, src_rows))
        lines.append(f"{i}. {label}：{fmt_value(r['值'])}{unit}（{what}合计 {fmt_value(r.get('合计'))}{unit} ÷ "
                     f"{r.get('组数')} 个{n_word}，{r.get('行数')} 条记录）")
    if len(rows) > LIST_LIMIT:
        lines.append(f"……其余 {len(rows) - LIST_LIMIT} 组见结果表。")
    if empty:
        lines.append(f"另有 {len(empty)} 个{by}（{'、'.join(_group_label(r.get(outer), outer, src_rows) for r in empty[:5])}）"
                     f"没有可按{per}计算的记录，未列出。")
    if not rows:
        lines = [f"数据中未找到可按{per_word}计算的{what}。"]
    if outer == "片区编号" or group_by.startswith("片区编号"):
        lines.append("注：按项目所属片区（05_项目片区关系）归组；同属两个片区的项目在两个片区各计一次。")
    return "\n".join(lines)


def _change_groups(steps: list[dict], last: dict, src: dict | None, src_rows: list[dict], cov) -> tuple[str, list]:
    """Per-group comparisons: each group's 本期, 基期, 变化量 and 变化率."""
    ep = last.get("executed_params") or {}
    by, rows = str(ep["by"]), last["rows"]
    r0 = rows[0]
    op, field = r0.get("内层统计"), r0.get("字段")
    what = ({"工号": "人数"}.get(field or "", "数量") if op == "count" else f"{field}{_OP_CN.get(op, op)}")
    unit = ({"工号": "人"}.get(field or "", "") if op == "count" else _UNITS.get(field or "", ""))
    kind = ep.get("kind") or "对比"
    base, cur = ep.get("base"), ep.get("current")
    word = {"片区编号": "片区", "项目编号": "项目", "岗位名称": "岗位", "工号": "人员"}.get(by, by)
    lines = []
    if r0.get("超出覆盖"):
        lines.append(f"数据中未找到{'、'.join(ym_cn(m) for m in r0['超出覆盖'])}的数据：超出了图谱数据的时间覆盖范围"
                     f"（{cov}），无法计算{kind}。")
    sel = {">": "增加", "<": "减少"}.get(r0.get("筛选") or "")
    if r0.get("无符合"):
        lines.append(f"没有{what}在 {ym_cn(cur)} 比 {ym_cn(base)} {sel}的{word}。")
        return "\n".join(lines), provenance_of(src_rows)
    lines.append(f"按{word}对比 {ym_cn(cur)}（本期）与 {ym_cn(base)}（基期）的{what}（变化量 = 本期 − 基期）"
                 + (f"，{what}{sel}的{word}共 {len(rows)} 个：" if sel else "："))
    for i, r in enumerate(rows[:LIST_LIMIT], 1):
        g = r.get(by)
        label = (f"{r['片区名称']}（{g}）" if by == "片区编号" and r.get("片区名称") else _group_label(g, by, src_rows))
        cv, bv, d, pct = r.get("本期值"), r.get("基期值"), r.get("变化量"), r.get("变化率")
        if d is None:
            have = "；".join(x for x in ((f"本期 {fmt_value(cv)}{unit}" if cv is not None else ""),
                                         (f"基期 {fmt_value(bv)}{unit}" if bv is not None else "")) if x)
            lines.append(f"{i}. {label}：数据中未找到{'、'.join(ym_cn(m) for m in r.get('缺失期') or [])}的记录"
                         f"{'（' + have + '）' if have else ''}，无法对比")
            continue
        rate = f"，{'增长' if pct >= 0 else '下降'} {fmt_value(abs(pct))}%" if pct is not None else ""
        lines.append(f"{i}. {label}：本期 {fmt_value(cv)}{unit}，基期 {fmt_value(bv)}{unit}；{'增加' if d >= 0 else '减少'} "
                     f"{fmt_value(abs(d))}{unit}{rate}")
    if by == "片区编号":
        lines.append("注：按项目所属片区（05_项目片区关系）归组；同属两个片区的项目在两个片区各计一次。")
    return "\n".join(lines), provenance_of(src_rows)


def _change_body(steps: list[dict], last: dict, scope: str, cov, grounded: dict) -> tuple[str, list[dict]]:
    """本期 vs 基期: both figures, 变化量 = 本期 − 基期, 变化率 = 变化量 ÷ 基期; a period outside the
    data (or without records) is named instead of being read as 0."""
    ep = last.get("executed_params") or {}
    agg_step = next((s for s in steps if s["id"] == ep.get("of")), None) or {}
    src = _source_step(steps, agg_step) if agg_step else None
    src_rows = (src or {}).get("rows") or []
    if ep.get("by") and last.get("rows"):
        return _change_groups(steps, last, src, src_rows, cov)
    r = (last.get("rows") or [{}])[0]
    op, field = r.get("内层统计") or (agg_step.get("executed_params") or {}).get("op"), r.get("字段")
    if op is None:
        op = (agg_step.get("executed_params") or {}).get("op")
        field = (agg_step.get("executed_params") or {}).get("field")
    if op == "count":
        what = {"工号": "人数", "项目编号": "项目数", "设备编号": "设备数"}.get(field or "", "记录数")
        unit = {"工号": "人", "项目编号": "个", "设备编号": "台"}.get(field or "", "条")
    else:
        what, unit = f"{field}{_OP_CN.get(op, op)}", _UNITS.get(field or "", "")
    if op == "count" and field == "工号" and (src or {}).get("tool") == "attendance" and any(
            "出勤天数" in str(c) for c in ((src or {}).get("executed_params") or {}).get("conditions") or []):
        what = "出勤人数"
    kind = ep.get("kind") or r.get("口径") or "对比"
    base, cur = ep.get("base") or r.get("基期"), ep.get("current") or r.get("本期")
    bv, cv = r.get("基期值"), r.get("本期值")
    lines = []
    monthly = r.get("基期口径") == "月均"
    if monthly:  # "4月比1-3月平均": the base is the monthly average of its months
        base = f"{ym_cn(base)}月均（合计 ÷ {r.get('基期月数')} 个月）" if bv is not None else f"{ym_cn(base)}月均"
    outside = list(r.get("超出覆盖") or ep.get("outside") or [])
    missing = [m for m in (r["缺失期"] if "缺失期" in r else [base, cur]) if m not in outside]
    have = []
    if cv is not None:
        have.append(f"本期 {ym_cn(cur)} 的{what}为 {fmt_value(cv)}{unit}")
    if bv is not None:
        have.append(f"基期 {ym_cn(base)} 的{what}为 {fmt_value(bv)}{unit}")
    if outside:
        lines.append(f"数据中未找到{ym_cn(outside) if len(outside) > 2 else '、'.join(ym_cn(m) for m in outside)}"
                     f"的数据：超出了图谱数据的时间覆盖范围"
                     f"（{cov}），无法计算{kind}。" + ("已查到的：" + "；".join(have) + "。" if have else ""))
    elif missing or r.get("变化量") is None:
        lines.append(f"数据中未找到{'、'.join(ym_cn(m) for m in missing)}的记录（{scope}），无法计算{kind}。"
                     + ("已查到的：" + "；".join(have) + "。" if have else ""))
    else:
        diff, pct = r.get("变化量"), r.get("变化率")
        word = "增加" if diff >= 0 else "减少"
        rate = (f"，{kind}{'增长' if pct >= 0 else '下降'} {fmt_value(abs(pct))}%" if pct is not None
                else "（基期为 0，变化率无法计算）")
        lines.append(f"{ym_cn(cur)}的{what}为 {fmt_value(cv)}{unit}，{ym_cn(base)}为 {fmt_value(bv)}{unit}；"
                     f"{word} {fmt_value(abs(diff))}{unit}{rate}。")
        lines.append(f"计算：变化量 = 本期 − 基期 = {fmt_value(cv)} − {fmt_value(bv)} = {fmt_value(diff)}"
                     + (f"；变化率 = 变化量 ÷ 基期 = {fmt_value(diff)} ÷ {fmt_value(bv)} = {fmt_value(pct)}%" if pct is not None
                        else "") + "。")
    if src_rows:
        listing, _ = _listing(src_rows, (src or {}).get("tool") or "", (src or {}).get("fields") or [],
                              distinct_key=None)
        lines.append(f"依据（{len(src_rows)} 条记录）：\n" + listing)
    return "\n".join(lines), provenance_of(src_rows)


def _refined(slots: dict, steps: list[dict], body: str) -> str:
    """Additions from refine.py: the field-alias note with the alias's other columns, and the
    percentage-point gap of two compared months' ratios."""
    from core.agents.kg import refine

    last = steps[-1] if steps else {}
    alias = slots.get("field_alias")
    if alias:
        extra = []
        src = _source_step(steps, last) if last.get("tool") in ("aggregate", "change") else last
        rows = (src or {}).get("rows") or []
        op = (last.get("executed_params") or {}).get("op")
        if rows and last.get("tool") == "aggregate" and op == "sum" and not (last.get("executed_params") or {}).get(
                "group_by"):
            from core.agents.kg.expr import to_number

            total = 0.0
            for f in [alias["field"], *alias["also"]]:
                v = round(sum(to_number(r.get(f)) or 0 for r in rows), 2)
                total += v
                extra.append(f"{f}合计 {fmt_value(v)}元")
            extra.append(f"两项合计 {fmt_value(round(total, 2))}元")
        body = refine.alias_note(alias) + ("\n" + "；".join(extra) + "。" if extra else "") + "\n" + body
    q = str(slots.get("question") or "")
    rows = last.get("rows") or []
    if last.get("tool") in _RECORD_TOOLS and rows and len(rows) <= 3:
        said = _asked_attributes(q, rows)
        if said:
            body = said + "。\n" + body
    ep = last.get("executed_params") or {}
    src = _source_step(steps, last) if last.get("tool") == "aggregate" else None
    if src and src.get("tool") == "staff" and ep.get("op") == "count" and not ep.get("group_by") \
            and not any("离职" in str(c.get("field")) for c in slots.get("conditions") or []):
        left = [r for r in src.get("rows") or [] if r.get("离职日期")]
        if left:  # head counts take every person in 人员信息; say who of them has left
            body += (f"\n其中 {len(left)} 人已离职（{'、'.join(person_name(r) for r in left[:5])}）；"
                     f"在职 {len({r.get('工号') for r in src['rows']}) - len(left)} 人。")
    cmp = (slots.get("ratio") or {}).get("compare")
    if cmp and last.get("tool") == "ratio" and last.get("rows") and "年月" in last["rows"][0]:
        name = last["rows"][0].get("名称") or "比率"
        body = refine.pp_sentence(last["rows"], cmp["base"], cmp["current"], name) + "\n" + body
    return body
