"""A bounded schemathesis run against the API's own OpenAPI schema (deterministic, a couple of
dozen examples per operation): with a valid token no request is answered 5xx and every error
has the error shape; without a token, or with a bad one, nothing but /v1/health answers 200."""

from __future__ import annotations

import importlib.util

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, Phase, settings  # noqa: E402

from core.api import app  # noqa: E402
from tests.api.conftest import PASSWORD, auth  # noqa: E402

TASK_AGENT = importlib.util.find_spec("core.services.task") is not None
schema = schemathesis.openapi.from_asgi("/openapi.json", app)

FUZZ = settings(max_examples=12, derandomize=True, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck))


def _check(response, *, authed: bool, path: str) -> None:
    # 501 is the documented answer of /v1/task until the task agent lands
    expected_501 = response.status_code == 501 and path.startswith("/v1/task") and not TASK_AGENT
    assert response.status_code < 500 or expected_501, (response.status_code, response.text[:300])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    if not authed and path != "/v1/health":
        assert response.status_code != 200, (path, response.text[:300])


@pytest.fixture
def fuzz_users(workspace, monkeypatch, kg_store, doc_index):
    """One manager of tenant demo with a token (one scrypt hash per operation, not four)."""
    from core import config
    from core.services.users import add_user, issue_api_token

    monkeypatch.setenv("ZHICE_API_RATE_PER_MIN", "0")
    config.set_settings(None)
    add_user("manager_a", "manager", PASSWORD, tenants=["demo"])
    return {"manager_a": issue_api_token("manager_a")["token"]}


@schema.parametrize()
@FUZZ
def test_authenticated_requests_never_5xx(case, fuzz_users):
    response = case.call(headers=auth(fuzz_users["manager_a"]))
    _check(response, authed=True, path=case.path)


@schema.parametrize()
@FUZZ
def test_unauthenticated_requests_never_200(case, fuzz_users):
    for headers in ({}, {"Authorization": "Bearer zc_forged-token"}):
        hs = {k: v for k, v in (case.headers or {}).items() if k.lower() != "authorization"}
        case.headers = {**hs, **headers}
        response = case.call()
        _check(response, authed=False, path=case.path)
