"""Figures as answer text: one aggregate's sentence (合计 / 平均值 / 最大值 and who holds it),
per-group figures (top N, conditions on the groups), nested averages and per-outer-group averages."""

from __future__ import annotations

from core.agents.kg.formatting import field_label, fmt_field, fmt_value
from core.agents.kg.answer_rows import (AREA_NOTE, LIST_LIMIT, OUTER_WORD, _GROUP_WORD, _OP_CN, _UNITS, _group_label,
                                       held_person, person_name, project_name)


def _agg_sentence(op: str, field: str | None, value, rows: list[dict], step: dict) -> str:
    if op == "count":
        if field == "工号":
            return f"共 {value} 人。"
        if field == "项目编号":
            return f"共 {value} 个项目。"
        if field == "设备编号":
            return f"共 {value} 台设备。"
        kinds = list(dict.fromkeys(str(r[field]) for r in rows if field and r.get(field) not in (None, "")))
        if field and kinds and len(kinds) == value:  # "一线员工的岗位一共几种": the distinct values, named
            return f"共 {value} 种{field_label(field)}：{'、'.join(kinds)}。"
        return f"共 {value} 条记录。"
    if value is None:
        return f"数据中未找到可计算的{field}：查到的记录中没有这一项的数值。"
    if len(rows) == 1 and op in ("sum", "avg", "max", "min"):
        return f"{field_label(field)}为 {fmt_field(field, value)}。"
    said = f"{field_label(field)}{_OP_CN.get(op, op)}为 {fmt_field(field, value)}（基于 {len(rows)} 条记录）"
    holders = _holders(rows, field, value) if op in ("max", "min") else ""
    return f"{said}，{'最高' if op == 'max' else '最低'}的是{holders}。" if holders else f"{said}。"


def _holders(rows: list[dict], field: str | None, value) -> str:
    """Who holds the extreme value ("哪个项目的合同金额最高" asks for the project, not only the figure)."""
    from core.agents.kg.expr import to_number

    hits = [r for r in rows if r.get(field) is not None and to_number(r.get(field)) == to_number(value)]
    names = list(dict.fromkeys(person_name(r) if "姓名" in r else project_name(r) for r in hits))
    names = [n for n in names if n]
    return "、".join(names[:5]) if names and len(names) <= 5 else ""


def _grouped(rows: list[dict], group_by: str, src_rows: list[dict], top: int | None = None,
             order: str | None = None, having: str | None = None, delta: bool = False) -> str:
    names = {}
    for r in src_rows:
        if group_by == "项目编号":
            names[r.get("项目编号")] = project_name(r)
        elif str(group_by).endswith("工号"):
            names[r.get(group_by)] = held_person(r, group_by) or r.get(group_by)
    if group_by == "片区编号":
        names = {r.get("片区编号"): f"{r.get('片区名称')}（{r.get('片区编号')}）" if r.get("片区名称") else r.get("片区编号")
                 for r in rows}
    op, field = rows[0].get("统计"), rows[0].get("字段")
    what = ("人数" if field == "工号" else "数量") if op == "count" else f"{field_label(field)}{_OP_CN.get(op, op)}"
    count_units = {"工号": "人", "设备编号": "台", "项目编号": "个"}
    unit = count_units.get(field or "", "") if op == "count" else _UNITS.get(field or "", "")
    by = {"工号": "人员", "项目编号": "项目", "片区编号": "片区", "年月": "月份", "岗位名称": "岗位"}.get(
        group_by, str(group_by).removesuffix("工号"))
    rank = "最少" if order == "asc" else "排名前"
    lines = [f"按{by}统计{what}（共 {len(rows)} 组）：" if not top else f"按{by}统计{what}，{rank} {top}："]
    if having:
        lines = [f"{having}的{by}共 {len(rows)} 个（按{what}从高到低）："]
    if len(rows) == 2 and op in ("sum", "avg") and not top and not having and all(r.get("值") is not None for r in rows):
        a, b = rows if group_by == "年月" else sorted(rows, key=lambda r: float(r["值"]))  # the larger said first
        diff = round(float(b["值"]) - float(a["值"]), 2)
        la, lb = names.get(a.get(group_by)) or a.get(group_by), names.get(b.get(group_by)) or b.get(group_by)
        more, less = ("多", "少") if op == "sum" else ("高", "低")  # a total is more, an average higher
        lines.append(f"{lb}比{la}{more if diff >= 0 else less} {fmt_value(abs(diff))}{unit}。")
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
        lines.append(AREA_NOTE)
    return "\n".join(lines)


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
        lines.append(AREA_NOTE)
    return "\n".join(lines)


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
    by = OUTER_WORD.get(outer, outer)
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
        lines.append(AREA_NOTE)
    return "\n".join(lines)


def _outer_extremes(rows: list[dict], src_rows: list[dict], outer: str) -> str:
    """"保洁员和客服…最高的分别是谁": per outer group, who (or which project) has the highest /
    lowest figure, with it; ties are all named."""
    r0 = rows[0]
    inner, field, word = str(r0.get("分组") or ""), r0.get("字段"), "最高" if r0.get("取") == "max" else "最低"
    by = OUTER_WORD.get(outer, outer)
    who = "人" if inner == "工号" else "项目"
    lines = [f"按{by}分别找出{field}{'合计' if r0.get('统计') == 'sum' else ''}{word}的{who}："]
    for i, r in enumerate(sorted(rows, key=lambda x: str(x.get(outer)))[:LIST_LIMIT], 1):
        g = r.get(outer)
        label = (f"{r['片区名称']}（{g}）" if outer == "片区编号" and r.get("片区名称")
                 else _group_label(g, outer, src_rows))
        if r.get("值") is None:
            lines.append(f"{i}. {label}：没有可比较的{field}")
            continue
        names = "、".join(_group_label(k, inner, src_rows) for k in r.get(inner) or [])
        lines.append(f"{i}. {label}：{names}，{fmt_field(field, r['值'])}")
    if outer == "片区编号":
        lines.append(AREA_NOTE)
    return "\n".join(lines)

