from core.agents.kg.concepts import detect_intents, parse_conditions


def exprs(q):
    return [c.expr() for c in parse_conditions(q)]


def test_numeric_conditions():
    assert exprs("50岁以下的项目经理有几位？") == ["年龄 < 50"]
    assert exprs("3月份加班超过20小时的保安有哪些？") == ["加班小时 > 20"]
    assert exprs("哪些项目3个月内到期") == ["剩余服务期 <= 3", "剩余服务期 >= 0"]
    assert exprs("司龄满10年的员工") == ["司龄 >= 10"]
    assert exprs("上班天数少于20天的人") == ["上班天数 < 20"]
    assert exprs("检查得分低于80的项目") == ["检查得分 < 80"]
    assert exprs("3月的考勤") == []  # a bare month is time, never a condition


def test_specific_intents_beat_generic_ones():
    assert detect_intents("青浦-区图书馆2026年3月有多少人出勤？")[0][0] == "考勤"
    assert detect_intents("哪些服务中的项目没有人员服务记录？")[0][0] == "项目缺口"
    assert detect_intents("2026年3月各项目开票金额合计")[0][0] == "收费"
    assert detect_intents("3月的工资")[0][0] == "工资"
    assert detect_intents("50岁以下的项目经理有几位")[0][0] == "人员"
