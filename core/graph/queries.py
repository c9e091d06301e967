"""All Cypher of the business graph: named, parameterised, portable (Neo4j 5 + LadybugDB).

Rules for queries here (both backends run them; the contract suite runs every one):

- no ``type(r)`` / ``labels(n)`` — use the dialect tokens ``⟦type:e⟧`` / ``⟦label:n⟧``; the
  relationship type 供应商 is written ``⟦R:供应商⟧`` (see core/graph/store/dialect.py);
- no ``SET n += $map``, no list comprehensions, no ``COUNT {}``, no ``WITH … ORDER BY``
  without ``LIMIT``;
- no null parameters (LadybugDB types a null parameter as BOOL): an optional text filter is
  ``''`` = any, an optional list filter is ``[]`` = any, a year-month range defaults to
  ``'0000-00'`` … ``'9999-99'``, a date range to ``'0000-00-00'`` … ``'9999-99-99'``;
- dates are ``'YYYY-MM-DD'`` strings and year-months ``'YYYY-MM'`` strings (compare directly);
- period edges (服务于) are selected by interval intersection:
  ``e.开始 <= $到 AND (e.结束 IS NULL OR e.结束 >= $从)``;
- result rows carry provenance columns 来源模板 / 来源文件 / 行号 wherever a record is returned.

Other engineers may append queries to :data:`QUERIES` (keep the rules above; the contract
suite picks them up automatically).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from core.errors import BadInputError, ReadOnlyViolation
from core.graph.schema import (DAY_COLUMNS, DERIVED_COLUMNS_BY_LABEL, DISPLAY, NODE_BY_LABEL, PROVENANCE, REL_BY_TYPE,
                               SYNTHETIC_KEY, TEMPLATE_BY_NAME, NodeTable, RelTable, q)

YM_MIN, YM_MAX = "0000-00", "9999-99"
DATE_MIN, DATE_MAX = "0000-00-00", "9999-99-99"


@dataclass(frozen=True)
class NamedQuery:
    name: str
    cypher: str
    defaults: dict[str, Any] = field(default_factory=dict)  # every parameter with its "any" value
    description: str = ""
    sensitive: bool = False  # returns sensitive fields (人员财务, 联系电话 …): mask/permission-check

    @property
    def params(self) -> tuple[str, ...]:
        return tuple(self.defaults)

    def bind(self, params: dict[str, Any] | None) -> dict[str, Any]:
        params = dict(params or {})
        unknown = set(params) - set(self.defaults)
        if unknown:
            raise BadInputError(f"查询 {self.name} 不接受参数：{'、'.join(sorted(unknown))}；"
                                f"可用参数：{'、'.join(self.defaults) or '无'}")
        out = dict(self.defaults)
        for k, v in params.items():
            if v is None:  # None means "any"
                continue
            out[k] = v
        return out


_PROV = "n.来源模板 AS 来源模板, n.来源文件 AS 来源文件, n.行号 AS 行号"


def _prov(var: str) -> str:
    return f"{var}.来源模板 AS 来源模板, {var}.来源文件 AS 来源文件, {var}.行号 AS 行号"



def record_columns(label: str, template: str | None = None, skip: tuple[str, ...] = ()) -> list[str]:
    """The columns a KG query returns for a record node: its template's columns (all of the
    label's templates unless one is named) and the properties derived at load, without the
    synthetic key, the display name, the 1日…31日 codes and provenance (returned separately). A
    column added to a template in the schema is returned with no edit here."""
    nt = NODE_BY_LABEL[label]
    cols = set(TEMPLATE_BY_NAME[template].column_names) if template else None
    derived = {c.name for c in DERIVED_COLUMNS_BY_LABEL.get(label, ())}
    leave = {SYNTHETIC_KEY, DISPLAY, *PROVENANCE, *DAY_COLUMNS, *skip}
    return [p for p in nt.property_names if p not in leave and (cols is None or p in cols or p in derived)]


def _returns(var: str, label: str, template: str | None = None, skip: tuple[str, ...] = ()) -> str:
    return ", ".join(f"{var}.{q(p)} AS {q(p)}" for p in record_columns(label, template, skip))


_Q: list[NamedQuery] = [
    # ---- attendance / schedule -------------------------------------------------------
    NamedQuery("attendance_by_project_month", """
MATCH (p:人员)-[:有考勤]->(a:考勤)-[:所属项目]->(j:项目)
WHERE (j.项目编号 = $项目编号 OR $项目编号 = '') AND a.年月 >= $从 AND a.年月 <= $到
  AND (size($岗位列表) = 0 OR p.岗位名称 IN $岗位列表)
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, p.工号 AS 工号, p.姓名 AS 姓名, p.岗位名称 AS 岗位名称,
       a.年月 AS 年月, a.上班天数 AS 上班天数, a.加班小时 AS 加班小时, a.出勤天数 AS 出勤天数, a.休息天数 AS 休息天数,
       a.请假天数 AS 请假天数, a.旷工天数 AS 旷工天数, a.休息日加班天数 AS 休息日加班天数, {prov}
ORDER BY 项目编号, 年月, 工号""".format(prov=_prov("a")),
               {"项目编号": "", "从": YM_MIN, "到": YM_MAX, "岗位列表": []},
               "项目（可空=全部）在年月区间内的考勤汇总，可按岗位过滤"),
    NamedQuery("attendance_by_person", """
MATCH (p:人员)-[:有考勤]->(a:考勤)-[:所属项目]->(j:项目)
WHERE p.工号 = $工号 AND a.年月 >= $从 AND a.年月 <= $到
RETURN p.工号 AS 工号, p.姓名 AS 姓名, j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, a.年月 AS 年月,
       a.上班天数 AS 上班天数, a.加班小时 AS 加班小时, a.出勤天数 AS 出勤天数, a.请假天数 AS 请假天数,
       a.旷工天数 AS 旷工天数, {prov}
ORDER BY 年月, 项目编号""".format(prov=_prov("a")),
               {"工号": "", "从": YM_MIN, "到": YM_MAX}, "某人的月度考勤"),
    NamedQuery("attendance_days", """
MATCH (p:人员)-[:有考勤]->(a:考勤)
WHERE p.工号 = $工号 AND a.年月 = $年月
RETURN p.工号 AS 工号, p.姓名 AS 姓名, a.项目编号 AS 项目编号, a.年月 AS 年月, """
               + ", ".join(f"a.`{d}日` AS `{d}日`" for d in range(1, 32)) + f", {_prov('a')}",
               {"工号": "", "年月": ""}, "某人某月逐日考勤状态"),
    NamedQuery("overtime_over", """
MATCH (p:人员)-[:有考勤]->(a:考勤)-[:所属项目]->(j:项目)
WHERE a.年月 >= $从 AND a.年月 <= $到 AND a.加班小时 > $最少小时
  AND (size($岗位列表) = 0 OR p.岗位名称 IN $岗位列表) AND (j.项目编号 = $项目编号 OR $项目编号 = '')
RETURN p.工号 AS 工号, p.姓名 AS 姓名, p.岗位名称 AS 岗位名称, j.项目编号 AS 项目编号, j.项目名称 AS 项目名称,
       a.年月 AS 年月, a.加班小时 AS 加班小时, {prov}
ORDER BY 加班小时 DESC, 工号""".format(prov=_prov("a")),
               {"从": YM_MIN, "到": YM_MAX, "最少小时": 0.0, "岗位列表": [], "项目编号": ""},
               "加班小时超过阈值的人员×月"),
    NamedQuery("absence_by_month", """
MATCH (p:人员)-[:有考勤]->(a:考勤)-[:所属项目]->(j:项目)
WHERE a.年月 >= $从 AND a.年月 <= $到 AND (a.旷工天数 > 0 OR a.请假天数 > 0)
  AND (j.项目编号 = $项目编号 OR $项目编号 = '')
RETURN p.工号 AS 工号, p.姓名 AS 姓名, p.岗位名称 AS 岗位名称, j.项目编号 AS 项目编号, j.项目名称 AS 项目名称,
       a.年月 AS 年月, a.旷工天数 AS 旷工天数, a.请假天数 AS 请假天数, {prov}
ORDER BY 旷工天数 DESC, 请假天数 DESC, 工号""".format(prov=_prov("a")),
               {"从": YM_MIN, "到": YM_MAX, "项目编号": ""}, "缺勤分析：有旷工或请假的人员×月"),
    NamedQuery("schedule_by_project_month", """
MATCH (p:人员)-[:有排班]->(s:排班月报)-[:所属项目]->(j:项目)
WHERE (j.项目编号 = $项目编号 OR $项目编号 = '') AND s.年月 >= $从 AND s.年月 <= $到
  AND (p.工号 = $工号 OR $工号 = '')
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, p.工号 AS 工号, p.姓名 AS 姓名, p.岗位名称 AS 岗位名称,
       s.年月 AS 年月, s.排班天数 AS 排班天数, s.夜班天数 AS 夜班天数, s.休息天数 AS 休息天数, {prov}
ORDER BY 项目编号, 年月, 工号""".format(prov=_prov("s")),
               {"项目编号": "", "从": YM_MIN, "到": YM_MAX, "工号": ""}, "项目/人员在年月区间内的排班汇总"),
    # ---- finance ---------------------------------------------------------------------
    NamedQuery("finance_by_project", """
