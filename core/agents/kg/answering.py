"""Rules path of ``answer``: templates over the result rows only. Standard names
("青浦-区图书馆（XMSQ0102）"), every listed fact with its source (template · file · row),
"数据中未找到" when nothing matched, and the data's time coverage when the question's time is
outside it."""

from __future__ import annotations

from core.agents.kg.planner import TOOL_FIELDS

LIST_LIMIT = 20
PROV_KEYS = ("来源模板", "来源文件", "行号")
_OP_CN = {"count": "数量", "sum": "合计", "avg": "平均值", "max": "最大值", "min": "最小值"}
_UNITS = {"加班小时": "小时", "上班天数": "天", "出勤天数": "天", "请假天数": "天", "旷工天数": "天", "税后工资": "元",
          "开票金额": "元", "收款金额": "元", "金额": "元", "原值": "元", "合同金额": "元", "检查得分": "分",
          "在岗人数": "人", "项目编制": "人", "预算编制": "人", "排班天数": "天", "夜班天数": "天",
          "投标金额": "元", "年化合同额": "元", "年龄": "岁", "司龄": "年", "病假天数": "天", "事假天数": "天",
          "年假天数": "天", "调休天数": "天", "餐费": "元", "值班费": "元", "国定加班费": "元", "加班超时费": "元"}


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


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:,.2f}".rstrip("0").rstrip(".") if abs(v) >= 1000 else (str(int(v)) if v.is_integer() else f"{v:g}")
    return str(v)


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
    for f in fields or TOOL_FIELDS.get(tool, []):
        if f in skip or f not in r or r.get(f) in (None, ""):
            continue
        unit = _UNITS.get(f, "")
        parts.append(f"{f} {_fmt(r[f])}{unit}")
    return "｜".join(parts)


def scope_phrase(slots: dict, grounded: dict) -> str:
    bits = []
    names = [p["name"] for p in grounded.get("projects") or []]
    names += [a["name"] for a in grounded.get("areas") or []]
    names += [p["name"] for p in grounded.get("people") or []]
    if names:
        bits.append("、".join(names))
    if grounded.get("time"):
        months = grounded.get("months") or []
        t = grounded["time"]
        bits.append(t["label"] if months == t["months"] else "、".join(months) or t["label"])
    filt = grounded.get("filters") or {}
    for k, vals in filt.items():
        if vals:
            bits.append(f"{k}：{'、'.join(vals)}")
    for c in slots.get("conditions") or []:
        if c.get("text") and c["text"] not in ("出勤", "有加班") and c["text"] not in bits:
            bits.append(c["text"])
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
    if grounded.get("time_note"):
        notes.append(grounded["time_note"])
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
            body = _grouped(last["rows"], group_by, src_rows, ep.get("top"), ep.get("order"))
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
            fields = last.get("fields") or TOOL_FIELDS.get(tool, [])
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
    gaps = _missing_asked(steps)
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
            from core.agents.kg.concepts import DERIVED

            rule = DERIVED.get(d)
            if rule:
                notes.append(f"{d}由{rule.source}换算（截至今天）。")
    if masked:
        notes.append(f"按您的权限，已隐藏敏感字段：{'、'.join(masked)}。")
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


def _missing_asked(steps: list[dict]) -> str:
    """The columns the question asked for (甲方, 电话 …) that the queried records do not have."""
    from core.agents.kg.tools import TOOLS

    out = []
    for s in steps:
        rows = s.get("rows") or []
        if not rows or not s.get("asked"):
            continue
        what = (TOOLS[s["tool"]].label or TOOLS[s["tool"]].description) if s.get("tool") in TOOLS else s.get("tool")
        absent = [f for f in s["asked"] if f not in rows[0] and f not in ANSWERED_BY.get(s.get("tool"), ())]
        empty = [f for f in s["asked"] if f in rows[0] and all(r.get(f) in (None, "") for r in rows)]
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
    unit = _UNITS.get(field or "", "")
    if value is None:
        return f"{field}在结果中没有可计算的数值。"
    if len(rows) == 1 and op in ("sum", "avg", "max", "min"):
        return f"{field}为 {_fmt(value)}{unit}。"
    return f"{field}{_OP_CN.get(op, op)}为 {_fmt(value)}{unit}（基于 {len(rows)} 条记录）。"


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
        months = "；".join(f"{r.get('年月')}{(' ' + metric + ' ' + _fmt(r.get(metric)) + _UNITS.get(metric, '')) if metric else ''}"
                          f" {cite(r)}" for r in sorted(rs, key=lambda x: str(x.get("年月"))))
        lines.append(f"{i}. {head}：{months}")
    return "\n".join(lines), provenance_of(rows)


def _grouped(rows: list[dict], group_by: str, src_rows: list[dict], top: int | None = None,
             order: str | None = None) -> str:
    names = {}
    for r in src_rows:
        if group_by == "项目编号":
            names[r.get("项目编号")] = project_name(r)
        elif group_by == "工号":
            names[r.get("工号")] = person_name(r)
    op, field = rows[0].get("统计"), rows[0].get("字段")
    what = ("人数" if field == "工号" else "数量") if op == "count" else f"{field}{_OP_CN.get(op, op)}"
    count_units = {"工号": "人", "设备编号": "台", "项目编号": "个"}
    unit = count_units.get(field or "", "") if op == "count" else _UNITS.get(field or "", "")
    by = {"工号": "人员", "项目编号": "项目"}.get(group_by, group_by)
    rank = "最少" if order == "asc" else "排名前"
    lines = [f"按{by}统计{what}（共 {len(rows)} 组）：" if not top else f"按{by}统计{what}，{rank} {top}："]
    if len(rows) == 2 and op == "sum" and not top and all(r.get("值") is not None for r in rows):
        a, b = rows
        diff = round(float(b["值"]) - float(a["值"]), 2)
        la, lb = names.get(a.get(group_by)) or a.get(group_by), names.get(b.get(group_by)) or b.get(group_by)
        lines.append(f"{lb}比{la}{'多' if diff >= 0 else '少'} {_fmt(abs(diff))}{unit}。")
    for i, r in enumerate(rows, 1):
        label = names.get(r.get(group_by)) or r.get(group_by)
        lines.append(f"{i}. {label}：{_fmt(r.get('值')) if r.get('值') is not None else '无数据'}{unit}"
                     f"（{r.get('行数')} 条记录）")
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
