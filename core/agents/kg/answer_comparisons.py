"""Comparisons as answer text: ratios (出勤率, 回款率, 占比) with their numerator and denominator,
two-period changes (本期 − 基期, per group or in total) and the earliest / latest records picked."""

from __future__ import annotations

from core.agents.kg.formatting import fmt_value, ym_cn
from core.agents.kg.tools import pick
from core.agents.kg.answer_figures import _cmp_cn
from core.agents.kg.answer_rows import (AREA_NOTE, LIST_LIMIT, _GROUP_WORD, _OP_CN, _UNITS, _group_label, _listing, _not_found, _pct,
                                       _source_step, cite, project_name, provenance_of)


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


def _change_groups(steps: list[dict], last: dict, src: dict | None, src_rows: list[dict], cov) -> tuple[str, list]:
    """Per-group comparisons: each group's 本期, 基期, 变化量 and 变化率."""
    ep = last.get("executed_params") or {}
    by, rows = str(ep["by"]), last["rows"]
    r0 = rows[0]
    op, field = r0.get("内层统计"), r0.get("字段")
    what = ({"工号": "人数"}.get(field or "", "数量") if op == "count" else
            f"{field}{_OP_CN.get(op, op)}" if op and field else "所比的数值")
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
        lines.append(AREA_NOTE)
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