MATCH (j:项目)-[:月度财务]->(f:财务)
WHERE f.财务类型 = '项目财务' AND (j.项目编号 = $项目编号 OR $项目编号 = '') AND f.年月 >= $从 AND f.年月 <= $到
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, f.年月 AS 年月, f.开票金额 AS 开票金额,
       f.收款金额 AS 收款金额, f.口径 AS 口径, {prov}
ORDER BY 项目编号, 年月""".format(prov=_prov("f")),
               {"项目编号": "", "从": YM_MIN, "到": YM_MAX}, "项目月度开票/收款"),
    NamedQuery("person_finance", """
MATCH (p:人员)-[:月度财务]->(f:财务)
WHERE f.财务类型 = '人员财务' AND (p.工号 = $工号 OR $工号 = '') AND (f.项目编号 = $项目编号 OR $项目编号 = '')
  AND f.年月 >= $从 AND f.年月 <= $到
RETURN p.工号 AS 工号, p.姓名 AS 姓名, f.项目编号 AS 项目编号, f.年月 AS 年月, f.餐费 AS 餐费,
       f.加班超时费 AS 加班超时费, f.国定加班费 AS 国定加班费, f.值班费 AS 值班费, f.税后工资 AS 税后工资, {prov}
ORDER BY 工号, 年月""".format(prov=_prov("f")),
               {"工号": "", "项目编号": "", "从": YM_MIN, "到": YM_MAX}, "人员月度财务（敏感）", sensitive=True),
    # ---- equipment -------------------------------------------------------------------
    NamedQuery("equipment_by_project", """
MATCH (d:设备)-[:所属项目]->(j:项目)
WHERE (j.项目编号 = $项目编号 OR $项目编号 = '') AND (d.完好状况 = $完好状况 OR $完好状况 = '')
  AND (d.设备类型 = $设备类型 OR $设备类型 = '')
OPTIONAL MATCH (d)-[:责任人]->(r:人员)
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, d.设备编号 AS 设备编号, d.设备名称 AS 设备名称,
       d.设备类型 AS 设备类型, d.规格型号 AS 规格型号, d.制造厂商 AS 制造厂商, d.安装位置 AS 安装位置,
       d.启用日期 AS 启用日期, d.完好状况 AS 完好状况, d.原值 AS 原值, r.工号 AS 责任人工号, r.姓名 AS 责任人, {prov}
ORDER BY 项目编号, 设备编号""".format(prov=_prov("d")),
               {"项目编号": "", "完好状况": "", "设备类型": ""}, "项目设备（可按完好状况、设备类型过滤）"),
    # ---- service periods / staff -----------------------------------------------------
    NamedQuery("staff_serving_project", """
MATCH (p:人员)-[e:服务于]->(j:项目)
WHERE (j.项目编号 = $项目编号 OR $项目编号 = '') AND e.开始 <= $到 AND (e.结束 IS NULL OR e.结束 >= $从)
  AND (size($岗位列表) = 0 OR p.岗位名称 IN $岗位列表)
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, p.工号 AS 工号, p.姓名 AS 姓名, p.岗位名称 AS 岗位名称,
       e.开始 AS 开始, e.结束 AS 结束, e.依据 AS 依据, {prov}
ORDER BY 项目编号, 工号, 开始""".format(prov=_prov("e")),
               {"项目编号": "", "从": YM_MIN, "到": YM_MAX, "岗位列表": []},
               "在年月区间内服务于项目的人员（期间边区间相交）"),
    NamedQuery("person_service_history", """
MATCH (p:人员)-[e:服务于]->(j:项目)
WHERE p.工号 = $工号
RETURN p.工号 AS 工号, p.姓名 AS 姓名, j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, e.开始 AS 开始,
       e.结束 AS 结束, e.依据 AS 依据, {prov}
ORDER BY 开始, 项目编号""".format(prov=_prov("e")),
               {"工号": ""}, "某人服务过的项目与期间"),
    NamedQuery("staff_by_position", """
MATCH (p:人员)
WHERE (size($岗位列表) = 0 OR p.岗位名称 IN $岗位列表) AND (p.当前服务项目编号 = $项目编号 OR $项目编号 = '')
  AND (p.员工层级 = $员工层级 OR $员工层级 = '')
RETURN p.工号 AS 工号, p.姓名 AS 姓名, p.岗位名称 AS 岗位名称, p.员工层级 AS 员工层级, p.职级 AS 职级,
       p.性别 AS 性别, p.出生日期 AS 出生日期, p.入职日期 AS 入职日期, p.离职日期 AS 离职日期,
       p.当前服务项目编号 AS 当前服务项目编号, p.组织名称 AS 组织名称, {prov}
ORDER BY 工号""".format(prov=_PROV.replace("n.", "p.")),
               {"岗位列表": [], "项目编号": "", "员工层级": ""}, "按岗位/当前项目/员工层级列出人员（含出生日期、入职日期）"),
    NamedQuery("staff_by_project", """
MATCH (p:人员)
WHERE p.当前服务项目编号 = $项目编号
OPTIONAL MATCH (j:项目 {{项目编号: p.当前服务项目编号}})
RETURN p.当前服务项目编号 AS 项目编号, j.项目名称 AS 项目名称, p.工号 AS 工号, p.姓名 AS 姓名,
       p.岗位名称 AS 岗位名称, p.员工层级 AS 员工层级, {prov}
ORDER BY 工号""".format(prov=_prov("p")),
               {"项目编号": ""}, "当前服务某项目的人员（人员信息·当前服务项目编号）"),
    NamedQuery("projects_without_staff", """
MATCH (j:项目)
WHERE j.服务状态 = '服务中'
OPTIONAL MATCH (p:人员)-[e:服务于]->(j)
WHERE e.开始 <= $到 AND (e.结束 IS NULL OR e.结束 >= $从)
WITH j, count(p) AS 在岗人数
WHERE 在岗人数 = 0
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, j.服务状态 AS 服务状态, 在岗人数, {prov}
ORDER BY 项目编号""".format(prov=_prov("j")),
               {"从": YM_MIN, "到": YM_MAX}, "服务中但在区间内没有任何人员服务的项目（项目缺口）"),
    # ---- projects ----------------------------------------------------------------------
    NamedQuery("project_profile", """
MATCH (j:项目)
WHERE j.项目编号 = $项目编号
OPTIONAL MATCH (j)-[:负责人]->(m:人员)
OPTIONAL MATCH (j)-[:属于片区]->(a:片区)
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, j.项目简称 AS 项目简称, j.服务状态 AS 服务状态,
       j.开始日期 AS 开始日期, j.结束日期 AS 结束日期, j.市区 AS 市区, j.细分业态 AS 细分业态,
       j.合同金额 AS 合同金额, j.年化合同额 AS 年化合同额, j.合同面积 AS 合同面积, j.甲方名称 AS 甲方名称,
       j.客户满意度 AS 客户满意度, j.客户投诉 AS 客户投诉, j.实际毛利率 AS 实际毛利率,
       j.上级项目编号 AS 上级项目编号, j.续签前项目编号 AS 续签前项目编号,
       m.工号 AS 负责人工号, m.姓名 AS 负责人, a.片区编号 AS 片区编号, a.片区名称 AS 片区名称, {prov}""".format(prov=_prov("j")),
               {"项目编号": ""}, "项目概况（含负责人、片区）"),
    NamedQuery("project_children", """
MATCH (j:项目)-[e:包含]->(c:项目)
WHERE j.项目编号 = $项目编号
RETURN j.项目编号 AS 上级项目编号, j.项目名称 AS 上级项目名称, c.项目编号 AS 项目编号, c.项目名称 AS 项目名称,
       c.服务状态 AS 服务状态, {prov}
ORDER BY 项目编号""".format(prov=_prov("c")),
               {"项目编号": ""}, "项目的子项目"),
    NamedQuery("project_parent", """
MATCH (j:项目)-[:包含]->(c:项目)
WHERE c.项目编号 = $项目编号
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, j.服务状态 AS 服务状态, {prov}""".format(prov=_prov("j")),
               {"项目编号": ""}, "项目的上级项目"),
    NamedQuery("renewal_chain", """
MATCH (j:项目)-[:续签自*1..20]-(o:项目)
WHERE j.项目编号 = $项目编号 AND o.项目编号 <> j.项目编号
RETURN DISTINCT o.项目编号 AS 项目编号, o.项目名称 AS 项目名称, o.开始日期 AS 开始日期, o.结束日期 AS 结束日期,
       o.服务状态 AS 服务状态, {prov}
ORDER BY 开始日期""".format(prov=_prov("o")),
               {"项目编号": ""}, "项目续签链上的其他合同期（前后各期）"),
    NamedQuery("renewals", """
MATCH (n:项目)-[e:续签自]->(o:项目)
RETURN n.项目编号 AS 项目编号, n.项目名称 AS 项目名称, n.服务状态 AS 服务状态, o.项目编号 AS 续签前项目编号,
       o.项目名称 AS 续签前项目名称, o.服务状态 AS 续签前服务状态, {prov}
ORDER BY 项目编号""".format(prov=_prov("e")),
               {}, "全部续签关系（新 → 旧）"),
    NamedQuery("projects_by_area", """
MATCH (j:项目)-[:属于片区]->(a:片区)
WHERE (a.片区编号 = $片区编号 OR $片区编号 = '') AND (j.服务状态 = $服务状态 OR $服务状态 = '')
RETURN a.片区编号 AS 片区编号, a.片区名称 AS 片区名称, j.项目编号 AS 项目编号, j.项目名称 AS 项目名称,
       j.服务状态 AS 服务状态, {prov}
