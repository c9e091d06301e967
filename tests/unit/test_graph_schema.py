"""schema.py is the single source: templates, DDL, prompt text, colours, sensitive fields."""

from __future__ import annotations

from openpyxl import load_workbook

from core.graph import schema as S
from core.services.build import write_templates


def test_fifteen_templates_with_spec_columns():
    assert len(S.TEMPLATES) == 15
    assert S.template("项目信息").required_columns == ["项目编号", "项目名称", "项目负责人工号"]
    att = S.template("考勤与人员财务")
    assert att.column_names[4] == "1日" and att.column_names[34] == "31日" and att.key == ("工号", "项目编号", "年月")
    assert S.template("采购与维保").column("记录类型").enum == ("供应商", "维保合同", "耗材采购", "固定资产")


def test_sensitive_fields():
    assert S.SENSITIVE_FIELDS == {"税后工资", "餐费", "加班超时费", "国定加班费", "值班费", "联系电话", "身份证号码", "政治面貌",
                                  "出生日期"}


def test_every_node_and_rel_table_has_provenance_and_a_key():
    for nt in S.NODE_TABLES:
        assert nt.pk in nt.property_names and set(S.PROVENANCE) <= set(nt.property_names)
    for rt in S.REL_TABLES:
        assert [p for p, _ in rt.all_properties][-3:] == list(S.PROVENANCE)
    assert set(S.LABEL_COLORS) == set(S.LABELS) and len(S.LABELS) == 14 and len(S.REL_TYPES) == 20


def test_ddl_and_constraints_cover_the_model():
    ddl = S.ladybug_ddl()
    assert len(ddl) == len(S.NODE_TABLES) + len(S.REL_TABLES)
    assert any("FROM `项目` TO `人员`, FROM `片区` TO `人员`" in d for d in ddl)
    cons = S.neo4j_constraints()
    assert any("REQUIRE (n.`_scope`, n.`工号`) IS UNIQUE" in c for c in cons)


def test_prompt_text_mentions_periods_and_hides_sensitive_on_request():
    text = S.schema_prompt_text(include_sensitive=False)
    assert "(人员)-[:服务于]->(项目)" in text and "开始 <= m" in text
    assert "税后工资、" not in text.split("## 关系")[0]


def test_written_templates_have_both_sheets_and_enum_validation(tmp_path):
    paths = write_templates(tmp_path)
    assert len(paths) == 15
    wb = load_workbook(tmp_path / "01_项目信息.xlsx")
    assert wb.sheetnames == ["数据", "填写说明"]
    assert [c.value for c in wb["数据"][1]] == S.template("项目信息").column_names
    dv = wb["数据"].data_validations.dataValidation
    assert any("服务中,已结束,未开始" in (d.formula1 or "") for d in dv)
    help_rows = list(wb["填写说明"].iter_rows(values_only=True))
    assert help_rows[0] == ("字段名", "含义", "类型", "是否必填", "示例", "字段来源")
    assert ("项目编号", "项目全局唯一编号（金蝶编码）") == help_rows[1][:2] and help_rows[1][3] == "必填"
