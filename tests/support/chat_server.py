"""A small local HTTP server speaking the OpenAI Chat Completions protocol, for testing the
real SDK path (JSON replies, streaming, malformed JSON, 429/5xx, slow replies).

Script it with ``enqueue``: each request takes the next behaviour:
  {"content": "text"}             a normal reply (usage 11 prompt + 5 completion tokens, or
                                  the spec's own {"usage": {"prompt_tokens", "completion_tokens"}})
  {"status": 429} / {"status": 503}  an error status
  {"sleep": 2.0, "content": "…"}  reply after a delay (for timeouts)
  {"stream": ["pie", "ces"]}      an SSE stream
  {"stream": [...], "pause": 0.2} an SSE stream with a pause before each chunk (a model writing)
  {"raw": "not json"}             a body that is not a Chat Completions object

Or give it a ``responder(body) -> spec`` that decides from the request itself (an agent run whose
number of calls depends on its route); queued specs go first.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable


class ChatServer:
    def __init__(self, responder: Callable[[dict], dict] | None = None):
        self.responder = responder
        self.queue: deque[dict] = deque()
        self.requests: list[dict] = []
        self.tokens_sent = 0  # prompt + completion tokens of every usage block replied so far
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _send(self, status: int, body: bytes, ctype: str = "application/json"):
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, json.dumps({"object": "list", "data": [
                        {"id": "test-model", "object": "model", "created": 0, "owned_by": "test"}]}).encode())
                else:
                    self._send(404, b"{}")

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append({"path": self.path, "body": body,
                                        "auth": self.headers.get("Authorization")})
                spec = (server.queue.popleft() if server.queue else
                        server.responder(body) if server.responder else {"status": 500})
                if spec.get("sleep"):
                    time.sleep(spec["sleep"])
                if "status" in spec:
                    self._send(spec["status"], json.dumps({"error": {"message": "scripted", "type": "test"}}).encode())
                    return
                if "raw" in spec:
                    self._send(200, spec["raw"].encode())
                    return
                if "stream" in spec:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    for piece in spec["stream"]:
                        time.sleep(spec.get("pause", 0))
                        chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": body.get("model"),
                                 "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
                        self.wfile.write(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
                        self.wfile.flush()
                    usage = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": body.get("model"),
                             "choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": len(spec["stream"]),
                                                      "total_tokens": 7 + len(spec["stream"])}}
                    server.tokens_sent += usage["usage"]["total_tokens"]
                    self.wfile.write(f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n".encode())
                    self.wfile.flush()
                    return
                usage = {"prompt_tokens": 11, "completion_tokens": 5, **spec.get("usage", {})}
                usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
                server.tokens_sent += usage["total_tokens"]
                reply = {"id": "c1", "object": "chat.completion", "created": 0, "model": body.get("model"),
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": spec.get("content", "")}}],
                         "usage": usage}
                self._send(200, json.dumps(reply, ensure_ascii=False).encode())

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def enqueue(self, *specs: dict) -> "ChatServer":
        self.queue.extend(specs)
        return self

    def __enter__(self) -> "ChatServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