ORDER BY 片区编号, 项目编号""".format(prov=_prov("j")),
               {"片区编号": "", "服务状态": ""}, "片区下的项目"),
    NamedQuery("area_managers", """
MATCH (a:片区)-[e:负责人]->(p:人员)
RETURN a.片区编号 AS 片区编号, a.片区名称 AS 片区名称, p.工号 AS 工号, p.姓名 AS 姓名, {prov}
ORDER BY 片区编号""".format(prov=_prov("a")), {}, "片区负责人"),
    NamedQuery("bids_by_project", """
MATCH (j:项目)-[:投标]->(b:投标记录)
WHERE (j.项目编号 = $项目编号 OR $项目编号 = '') AND b.年份 >= $起始年份 AND b.年份 <= $截止年份
  AND (b.中标结果 = $中标结果 OR $中标结果 = '')
OPTIONAL MATCH (b)-[:经办人]->(p:人员)
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, b.年份 AS 年份, b.投标类型 AS 投标类型,
       b.中标结果 AS 中标结果, b.中标日期 AS 中标日期, b.投标金额 AS 投标金额, b.文档路径 AS 文档路径,
       p.工号 AS 经办人工号, p.姓名 AS 经办人, {prov}
ORDER BY 项目编号, 年份""".format(prov=_prov("b")),
               {"项目编号": "", "起始年份": 0, "截止年份": 9999, "中标结果": ""}, "投标记录"),
    # ---- certificates / staffing / inspections / procurement -------------------------------
    NamedQuery("certificates", """
MATCH (p:人员)-[:持有]->(c:证书)
WHERE (p.工号 = $工号 OR $工号 = '') AND ($证书关键词 = '' OR c.证书名称 CONTAINS $证书关键词)
RETURN p.工号 AS 工号, p.姓名 AS 姓名, p.岗位名称 AS 岗位名称, c.证书名称 AS 证书名称, c.专业类别 AS 专业类别,
       c.证书类别 AS 证书类别, {prov}
ORDER BY 工号, 证书名称""".format(prov=_prov("c")),
               {"工号": "", "证书关键词": ""}, "证书（按人或证书名称关键词）"),
    NamedQuery("staffing_by_project", """
MATCH (j:项目)-[:编制]->(s:岗位编制)
WHERE (j.项目编号 = $项目编号 OR $项目编号 = '') AND (s.岗位 = $岗位 OR $岗位 = '')
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, s.岗位 AS 岗位, s.预算编制 AS 预算编制,
       s.项目编制 AS 项目编制, s.标准工时人数 AS 标准工时人数, s.在岗人数 AS 在岗人数, {prov}
ORDER BY 项目编号, 岗位""".format(prov=_prov("s")),
               {"项目编号": "", "岗位": ""}, "项目岗位编制（预算/项目/标准工时/在岗）"),
    NamedQuery("inspections_by_project", """
MATCH (j:项目)-[:检查]->(i:检查记录)
WHERE (j.项目编号 = $项目编号 OR $项目编号 = '') AND i.检查日期 >= $从日期 AND i.检查日期 <= $到日期
OPTIONAL MATCH (i)-[:检查人]->(p:人员)
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, i.检查类型 AS 检查类型, i.检查日期 AS 检查日期,
       i.检查得分 AS 检查得分, i.问题描述 AS 问题描述, i.整改情况 AS 整改情况, i.整改完成日期 AS 整改完成日期,
       p.工号 AS 检查人工号, p.姓名 AS 检查人, {prov}
ORDER BY 检查日期, 项目编号""".format(prov=_prov("i")),
               {"项目编号": "", "从日期": DATE_MIN, "到日期": DATE_MAX}, "检查记录与整改"),
    NamedQuery("procurement_by_project", """
MATCH (j:项目)-[:采购]->(r:采购记录)
WHERE (j.项目编号 = $项目编号 OR $项目编号 = '') AND (r.记录类型 = $记录类型 OR $记录类型 = '')
  AND (r.日期 IS NULL OR (r.日期 >= $从日期 AND r.日期 <= $到日期))
OPTIONAL MATCH (r)-[:⟦R:供应商⟧]->(s:供应商)
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, r.记录类型 AS 记录类型, r.名称 AS 名称, r.类别 AS 类别,
       r.数量 AS 数量, r.单价 AS 单价, r.金额 AS 金额, r.日期 AS 日期, r.状态 AS 状态, s.名称 AS 供应商, {prov}
ORDER BY 项目编号, 日期""".format(prov=_prov("r")),
               {"项目编号": "", "记录类型": "", "从日期": DATE_MIN, "到日期": DATE_MAX}, "耗材采购/固定资产"),
    NamedQuery("maintenance_by_project", """
MATCH (j:项目)-[:维保]->(m:维保合同)
WHERE (j.项目编号 = $项目编号 OR $项目编号 = '')
OPTIONAL MATCH (m)-[:维保单位]->(s:供应商)
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, m.名称 AS 名称, m.类别 AS 类别, m.合同年限 AS 合同年限,
       m.金额 AS 金额, m.日期 AS 日期, m.状态 AS 状态, s.名称 AS 维保单位, {prov}
ORDER BY 项目编号, 名称""".format(prov=_prov("m")),
               {"项目编号": ""}, "维保合同与维保单位"),
    NamedQuery("suppliers", """
MATCH (s:供应商)
RETURN s.名称 AS 名称, s.类别 AS 类别, s.状态 AS 状态, {prov}
ORDER BY 名称""".format(prov=_prov("s")), {}, "供应商列表"),
    NamedQuery("service_periods_all", """
MATCH (p:人员)-[e:服务于]->(j:项目)
RETURN p.工号 AS 工号, j.项目编号 AS 项目编号, e.开始 AS 开始, e.结束 AS 结束, e.依据 AS 依据, {prov}
ORDER BY 工号, 项目编号, 开始""".format(prov=_prov("e")), {}, "全部服务期边（构建器增量推导用）"),
    NamedQuery("attendance_months", """
MATCH (p:人员)-[:有考勤]->(a:考勤)-[:所属项目]->(j:项目)
RETURN p.工号 AS 工号, j.项目编号 AS 项目编号, a.年月 AS 年月, {prov}""".format(prov=_prov("a")),
               {}, "全部 人员×项目×考勤年月（构建器增量推导用）"),
    NamedQuery("schedule_months", """
MATCH (p:人员)-[:有排班]->(s:排班月报)-[:所属项目]->(j:项目)
RETURN p.工号 AS 工号, j.项目编号 AS 项目编号, s.年月 AS 年月, {prov}""".format(prov=_prov("s")),
               {}, "全部 人员×项目×排班年月（构建器增量推导用）"),
    # ---- entity index / grounding ----------------------------------------------------
    NamedQuery("entity_projects", """
MATCH (j:项目)
RETURN j.项目编号 AS 项目编号, j.项目名称 AS 项目名称, j.项目简称 AS 项目简称, j.服务状态 AS 服务状态,
       j.上级项目编号 AS 上级项目编号, j.开始日期 AS 开始日期, j.结束日期 AS 结束日期,
       j.项目负责人工号 AS 项目负责人工号
ORDER BY 项目编号""", {}, "实体索引：全部项目"),
    NamedQuery("entity_people", """
MATCH (p:人员)
RETURN p.工号 AS 工号, p.姓名 AS 姓名, p.岗位名称 AS 岗位名称, p.当前服务项目编号 AS 当前服务项目编号
ORDER BY 工号""", {}, "实体索引：全部人员"),
    NamedQuery("entity_areas", """
MATCH (a:片区)
RETURN a.片区编号 AS 片区编号, a.片区名称 AS 片区名称, a.片区负责人工号 AS 片区负责人工号
ORDER BY 片区编号""", {}, "实体索引：全部片区"),
    NamedQuery("entity_equipment", """
MATCH (d:设备)
RETURN d.键 AS 键, d.项目编号 AS 项目编号, d.设备编号 AS 设备编号, d.设备名称 AS 设备名称, d.设备类型 AS 设备类型
ORDER BY 键""", {}, "实体索引：全部设备"),
    NamedQuery("time_coverage", """
MATCH (a:考勤)
WITH min(a.年月) AS 考勤起, max(a.年月) AS 考勤止
OPTIONAL MATCH (s:排班月报)
WITH 考勤起, 考勤止, min(s.年月) AS 排班起, max(s.年月) AS 排班止
OPTIONAL MATCH (f:财务)
RETURN 考勤起, 考勤止, 排班起, 排班止, min(f.年月) AS 财务起, max(f.年月) AS 财务止""",
               {}, "数据时间覆盖（各类月度事实的最早/最晚年月）"),
    NamedQuery("provenance_by_row", """
MATCH (n)
WHERE n.来源模板 = $来源模板 AND n.来源文件 = $来源文件 AND n.行号 = $行号
RETURN ⟦label:n⟧ AS 标签, n.显示名 AS 显示名, {prov}""".format(prov=_PROV),
               {"来源模板": "", "来源文件": "", "行号": 0}, "溯源：某模板某文件某行生成的节点"),
    NamedQuery("provenance_edge_by_row", """
MATCH (a)-[e]->(b)
WHERE e.来源模板 = $来源模板 AND e.来源文件 = $来源文件 AND e.行号 = $行号
RETURN ⟦type:e⟧ AS 关系, a.显示名 AS 起点, b.显示名 AS 终点, e.来源模板 AS 来源模板, e.来源文件 AS 来源文件,
       e.行号 AS 行号
