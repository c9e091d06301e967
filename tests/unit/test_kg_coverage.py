"""Answer the question asked (issue #15): a field or a 片区 the data does not hold is reported,
never silently dropped; every asked field the graph holds still passes (no graph needed)."""

from datetime import date

import pytest

from core.agents.kg import coverage, kgrules
from core.agents.kg.entity_index import EntityIndex
from core.agents.kg.understanding import extract_slots

TODAY = date(2026, 11, 30)
PROJECTS = [{"项目编号": "XMSQ0102", "项目名称": "青浦-区图书馆", "项目简称": "区图书馆", "服务状态": "服务中"},
            {"项目编号": "XMSQ0112", "项目名称": "徐汇-科创大厦", "项目简称": "科创大厦", "服务状态": "服务中"}]
PEOPLE = [{"工号": "KWL1801001", "姓名": "周建国", "岗位名称": "项目经理"},
          {"工号": "KWL2012006", "姓名": "刘德明", "岗位名称": "保安_领班"}]
AREAS = [{"片区编号": "PQ01", "片区名称": "青浦片区"}, {"片区编号": "PQ02", "片区名称": "徐汇片区"}]
VALUES = {"岗位名称": ["项目经理", "保安_领班"], "设备类型": ["电梯", "空调"]}


@pytest.fixture(scope="module")
def idx():
    return EntityIndex.from_rows(PROJECTS, PEOPLE, AREAS, VALUES, ("2026-01", "2026-04"), {})


@pytest.mark.parametrize("q,field", [
    ("周建国的学历是什么？", "学历"), ("刘德明的年终奖是多少？", "年终奖"), ("刘德明的银行卡号是多少？", "银行卡号"),
    ("周建国的家庭住址是哪里？", "家庭住址"), ("周建国的社保缴纳基数是多少？", "社保缴纳基数"),
    ("徐汇-科创大厦有多少个停车位？", "停车位"), ("青浦-区图书馆有多少张床位？", "床位"),
    ("哪个员工的绩效考核分最高？", "绩效考核分"), ("设备的保修期到什么时候？", "保修期"),
    ("2026年1月各项目的水费合计是多少？", "水费"), ("2026年各项目的预算成本是多少？", "预算成本"),
    ("哪个项目的用电量最高？", "用电量"),
])
def test_an_unknown_field_is_reported(idx, q, field):
    s = extract_slots(q, idx, TODAY)
    assert s["missing"]["fields"] == [field]
    msg = coverage.missing_message(s["missing"], s.get("intent") or "")
    assert f"数据中没有“{field}”这一字段" in msg


@pytest.mark.parametrize("q,area", [("北京片区有哪些项目？", "北京"), ("苏州片区的负责人是谁？", "苏州"),
                                    ("杭州片区有几个项目？", "杭州")])
def test_an_unknown_area_is_reported(idx, q, area):
    s = extract_slots(q, idx, TODAY)
    assert s["missing"] == {"areas": [area]}
    assert coverage.missing_message(s["missing"], "项目") == f"未找到该片区：“{area}”。"


@pytest.mark.parametrize("q", [
    "周建国的岗位是什么？", "刘德明的手机号是多少？", "周建国的年龄是多少？", "徐汇-科创大厦的合同金额是多少？",
    "青浦-区图书馆的甲方是谁？", "徐汇-科创大厦的项目负责人是谁？", "青浦-区图书馆的满编率是多少",
    "哪个项目的合同金额最高？", "2026年1月各项目的开票金额合计是多少？", "哪些项目属于青浦片区",
    "一季度各片区收款金额分别是多少", "平均每个片区有几个项目", "设备超过5台的片区有哪些", "徐汇片区有几个项目？",
    "电梯的出厂日期是什么时候？", "徐汇-科创大厦有多少台设备？",
])
def test_known_fields_and_areas_pass(idx, q):
    assert "missing" not in extract_slots(q, idx, TODAY)


@pytest.mark.parametrize("q", kgrules.examples("asked_field") + kgrules.examples("unknown_area")
                         + kgrules.examples("asked_remaining"))
def test_every_pattern_row_catches_its_example(idx, q):
    assert coverage.check(q, idx, idx.find_mentions(q))


def test_missing_field_answer_lists_only_plain_fields():
    fields = coverage.fields_of("人员")
    assert "岗位名称" in fields and "入职日期" in fields
    assert not {"身份证号码", "联系电话", "来源文件", "显示名", "行号"} & set(fields)


def test_categorical_columns_come_from_the_schema():
    from core.graph.schema import categorical_columns

    cols = categorical_columns("人员信息")
    assert "职级" in cols and "性别" in cols
    assert not {"工号", "姓名", "出生日期", "联系电话", "身份证号码"} & set(cols)


@pytest.mark.parametrize("q", ["徐汇-科创大厦的剩余服务期还有多少天？", "最近一次检查是什么时候？", "吴建华是什么岗位？"])
def test_remaining_and_what_forms_pass_known_things(idx, q):
    assert not coverage.check(q, idx, idx.find_mentions(q))


@pytest.mark.parametrize("q,field", [
    ("徐汇-科创大厦的绿化面积有多大？", "绿化面积"),   # 面积 is known, 绿化面积 is not: no neighbour (合同面积)
    ("周建国身高多少？", "身高"),                      # no 的: the person's name is no part of the field
    ("刘德明的体重有多重？", "体重"),
    ("青浦-区图书馆的停车面积是多少？", "停车面积"),
])
def test_a_field_noun_with_a_word_no_column_holds_is_reported(idx, q, field):
    s = extract_slots(q, idx, TODAY)
    assert s["missing"]["fields"] == [field]


@pytest.mark.parametrize("q", ["3月和4月青浦-区图书馆的加班小时分别是多少", "徐汇-科创大厦的合同面积有多大？",
                               "周建国加班多少？", "青浦-区图书馆的实际毛利率是多少？", "徐汇-科创大厦一年合同多少钱？",
                               "周建国的手机号码是多少？", "周建国的工作年限是多少？", "青浦-区图书馆的检查结果是什么？",
                               "周建国的所属片区是哪个？", "青浦-区图书馆的年度合同额是多少？", "电梯的设备状态是什么？",
                               "徐汇-科创大厦的合同起止日期是什么？", "电梯的原值加起来是多少？"])
def test_a_field_noun_whose_every_word_is_understood_passes(idx, q):
    assert "missing" not in extract_slots(q, idx, TODAY)
