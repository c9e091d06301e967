"""The business-graph model: the single source of truth.

Everything else is generated from the definitions here: the 15 template workbooks
(:mod:`core.graph.templates`), the reader's checks (:mod:`core.graph.reader`), the LadybugDB
DDL and the Neo4j constraints/indexes, the LLM schema text, the explorer's colours and the
sensitive-field list. Column names, template names, labels and relationship types follow
shared/spec/kg-templates.md exactly.

Storage types: ``text`` → STRING, ``int`` → INT64, ``number`` → DOUBLE, ``enum`` → STRING,
``date`` / ``ym`` → STRING in ISO form (``YYYY-MM-DD`` / ``YYYY-MM``), so that range
predicates (``开始 <= $ym``) compare the same way on every backend.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------------------------------
# Column types
# ---------------------------------------------------------------------------------------
TYPES = ("text", "int", "number", "date", "ym", "enum")
TYPE_LABELS = {"text": "文本", "int": "整数", "number": "数值（金额单位：元，可写 4,896.25）",
               "date": "日期 YYYY-MM-DD（也接受 2026/3/5、2026年3月5日、Excel 日期）",
               "ym": "年月 YYYY-MM（也接受 2026-3、2026/03、2026年3月、Excel 日期）", "enum": "枚举"}
STORAGE_TYPES = {"text": "STRING", "int": "INT64", "number": "DOUBLE", "date": "STRING", "ym": "STRING",
                 "enum": "STRING"}
PROVENANCE = ("来源模板", "来源文件", "行号")
PROVENANCE_TYPES = {"来源模板": "text", "来源文件": "text", "行号": "int"}
DISPLAY = "显示名"
SYNTHETIC_KEY = "键"
KEY_SEP = "|"

ATTENDANCE_CODES = {"√": "出勤", "休": "休息", "事": "事假", "病": "病假", "年": "年假", "调": "调休",
                    "旷": "旷工", "加": "休息日加班"}
SHIFT_CODES = {"早": "早班", "中": "中班", "晚": "晚班", "夜": "夜班", "白": "白班", "全": "24小时班", "休": "休息"}
DAY_COLUMNS = tuple(f"{d}日" for d in range(1, 32))


@dataclass(frozen=True)
class Column:
    name: str
    type: str = "text"
    required: bool = False
    enum: tuple[str, ...] = ()
    sensitive: bool = False
    meaning: str = ""
    example: str = ""
    source: str = ""
    unit: str = ""            # what a number counts (元, 天, 人 …); answers print it after the value
    percent: bool = False     # stored as a fraction (0.18), asked and shown as a percentage (18%)
    show: int = 0             # display rank in the agent's answer rows (0 = not shown by default)
    show_for: tuple[str, ...] = ()  # node labels the display rank applies to (empty = every label)

    @property
    def type_label(self) -> str:
        if self.type == "enum":
            return "枚举：" + "、".join(self.enum)
        return TYPE_LABELS[self.type]


@dataclass(frozen=True)
class Template:
    name: str
    file_stem: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    description: str
    default_source: str = ""

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def required_columns(self) -> list[str]:
        return [c.name for c in self.columns if c.required]

    def column(self, name: str) -> Column:
        for c in self.columns:
            if c.name == name:
                return c
        raise KeyError(name)


def C(name: str, type: str = "text", req: bool = False, enum: tuple[str, ...] = (), *, sensitive: bool = False,
      meaning: str = "", example: str = "", source: str = "", unit: str = "", percent: bool = False, show: int = 0,
      show_for: tuple[str, ...] = ()) -> Column:
    if enum:
        type = "enum"
    assert type in TYPES, type
    return Column(name, type, req, tuple(enum), sensitive, meaning or name, example, source, unit, percent, show,
                  tuple(show_for))


_FUSED = "新增（融合）：为图谱关联填写"
_STAFF_NO = dict(example="KWL2307024", source=_FUSED)


def _days(codes: dict[str, str], what: str) -> tuple[Column, ...]:
    legend = "；".join(f"{k}={v}" for k, v in codes.items())
    return tuple(C(d, meaning=f"当月{d}{what}（{legend}；空=不在册/未排班）", example=next(iter(codes)),
                   source="人事部考勤/排班表逐日列") for d in DAY_COLUMNS)


TEMPLATES: tuple[Template, ...] = (
    Template("项目信息", "01_项目信息", (
        C("项目编号", req=True, meaning="项目全局唯一编号（金蝶编码）", example="XMSQ0102", source="市场部项目梳理表·项目编号"),
        C("项目名称", req=True, meaning="项目全称", example="青浦-区图书馆", source="市场部项目梳理表·项目名称"),
        C("项目简称", meaning="业务大表中的简称", example="区图书馆", source="业务大表·项目名"),
        C("上级项目编号", meaning="父项目编号（子项目/服务点填写），生成 包含 关系", example="XMSQ0100", source=_FUSED),
        C("续签前项目编号", meaning="上一合同期的项目编号，生成 续签自 关系", example="XMSQ0052", source=_FUSED),
        C("开始日期", "date", meaning="合同开始日期", example="2024-01-01", source="项目管理表·起止时间", show=2),
        C("结束日期", "date", meaning="合同结束日期", example="2026-12-31", source="项目管理表·起止时间", show=3),
        C("省份", example="上海市", source="业务大表·省份"),
        C("市区", meaning="市（区）", example="青浦区", source="业务大表·市（区）"),
        C("细分业态", example="公共场馆", source="业务大表·细分业态", show=4),
        C("汇总业态", example="公建", source="业务大表·汇总业态"),
        C("委托方式", example="全委", source="业务大表·委托方式"),
        C("计费方式", example="包干制", source="业务大表·计费方式"),
        C("合同面积", "number", meaning="合同面积（平方米）", example="12500", source="业务大表·合同面积", unit="平方米"),
        C("合同金额", "number", meaning="合同总金额（元）", example="3,600,000.00", source="业务大表·合同金额", unit="元"),
        C("年化合同额", "number", meaning="年化合同金额（元）", example="1,200,000.00", source="业务大表·年化合同额", unit="元"),
        C("服务状态", enum=("服务中", "已结束", "未开始"), example="服务中", source="项目管理表·服务状态", show=1),
        C("甲方名称", example="上海市青浦区图书馆", source="项目管理表·甲方", show=5),
        C("项目地址", example="上海市青浦区华青路1号", source="项目管理表·地址"),
        C("客户满意度", "number", meaning="客户满意度得分（百分制）", example="92.5", source="运营部满意度调查", unit="分"),
        C("客户投诉", "int", meaning="本合同期客户投诉次数", example="1", source="运营部投诉台账", unit="次"),
        C("实际毛利率", "number", meaning="实际毛利率（小数，如 0.18）", example="0.18", source="财务部", unit="%", percent=True),
        C("项目负责人", meaning="项目负责人姓名", example="周建国", source="项目管理表·项目经理", show=6),
        C("项目负责人工号", req=True, meaning="项目负责人工号，生成 负责人 关系", **_STAFF_NO),
        C("备注"),
    ), ("项目编号",), "项目主数据，一行一个项目（一个合同期）", "市场部"),
    Template("人员信息", "02_人员信息", (
        C("姓名", req=True, example="张伟", source="人事部员工信息·姓名"),
        C("工号", req=True, meaning="员工全局唯一工号（KWL 前缀）", example="KWL2307024", source="人事部员工信息·工号"),
        C("岗位名称", req=True, meaning="规范岗位名（与岗位字典、岗位编制一致）", example="保安_领班", source="人事部员工信息·岗位名称"),
        C("组织名称", example="申勤物业青浦管理处", source="人事部员工信息·组织"),
        C("当前服务项目编号", meaning="当前所在项目编号", example="XMSQ0102", source=_FUSED),
        C("职级", example="P3", source="人事部员工信息·职级"),
        C("员工层级", meaning="一线员工/项目管理人员/职能人员（空则按岗位字典补全）", example="一线员工", source="岗位字典"),
        C("入职日期", "date", example="2023-07-01", source="人事部员工信息·入职日期", show=2),
        C("离职日期", "date", example="", source="人事部员工信息·离职日期"),
        C("性别", enum=("男", "女"), example="男", source="人事部员工信息·性别", show=1),
        C("出生日期", "date", sensitive=True, example="1985-06-12", source="人事部员工信息·出生日期"),
        C("政治面貌", sensitive=True, example="群众", source="人事部员工信息·政治面貌"),
        C("联系电话", sensitive=True, example="13800001234", source="人事部员工信息·联系电话"),
        C("身份证号码", sensitive=True, example="310118198506120012", source="人事部员工信息·身份证号码"),
        C("备注"),
    ), ("工号",), "员工花名册，一行一人", "人事部"),
    Template("人员服务期", "03_人员服务期", (
        C("工号", req=True, **_STAFF_NO),
        C("项目编号", req=True, example="XMSQ0102", source=_FUSED),
        C("开始年月", "ym", req=True, meaning="开始服务的年月", example="2026-01", source="人事部调动记录"),
        C("结束年月", "ym", meaning="结束服务的年月；空=仍在服务", example="2026-02", source="人事部调动记录"),
        C("备注"),
    ), ("工号", "项目编号", "开始年月"), "人员在项目的服务期间（生成 服务于 关系）", "人事部"),
    Template("片区信息", "04_片区信息", (
        C("片区编号", req=True, example="PQ01", source=_FUSED),
        C("片区名称", req=True, example="青浦片区", source="运营部片区划分"),
        C("片区负责人工号", req=True, **_STAFF_NO),
    ), ("片区编号",), "片区主数据", "运营部"),
    Template("项目片区关系", "05_项目片区关系", (
        C("项目编号", req=True, example="XMSQ0102", source=_FUSED),
        C("片区编号", req=True, example="PQ01", source=_FUSED),
    ), ("项目编号", "片区编号"), "项目归属片区（一个项目可属于多个片区）", "运营部"),
    Template("项目月度财务", "06_项目月度财务", (
        C("项目编号", req=True, example="XMSQ0102", source="财务部收费进程表"),
        C("年月", "ym", req=True, example="2026-03", source="财务部收费进程表"),
        C("开票金额", "number", meaning="当月开票金额（元）", example="100,000.00", source="财务部收费进程表", unit="元", show=1),
        C("收款金额", "number", meaning="当月收款金额（元）", example="95,000.00", source="财务部收费进程表", unit="元", show=2),
        C("口径", meaning="统计口径（如 含税）", example="含税", source="财务部收费进程表", show=3),
        C("财务经办人工号", req=True, **_STAFF_NO),
    ), ("项目编号", "年月"), "项目按月的开票与收款", "财务部"),
    Template("考勤与人员财务", "07_考勤与人员财务", (
        C("姓名", req=True, example="张伟", source="人事部考勤表"),
        C("工号", req=True, **_STAFF_NO),
        C("项目编号", req=True, example="XMSQ0102", source=_FUSED),
        C("年月", "ym", req=True, example="2026-03", source="人事部考勤表"),
        *_days(ATTENDANCE_CODES, "考勤状态"),
        C("上班天数", "number", example="22", source="人事部考勤表", unit="天", show=1),
        C("加班小时", "number", example="24", source="人事部考勤表", unit="小时", show=3),
        C("餐费", "number", sensitive=True, example="300.00", source="人事部考勤表", unit="元"),
        C("加班超时费", "number", sensitive=True, example="480.00", source="人事部考勤表", unit="元"),
        C("国定加班费", "number", sensitive=True, example="0", source="人事部考勤表", unit="元"),
        C("值班费", "number", sensitive=True, example="200.00", source="人事部考勤表", unit="元"),
        C("税后工资", "number", sensitive=True, example="4,896.25", source="人事部工资表", unit="元"),
        C("备注"),
    ), ("工号", "项目编号", "年月"), "员工×项目×月的考勤与人员财务", "人事部"),
    Template("排班月报", "08_排班月报", (
        C("姓名", req=True, example="张伟", source="人事部排班文件"),
        C("工号", req=True, **_STAFF_NO),
        C("项目编号", req=True, example="XMSQ0102", source=_FUSED),
        C("年月", "ym", req=True, example="2026-03", source="人事部排班文件"),
        *_days(SHIFT_CODES, "班次"),
        C("备注"),
    ), ("工号", "项目编号", "年月"), "员工×项目×月的排班", "人事部"),
    Template("投标记录", "09_投标记录", (
        C("项目编号", req=True, example="XMSQ0102", source="市场部投标台账"),
        C("年份", "int", req=True, example="2025", source="市场部投标台账", show=1),
        C("投标类型", enum=("新标", "续标"), example="续标", source="市场部投标台账", show=2),
        C("中标结果", enum=("中标", "未中标", "待定"), example="中标", source="市场部投标台账", show=3),
        C("中标日期", "date", example="2025-12-15", source="中标通知书", show=4),
        C("投标金额", "number", example="3,600,000.00", source="市场部投标台账", unit="元", show=5),
        C("文档路径", meaning="投标文件在档案目录中的路径", example="青浦/区图书馆/2026-2028/投标文件.pdf", source="项目档案目录"),
        C("投标经办人工号", req=True, **_STAFF_NO),
    ), ("项目编号", "年份", "投标类型"), "项目投标记录", "市场部"),
    Template("岗位编制", "10_岗位编制", (
        C("项目编号", req=True, example="XMSQ0102", source="运营部岗位编制汇总"),
        C("岗位", req=True, meaning="规范岗位名（同人员信息·岗位名称）", example="保安_普保", source="运营部岗位编制汇总", show=1),
        C("预算编制", "int", example="6", source="运营部岗位编制汇总", unit="人", show=2),
        C("项目编制", "int", example="6", source="运营部岗位编制汇总", unit="人", show=3),
        C("标准工时人数", "int", example="5", source="运营部岗位编制汇总", unit="人"),
        C("在岗人数", "int", example="5", source="运营部岗位编制汇总", unit="人", show=4),
    ), ("项目编号", "岗位"), "项目×岗位的编制", "运营部"),
    Template("设备信息", "11_设备信息", (
        C("项目编号", req=True, example="XMSQ0102", source="运营部设备台账"),
        C("设备编号", req=True, example="SB-0102-001", source="运营部设备台账", show=1),
        C("设备类型", example="电梯", source="运营部设备台账", show=2),
        C("设备名称", example="1号客梯", source="运营部设备台账", show=3),
        C("规格型号", example="GeN2-MR 1000kg", source="运营部设备台账"),
        C("制造厂商", example="奥的斯", source="运营部设备台账"),
        C("安装位置", example="主楼东侧", source="运营部设备台账", show=5),
        C("出厂日期", "date", example="2018-05-01", source="运营部设备台账"),
        C("启用日期", "date", example="2018-09-01", source="运营部设备台账"),
        C("入项目日期", "date", example="2024-01-01", source="运营部设备台账"),
        C("退项目日期", "date", example="", source="运营部设备台账"),
        C("完好状况", enum=("完好", "待修", "报废"), example="完好", source="运营部设备台账", show=4),
        C("原值", "number", example="350,000.00", source="采购部固定资产台账", unit="元"),
        C("设备责任人工号", req=True, **_STAFF_NO),
    ), ("项目编号", "设备编号"), "项目设备台账", "运营部"),
    Template("采购与维保", "12_采购与维保", (
        C("记录类型", req=True, enum=("供应商", "维保合同", "耗材采购", "固定资产"), example="维保合同", source="采购部常用表格", show=1, show_for=("采购记录",)),
        C("项目编号", req=True, example="XMSQ0102", source=_FUSED),
        C("名称", req=True, meaning="供应商名称 / 合同名称 / 物品名称", example="电梯年度维保", source="采购部常用表格", show=2),
        C("供应商名称", meaning="供应商或维保单位名称", example="上海迅达电梯有限公司", source="采购部常用表格", show=3),
        C("类别", example="电梯", source="采购部常用表格"),
        C("合同年限", "number", meaning="维保合同年限（年）", example="1", source="维保合同台账", unit="年", show=4, show_for=("维保合同",)),
        C("数量", "number", example="20", source="耗材汇总", show=5, show_for=("采购记录",)),
        C("单价", "number", example="35.50", source="耗材汇总", unit="元"),
        C("金额", "number", example="48,000.00", source="采购部常用表格", unit="元", show=6),
        C("日期", "date", meaning="签订/采购日期", example="2026-01-10", source="采购部常用表格", show=7),
        C("状态", example="执行中", source="采购部常用表格", show=8),
        C("经办人工号", req=True, **_STAFF_NO),
    ), ("记录类型", "项目编号", "名称", "日期"), "供应商、维保合同、耗材采购、固定资产四类共用", "采购部"),
    Template("检查记录", "13_检查记录", (
        C("项目编号", req=True, example="XMSQ0102", source="运营部检查台账"),
        C("检查类型", req=True, example="月度品质检查", source="运营部检查台账", show=1),
        C("检查日期", "date", req=True, example="2026-03-18", source="运营部检查台账", show=2),
        C("检查得分", "number", example="91", source="运营部检查台账", unit="分", show=3),
        C("问题描述", example="消防通道堆放杂物", source="运营部检查台账", show=4),
        C("整改情况", example="已整改", source="运营部检查台账", show=5),
        C("整改完成日期", "date", example="2026-03-20", source="运营部检查台账"),
        C("检查人工号", req=True, **_STAFF_NO),
    ), ("项目编号", "检查类型", "检查日期"), "项目检查与整改", "运营部"),
    Template("人员证书", "14_人员证书", (
        C("工号", req=True, **_STAFF_NO),
        C("姓名", example="张伟", source="职称及资格证书登记表"),
        C("证书名称", req=True, example="保安员（三级）", source="职称及资格证书登记表", show=1),
        C("专业类别", example="安保", source="职称及资格证书登记表", show=2),
        C("证书类别", example="职业资格", source="职称及资格证书登记表", show=3),
    ), ("工号", "证书名称"), "员工持有的证书（一人多行）", "人事部"),
    Template("岗位字典", "15_岗位字典", (
        C("岗位名称", req=True, example="保安_领班", source="人事部岗位规范"),
        C("员工层级", req=True, enum=("一线员工", "项目管理人员", "职能人员"), example="一线员工", source="人事部岗位规范"),
    ), ("岗位名称",), "规范岗位名及其员工层级（校验人员岗位、补全员工层级）", "人事部"),
)
TEMPLATE_BY_NAME: dict[str, Template] = {t.name: t for t in TEMPLATES}
TEMPLATE_NAMES: tuple[str, ...] = tuple(t.name for t in TEMPLATES)


def categorical_columns(name: str) -> list[str]:
    """The columns of template ``name`` a manager filters by value (职级 M3, 性别 男): enums and
    free-text labels, never sensitive columns, keys, names, dates or numbers."""
    t = TEMPLATE_BY_NAME[name]
    keys = set(t.key) | {"姓名", "备注"}
    return [c.name for c in t.columns if c.type in ("text", "enum") and not c.sensitive and c.name not in keys
            and not c.name.endswith(("编号", "工号", "日期", "地址"))]


def template(name: str) -> Template:
    try:
        return TEMPLATE_BY_NAME[name]
    except KeyError:
        from core.errors import enum_error

        raise enum_error("模板", name, TEMPLATE_NAMES) from None


# ---------------------------------------------------------------------------------------
# Node tables
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class NodeTable:
    label: str
    pk: str
    properties: tuple[tuple[str, str], ...]  # (name, column type) incl. pk, display, provenance
    templates: tuple[str, ...]
    description: str
    key_parts: tuple[str, ...] = ()  # for a synthetic key: the columns joined by KEY_SEP

    @property
    def property_names(self) -> list[str]:
        return [p for p, _ in self.properties]

    def prop_type(self, name: str) -> str:
        return dict(self.properties)[name]


def _props(*groups) -> tuple[tuple[str, str], ...]:
    seen: dict[str, str] = {}
    for g in groups:
        for item in g:
            if isinstance(item, Column):
                seen.setdefault(item.name, "text" if item.type == "enum" else item.type)
            else:
                seen.setdefault(item[0], item[1])
    return tuple(seen.items())


def _cols(tpl: str, *names: str) -> list[Column]:
    t = TEMPLATE_BY_NAME[tpl]
    return [t.column(n) for n in names] if names else list(t.columns)


_TAIL = [(DISPLAY, "text")] + [(p, PROVENANCE_TYPES[p]) for p in PROVENANCE]
_PROC = ("记录类型", "项目编号", "名称", "供应商名称", "类别", "合同年限", "数量", "单价", "金额", "日期", "状态", "经办人工号")
#: Properties the builder computes from the 1日…31日 codes (typed like template columns, same facts).
ATT_DERIVED_COLUMNS = (C("出勤天数", "int", unit="天", show=2), C("休息天数", "int", unit="天"),
                       C("请假天数", "int", unit="天", show=4), C("旷工天数", "int", unit="天", show=5),
                       C("休息日加班天数", "int", unit="天"))
#: 夜班天数 counts 夜 and 全 (a 24-hour shift covers the night); each other shift kind has its own
#: count, named "<kind>天数" (全 → 全天班天数: a property name does not start with a digit)
SHIFT_COUNT_NAMES = {code: "全天班天数" if code == "全" else f"{kind}天数" for code, kind in SHIFT_CODES.items()
                     if code not in ("夜", "休")}
SHIFT_KIND_COLUMNS = tuple(C(name, "int", unit="天") for name in SHIFT_COUNT_NAMES.values())
SHIFT_DERIVED_COLUMNS = (C("排班天数", "int", unit="天", show=1), C("夜班天数", "int", unit="天", show=2),
                         C("休息天数", "int", unit="天", show=3), *SHIFT_KIND_COLUMNS)
ATT_DERIVED = tuple((c.name, c.type) for c in ATT_DERIVED_COLUMNS)
SHIFT_DERIVED = tuple((c.name, c.type) for c in SHIFT_DERIVED_COLUMNS)
DERIVED_COLUMNS_BY_LABEL: dict[str, tuple[Column, ...]] = {"考勤": ATT_DERIVED_COLUMNS, "排班月报": SHIFT_DERIVED_COLUMNS}
PERSON_FIN = ("餐费", "加班超时费", "国定加班费", "值班费", "税后工资")

NODE_TABLES: tuple[NodeTable, ...] = (
    NodeTable("项目", "项目编号", _props(_cols("项目信息"), _TAIL), ("项目信息",), "项目（枢纽），一个合同期一个节点"),
    NodeTable("人员", "工号", _props(_cols("人员信息"), _TAIL), ("人员信息",), "员工"),
    NodeTable("片区", "片区编号", _props(_cols("片区信息"), _TAIL), ("片区信息",), "片区"),
    NodeTable("财务", SYNTHETIC_KEY, _props(
        [(SYNTHETIC_KEY, "text"), ("财务类型", "text")], _cols("项目月度财务"),
        [("工号", "text")] + [(n, "number") for n in PERSON_FIN], _TAIL),
        ("项目月度财务", "考勤与人员财务"),
        "月度财务：财务类型=项目财务（开票/收款）或 人员财务（餐费/加班超时费/国定加班费/值班费/税后工资）",
        ("财务类型", "项目编号", "工号", "年月")),
    NodeTable("投标记录", SYNTHETIC_KEY, _props([(SYNTHETIC_KEY, "text")], _cols("投标记录"), _TAIL), ("投标记录",),
              "投标记录", ("项目编号", "年份", "投标类型")),
    NodeTable("岗位编制", SYNTHETIC_KEY, _props([(SYNTHETIC_KEY, "text")], _cols("岗位编制"), _TAIL), ("岗位编制",),
              "项目×岗位编制", ("项目编号", "岗位")),
    NodeTable("设备", SYNTHETIC_KEY, _props([(SYNTHETIC_KEY, "text")], _cols("设备信息"), _TAIL), ("设备信息",),
              "设备", ("项目编号", "设备编号")),
    NodeTable("考勤", SYNTHETIC_KEY, _props([(SYNTHETIC_KEY, "text")], _cols("考勤与人员财务"), ATT_DERIVED, _TAIL),
              ("考勤与人员财务",), "员工×项目×月考勤（逐日状态 + 汇总）", ("工号", "项目编号", "年月")),
    NodeTable("排班月报", SYNTHETIC_KEY, _props([(SYNTHETIC_KEY, "text")], _cols("排班月报"), SHIFT_DERIVED, _TAIL),
              ("排班月报",), "员工×项目×月排班（逐日班次 + 汇总）", ("工号", "项目编号", "年月")),
    NodeTable("供应商", "名称", _props([("名称", "text"), ("类别", "text"), ("项目编号", "text"), ("状态", "text")], _TAIL),
              ("采购与维保",), "供应商 / 维保单位"),
    NodeTable("维保合同", SYNTHETIC_KEY, _props([(SYNTHETIC_KEY, "text")], _cols("采购与维保", *_PROC), _TAIL),
              ("采购与维保",), "维保合同", ("记录类型", "项目编号", "名称", "日期")),
    NodeTable("采购记录", SYNTHETIC_KEY, _props([(SYNTHETIC_KEY, "text")], _cols("采购与维保", *_PROC), _TAIL),
              ("采购与维保",), "采购记录（耗材采购 / 固定资产）", ("记录类型", "项目编号", "名称", "日期")),
    NodeTable("检查记录", SYNTHETIC_KEY, _props([(SYNTHETIC_KEY, "text")], _cols("检查记录"), _TAIL), ("检查记录",),
              "检查记录", ("项目编号", "检查类型", "检查日期")),
    NodeTable("证书", SYNTHETIC_KEY, _props([(SYNTHETIC_KEY, "text")], _cols("人员证书"), _TAIL), ("人员证书",),
              "员工证书", ("工号", "证书名称")),
)
NODE_BY_LABEL: dict[str, NodeTable] = {n.label: n for n in NODE_TABLES}
LABELS: tuple[str, ...] = tuple(n.label for n in NODE_TABLES)


def synthetic_key(label: str, record: dict) -> str:
    nt = NODE_BY_LABEL[label]
    if not nt.key_parts:
        return str(record[nt.pk])
    return KEY_SEP.join("" if record.get(p) is None else str(record.get(p)) for p in nt.key_parts)


# ---------------------------------------------------------------------------------------
# Relationship tables
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RelTable:
    type: str
    pairs: tuple[tuple[str, str], ...]
    properties: tuple[tuple[str, str], ...] = ()  # besides provenance
    description: str = ""
    merge_on: tuple[str, ...] = ()  # edge properties that distinguish parallel edges (服务于: 开始)

    @property
    def all_properties(self) -> tuple[tuple[str, str], ...]:
        return self.properties + tuple((p, PROVENANCE_TYPES[p]) for p in PROVENANCE)


REL_TABLES: tuple[RelTable, ...] = (
    RelTable("服务于", (("人员", "项目"),), (("开始", "ym"), ("结束", "ym"), ("依据", "text"), ("备注", "text")),
             "人员服务于项目的期间（开始/结束年月，结束为空=仍在服务；依据=服务期填写/考勤推导/排班推导）", ("开始",)),
    RelTable("包含", (("项目", "项目"),), (), "父项目包含子项目"),
    RelTable("续签自", (("项目", "项目"),), (), "新合同期项目续签自上一期项目"),
    RelTable("属于片区", (("项目", "片区"),), (), "项目属于片区（M:N）"),
    RelTable("负责人", (("项目", "人员"), ("片区", "人员")), (), "项目/片区的负责人"),
    RelTable("投标", (("项目", "投标记录"),), (), "项目的投标记录"),
    RelTable("经办人", (("投标记录", "人员"), ("采购记录", "人员"), ("维保合同", "人员"), ("财务", "人员")), (),
             "记录的经办人"),
    RelTable("采购", (("项目", "采购记录"),), (), "项目的采购记录"),
    RelTable("供应商", (("采购记录", "供应商"),), (), "采购记录的供应商"),
    RelTable("维保", (("项目", "维保合同"),), (), "项目的维保合同"),
    RelTable("维保单位", (("维保合同", "供应商"),), (), "维保合同的维保单位"),
    RelTable("编制", (("项目", "岗位编制"),), (), "项目的岗位编制"),
    RelTable("有考勤", (("人员", "考勤"),), (), "人员的月度考勤"),
    RelTable("所属项目", (("考勤", "项目"), ("排班月报", "项目"), ("设备", "项目")), (), "考勤/排班/设备所属项目"),
    RelTable("有排班", (("人员", "排班月报"),), (), "人员的月度排班"),
    RelTable("持有", (("人员", "证书"),), (), "人员持有证书"),
    RelTable("月度财务", (("项目", "财务"), ("人员", "财务")), (), "项目/人员的月度财务"),
    RelTable("检查", (("项目", "检查记录"),), (), "项目的检查记录"),
    RelTable("检查人", (("检查记录", "人员"),), (), "检查记录的检查人"),
    RelTable("责任人", (("设备", "人员"),), (), "设备责任人"),
)
REL_BY_TYPE: dict[str, RelTable] = {r.type: r for r in REL_TABLES}
REL_TYPES: tuple[str, ...] = tuple(r.type for r in REL_TABLES)

# ---------------------------------------------------------------------------------------
# Sensitive fields and explorer colours
# ---------------------------------------------------------------------------------------
SENSITIVE_FIELDS: frozenset[str] = frozenset(c.name for t in TEMPLATES for c in t.columns if c.sensitive)

LABEL_COLORS: dict[str, str] = {
    "项目": "#1f77b4", "人员": "#ff7f0e", "片区": "#2ca02c", "财务": "#d62728", "投标记录": "#9467bd",
    "岗位编制": "#8c564b", "设备": "#e377c2", "考勤": "#7f7f7f", "排班月报": "#bcbd22", "供应商": "#17becf",
    "维保合同": "#aec7e8", "采购记录": "#ffbb78", "检查记录": "#98df8a", "证书": "#c5b0d5",
}
assert set(LABEL_COLORS) == set(LABELS)

#: The explorer's icon per label (legend and node titles); colours above.
LABEL_ICONS: dict[str, str] = {
    "项目": "🏢", "人员": "👤", "片区": "🗺️", "财务": "💰", "投标记录": "📝", "岗位编制": "📋", "设备": "⚙️",
    "考勤": "🕘", "排班月报": "📅", "供应商": "🚚", "维保合同": "🔧", "采购记录": "🛒", "检查记录": "✅", "证书": "🎓",
}
assert set(LABEL_ICONS) == set(LABELS)
#: Labels of monthly records (one node per person/project and 年月): the explorer bundles them.
MONTHLY_LABELS: tuple[str, ...] = tuple(n.label for n in NODE_TABLES if "年月" in n.property_names)


def display_name(label: str, rec: dict) -> str:
    """A short human label for a node (the explorer and answers show it)."""
    g = rec.get
    if label == "项目":
        return str(g("项目简称") or g("项目名称") or g("项目编号"))
    if label == "人员":
        return f"{g('姓名')}（{g('工号')}）"
    if label == "片区":
        return str(g("片区名称") or g("片区编号"))
    if label == "财务":
        who = g("项目编号") if g("财务类型") == "项目财务" else g("工号")
        return f"{g('财务类型')} {who} {g('年月')}"
    if label in ("考勤", "排班月报"):
        return f"{label} {g('姓名') or g('工号')} {g('年月')}"
    if label == "投标记录":
        return f"投标 {g('项目编号')} {g('年份')} {g('投标类型') or ''}".strip()
    if label == "岗位编制":
        return f"{g('项目编号')} {g('岗位')}"
    if label == "设备":
        return str(g("设备名称") or g("设备编号"))
    if label == "检查记录":
        return f"{g('检查类型')} {g('检查日期')}"
    if label == "证书":
        return f"{g('证书名称')}（{g('工号')}）"
    return str(g("名称") or g(NODE_BY_LABEL[label].pk))


# ---------------------------------------------------------------------------------------
# Generated DDL / constraints / prompt text
# ---------------------------------------------------------------------------------------
def q(name: str) -> str:
    """Backtick-quote an identifier (Chinese names and ``1日`` need it on both backends)."""
    return "`" + name.replace("`", "``") + "`"


# LadybugDB keeps node and rel tables in one catalog, so the relationship type 供应商 cannot
# share the node table's name there; the ladybug dialect stores it under this physical name.
LADYBUG_REL_RENAMES: dict[str, str] = {"供应商": "供应商关系"}


def ladybug_ddl() -> list[str]:
    stmts = []
    for nt in NODE_TABLES:
        cols = ", ".join(f"{q(p)} {STORAGE_TYPES[t]}" for p, t in nt.properties)
        stmts.append(f"CREATE NODE TABLE IF NOT EXISTS {q(nt.label)}({cols}, PRIMARY KEY ({q(nt.pk)}))")
    for rt in REL_TABLES:
        pairs = ", ".join(f"FROM {q(a)} TO {q(b)}" for a, b in rt.pairs)
        props = "".join(f", {q(p)} {STORAGE_TYPES[t]}" for p, t in rt.all_properties)
        stmts.append(f"CREATE REL TABLE IF NOT EXISTS {q(LADYBUG_REL_RENAMES.get(rt.type, rt.type))}({pairs}{props})")
    return stmts


#: Neo4j keeps every tenant and generation in one database: each business node carries
#: ``_scope = "<tenant>#<generation>"`` and its key is unique per scope (core/graph/store/dialect.py).
NEO4J_SCOPE = "_scope"


def neo4j_legacy_constraints() -> list[str]:
    """Drops of the single-key uniqueness constraints of graphs built before tenancy (two
    tenants may share a key, so only (scope, key) may be unique)."""
    return [f"DROP CONSTRAINT {q('uniq_' + nt.label)} IF EXISTS" for nt in NODE_TABLES]


def neo4j_constraints() -> list[str]:
    """Uniqueness constraints per label's (scope, key) plus lookup indexes on the join columns."""
    stmts = []
    for nt in NODE_TABLES:
        stmts.append(f"CREATE CONSTRAINT {q('uniq_scope_' + nt.label)} IF NOT EXISTS FOR (n:{q(nt.label)}) "
                     f"REQUIRE (n.{q(NEO4J_SCOPE)}, n.{q(nt.pk)}) IS UNIQUE")
        for p in ("项目编号", "工号", "年月", "姓名", "项目名称", "岗位名称"):
            if p in nt.property_names and p != nt.pk:
                stmts.append(f"CREATE INDEX {q('idx_' + nt.label + '_' + p)} IF NOT EXISTS FOR (n:{q(nt.label)}) "
                             f"ON (n.{q(p)})")
    return stmts