LIMIT 20""", {"来源模板": "", "来源文件": "", "行号": 0}, "溯源：某模板某文件某行生成的关系"),
    NamedQuery("node_neighbours", """
MATCH (n)-[e]-(m)
WHERE n.显示名 = $显示名
RETURN ⟦label:n⟧ AS 起点标签, n.显示名 AS 起点, ⟦type:e⟧ AS 关系, ⟦label:m⟧ AS 终点标签, m.显示名 AS 终点,
       e.来源模板 AS 来源模板, e.来源文件 AS 来源文件, e.行号 AS 行号
LIMIT $上限""", {"显示名": "", "上限": 200}, "探索：按显示名查节点的一跳邻居"),
]

QUERIES: dict[str, NamedQuery] = {nq.name: nq for nq in _Q}


def get(name: str) -> NamedQuery:
    try:
        return QUERIES[name]
    except KeyError:
        raise BadInputError(f"未知查询“{name}”，可用查询：{'、'.join(QUERIES)}") from None


def register(nq: NamedQuery) -> NamedQuery:
    """Append a query (other modules, e.g. the KG agent); names must be unique."""
    if nq.name in QUERIES and QUERIES[nq.name] != nq:
        raise ValueError(f"duplicate query name {nq.name}")
    assert_read_only(nq.cypher)
    QUERIES[nq.name] = nq
    return nq


# ---------------------------------------------------------------------------------------
# Generated (schema-whitelisted) queries: label/property names cannot be parameters.
# ---------------------------------------------------------------------------------------
def _node(label: str) -> NodeTable:
    if label not in NODE_BY_LABEL:
        raise BadInputError(f"未知节点标签“{label}”，可选：{'、'.join(NODE_BY_LABEL)}")
    return NODE_BY_LABEL[label]


def _rel(rel_type: str) -> RelTable:
    if rel_type not in REL_BY_TYPE:
        raise BadInputError(f"未知关系类型“{rel_type}”，可选：{'、'.join(REL_BY_TYPE)}")
    return REL_BY_TYPE[rel_type]


def distinct_values(label: str, prop: str, limit: int = 500) -> tuple[str, dict]:
    """Distinct non-null values of ``label.prop`` with their counts (value grounding)."""
    nt = _node(label)
    if prop not in nt.property_names:
        raise BadInputError(f"{label} 没有属性“{prop}”")
    return (f"MATCH (n:{q(label)}) WHERE n.{q(prop)} IS NOT NULL "
            f"RETURN n.{q(prop)} AS 值, count(n) AS 次数 ORDER BY 次数 DESC, 值 LIMIT $上限", {"上限": int(limit)})


def node_by_key(label: str, key: str) -> tuple[str, dict]:
    """One node by primary key with every property (provenance lookup)."""
    nt = _node(label)
    cols = ", ".join(f"n.{q(p)} AS {q(p)}" for p in nt.property_names)
    return f"MATCH (n:{q(label)}) WHERE n.{q(nt.pk)} = $键 RETURN {cols}", {"键": key}


def count_nodes(label: str) -> str:
    return f"MATCH (n:{q(_node(label).label)}) RETURN count(n) AS n"


def count_edges(rel_type: str) -> str:
    return f"MATCH ()-[e:⟦R:{_rel(rel_type).type}⟧]->() RETURN count(e) AS n"


def upsert_nodes(label: str, dialect) -> tuple[str, list[str]]:
    """``UNWIND $rows AS r MERGE (n:L {pk: r.p0}) SET …``; rows use positional keys p0…pN in
    the order of the returned property list (ASCII keys, safe on every driver)."""
    nt = _node(label)
    props = nt.property_names
    pk_i = props.index(nt.pk)
    sets = ", ".join(f"n.{q(p)} = {dialect.typed(f'r.p{i}', t)}" for i, (p, t) in enumerate(nt.properties)
                     if p != nt.pk)
    return f"UNWIND $rows AS r MERGE (n:{q(label)} {{{q(nt.pk)}: r.p{pk_i}}}) SET {sets}", props


def upsert_edges(rel_type: str, from_label: str, to_label: str, dialect) -> tuple[str, list[str]]:
    """``UNWIND $rows AS r MATCH (a:A {pk: r.f}) MATCH (b:B {pk: r.t}) MERGE (a)-[e:R {merge_on…}]->(b) SET …``."""
    rt = _rel(rel_type)
    if (from_label, to_label) not in rt.pairs:
        raise BadInputError(f"关系 {rel_type} 不连接 {from_label} → {to_label}")
    a, b = _node(from_label), _node(to_label)
    props = [p for p, _ in rt.all_properties]
    types = dict(rt.all_properties)
    merge = ", ".join(f"{q(p)}: {dialect.typed(f'r.p{props.index(p)}', types[p])}" for p in rt.merge_on)
    merge = f" {{{merge}}}" if merge else ""
    sets = ", ".join(f"e.{q(p)} = {dialect.typed(f'r.p{i}', types[p])}" for i, p in enumerate(props)
                     if p not in rt.merge_on)
    cypher = (f"UNWIND $rows AS r MATCH (a:{q(a.label)} {{{q(a.pk)}: r.f}}) MATCH (b:{q(b.label)} {{{q(b.pk)}: r.t}}) "
              f"MERGE (a)-[e:{q(dialect.rel(rel_type))}{merge}]->(b) SET {sets}")
    return cypher, props


# ---------------------------------------------------------------------------------------
# Read-only check (every backend runs it before any query on the read path)
# ---------------------------------------------------------------------------------------
_WRITE_WORDS = ("CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "LOAD", "COPY", "ALTER",
                "INSTALL", "ATTACH", "DETACH", "IMPORT", "EXPORT", "CHECKPOINT", "FOREACH", "BEGIN", "COMMIT",
                "ROLLBACK", "GRANT", "REVOKE", "DENY", "TERMINATE")
_WRITE_RE = re.compile(r"\b(" + "|".join(_WRITE_WORDS) + r")\b", re.IGNORECASE)
_CALL_RE = re.compile(r"\bCALL\b\s*([A-Za-z_][\w.]*)?\s*(\{|\()?", re.IGNORECASE)
# Read-only procedures allowed after CALL (Neo4j catalog procs and ladybug table functions).
READ_PROCEDURES = frozenset({
    "db.labels", "db.relationshiptypes", "db.propertykeys", "db.schema.visualization", "db.schema.nodetypeproperties",
    "db.schema.reltypeproperties", "show_tables", "table_info", "show_connection", "current_setting", "db_version",
})
_STRIP_RE = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`(?:[^`]|``)*`|//[^\n]*|/\*.*?\*/", re.DOTALL)


def strip_literals(cypher: str) -> str:
    """Cypher with string literals, quoted identifiers and comments blanked out."""
    return _STRIP_RE.sub(" ", cypher)


def assert_read_only(cypher: str) -> None:
    """Raise :class:`ReadOnlyViolation` unless ``cypher`` is a single read-only statement."""
    body = strip_literals(cypher)
    if "⟦" in body:
        body = re.sub(r"⟦[^⟧]*⟧", " ", body)
    m = _WRITE_RE.search(body)
    if m:
        raise ReadOnlyViolation(f"只读查询中不允许写操作：{m.group(1).upper()}")
    for m in _CALL_RE.finditer(body):
        proc = (m.group(1) or "").lower()
        if proc not in READ_PROCEDURES:
            raise ReadOnlyViolation(f"只读查询中不允许调用过程：CALL {m.group(1) or '{…}'}")
    if ";" in body.strip().rstrip(";"):
        raise ReadOnlyViolation("只读查询只能包含一条语句")


for _nq in QUERIES.values():
    assert_read_only(_nq.cypher)


# =======================================================================================
# Business-graph Q&A agent tools (core/agents/kg). Optional filters are lists: an empty
# list means "no filter" (``size($x) = 0 OR …``), which both backends type-check; numeric and
# derived conditions are applied in Python by the agent. Every row carries provenance.
# =======================================================================================
KG_ENTITY_PROJECTS = """
MATCH (j:`项目`)
RETURN j.`项目编号` AS `项目编号`, j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`,
       j.`项目地址` AS `项目地址`, j.`甲方名称` AS `甲方名称`, j.`服务状态` AS `服务状态`,
       j.`开始日期` AS `开始日期`, j.`结束日期` AS `结束日期`, j.`上级项目编号` AS `上级项目编号`,
       j.`续签前项目编号` AS `续签前项目编号`, j.`市区` AS `市区`, j.`细分业态` AS `细分业态`,
       j.`汇总业态` AS `汇总业态`, j.`委托方式` AS `委托方式`, j.`项目负责人` AS `项目负责人`,
       j.`项目负责人工号` AS `项目负责人工号`, j.`合同金额` AS `合同金额`, j.`年化合同额` AS `年化合同额`,
       j.`合同面积` AS `合同面积`, j.`客户满意度` AS `客户满意度`, j.`客户投诉` AS `客户投诉`,
       j.`实际毛利率` AS `实际毛利率`,
       j.`来源模板` AS `来源模板`, j.`来源文件` AS `来源文件`, j.`行号` AS `行号`
ORDER BY `项目编号`
"""

KG_ENTITY_PEOPLE = """
MATCH (p:`人员`)
RETURN p.`工号` AS `工号`, p.`姓名` AS `姓名`, p.`岗位名称` AS `岗位名称`, p.`组织名称` AS `组织名称`,
       p.`当前服务项目编号` AS `当前服务项目编号`, p.`职级` AS `职级`, p.`员工层级` AS `员工层级`,
       p.`入职日期` AS `入职日期`, p.`离职日期` AS `离职日期`, p.`性别` AS `性别`, p.`出生日期` AS `出生日期`,
       p.`政治面貌` AS `政治面貌`, p.`联系电话` AS `联系电话`, p.`身份证号码` AS `身份证号码`,
       p.`来源模板` AS `来源模板`, p.`来源文件` AS `来源文件`, p.`行号` AS `行号`
ORDER BY `工号`
"""

KG_ENTITY_AREAS = """
MATCH (a:`片区`)
OPTIONAL MATCH (j:`项目`)-[:`属于片区`]->(a)
RETURN a.`片区编号` AS `片区编号`, a.`片区名称` AS `片区名称`, collect(j.`项目编号`) AS `项目编号列表`
ORDER BY `片区编号`
"""

KG_ENTITY_EQUIPMENT = """
MATCH (e:`设备`)
RETURN DISTINCT e.`设备编号` AS `设备编号`, e.`设备类型` AS `设备类型`, e.`设备名称` AS `设备名称`,
       e.`完好状况` AS `完好状况`, e.`制造厂商` AS `制造厂商`
"""

KG_DISTINCT_VALUES = """
MATCH (n:`岗位编制`)
RETURN DISTINCT '岗位名称' AS `字段`, n.`岗位` AS `值`
UNION
MATCH (n:`检查记录`)
RETURN DISTINCT '检查类型' AS `字段`, n.`检查类型` AS `值`
UNION
MATCH (n:`证书`)
RETURN DISTINCT '证书名称' AS `字段`, n.`证书名称` AS `值`
UNION
MATCH (n:`证书`)
RETURN DISTINCT '专业类别' AS `字段`, n.`专业类别` AS `值`
UNION
MATCH (n:`采购记录`)
RETURN DISTINCT '记录类型' AS `字段`, n.`记录类型` AS `值`
"""

KG_COVERAGE = """
MATCH (a:`考勤`)
RETURN min(a.`年月`) AS `起`, max(a.`年月`) AS `止`, count(a) AS `行数`
"""

KG_ATTENDANCE = """
MATCH (a:`考勤`)
WHERE (size($projects) = 0 OR a.`项目编号` IN $projects)
  AND (size($months) = 0 OR a.`年月` IN $months)
  AND (size($people) = 0 OR a.`工号` IN $people)
OPTIONAL MATCH (p:`人员`)-[:`有考勤`]->(a)
WITH a, p
WHERE size($positions) = 0 OR p.`岗位名称` IN $positions
OPTIONAL MATCH (a)-[:`所属项目`]->(j:`项目`)
RETURN """ + "p.`岗位名称` AS `岗位名称`, j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`, " + _returns("a", "考勤") + ", " + _prov("a") + """
ORDER BY `项目编号`, `年月`, `工号`
"""

KG_SCHEDULE = """
MATCH (s:`排班月报`)
WHERE (size($projects) = 0 OR s.`项目编号` IN $projects)
  AND (size($months) = 0 OR s.`年月` IN $months)
  AND (size($people) = 0 OR s.`工号` IN $people)
