"""``/v1/ask/docs/stream`` with an LLM: the model's answer reaches the client while the model is
still writing (before the ``generate`` node finishes), and when the citation check rejects the
streamed draft a ``replace`` event makes the client show the checked answer. The LLM is the
local Chat Completions server of tests/support, streaming its chunks with pauses."""

from __future__ import annotations

import json
import re
import time
from collections import deque

import pytest

from core.config import load_settings
from core.llm.client import OpenAIClient, set_llm_override
from tests.api.conftest import auth
from tests.support.chat_server import ChatServer

PAUSE_S = 0.15  # the model's pause before each chunk
DOCS_Q = "新车首保消费券商业保险金额6000元到8000元之间可以领多少钱？"
GOOD = ["商业保险金额", "6000元到8000元之间的，", "可领取2000元", "消费券[{n}]。"]
BAD = ["按照公告，", "每位车主均可", "领取9000元消费券[7]。"]  # a number and a citation the notice does not have


def _chunk_number(body: dict, heading: str) -> int:
    """The [n] the generate prompt gives the section ``heading``."""
    prompt = body["messages"][1]["content"]
    return int(re.search(r"\[(\d+)\]《[^》]*》（[^）]*）" + heading, prompt).group(1))


@pytest.fixture
def drafts(users):
    """The LLM server: JSON calls (rewrite, grade) get an empty opinion, so the rules decide;
    each streamed call takes the next draft of ``drafts``."""
    drafts: deque[list[str]] = deque()

    def respond(body: dict) -> dict:
        if not body.get("stream"):
            return {"content": json.dumps({"queries": [], "verdicts": []})}
        n = _chunk_number(body, "一、补贴标准")
        return {"stream": [p.format(n=n) for p in drafts.popleft()], "pause": PAUSE_S}

    with ChatServer(respond) as server:
        settings = load_settings({"llm_base_url": server.base_url, "llm_api_key": "test-key",
                                  "llm_model": "test-model", "llm_timeout_s": 10, "llm_max_retries": 0})
        set_llm_override(OpenAIClient(settings))
        yield drafts
    set_llm_override(None)


def _ask(client, users, arrivals: list[float] | None = None) -> list[tuple[str, dict]]:
    """The stream's events; ``arrivals`` receives the time each event reached the client."""
    with client.stream("POST", "/v1/ask/docs/stream", json={"question": DOCS_Q},
                       headers=auth(users["manager_a"])) as s:
        assert s.status_code == 200
        events, event = [], None
        for line in s.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                events.append((event, json.loads(line[6:])))
                if arrivals is not None:
                    arrivals.append(time.monotonic())
        return events


def _shown(events) -> str:
    """What a client following the token / replace events shows."""
    text = ""
    for event, data in events:
        if event == "token":
            text += data["text"]
        elif event == "replace":
            text = data["text"]
    return text


def _at(events, event: str, node: str | None = None) -> list[int]:
    return [i for i, (e, d) in enumerate(events) if e == event and (node is None or d.get("node") == node)]


def test_answer_tokens_stream_while_the_model_writes(client, users, doc_index, drafts):
    drafts.append(GOOD)
    arrivals: list[float] = []
    events = _ask(client, users, arrivals)
    done = events[-1][1]
    assert events[-1][0] == "done" and done["mode"] == "llm" and not done["refused"]
    assert done["checks"]["citation_check"] == "passed"
    tokens, generated = _at(events, "token"), _at(events, "node", "generate")
    # the clauses arrive one by one while the model is still writing: before the generate node
    # has finished, and long before check / finalize
    assert len(tokens) >= 2 and len(generated) == 1 and tokens[-1] < generated[0]
    assert _at(events, "node", "grade")[0] < tokens[0]
    assert [events[i][1]["text"] for i in tokens[:2]] == ["商业保险金额6000元到8000元之间的，", "可领取2000元消费券[1]。"]
    # …and reached the client while the model still had two chunks to write
    assert arrivals[generated[0]] - arrivals[tokens[0]] >= PAUSE_S
    assert "replace" not in [e for e, _ in events]  # the draft passed the check unchanged
    assert _shown(events) == done["answer"] and "2000元" in done["answer"] and done["citations"]


def test_a_draft_the_citation_check_rejects_is_replaced(client, users, doc_index, drafts):
    drafts.extend([BAD, GOOD])
    events = _ask(client, users)
    done = events[-1][1]
    assert done["checks"]["regenerated"] and done["checks"]["citation_check"] == "passed"
    first_check, second_generate = _at(events, "node", "check")[0], _at(events, "node", "generate")[1]
    cleared = _at(events, "replace")
    # the rejected draft was shown, then cleared before the next draft streamed
    assert any("9000元" in events[i][1]["text"] for i in _at(events, "token") if i < first_check)
    assert len(cleared) == 1 and first_check < cleared[0] < second_generate and events[cleared[0]][1]["text"] == ""
    assert "9000元" not in done["answer"] and _shown(events) == done["answer"]


def test_when_no_draft_passes_the_checked_answer_replaces_the_streamed_text(client, users, doc_index, drafts):
    drafts.extend([BAD, BAD])
    events = _ask(client, users)
    done = events[-1][1]
    assert events[-2] == ("replace", {"text": done["answer"]})
    assert "9000元" not in done["answer"] and _shown(events) == done["answer"]


def test_rules_mode_sends_the_answer_as_one_final_token(client, users, doc_index):
    events = _ask(client, users)
    assert [e for e, _ in events][-2:] == ["token", "done"] and len(_at(events, "token")) == 1
    assert events[-2][1]["text"] == events[-1][1]["answer"]
