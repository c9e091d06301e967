"""Rules path of ``answer``: templates over the result rows only. Standard names
("青浦-区图书馆（XMSQ0102）"), every listed fact with its source (template · file · row),
"数据中未找到" when nothing matched, and the data's time coverage when the question's time is
outside it."""

from __future__ import annotations

from core.agents.kg.answer_comparisons import _change_body, _pick_body, _ratio_body
from core.agents.kg.answer_figures import (_agg_sentence, _grouped, _having_none, _having_words, _nested_avg,
                                          _nested_outer, _outer_extremes)
from core.agents.kg.answer_rows import (_RECORD_TOOLS, _asked_attributes, _is_person_list, _listing, _missing_asked,
                                       _not_found, _person_months, _source_step, person_name, project_name,
                                       provenance_of,
                                       scope_phrase)
from core.agents.kg.catalog import tool_fields
from core.agents.kg.formatting import fmt_value


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
    body, prov = _body(steps, scope, cov, grounded)
    gaps = _missing_asked(steps, masked or [])
    if slots.get("unsupported"):
        gaps = (f"数据中未找到“{'、'.join(slots['unsupported'])}”：模板中没有这一指标，以下是可用于计算它的原始数据，"
                f"比率未计算。" + ("\n" + gaps if gaps else ""))
    if gaps:
        body = gaps + "\n" + body
    notes += _step_notes(steps)
    if masked:
        notes.append(f"按您的权限，已隐藏敏感字段：{'、'.join(masked)}。")
    body = _additions(slots, steps, body)
    if cov and (slots.get("time") or any(s["tool"] in ("attendance", "schedule", "finance") for s in steps)):
        notes.append(f"数据时间覆盖：{cov}。")
    text = head + body
    if notes:
        text += "\n" + "\n".join(f"注：{n}" for n in dict.fromkeys(notes))
    return text, prov


def _body(steps: list[dict], scope: str, cov, grounded: dict) -> tuple[str, list[dict]]:
    """(body, provenance) by what the last step computed: a ratio, a change, a pick, an aggregate
    or the records."""
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
        outer = str(last["executed_params"]["outer"])
        extremes = last["executed_params"].get("then") in ("max", "min")
        body = (_outer_extremes if extremes else _nested_outer)(last["rows"], src_rows, outer)
        prov = provenance_of(src_rows)
    elif last["tool"] == "pick" and last.get("rows"):
        body, prov = _pick_body(steps, last)
    elif last["tool"] == "aggregate":
        body, prov = _aggregate_body(steps, last, scope, cov, grounded)
    else:
        body, prov = _records_body(steps, last, scope, cov, grounded)
    return body, prov


def _aggregate_body(steps: list[dict], last: dict, scope: str, cov, grounded: dict) -> tuple[str, list[dict]]:
    """One aggregate: a nested average, per-group figures, or one figure with the records behind it."""
    body, prov = "", []
    if last.get("rows") and last["rows"][0].get("各组") is not None:
        src = _source_step(steps, last)
        src_rows = src["rows"] if src else []
        if not src_rows:
            body = _not_found(scope, cov, grounded)
        else:
            body = _nested_avg(last["rows"][0], src_rows)
            prov = provenance_of(src_rows)
    else:
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
    return body, prov


def _records_body(steps: list[dict], last: dict, scope: str, cov, grounded: dict) -> tuple[str, list[dict]]:
    """The records themselves: how many (people / monthly records) and one line each with its source."""
    body, prov = "", []
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
            body = f"共 {len(rows)} 条记录{_projects_spanned(rows, tool)}：\n"
        if tool == "intersect":
            listing, prov = _person_months(rows, fields)
        else:
            listing, prov = _listing(rows, tool, fields)
        body += listing
    return body, prov


def _projects_spanned(rows: list[dict], tool: str, limit: int = 10) -> str:
    """"，涉及 5 个项目（…）" when several records of one project are listed ("周建国做过哪些项目的
    检查": the projects, not only the rows)."""
    names = list(dict.fromkeys(project_name(r) for r in rows if r.get("项目编号")))
    if tool == "projects" or not 1 < len(names) < len(rows):
        return ""
    more = "等" if len(names) > limit else ""
    return f"，涉及 {len(names)} 个项目（{'、'.join(names[:limit])}{more}）"


def _step_notes(steps: list[dict]) -> list[str]:
    """The notes the steps left: their own, parameters a tool dropped, derived attributes."""
    notes = []
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
    return notes


def _additions(slots: dict, steps: list[dict], body: str) -> str:
    """Additions to the body: the field-alias note with the alias's other columns, the asked
    attributes of a few records, who of a head count has left, and the percentage-point gap of
    two compared months' ratios."""
    from core.agents.kg import field_aliases, two_periods

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
        body = field_aliases.alias_note(alias) + ("\n" + "；".join(extra) + "。" if extra else "") + "\n" + body
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
        body = two_periods.pp_sentence(last["rows"], cmp["base"], cmp["current"], name) + "\n" + body
    return body