OPTIONAL MATCH (p:`人员`)-[:`有排班`]->(s)
WITH s, p
WHERE size($positions) = 0 OR p.`岗位名称` IN $positions
OPTIONAL MATCH (s)-[:`所属项目`]->(j:`项目`)
RETURN """ + "p.`岗位名称` AS `岗位名称`, j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`, " + _returns("s", "排班月报") + ", " + _prov("s") + """
ORDER BY `项目编号`, `年月`, `工号`
"""

KG_FINANCE = """
MATCH (f:`财务`)
WHERE f.`财务类型` = '项目财务'
  AND (size($projects) = 0 OR f.`项目编号` IN $projects)
  AND (size($months) = 0 OR f.`年月` IN $months)
OPTIONAL MATCH (j:`项目`)-[:`月度财务`]->(f)
RETURN """ + "j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`, " + _returns("f", "财务", "项目月度财务") + ", " + _prov("f") + """
ORDER BY `项目编号`, `年月`
"""

KG_EQUIPMENT = """
MATCH (e:`设备`)
WHERE (size($projects) = 0 OR e.`项目编号` IN $projects)
  AND (size($types) = 0 OR e.`设备类型` IN $types)
OPTIONAL MATCH (e)-[:`所属项目`]->(j:`项目`)
RETURN """ + "j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`, " + _returns("e", "设备") + ", " + _prov("e") + """
ORDER BY `项目编号`, `设备编号`
"""

KG_SERVICE_PERIODS = """
MATCH (p:`人员`)-[s:`服务于`]->(j:`项目`)
WHERE (size($projects) = 0 OR j.`项目编号` IN $projects)
  AND (size($people) = 0 OR p.`工号` IN $people)
  AND (size($positions) = 0 OR p.`岗位名称` IN $positions)
RETURN p.`工号` AS `工号`, p.`姓名` AS `姓名`, p.`岗位名称` AS `岗位名称`, j.`项目编号` AS `项目编号`,
       j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`, j.`服务状态` AS `服务状态`,
       s.`开始` AS `开始`, s.`结束` AS `结束`, s.`依据` AS `依据`,
       s.`来源模板` AS `来源模板`, s.`来源文件` AS `来源文件`, s.`行号` AS `行号`
ORDER BY `项目编号`, `工号`, `开始`
"""

KG_PROJECT_CHILDREN = """
MATCH (parent:`项目`)-[r:`包含`]->(c:`项目`)
WHERE size($projects) = 0 OR parent.`项目编号` IN $projects
RETURN parent.`项目编号` AS `上级项目编号`, parent.`项目名称` AS `上级项目名称`,
       c.`项目编号` AS `项目编号`, c.`项目名称` AS `项目名称`, c.`项目简称` AS `项目简称`,
       c.`服务状态` AS `服务状态`,
       c.`来源模板` AS `来源模板`, c.`来源文件` AS `来源文件`, c.`行号` AS `行号`
ORDER BY `上级项目编号`, `项目编号`
"""

KG_RENEWALS = """
MATCH (n:`项目`)-[r:`续签自`]->(o:`项目`)
RETURN n.`项目编号` AS `项目编号`, n.`项目名称` AS `项目名称`, n.`项目简称` AS `项目简称`,
       n.`开始日期` AS `开始日期`, n.`结束日期` AS `结束日期`, n.`服务状态` AS `服务状态`,
       o.`项目编号` AS `续签前项目编号`, o.`项目名称` AS `续签前项目名称`,
       o.`开始日期` AS `续签前开始日期`, o.`结束日期` AS `续签前结束日期`,
       n.`来源模板` AS `来源模板`, n.`来源文件` AS `来源文件`, n.`行号` AS `行号`
ORDER BY `项目编号`
"""

KG_CERTIFICATES = """
MATCH (p:`人员`)-[:`持有`]->(c:`证书`)
WHERE (size($people) = 0 OR p.`工号` IN $people)
  AND (size($projects) = 0 OR p.`当前服务项目编号` IN $projects)
  AND (size($positions) = 0 OR p.`岗位名称` IN $positions)
  AND (size($categories) = 0 OR c.`专业类别` IN $categories OR c.`证书名称` IN $categories)
RETURN p.`工号` AS `工号`, p.`姓名` AS `姓名`, p.`岗位名称` AS `岗位名称`,
       p.`当前服务项目编号` AS `项目编号`, c.`证书名称` AS `证书名称`, c.`专业类别` AS `专业类别`,
       c.`证书类别` AS `证书类别`,
       c.`来源模板` AS `来源模板`, c.`来源文件` AS `来源文件`, c.`行号` AS `行号`
ORDER BY `工号`, `证书名称`
"""

KG_STAFF = """
MATCH (p:`人员`)
WHERE (size($people) = 0 OR p.`工号` IN $people)
  AND (size($projects) = 0 OR p.`当前服务项目编号` IN $projects)
  AND (size($positions) = 0 OR p.`岗位名称` IN $positions)
  AND (size($genders) = 0 OR p.`性别` IN $genders)
OPTIONAL MATCH (j:`项目`) WHERE j.`项目编号` = p.`当前服务项目编号`
RETURN p.`工号` AS `工号`, p.`姓名` AS `姓名`, p.`岗位名称` AS `岗位名称`, p.`组织名称` AS `组织名称`,
       p.`当前服务项目编号` AS `项目编号`, j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`,
       p.`职级` AS `职级`, p.`员工层级` AS `员工层级`, p.`入职日期` AS `入职日期`, p.`离职日期` AS `离职日期`,
       p.`性别` AS `性别`, p.`出生日期` AS `出生日期`, p.`政治面貌` AS `政治面貌`,
       p.`联系电话` AS `联系电话`, p.`身份证号码` AS `身份证号码`,
       p.`来源模板` AS `来源模板`, p.`来源文件` AS `来源文件`, p.`行号` AS `行号`
ORDER BY `工号`
"""

KG_STAFFING = """
MATCH (b:`岗位编制`)
WHERE (size($projects) = 0 OR b.`项目编号` IN $projects)
  AND (size($positions) = 0 OR b.`岗位` IN $positions)
