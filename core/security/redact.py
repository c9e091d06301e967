"""Hide secrets in text shown to people: credentials inside URLs (``https://user:pass@host``,
``postgresql://u:p@h/db``, a bare token as URL user), secret query parameters (``?api_key=…``,
``password=…``, ``token=…``) and the configured secret values themselves (API key, passwords)
wherever they appear, e.g. inside an error message."""

from __future__ import annotations

import re

MASK = "***"

# scheme://userinfo@ — userinfo is "user:password" or a bare token
_URL_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*://)(?P<userinfo>[^\s/@?#]+)@")
_SECRET_PARAM = re.compile(
    r"(?P<key>(?:api[_-]?key|apikey|access[_-]?token|token|secret|password|passwd|pwd|key|auth|sig|signature)=)"
    r"(?P<value>[^&\s#'\"]+)", re.IGNORECASE)
_KV_SECRET = re.compile(r"(?P<key>\b(?:password|passwd|pwd)\s*=\s*)(?P<value>[^\s;'\"]+)", re.IGNORECASE)
SECRET_SETTINGS = ("llm_api_key", "neo4j_password", "database_url")


def _userinfo(m: re.Match) -> str:
    info = m.group("userinfo")
    if ":" in info:
        user = info.split(":", 1)[0]
        return f"{m.group('scheme')}{user}:{MASK}@"
    return f"{m.group('scheme')}{MASK}@"


def mask_url(text: str) -> str:
    """``text`` with URL credentials and secret query parameters replaced by ``***``."""
    if not text:
        return text
    out = _URL_USERINFO.sub(_userinfo, str(text))
    out = _SECRET_PARAM.sub(lambda m: m.group("key") + MASK, out)
    return _KV_SECRET.sub(lambda m: m.group("key") + MASK, out)


def _secret_values(settings) -> list[str]:
    values = []
    for name in ("llm_api_key", "neo4j_password"):
        v = str(getattr(settings, name, "") or "")
        if len(v) >= 4:
            values.append(v)
    url = str(getattr(settings, "database_url", "") or "")
    m = _URL_USERINFO.search(url)
    if m and ":" in m.group("userinfo"):
        pw = m.group("userinfo").split(":", 1)[1]
        if len(pw) >= 4:
            values.append(pw)
    return sorted(set(values), key=len, reverse=True)


def mask_secrets(text, settings=None) -> str:
    """Everything :func:`mask_url` hides, plus the configured secret values verbatim."""
    if text is None:
        return text
    if settings is None:
        from core.config import get_settings

        settings = get_settings()
    out = mask_url(str(text))
    for value in _secret_values(settings):
        out = out.replace(value, MASK)
    return out
