from datetime import date

from core.agents.kg.aliases import add_alias, load_aliases
from core.agents.kg.entity_index import EntityIndex
from core.agents.kg.grounding import ground_slots
from core.agents.kg.understanding import extract_slots

PROJECTS = [
    {"项目编号": "XMSQ0102", "项目名称": "青浦-区图书馆", "项目简称": "区图书馆", "服务状态": "服务中"},
    {"项目编号": "XMSQ0103", "项目名称": "青浦-体育馆", "项目简称": "体育馆", "服务状态": "服务中"},
    {"项目编号": "XMSQ0031", "项目名称": "赵巷镇政府", "项目简称": "赵巷镇政府", "服务状态": "已结束"},
    {"项目编号": "XMSQ0131", "项目名称": "赵巷镇政府", "项目简称": "赵巷镇政府", "服务状态": "服务中"},
]
PEOPLE = [{"工号": "KWL2307024", "姓名": "郑晓东", "岗位名称": "保安_普保"},
          {"工号": "KWL2012006", "姓名": "刘德明", "岗位名称": "保安_领班"},
          {"工号": "KWL1801001", "姓名": "周建国", "岗位名称": "项目经理"}]
VALUES = {"岗位名称": ["保安_普保", "保安_领班", "项目经理", "保洁员"], "性别": ["男", "女"]}


def index(aliases=None):
    return EntityIndex.from_rows(PROJECTS, PEOPLE, [], VALUES, ("2026-01", "2026-04"), aliases or {})


def test_exact_contains_edit_ladder():
    idx = index()
    assert [(c.key, c.method) for c in idx.resolve("project", "青浦-区图书馆")][:1] == [("XMSQ0102", "exact")]
    assert idx.resolve("project", "青浦区图书馆")[0].key == "XMSQ0102"  # separators ignored
    c = idx.resolve("project", "青浦图书馆", allow_embedding=False)[0]
    assert c.key == "XMSQ0102" and c.method in ("contains", "edit") and c.score < 1.0
    assert idx.resolve("project", "完全无关的名字", allow_embedding=False) == []


def test_renewed_namesake_prefers_in_service():
    g = ground_slots({"projects": ["赵巷镇政府"]}, index())
    assert g["projects"][0]["key"] == "XMSQ0131"


def test_alias_table_is_editable(workspace):
    add_alias("图书馆老馆", "XMSQ0102")
    assert load_aliases() == {"图书馆老馆": "XMSQ0102"}
    idx = index(load_aliases())
    assert idx.resolve("project", "图书馆老馆")[0].key == "XMSQ0102"
    assert [m["text"] for m in idx.find_mentions("图书馆老馆3月的考勤")] == ["图书馆老馆"]


def test_value_grounding_expands_base_word():
    assert index().ground_values("3月份加班超过20小时的保安有哪些？")["岗位名称"] == ["保安_普保", "保安_领班"]
    assert index().ground_values("50岁以下的项目经理有几位")["岗位名称"] == ["项目经理"]
    # a value written without its separator is that value, not every value of its base word
    assert index().ground_values("1月保安领班的国定加班费合计是多少？")["岗位名称"] == ["保安_领班"]


def test_slots_for_the_target_questions():
    idx, today = index(), date(2026, 11, 30)
    s = extract_slots("青浦-区图书馆2026年3月有多少人出勤？", idx, today)
    assert s["intent"] == "考勤" and s["projects"] == ["青浦-区图书馆"] and s["time"]["months"] == ["2026-03"]
    assert s["agg"]["op"] == "count" and s["agg"]["field"] == "工号"
    s = extract_slots("50岁以下的项目经理有几位？", idx, today)
    assert s["intent"] == "人员" and s["filters"]["岗位名称"] == ["项目经理"] and s["people"] == []
    s2 = extract_slots("改成4月", idx, today, previous=extract_slots("青浦-区图书馆3月有多少人出勤", idx, today))
    assert s2["followup"] and s2["projects"] == ["青浦-区图书馆"] and s2["time"]["months"] == ["2026-04"]
    s3 = extract_slots("换成青浦-体育馆", idx, today, previous=s2)
    assert s3["projects"] == ["青浦-体育馆"] and s3["time"]["months"] == ["2026-04"] and s3["intent"] == "考勤"