def schema_prompt_text(*, include_sensitive: bool = True) -> str:
    """The graph schema as text for an LLM planner (labels, properties, relationships)."""
    lines = ["# 业务知识图谱结构", "", "## 节点（标签: 主键; 属性）"]
    for nt in NODE_TABLES:
        props = [p for p, _ in nt.properties
                 if p not in DAY_COLUMNS and p not in PROVENANCE and p != DISPLAY
                 and (include_sensitive or p not in SENSITIVE_FIELDS)]
        days = "；逐日列 1日…31日" if "1日" in nt.property_names else ""
        lines.append(f"- {nt.label}: 主键 {nt.pk}; {nt.description}; 属性 " + "、".join(props) + days)
    lines += ["", "## 关系（起点 -[类型]-> 终点）"]
    for rt in REL_TABLES:
        props = "，属性 " + "、".join(p for p, _ in rt.properties) if rt.properties else ""
        for a, b in rt.pairs:
            lines.append(f"- ({a})-[:{rt.type}]->({b}){props}  — {rt.description}")
    lines += ["", "## 约定",
              "- 日期属性为 'YYYY-MM-DD' 字符串，年月属性为 'YYYY-MM' 字符串，可直接比较大小。",
              "- 服务于 是期间边：目标月 m 在期内 ⇔ 开始 <= m AND (结束 IS NULL OR 结束 >= m)。",
              "- 每个节点和关系都带溯源属性 来源模板、来源文件、行号。",
              "- 考勤逐日代码：" + "，".join(f"{k}={v}" for k, v in ATTENDANCE_CODES.items()),
              "- 排班逐日代码：" + "，".join(f"{k}={v}" for k, v in SHIFT_CODES.items())]
    if not include_sensitive:
        lines.append("- 敏感字段（" + "、".join(sorted(SENSITIVE_FIELDS)) + "）不可查询。")
    return "\n".join(lines)
