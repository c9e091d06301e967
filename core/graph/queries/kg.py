"""The business-graph Q&A agent's named read queries (core/agents/kg, ``kg_*``).

Optional filters are lists: an empty list means "no filter" (``size($x) = 0 OR …``), which both
backends type-check; numeric and derived conditions are applied in Python by the agent. Every
row carries provenance."""

from __future__ import annotations

from core.graph.queries.columns import _prov, _returns
from core.graph.schema import DAY_COLUMNS, q
from core.graph.queries.registry import NamedQuery, register

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

def _monthly_person_records(label: str, rel: str, v: str) -> str:
    """A person's monthly records of one kind (考勤, 排班月报) by project, month, person and post,
    with the post and the project's names."""
    return f"""
MATCH ({v}:`{label}`)
WHERE (size($projects) = 0 OR {v}.`项目编号` IN $projects)
  AND (size($months) = 0 OR {v}.`年月` IN $months)
  AND (size($people) = 0 OR {v}.`工号` IN $people)
OPTIONAL MATCH (p:`人员`)-[:`{rel}`]->({v})
WITH {v}, p
WHERE size($positions) = 0 OR p.`岗位名称` IN $positions
OPTIONAL MATCH ({v})-[:`所属项目`]->(j:`项目`)
RETURN """ + "p.`岗位名称` AS `岗位名称`, j.`项目名称` AS `项目名称`, j.`项目简称` AS `项目简称`, " + _returns(v, label) + ", " \
        + _day_codes(v) + ", " + _prov(v) + """
ORDER BY `项目编号`, `年月`, `工号`
"""


def _day_codes(v: str) -> str:
    """The 1日…31日 codes of a monthly record (a single day asked: core.agents.kg.day_codes)."""
    return ", ".join(f"{v}.{q(d)} AS {q(d)}" for d in DAY_COLUMNS)


KG_ATTENDANCE = _monthly_person_records("考勤", "有考勤", "a")
KG_SCHEDULE = _monthly_person_records("排班月报", "有排班", "s")

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