OPTIONAL MATCH (j:`项目`)-[:`编制`]->(b)
RETURN """ + "j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`, " + _returns("b", "岗位编制") + ", " + _prov("b") + """
ORDER BY `项目编号`, `岗位`
"""

KG_INSPECTIONS = """
MATCH (i:`检查记录`)
WHERE (size($projects) = 0 OR i.`项目编号` IN $projects)
  AND (size($types) = 0 OR i.`检查类型` IN $types)
OPTIONAL MATCH (j:`项目`)-[:`检查`]->(i)
RETURN """ + "j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`, " + _returns("i", "检查记录") + ", " + _prov("i") + """
ORDER BY `项目编号`, `检查日期`
"""

KG_PROCUREMENT = """
MATCH (r:`采购记录`)
WHERE (size($projects) = 0 OR r.`项目编号` IN $projects)
  AND (size($types) = 0 OR r.`记录类型` IN $types)
RETURN """ + _returns("r", "采购记录") + ", " + _prov("r") + """
ORDER BY `项目编号`, `日期`
"""

KG_MAINTENANCE = """
MATCH (r:`维保合同`)
WHERE (size($projects) = 0 OR r.`项目编号` IN $projects)
RETURN """ + _returns("r", "维保合同") + ", " + _prov("r") + """
ORDER BY `项目编号`, `日期`
"""

KG_PROJECTS = """
MATCH (j:`项目`)
WHERE (size($projects) = 0 OR j.`项目编号` IN $projects)
  AND (size($statuses) = 0 OR j.`服务状态` IN $statuses)
RETURN j.`项目编号` AS `项目编号`, j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`,
       j.`服务状态` AS `服务状态`, j.`开始日期` AS `开始日期`, j.`结束日期` AS `结束日期`,
       j.`市区` AS `市区`, j.`细分业态` AS `细分业态`, j.`汇总业态` AS `汇总业态`, j.`甲方名称` AS `甲方名称`,
       j.`合同金额` AS `合同金额`, j.`年化合同额` AS `年化合同额`, j.`合同面积` AS `合同面积`,
       j.`客户满意度` AS `客户满意度`, j.`客户投诉` AS `客户投诉`, j.`实际毛利率` AS `实际毛利率`,
       j.`项目负责人` AS `项目负责人`, j.`项目负责人工号` AS `项目负责人工号`, j.`上级项目编号` AS `上级项目编号`,
       j.`来源模板` AS `来源模板`, j.`来源文件` AS `来源文件`, j.`行号` AS `行号`
ORDER BY `项目编号`
"""


for _name, _defaults, _desc, _sensitive in (
        ('KG_ENTITY_PROJECTS', {}, '智能体实体索引：全部项目', False),
        ('KG_ENTITY_PEOPLE', {}, '智能体实体索引：全部人员（含敏感字段，仅供接地/派生，输出前脱敏）', True),
        ('KG_ENTITY_AREAS', {}, '智能体实体索引：片区及其项目', False),
        ('KG_ENTITY_EQUIPMENT', {}, '智能体值接地：设备类型与名称', False),
        ('KG_DISTINCT_VALUES', {}, '智能体值接地：岗位/检查类型/证书/记录类型的取值', False),
        ('KG_COVERAGE', {}, '数据时间覆盖（考勤年月最小/最大值）', False),
        ('KG_ATTENDANCE', {'projects': [], 'months': [], 'people': [], 'positions': []}, '考勤（含人员财务）：按项目/年月/工号/岗位列表过滤', True),
        ('KG_SCHEDULE', {'projects': [], 'months': [], 'people': [], 'positions': []}, '排班月报', False),
        ('KG_FINANCE', {'projects': [], 'months': []}, '项目月度财务（开票/收款）', False),
        ('KG_EQUIPMENT', {'projects': [], 'types': []}, '设备台账', False),
        ('KG_SERVICE_PERIODS', {'projects': [], 'people': [], 'positions': []}, '人员服务期（服务于边）', False),
        ('KG_PROJECT_CHILDREN', {'projects': []}, '父项目包含的子项目', False),
        ('KG_RENEWALS', {}, '全部续签关系（新-续签自-旧）', False),
        ('KG_CERTIFICATES', {'people': [], 'projects': [], 'positions': [], 'categories': []}, '人员证书', False),
        ('KG_STAFF', {'people': [], 'projects': [], 'positions': [], 'genders': []}, '人员（按当前服务项目/岗位/性别）', True),
        ('KG_STAFFING', {'projects': [], 'positions': []}, '岗位编制', False),
        ('KG_INSPECTIONS', {'projects': [], 'types': []}, '检查记录', False),
        ('KG_PROCUREMENT', {'projects': [], 'types': []}, '采购记录', False),
        ('KG_MAINTENANCE', {'projects': []}, '维保合同', False),
        ('KG_PROJECTS', {'projects': [], 'statuses': []}, '项目列表（按编号/服务状态）', False),
):
    register(NamedQuery(_name.lower(), globals()[_name], _defaults, _desc, _sensitive))


# ---------------------------------------------------------------------------------------
# Split upserts (same effect as the MERGE forms above; a backend may use them where MERGE is
# slow — LadybugDB's MERGE costs ~3× a MATCH…SET or CREATE). Callers hold the write lock
# between the existence check and the writes.
# ---------------------------------------------------------------------------------------
def existing_node_keys(label: str) -> str:
    nt = _node(label)
    return f"UNWIND $keys AS k MATCH (n:{q(label)} {{{q(nt.pk)}: k}}) RETURN n.{q(nt.pk)} AS k"


def create_nodes(label: str, dialect) -> tuple[str, list[str]]:
    nt = _node(label)
    props = ", ".join(f"{q(p)}: {dialect.typed(f'r.p{i}', t)}" for i, (p, t) in enumerate(nt.properties))
    return f"UNWIND $rows AS r CREATE (n:{q(label)} {{{props}}})", nt.property_names


def update_nodes(label: str, dialect) -> tuple[str, list[str]]:
    nt = _node(label)
    props = nt.property_names
    sets = ", ".join(f"n.{q(p)} = {dialect.typed(f'r.p{i}', t)}" for i, (p, t) in enumerate(nt.properties)
                     if p != nt.pk)
    return f"UNWIND $rows AS r MATCH (n:{q(label)} {{{q(nt.pk)}: r.p{props.index(nt.pk)}}}) SET {sets}", props


def existing_edges(rel_type: str, from_label: str, to_label: str, dialect) -> str:
    """Which rows (by index ``r.i``) already have their edge (same ends and ``merge_on`` props)."""
    rt = _rel(rel_type)
    a, b = _node(from_label), _node(to_label)
    merge = ", ".join(f"{q(p)}: r.m{j}" for j, p in enumerate(rt.merge_on))
    merge = f" {{{merge}}}" if merge else ""
    return (f"UNWIND $rows AS r MATCH (a:{q(a.label)} {{{q(a.pk)}: r.f}})-[e:{q(dialect.rel(rel_type))}{merge}]->"
            f"(b:{q(b.label)} {{{q(b.pk)}: r.t}}) RETURN DISTINCT r.i AS i")


def create_edges(rel_type: str, from_label: str, to_label: str, dialect) -> tuple[str, list[str]]:
    rt = _rel(rel_type)
    a, b = _node(from_label), _node(to_label)
    props = [p for p, _ in rt.all_properties]
    types = dict(rt.all_properties)
    body = ", ".join(f"{q(p)}: {dialect.typed(f'r.p{i}', types[p])}" for i, p in enumerate(props))
    return (f"UNWIND $rows AS r MATCH (a:{q(a.label)} {{{q(a.pk)}: r.f}}) MATCH (b:{q(b.label)} {{{q(b.pk)}: r.t}}) "
            f"CREATE (a)-[e:{q(dialect.rel(rel_type))} {{{body}}}]->(b)"), props


def delete_edges(rel_type: str, from_label: str, to_label: str, dialect) -> str:
    """Delete the edges identified by rows ``{f, t, m0…}`` (ends + ``merge_on`` props)."""
    rt = _rel(rel_type)
    a, b = _node(from_label), _node(to_label)
    merge = ", ".join(f"{q(p)}: r.m{j}" for j, p in enumerate(rt.merge_on))
    merge = f" {{{merge}}}" if merge else ""
    return (f"UNWIND $rows AS r MATCH (a:{q(a.label)} {{{q(a.pk)}: r.f}})-[e:{q(dialect.rel(rel_type))}{merge}]->"
            f"(b:{q(b.label)} {{{q(b.pk)}: r.t}}) DELETE e")


def delete_edges_rows(rel_type: str, rows) -> list[dict]:
    """The ``$rows`` parameter of :func:`delete_edges` from ``{from, to, <merge_on props>}`` rows."""
    rt = _rel(rel_type)
    return [{"f": r["from"], "t": r["to"], **{f"m{j}": r.get(p) for j, p in enumerate(rt.merge_on)}} for r in rows]


# ---------------------------------------------------------------------------------------
# KG agent: bids, project parents, areas with their managers, suppliers (portable Cypher).
# ---------------------------------------------------------------------------------------
KG_BIDS = """
MATCH (j:`项目`)-[:`投标`]->(b:`投标记录`)
WHERE (size($projects) = 0 OR j.`项目编号` IN $projects)
  AND (size($results) = 0 OR b.`中标结果` IN $results)
  AND (size($kinds) = 0 OR b.`投标类型` IN $kinds)
RETURN """ + "j.`项目编号` AS `项目编号`, j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`, " + _returns("b", "投标记录", skip=('项目编号',)) + ", " + _prov("b") + """
ORDER BY `项目编号`, `年份`
"""

KG_PROJECT_PARENT = """
MATCH (parent:`项目`)-[:`包含`]->(c:`项目`)
WHERE size($projects) = 0 OR c.`项目编号` IN $projects
RETURN c.`项目编号` AS `子项目编号`, c.`项目名称` AS `子项目名称`,
       parent.`项目编号` AS `项目编号`, parent.`项目名称` AS `项目名称`, parent.`项目简称` AS `项目简称`,
       parent.`服务状态` AS `服务状态`,
       parent.`来源模板` AS `来源模板`, parent.`来源文件` AS `来源文件`, parent.`行号` AS `行号`
