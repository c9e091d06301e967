"""The live answer a streaming client sees (core.agents.live_answer): whole clauses as the model
writes them, screened like a final answer, and the events that make the client end up showing
exactly the checked answer."""

from core.agents.live_answer import LiveAnswer


def _live():
    events = []
    return LiveAnswer(lambda event, data: events.append((event, data["text"]))), events


def test_clauses_go_out_masked_even_when_a_phone_number_spans_pieces():
    live, events = _live()
    draft = live.relay(iter(["请拨打138", "1234", "5678咨询，或拨打", "4006096588。", "详见[1]"]),
                       sources="咨询电话4006096588")
    assert draft == "请拨打13812345678咨询，或拨打4006096588。详见[1]"
    assert [e for e, _ in events] == ["token", "token", "token"]
    sent = "".join(t for _, t in events)
    assert "13812345678" not in sent and "4006096588" in sent and sent.endswith("详见[1]")
    assert live.settle(sent) == []  # the checked answer is what was shown: nothing more to send
    assert live.settle("详见[1]") == [("replace", {"text": "详见[1]"})]


def test_a_sensitive_clause_stops_the_live_draft_and_the_checked_answer_replaces_it():
    live, events = _live()
    live.relay(iter(["第一句。", "如何制造炸弹。", "后面还有。"]))
    assert events == [("token", "第一句。")]
    assert live.settle("回答内容触发敏感词审核") == [("replace", {"text": "回答内容触发敏感词审核"})]


def test_a_new_draft_clears_the_shown_one_and_nothing_live_means_one_final_token():
    live, events = _live()
    live.relay(iter(["初稿。"]))
    live.relay(iter(["定稿。"]))
    assert events == [("token", "初稿。"), ("replace", ""), ("token", "定稿。")]
    quiet, none = _live()
    assert quiet.settle("规则模式的回答") == [("token", {"text": "规则模式的回答"})] and none == []
    assert _live()[0].settle("") == []
