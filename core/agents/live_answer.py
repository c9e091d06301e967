"""The answer as the model writes it, for streaming front ends (core.api ``…/stream``).

An agent node that asks the LLM for the answer text relays the model's pieces through
:meth:`LiveAnswer.relay`; the live text is sent on in whole clauses (up to the last ，。；：！？
or line break), each screened like a final answer (PII not quoted from the sources masked;
a sensitive word stops the live text of that draft). The live text is a draft: the citation
check, renumbering and output filters run afterwards, so :meth:`LiveAnswer.settle` compares
it with the checked answer and tells the client to replace what it showed when they differ.

Events (``emit(event, data)``):
  ``token``   ``{"text": piece}`` — append to the shown answer;
  ``replace`` ``{"text": answer}`` — discard the shown answer and show ``answer`` instead
              (``""`` when a new draft starts, e.g. after a failed citation check).
Nothing live (offline rules mode, answers composed from graph rows): ``settle`` gives the
whole answer as one ``token`` event.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from core.security.injection import screen_answer

_CLAUSE_END = re.compile(r"[，。；：！？\n]")


class LiveAnswer:
    def __init__(self, emit: Callable[[str, dict], None]):
        self._emit = emit
        self.shown = ""        # what the client shows now
        self.drafted = False   # whether any draft was relayed live
        self._sources = ""
        self._pending = ""
        self._stopped = False

    def relay(self, pieces: Iterable[str], *, sources: str = "") -> str:
        """Forward one draft's pieces as they come; returns the draft's full text."""
        if self.shown:
            self._send("replace", "")
        self.drafted, self._sources, self._pending, self._stopped = True, sources, "", False
        parts = []
        for piece in pieces:
            parts.append(piece)
            self._pending += piece
            cut = max((m.end() for m in _CLAUSE_END.finditer(self._pending)), default=0)
            if cut:
                self._flush(self._pending[:cut])
                self._pending = self._pending[cut:]
        self._flush(self._pending)
        self._pending = ""
        return "".join(parts)

    def settle(self, answer: str) -> list[tuple[str, dict]]:
        """The checked answer is final: the events (sent by the caller, after any confirm
        request) that make the client show exactly ``answer``."""
        if not self.drafted:
            event = "token" if answer else None
        else:
            event = "replace" if answer != self.shown else None
        if event is None:
            return []
        self.shown = answer
        return [(event, {"text": answer})]

    def _flush(self, text: str) -> None:
        if not text or self._stopped:
            return
        screened = screen_answer(text, sources=self._sources)
        if screened["sensitive"]:
            self._stopped = True  # the checked answer (blocked) replaces this draft
            return
        self._send("token", screened["answer"])

    def _send(self, event: str, text: str) -> None:
        self.shown = text if event == "replace" else self.shown + text
        self._emit(event, {"text": text})