ORDER BY `子项目编号`
"""

KG_AREAS = """
MATCH (a:`片区`)
WHERE size($areas) = 0 OR a.`片区编号` IN $areas
OPTIONAL MATCH (a)-[:`负责人`]->(p:`人员`)
RETURN a.`片区编号` AS `片区编号`, a.`片区名称` AS `片区名称`, p.`工号` AS `工号`, p.`姓名` AS `姓名`,
       p.`岗位名称` AS `岗位名称`,
       a.`来源模板` AS `来源模板`, a.`来源文件` AS `来源文件`, a.`行号` AS `行号`
ORDER BY `片区编号`
"""

KG_PROJECTS_FULL = """
MATCH (j:`项目`)
WHERE (size($projects) = 0 OR j.`项目编号` IN $projects)
  AND (size($statuses) = 0 OR j.`服务状态` IN $statuses)
RETURN """ + _returns("j", "项目") + ", " + _prov("j") + """
ORDER BY `项目编号`
"""

KG_ATTENDANCE_DAYS = """
MATCH (a:`考勤`)
WHERE (size($projects) = 0 OR a.`项目编号` IN $projects)
  AND (size($months) = 0 OR a.`年月` IN $months)
  AND (size($people) = 0 OR a.`工号` IN $people)
RETURN a.`工号` AS `工号`, a.`项目编号` AS `项目编号`, a.`年月` AS `年月`,
       """ + ", ".join(f"a.`{d}日` AS `{d}日`" for d in range(1, 32)) + """
ORDER BY `项目编号`, `年月`, `工号`
"""

KG_SUPPLIERS = """
MATCH (s:`供应商`)
RETURN s.`名称` AS `名称`, s.`类别` AS `类别`, s.`状态` AS `状态`,
       s.`来源模板` AS `来源模板`, s.`来源文件` AS `来源文件`, s.`行号` AS `行号`
ORDER BY `名称`
"""

for _name, _defaults, _desc in (
        ('KG_BIDS', {'projects': [], 'results': [], 'kinds': []}, '投标记录（按项目/中标结果/投标类型）'),
        ('KG_PROJECT_PARENT', {'projects': []}, '子项目的上级项目'),
        ('KG_AREAS', {'areas': []}, '片区及片区负责人'),
        ('KG_SUPPLIERS', {}, '供应商列表'),
        ('KG_ATTENDANCE_DAYS', {'projects': [], 'months': [], 'people': []}, '考勤逐日状态（事/病/年/调/旷/加 天数统计用）'),
        ('KG_PROJECTS_FULL', {'projects': [], 'statuses': []}, '项目（模板全部列：委托/计费方式、地址、续签前编号…）'),
):
    register(NamedQuery(_name.lower(), globals()[_name], _defaults, _desc))

# ---------------------------------------------------------------------------------------
# KG agent: the area(s) of each project, for "各片区…" grouping (a project may sit in two areas).
# ---------------------------------------------------------------------------------------
KG_PROJECT_AREAS = """
MATCH (j:`项目`)-[:`属于片区`]->(a:`片区`)
WHERE size($projects) = 0 OR j.`项目编号` IN $projects
RETURN j.`项目编号` AS `项目编号`, a.`片区编号` AS `片区编号`, a.`片区名称` AS `片区名称`,
       a.`来源模板` AS `来源模板`, a.`来源文件` AS `来源文件`, a.`行号` AS `行号`
