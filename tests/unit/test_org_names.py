"""Organisation names as the shared documents write them (济南/山东 家电以旧换新 rules and plan,
the 860号 notice, the 淮安/洪泽 annual reports, the departments of the Beijing 政务问答 passages):
one organisation however it is spelled, two organisations when the level differs."""

from __future__ import annotations

import pytest

from core.agents.rag.conflicts import condition_values, org_keys, orgs_differ
from core.documents.orgs import canonical_org, org_mentions, same_org


@pytest.mark.parametrize("names", [
    # 济商务字〔2025〕5号: the header block and the articles (第十一条 市商务局 … 第十四条 市市场监管局)
    ["济南市商务局", "市商务局"],
    ["济南市发展和改革委员会", "市发展改革委", "市发改委", "济南市发展改革委"],
    ["济南市市场监督管理局", "市市场监管局"],
    ["济南市财政局", "市财政局"],
    # 鲁商字〔2025〕1号 speaks to every city: 各市 … is the city's own department
    ["各市发展改革委", "市发展改革委"],
    ["各市市场监督管理局", "市市场监管局"],
    ["各市商务主管部门", "市商务局"],
    ["山东省商务厅", "省商务厅"],
    ["山东省发展和改革委员会", "省发展改革委"],
    # 政务问答 departments, short and full
    ["北京市人力资源和社会保障局", "北京市人力资源社会保障局", "北京市人社局"],
    ["北京市公安局公安交通管理局", "北京公安局公安交通管理局"],
    ["北京市规划和自然资源委员会", "北京市规划自然资源委"],
    ["北京市卫生和健康委员会", "北京市卫生健康委员会", "北京市卫健委"],
    ["淮安市人民政府办公室", "淮安市政府办公室", "市政府办公室"],
])
def test_one_organisation_however_spelled(names):
    assert len({canonical_org(n) for n in names}) == 1, {n: canonical_org(n) for n in names}
    assert all(same_org(names[0], n) for n in names)


def test_the_canonical_name_is_the_full_name_at_its_level():
    assert canonical_org("市发改委") == "市发展和改革委员会"
    assert canonical_org("市市场监管局") == "市市场监督管理局"
    assert canonical_org("各市商务主管部门") == "市商务局"
    assert canonical_org("交管局") == canonical_org("公安交通管理局") == "公安局公安交通管理局"
    assert canonical_org("医保局") == "医疗保障局"
    assert canonical_org("税务总局办公厅") == "国家税务总局办公厅"
    assert canonical_org("财政部") == "财政部"
    # a name without its level (政务问答 writes 人力资源社会保障局) is that body at any level
    assert same_org("人力资源社会保障局", "北京市人力资源和社会保障局")
    assert not same_org("人力资源社会保障局", "北京市医疗保障局")


@pytest.mark.parametrize("a, b", [
    ("山东省商务厅", "济南市商务局"),          # 厅 and 局: the province's and the city's
    ("省财政厅", "市财政局"),
    ("省发展改革委", "市发展改革委"),          # same body, another level
    ("淮安市人民政府办公室", "淮安市洪泽区人民政府办公室"),
    ("市商务局", "市商务局办公室"),            # an office of the bureau is not the bureau
    ("市商务局", "市发展改革委"),
    ("国务院", "国务院办公厅"),
])
def test_different_organisations_stay_apart(a, b):
    assert canonical_org(a) != canonical_org(b)
    assert not same_org(a, b)


def test_place_prefix_kept_for_another_place():
    # comparing within 济南: the city's name is stripped, another city's or the province's kept
    assert canonical_org("济南市商务局", place="济南") == canonical_org("市商务局", place="济南") == "市商务局"
    assert canonical_org("青岛市商务局", place="济南") == "青岛市商务局"
    assert canonical_org("山东省商务厅", place="济南") == "山东省商务厅"
    assert canonical_org("青岛市商务局") == "市商务局"  # no place at hand: compared at the level


def test_mentions_in_real_sentences():
    said = org_mentions("参与企业自愿申报；区县（功能区）商务主管部门汇总上报市商务局，市商务局通过官方网站发布名单")
    assert [w for w, _ in said] == ["商务主管部门", "市商务局", "市商务局"]
    assert [canonical_org(w) for w, _ in org_mentions("根据《国家发展改革委财政部关于2025年加力扩围…的通知》")] == \
        ["国家发展和改革委员会", "财政部"]
    # no organisation: 政府信息公开, 有关部门, 财政部门
    assert org_mentions("全市共受理政府信息公开申请3119件，会同有关部门做好补贴资金审核") == []
    assert org_mentions("各市财政部门负责") == []


def test_departments_differ_only_at_the_same_level():
    province = org_keys("各市发展改革委负责加强统筹协调，推进政策实施。")
    city = org_keys("负责加强统筹协调，推进家电以旧换新补贴政策实施。", {"heading": "第三章组织实施 > 第十三条市发展改革委"})
    assert orgs_differ(province, city) == []                     # the same department, spelled two ways
    assert orgs_differ(province, org_keys("市商务局负责加强统筹协调")) == ["市"]
    assert orgs_differ(org_keys("省商务厅负责组织实施"), org_keys("市商务局负责组织实施")) == []  # two levels


def test_condition_facets_of_real_sentences():
    later = condition_values("活动期限内，个人（限购1辆）和企业（单位）（行政、事业单位除外，限购3辆）在济南市参加活动的车企购置"
                             "非营运乘用车新车，不限户籍和上牌地区。")
    first_half = condition_values("参与对象：活动时间内，在参与企业购置非营运乘用车新车并完成车辆初次登记上牌的个人消费者"
                                  "（非个人购车、二手车不在本次补贴范围内），不限户籍和上牌地区。")
    assert later == {"户籍": {"不限户籍"}, "申领主体": {"个人和企业"}}
    assert first_half == {"户籍": {"不限户籍"}, "申领主体": {"仅个人"}}
    assert condition_values("在本市缴纳社保满6个月") == {"社保": {"至少6个月"}}
    assert condition_values("在本市缴纳社会保险满1年") == {"社保": {"至少12个月"}}
    assert condition_values("具有本市户籍") == {"户籍": {"本地户籍"}}
    assert condition_values("在参与企业购置非营运乘用车新车") == {}  # the seller is no condition
