"""Weak passwords are refused wherever a password is set: too short once whitespace and
invisible characters are gone, one character class, common (also in leet), absurdly long."""

import pytest

from core.errors import BadInputError
from core.security.passwords import check_password_strength, common_passwords
from core.security.principals import UserStore
from core.services import users

WEAK = {
    "passw0rd": "至少 10 个字符",
    "1" + " " * 20: "至少 10 个字符",
    "ab1\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200b\u200b": "至少 10 个字符",  # zero-width padding
    "ab1\u2060\ufeff\u200d\u200c\u202e\u2066\u00ad\u200b\u200b": "至少 10 个字符",  # other Cf characters
    "x1" + "\u3000" * 12: "至少 10 个字符",  # ideographic spaces
    "a" * 100_000 + "1": "最长 256",
    "abcdefghijkl": "同一类字符",
    "12345678901234": "同一类字符",
    "ＡＢＣＤＥＦＧＨＩＪＫ": "同一类字符",  # full-width letters count after NFKC
    "password123": "过于常见",
    "Passw0rd2026!": "过于常见",
    "p@ssw0rd1234": "过于常见",
    "1qaz2wsx3edc": "过于常见",
    "woaini1314520": "过于常见",
    "Qwerty123456": "过于常见",
    "admin@123456": "过于常见",
    "iloveyou2026": "过于常见",
}


@pytest.mark.parametrize("password, reason", WEAK.items(), ids=[repr(p[:16]) for p in WEAK])
def test_weak_passwords_are_refused_when_a_user_is_created(password, reason):
    with pytest.raises(BadInputError, match=reason):
        UserStore().add("li_ming", "staff", password)
    assert not UserStore().exists("li_ming")


@pytest.mark.parametrize("password", ["zhice-Office-2026", "济南商务局-2026-春", "correct horse battery 9",
                                      "Tr0ub4dor&3x", "x" * 250 + "-1"])
def test_reasonable_passwords_are_accepted(password):
    check_password_strength(password)
    UserStore().add("li_ming", "staff", password)
    assert UserStore().authenticate("li_ming", password).name == "li_ming"


def test_common_list_ships_a_few_hundred_lowercased_entries():
    common = common_passwords()
    assert len(common) >= 300
    assert all(p == p.lower() for p in common)
    assert {"123456", "password", "qwerty", "woaini1314", "1qaz2wsx"} <= common


def test_the_policy_applies_to_password_changes_and_resets():
    UserStore().add("li_ming", "staff", "li-ming-pass-2026")
    with pytest.raises(BadInputError, match="过于常见"):
        users.change_password("li_ming", "li-ming-pass-2026", "Password2026")
    with pytest.raises(BadInputError, match="至少 10 个字符"):
        users.reset_password("li_ming", "ab1\u200b\u200b\u200b\u200b\u200b\u200b\u200b")
    with pytest.raises(BadInputError, match="不能与旧密码相同"):
        users.change_password("li_ming", "li-ming-pass-2026", "li-ming-pass-2026\u200b")
    assert UserStore().authenticate("li_ming", "li-ming-pass-2026").name == "li_ming"
