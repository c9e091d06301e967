"""Password policy, checked in core for every way a password is set (CLI, settings page,
password change, demo users).

A password counts after NFKC and after removing whitespace and invisible format characters
(Unicode category Cf: zero-width spaces, joiners, bidi controls), so padding cannot satisfy the
length rule. Rules: at least 10 such characters, at most 256 characters as typed, not all of
one character class, and not one of the commonest passwords (``data/security/
common_passwords.txt``), also after lowercasing, undoing simple leet and trimming digits and
symbols at either end.
"""

from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

from core.errors import BadInputError

MIN_LENGTH = 10
MAX_LENGTH = 256
COMMON_FILE = Path(__file__).resolve().parents[2] / "data" / "security" / "common_passwords.txt"

# simple leet substitutions; "1" is tried both as "i" and as "l"
_LEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "@": "a",
                       "$": "s", "!": "i", "|": "l", "+": "t"})


def normalise(password: str) -> str:
    """NFKC, then drop whitespace and format (Cf) characters: what the length rule counts."""
    text = unicodedata.normalize("NFKC", password or "")
    return "".join(c for c in text if not c.isspace() and unicodedata.category(c) not in ("Cf", "Cc"))


@functools.lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    lines = COMMON_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip().lower() for line in lines if line.strip() and not line.startswith("#"))


def _classes(text: str) -> set[str]:
    found = set()
    for c in text:
        if c.isdigit():
            found.add("digit")
        elif c.isalpha():
            found.add("lower" if c.islower() else "upper" if c.isupper() else "letter")
        else:
            found.add("symbol")
    return found


def _variants(text: str) -> set[str]:
    low = text.lower()
    out = {low}
    trimmed = low.strip("0123456789!@#$%^&*()_+-=.,;:?~`'\"[]{}<>/\\|")
    for base in (low, trimmed):
        if base:
            out.add(base)
            leet = base.translate(_LEET)
            out.add(leet.replace("1", "i"))
            out.add(leet.replace("1", "l"))
            out.add(leet.replace("1", "i").strip("0123456789"))
    return {v for v in out if v}


def is_common(password: str) -> bool:
    common = common_passwords()
    return any(v in common for v in _variants(normalise(password)))


def check_password_strength(password: str) -> None:
    """Raise BadInputError (a Chinese message naming the rule) when ``password`` is too weak."""
    password = password or ""
    if len(password) > MAX_LENGTH:
        raise BadInputError(f"密码最长 {MAX_LENGTH} 个字符")
    core = normalise(password)
    if len(core) < MIN_LENGTH:
        raise BadInputError(f"密码至少 {MIN_LENGTH} 个字符（不计空白和不可见字符）")
    if len(_classes(core)) < 2:
        raise BadInputError("密码不能全是同一类字符，请混合使用字母、数字或符号")
    if is_common(password):
        raise BadInputError("密码过于常见，容易被猜中，请换一个")
