import pytest

from core.errors import PermissionDenied
from core.graph.schema import SENSITIVE_FIELDS
from core.security.masking import strip_sensitive
from core.security.permissions import allowed_intent, check_intent
from core.security.principals import Principal, Role


def P(role):
    return Principal("u", Role(role))


@pytest.mark.parametrize("role,intent,ok", [
    ("guest", "考勤", True), ("guest", "排班", True), ("guest", "设备", False), ("guest", "人员", False),
    ("staff", "设备", True), ("staff", "收费", False), ("staff", "工资", False), ("staff", "项目缺口", True),
    ("manager", "工资", True), ("admin", "收费", True),
])
def test_role_intent_matrix(role, intent, ok):
    assert allowed_intent(P(role), intent) is ok


def test_denial_is_a_clear_chinese_message():
    with pytest.raises(PermissionDenied) as e:
        check_intent(P("staff"), "工资")
    assert "无权查询" in e.value.user_message and "工资" in e.value.user_message


def test_sensitive_fields_come_from_schema_and_are_stripped():
    assert {"税后工资", "联系电话", "身份证号码", "政治面貌", "餐费"} <= SENSITIVE_FIELDS
    rows = [{"姓名": "张三", "税后工资": 5000, "联系电话": "138", "加班小时": 3}]
    out, removed = strip_sensitive(rows, P("staff"))
    assert out == [{"姓名": "张三", "加班小时": 3}] and set(removed) == {"税后工资", "联系电话"}
    out, removed = strip_sensitive(rows, P("manager"))
    assert out[0]["税后工资"] == 5000 and removed == []
