"""User names: one user per case/width-folded name, no invisible or markup characters, no
mixed-script look-alikes of existing users; Chinese names still work."""

import pytest

from core.errors import BadInputError
from core.security.principals import UserStore
from core.services import users

PASSWORD = "name-test-pass-2026"


@pytest.fixture
def store():
    s = UserStore()
    s.add("admin", "admin", PASSWORD)
    return s


@pytest.mark.parametrize("name, reason", [
    ("Admin", "已存在"),                    # case
    ("ＡＤＭＩＮ", "已存在"),               # full width (NFKC)
    ("аdmin", "混用"),                      # Cyrillic а + Latin
    ("admіn", "混用"),                      # Cyrillic і
    ("αdmin", "混用"),                      # Greek α
    ("аԁміп", "过于相似"),                  # all Cyrillic, but looks like admin
    ("adm1n", "过于相似"),                  # digit look-alike
    ("admin\u200b", "零宽"),
    ("\u200badmin", "零宽"),
    ("\u202eadmin", "零宽"),                # right-to-left override
    ("ad\u2066min", "零宽"),                # bidi isolate
    ("admin\x00", "控制字符"),
    ("ad min", "空白"),
    ("<script>", "不能包含"),
    ("a\"b", "不能包含"),
    ("o'neil", "不能包含"),
    ("x&y", "不能包含"),
    ("-rf", "开头"),
    ("", "不能为空"),
    ("名" * 65, "最长"),
])
def test_bad_or_look_alike_names_are_refused(store, name, reason):
    with pytest.raises(BadInputError, match=reason):
        store.add(name, "staff", PASSWORD)
    assert [p.name for p in store.list()] == ["admin"]


@pytest.mark.parametrize("name", ["张三", "李经理", "王_2", "renée", "zhang.san@jn", "Иван", "ΑΘΗΝΑ", "买买提·艾力"])
def test_ordinary_names_in_any_single_script_work(store, name):
    user = store.add(name, "staff", PASSWORD)
    assert user.name == name
    assert store.authenticate(name, PASSWORD).name == name


def test_names_are_stored_in_nfkc_and_signed_in_case_insensitively(store):
    assert store.add("Ｌｉ_Ｍｉｎｇ", "staff", PASSWORD).name == "Li_Ming"
    principal, _token = users.login("li_ming", PASSWORD)
    assert principal.name == "Li_Ming"
    assert users.login("ADMIN", PASSWORD)[0].name == "admin"


def test_cli_refuses_a_look_alike_name(store):
    with pytest.raises(BadInputError):
        users.add_user("Admin", "admin", PASSWORD)
