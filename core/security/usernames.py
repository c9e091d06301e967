"""User names: normalised, restricted to letters/digits/``_-.@·``, and never a look-alike of
another user.

* The stored name is the NFKC form of what was typed (full-width ``ａｄｍｉｎ`` → ``admin``).
* Uniqueness and sign-in use the *key*: NFKC + case folding (``Admin`` and ``admin`` are one user).
* Refused: control, format (zero-width, bidi), whitespace and markup characters (``<>"'&`` …);
  Latin, Cyrillic and Greek letters mixed in one name (``аdmin`` with a Cyrillic а).
* The confusable *skeleton* (Cyrillic/Greek look-alikes → Latin, ``0`` → ``o``, ``1`` → ``l``,
  ``rn`` → ``m``) must not equal an existing user's skeleton.

Chinese (and any other single-script) names are fine: 张三, 李经理, renée.
"""

from __future__ import annotations

import unicodedata

from core.errors import BadInputError

MAX_LENGTH = 64
_EXTRA_ALLOWED = set("_-.@·")
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")

# Look-alikes of Latin letters (lower case; applied after case folding), after UTS #39's
# confusables for the scripts we allow side by side with Latin.
_CONFUSABLE = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k", "ӏ": "l",
    "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "ɡ": "g", "ь": "b", "п": "n", "г": "r", "ү": "y",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "γ": "y", "ω": "w", "μ": "u", "ζ": "z",
    # Latin and digits
    "0": "o", "1": "l", "i": "l", "ı": "l", "|": "l",
}


def name_key(name: str) -> str:
    """The uniqueness / sign-in key: NFKC + case folding (NFKC again after folding)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name or "").strip().casefold())


def skeleton(name: str) -> str:
    """A confusable skeleton of ``name``: two names with the same skeleton look alike."""
    folded = unicodedata.normalize("NFD", name_key(name))
    folded = "".join(c for c in folded if unicodedata.category(c) != "Mn")  # é → e
    out = "".join(_CONFUSABLE.get(_CONFUSABLE.get(c, c), _CONFUSABLE.get(c, c)) for c in folded)  # і → i → l
    return out.replace("rn", "m").replace("vv", "w")


def _script(c: str) -> str | None:
    try:
        first = unicodedata.name(c).split(" ", 1)[0]
    except ValueError:
        return None
    return first if first in _SCRIPTS else None


def normalise_name(name: str) -> str:
    """The stored form of a new user name, or BadInputError saying what is wrong with it."""
    raw = name or ""
    if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Cn") for c in raw):
        raise BadInputError("用户名不能包含控制字符、零宽字符或文字方向控制符")
    text = unicodedata.normalize("NFKC", raw).strip()
    if not text or len(text) > MAX_LENGTH:
        raise BadInputError(f"用户名不能为空，最长 {MAX_LENGTH} 个字符")
    for c in text:
        cat = unicodedata.category(c)
        if c.isspace():
            raise BadInputError("用户名不能包含空白")
        if not (cat[0] in ("L", "M") or cat == "Nd" or c in _EXTRA_ALLOWED):
            raise BadInputError(f"用户名只能包含文字、数字和 _ - . @ ·，不能包含“{c}”")
    if not (text[0].isalnum()):
        raise BadInputError("用户名必须以文字或数字开头")
    scripts = {s for s in map(_script, text) if s}
    if len(scripts) > 1:
        raise BadInputError("用户名不能混用拉丁、西里尔或希腊字母（容易被误认为其他用户）")
    return text


def lookup_key(name: str) -> str | None:
    """The key to look a typed sign-in name up by, or None when it could never be a user name
    (the caller then treats it exactly like an unknown user)."""
    try:
        return name_key(normalise_name(name))
    except BadInputError:
        return None
