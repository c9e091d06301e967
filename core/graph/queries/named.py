"""The general named read queries by business subject (attendance and shifts, finance, equipment,
service periods and staff, projects, certificates / staffing / inspections / procurement), plus
the lookups the incremental build, the entity index, provenance and exploring by name use."""

from __future__ import annotations

from core.graph.queries.columns import _PROV, _prov
from core.graph.queries.registry import DATE_MAX, DATE_MIN, YM_MAX, YM_MIN, NamedQuery, register

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

for _nq in _Q:
    register(_nq)