ORDER BY `项目编号`, `片区编号`
"""

register(NamedQuery("kg_project_areas", KG_PROJECT_AREAS, {"projects": []}, "项目所属片区（属于片区关系；分片区统计用）"))


# =======================================================================================
# Neo4j tenancy and generations (core/graph/store/neo4j.py, core/graph/store/tenancy.py).
# Every business node carries ``_scope = "<tenant>#<generation>"``; the read path never writes
# these by hand (Dialect.render adds the scope to every node pattern). The statements below
# are the only ones that name scopes explicitly: publishing a generation, copying one into the
# next (incremental builds) and deleting one. Meta nodes use labels outside the graph schema.
# =======================================================================================
GEN_META_LABEL = "ZhiceGraphMeta"    # one per tenant: {tenant, generation, scope}
GEN_SCOPE_LABEL = "ZhiceGraphScope"  # a scope being built or retired: {scope, tenant, generation, state}

GEN_DDL = [
    f"CREATE CONSTRAINT zhice_graph_meta IF NOT EXISTS FOR (m:{GEN_META_LABEL}) REQUIRE m.tenant IS UNIQUE",
    f"CREATE CONSTRAINT zhice_graph_scope IF NOT EXISTS FOR (s:{GEN_SCOPE_LABEL}) REQUIRE s.scope IS UNIQUE",
]
GEN_CURRENT = f"MATCH (m:{GEN_META_LABEL} {{tenant: $tenant}}) RETURN m.generation AS generation, m.scope AS scope"
GEN_TENANTS = f"MATCH (m:{GEN_META_LABEL}) RETURN m.tenant AS tenant ORDER BY tenant"
GEN_MARK = (f"MERGE (s:{GEN_SCOPE_LABEL} {{scope: $scope}}) "
            "SET s.tenant = $tenant, s.generation = $generation, s.state = $state")
GEN_MARKS = (f"MATCH (s:{GEN_SCOPE_LABEL} {{tenant: $tenant}}) "
             "RETURN s.scope AS scope, s.state AS state, s.generation AS generation ORDER BY generation")
GEN_UNMARK = f"MATCH (s:{GEN_SCOPE_LABEL} {{scope: $scope}}) DELETE s"
GEN_PUBLISH = (f"MERGE (m:{GEN_META_LABEL} {{tenant: $tenant}}) "
               "SET m.generation = $generation, m.scope = $scope, m.published_at = datetime()")


def _scope_prop() -> str:
    from core.graph.schema import NEO4J_SCOPE

    return q(NEO4J_SCOPE)


def scope_delete_nodes(label: str, batch: int = 10_000) -> str:
    """Delete every ``label`` node of scope ``$scope`` with its relationships (auto-commit)."""
    return (f"MATCH (n:{q(_node(label).label)} {{{_scope_prop()}: $scope}}) "
            f"CALL (n) {{ DETACH DELETE n }} IN TRANSACTIONS OF {int(batch)} ROWS")


def scope_copy_nodes(label: str, batch: int = 5_000) -> str:
    """Copy every ``label`` node of scope ``$from`` into scope ``$to`` (auto-commit)."""
    lb = q(_node(label).label)
    return (f"MATCH (n:{lb} {{{_scope_prop()}: $from}}) "
            f"CALL (n) {{ CREATE (m:{lb}) SET m = n {{.*, {_scope_prop()}: $to}} }} "
            f"IN TRANSACTIONS OF {int(batch)} ROWS")


def scope_copy_edges(rel_type: str, from_label: str, to_label: str, batch: int = 5_000) -> str:
    """Copy the ``rel_type`` edges between the nodes of scope ``$from`` onto their copies in ``$to``."""
    rt = _rel(rel_type)
    a, b = _node(from_label), _node(to_label)
    s = _scope_prop()
    return (f"MATCH (a:{q(a.label)} {{{s}: $from}})-[e:{q(rt.type)}]->(b:{q(b.label)} {{{s}: $from}}) "
            f"CALL (a, e, b) {{ MATCH (a2:{q(a.label)} {{{s}: $to, {q(a.pk)}: a.{q(a.pk)}}}) "
            f"MATCH (b2:{q(b.label)} {{{s}: $to, {q(b.pk)}: b.{q(b.pk)}}}) "
            f"CREATE (a2)-[e2:{q(rt.type)}]->(b2) SET e2 = properties(e) }} IN TRANSACTIONS OF {int(batch)} ROWS")


# =======================================================================================
# Graph explorer (图谱浏览, core/services/explore.py). Labels and types cannot be parameters,
# so the per-label queries are generated from the schema (named ``explore_<kind>:<label>``):
# a node is addressed by its label and primary key. Every "other end" ``m`` of an edge is
# returned with its label, its key (the label's primary key, chosen by CASE), 显示名 and 年月
# (monthly records), every edge with its logical type, period properties and provenance.
# =======================================================================================
#: the hop limit of the explorer's shortest path (a breadth-first search over explore_edges:*)
EXPLORE_MAX_HOPS = 4
EXPLORE_ROW_CAP = 20_000

from core.graph.schema import LADYBUG_REL_RENAMES, SENSITIVE_FIELDS  # noqa: E402

#: the logical relationship type of ``e`` on every backend (ladybug stores 供应商 as 供应商关系)
_LOGICAL_TYPE = ("CASE ⟦type:e⟧ " + " ".join(f"WHEN '{phys}' THEN '{logical}'"
                                             for logical, phys in sorted(LADYBUG_REL_RENAMES.items()))
                 + " ELSE ⟦type:e⟧ END")


def _other_key(var: str) -> str:
    from core.graph.schema import NODE_TABLES, SYNTHETIC_KEY

    whens = " ".join(f"WHEN '{nt.label}' THEN {var}.{q(nt.pk)}" for nt in NODE_TABLES if nt.pk != SYNTHETIC_KEY)
    return f"CASE ⟦label:{var}⟧ {whens} ELSE {var}.{q(SYNTHETIC_KEY)} END"


def _explore_where(label: str, filtered: bool = True) -> str:
    """The explorer's filters on ``(n:label)-[e]-(m)``: the frontier keys, relationship types,
    other-end labels, and the month range on monthly records and period edges. LadybugDB
    evaluates every filter on every edge even when its list is empty (a hub's depth-2 ring
    triples in time), so each query also comes unfiltered, named ``explore_<kind>_all:<label>``."""
    if not filtered:
        return f"n.{q(NODE_BY_LABEL[label].pk)} IN $键列表"
    return (f"n.{q(NODE_BY_LABEL[label].pk)} IN $键列表\n"
            f"  AND (size($关系列表) = 0 OR {_LOGICAL_TYPE} IN $关系列表)\n"
            f"  AND (size($标签列表) = 0 OR ⟦label:m⟧ IN $标签列表)\n"
            "  AND (m.年月 IS NULL OR (m.年月 >= $从 AND m.年月 <= $到))\n"
            "  AND (e.开始 IS NULL OR (e.开始 <= $到 AND (e.结束 IS NULL OR e.结束 >= $从)))")


def _explore_ring_edges(label: str, filtered: bool = True) -> str:
    """The edges between the frontier ``$键列表`` and the far nodes ``$对端列表`` (``标签:主键``),
    parallel edges of one type between the same two nodes folded into one row with 条数 (their
    provenance only when there is one)."""
    nt = NODE_BY_LABEL[label]
    where = _explore_where(label, filtered) + f"\n  AND (⟦label:m⟧ + ':' + {_other_key('m')}) IN $对端列表"
    ret = (f"WITH n.{q(nt.pk)} AS 键, {_LOGICAL_TYPE} AS 关系, ⟦label:m⟧ AS 对端标签, {_other_key('m')} AS 对端键, e\n"
           "RETURN 键, '{d}' AS 方向, 关系, 对端标签, 对端键, count(*) AS 条数, min(e.开始) AS 开始, "
           "min(e.来源模板) AS 来源模板, min(e.来源文件) AS 来源文件, min(e.行号) AS 行号")
    return (f"MATCH (n:{q(label)})-[e]->(m)\nWHERE {where}\n{ret.format(d='出')}\nUNION ALL\n"
            f"MATCH (m)-[e]->(n:{q(label)})\nWHERE {where}\n{ret.format(d='入')}")


def _explore_edges(label: str, filtered: bool = True) -> str:
    nt = NODE_BY_LABEL[label]
    where = _explore_where(label, filtered)
    ret = (f"RETURN n.{q(nt.pk)} AS 键, '{{d}}' AS 方向, {_LOGICAL_TYPE} AS 关系, ⟦label:m⟧ AS 对端标签, "
           f"{_other_key('m')} AS 对端键, m.显示名 AS 对端显示名, m.年月 AS 对端年月, "
           "e.开始 AS 开始, e.结束 AS 结束, e.依据 AS 依据, e.备注 AS 备注, " + _prov("e") + "\nLIMIT $上限")
    return (f"MATCH (n:{q(label)})-[e]->(m)\nWHERE {where}\n{ret.format(d='出')}\nUNION ALL\n"
            f"MATCH (m)-[e]->(n:{q(label)})\nWHERE {where}\n{ret.format(d='入')}")


def _explore_reach(label: str, listing: bool, filtered: bool = True) -> str:
    """The far ring of a depth-2 neighbourhood without fetching every edge: the distinct other
    ends of the frontier ``$键列表`` that are not already drawn (``$已有``: ``标签:主键``), each
    with the smallest frontier key reaching it (经由). ``listing=False`` counts them per
    (对端标签, 经由) with their month span (bundles and "共 M"); ``listing=True`` lists them in
    the drawing order (structure before monthly records, schema label order, name) up to
    ``$上限``, monthly records only for the (标签|经由) groups in ``$逐条``."""
    from core.graph.schema import LABELS, MONTHLY_LABELS

    rank = "CASE 对端标签 " + " ".join(f"WHEN '{lb}' THEN {i}" for i, lb in enumerate(LABELS)) + " ELSE 99 END"
    monthly = "[" + ", ".join(f"'{lb}'" for lb in MONTHLY_LABELS) + "]"
    head = (f"MATCH (n:{q(label)})-[e]-(m)\nWHERE {_explore_where(label, filtered)}\n"
            f"WITH ⟦label:m⟧ AS 对端标签, {_other_key('m')} AS 对端键, min(n.{q(NODE_BY_LABEL[label].pk)}) AS 经由, "
            f"min({_LOGICAL_TYPE}) AS 关系, min(m.显示名) AS 对端显示名, min(m.年月) AS 对端年月\n"
            "WHERE NOT (对端标签 + ':' + 对端键) IN $已有\n")
    if not listing:
        return head + "RETURN 对端标签, 经由, min(关系) AS 关系, count(*) AS 数量, min(对端年月) AS 起, max(对端年月) AS 止"
    return head + (f"  AND (NOT 对端标签 IN {monthly} OR (对端标签 + '|' + 经由) IN $逐条)\n"
                   "RETURN 对端标签, 对端键, 对端显示名, 对端年月, 经由, 关系\n"
                   f"ORDER BY CASE WHEN 对端标签 IN {monthly} THEN 1 ELSE 0 END, {rank}, 对端显示名, 对端键\nLIMIT $上限")


def _explore_nodes(label: str) -> str:
    nt = NODE_BY_LABEL[label]
    cols = ", ".join(f"n.{q(p)} AS {q(p)}" for p in nt.property_names)
    return f"MATCH (n:{q(label)})\nWHERE n.{q(nt.pk)} IN $键列表\nRETURN {cols}\nORDER BY {q(nt.pk)}"


def explore_fields(label: str) -> list[str]:
    """The properties whose completeness the schema view reports (no day columns, keys, display)."""
    from core.graph.schema import DAY_COLUMNS, DISPLAY, SYNTHETIC_KEY

    return [p for p in NODE_BY_LABEL[label].property_names if p not in DAY_COLUMNS and p not in (DISPLAY, SYNTHETIC_KEY)]


def _explore_completeness(label: str) -> str:
    cols = ", ".join(f"count(n.{q(p)}) AS {q(p)}" for p in explore_fields(label))
    return f"MATCH (n:{q(label)})\nRETURN count(n) AS `__总数`, {cols}"


def _register_explore() -> None:
    from core.graph.schema import NODE_TABLES

    filters = {"关系列表": [], "标签列表": [], "从": YM_MIN, "到": YM_MAX}
    for nt in NODE_TABLES:
        lb = nt.label
        for suffix, f in (("", filters), ("_all", {})):
            on = not suffix
            register(NamedQuery(f"explore_edges{suffix}:{lb}", _explore_edges(lb, on),
                                {"键列表": [], **f, "上限": EXPLORE_ROW_CAP},
                                f"图谱浏览：{lb}节点（按主键列表）的出入边与对端" + ("（按关系类型/对端标签/年月过滤）" if on else "")))
            register(NamedQuery(f"explore_ring_edges{suffix}:{lb}", _explore_ring_edges(lb, on),
                                {"键列表": [], **f, "对端列表": []},
                                f"图谱浏览·第二层：{lb}节点列表与所选对端之间的边（同类平行边合并计数）"))
            register(NamedQuery(f"explore_reach_counts{suffix}:{lb}", _explore_reach(lb, False, on),
                                {"键列表": [], **f, "已有": []},
                                f"图谱浏览·第二层：{lb}节点列表的其他相邻节点数（按对端标签与经由节点）"))
            register(NamedQuery(f"explore_reach{suffix}:{lb}", _explore_reach(lb, True, on),
                                {"键列表": [], **f, "已有": [], "逐条": [], "上限": EXPLORE_ROW_CAP},
                                f"图谱浏览·第二层：{lb}节点列表的其他相邻节点（按显示顺序，限量）"))
        register(NamedQuery(f"explore_nodes:{nt.label}", _explore_nodes(nt.label), {"键列表": []},
                            f"图谱浏览：按主键列表取{nt.label}节点的全部属性（输出前按角色脱敏）",
                            sensitive=any(p in SENSITIVE_FIELDS for p in nt.property_names)))
        register(NamedQuery(f"explore_completeness:{nt.label}", _explore_completeness(nt.label), {},
                            f"图谱浏览·结构：{nt.label}节点数与各属性的填写数"))
    register(NamedQuery("explore_meta_edges", """
MATCH (a)-[e]->(b)
RETURN ⟦label:a⟧ AS 起点标签, """ + _LOGICAL_TYPE + """ AS 关系, ⟦label:b⟧ AS 终点标签, count(*) AS 数量
ORDER BY 关系, 起点标签, 终点标签""", {}, "图谱浏览·结构：按（起点标签, 关系, 终点标签）统计的关系数（元图）"))


_register_explore()
