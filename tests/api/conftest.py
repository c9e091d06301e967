"""Fixtures for the HTTP API tests: a business graph served by the fake store of
tests/unit/test_kg_graph.py (tenant ``demo``), a tiny lexical document index of tenant
``demo`` (no embedding model), workspace users with API tokens, and a FastAPI TestClient."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from core.agents.kg.entity_index import invalidate
from core.llm.client import set_llm_override
from core.services.ask_kg import set_store_override
from tests.unit.test_kg_graph import FakeStore

PASSWORD = "api-test-pass-9x"

POLICY = [
    ("一、补贴标准", "新车首保消费券按商业保险金额分档发放：商业保险金额6000元到8000元之间的，可领取2000元消费券；"
                "8000元以上的，可领取3000元消费券。"),
    ("二、申领材料", "申领需要哪些材料：申请人需要提供本人身份证、机动车销售统一发票和商业保险保单等材料。"),
    ("三、活动时间", "活动时间为2025年7月1日至2025年12月31日，资金用完即止。"),
]


@dataclass
class _Span:
    page: int = 1
    bbox: tuple | None = None
    para: int | None = None


@dataclass
class _Chunk:
    chunk_id: str
    doc_id: str
    text: str
    body: str
    heading: str = ""
    path: list = field(default_factory=list)
    page_start: int = 1
    page_end: int = 1
    kind: str = "prose"
    spans: list = field(default_factory=list)


@dataclass
class _Meta:
    doc_id: str
    file_name: str
    title: str
    authorities: list
    publish_date: str = "2025-06-30"
    doc_number: str = "济商务字〔2025〕6号"
    status: str = "in_effect"
    domain: str = "商务"
    tenant: str = "demo"
    review_state: str = "approved"


@dataclass
class _Hit:
    rank: int
    chunk: _Chunk
    meta: _Meta
    score: float
    evidence: dict


@dataclass
class _Result:
    hits: list
    notices: list = field(default_factory=list)
    latency_ms: float = 0.1
    degraded: bool = False


def _grams(text: str) -> set[str]:
    t = "".join(ch for ch in text if not ch.isspace())
    return {t[i:i + 2] for i in range(len(t) - 1)}


class TinyIndex:
    """The document index's search() shape over three sections of one notice (char bigrams)."""

    def __init__(self):
        title = "济南市2025年新车首保消费券活动公告"
        self.meta = _Meta("doc00", title + ".docx", title, ["济南市商务局"])
        self.chunks = [_Chunk(f"doc00-{i:04d}", "doc00", f"{title}\n{h}\n{b}", b, h, [title, h],
                              spans=[_Span(1, None, i)]) for i, (h, b) in enumerate(POLICY)]

    def search(self, query, principal, k=10, *, scenario=None, doc_ids=None):
        from core.retrieval.filters import doc_visible

        if not doc_visible(self.meta, principal):
            return _Result([])
        q = _grams(query)
        scored = sorted(((len(q & _grams(c.text)) / (len(q) or 1), c) for c in self.chunks), key=lambda x: -x[0])
        return _Result([_Hit(r, c, self.meta, s, {"bm25": (r, s), "dense": None, "title": None, "fused": s})
                        for r, (s, c) in enumerate([x for x in scored if x[0] > 0][:k], 1)])

    def list_docs(self):
        return [self.meta]

    def get_meta(self, doc_id):
        return self.meta if doc_id == self.meta.doc_id else None

    def get_chunk(self, chunk_id):
        return next((c for c in self.chunks if c.chunk_id == chunk_id), None)


@pytest.fixture
def kg_store():
    store = FakeStore()
    set_store_override(store)
    invalidate()
    yield store
    set_store_override(None)
    invalidate()


@pytest.fixture
def doc_index(monkeypatch):
    index = TinyIndex()
    monkeypatch.setattr("core.services.ask_docs._index", lambda: index)
    return index


@pytest.fixture
def users(workspace, monkeypatch):
    """Users manager_a / staff_a / guest_a (tenant demo) and an admin, each with a token:
    ``{name: token}``. Rate limit off unless a test sets it."""
    from core import config
    from core.services.users import add_user, issue_api_token

    monkeypatch.setenv("ZHICE_API_RATE_PER_MIN", "0")
    config.set_settings(None)
    set_llm_override(None)
    tokens = {}
    for name, role in (("manager_a", "manager"), ("staff_a", "staff"), ("guest_a", "guest"), ("boss", "admin")):
        add_user(name, role, PASSWORD, tenants=[] if role == "admin" else ["demo"],
                 scenario="window", scenarios=["window", "research"] if role == "manager" else ["window"])
        tokens[name] = issue_api_token(name)["token"]
    yield tokens
    set_llm_override(None)


@pytest.fixture
def client(users, kg_store, doc_index):
    from fastapi.testclient import TestClient

    from core.api import app

    with TestClient(app) as c:
        yield c


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def sse_events(response) -> list[tuple[str, dict]]:
    """Parse a text/event-stream body into [(event, data)]."""
    import json

    out, event = [], None
    for line in response.iter_lines():
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            out.append((event, json.loads(line[6:])))
    return out
