"""A small local HTTP server speaking the OpenAI Chat Completions protocol, for testing the
real SDK path (JSON replies, streaming, malformed JSON, 429/5xx, slow replies).

Script it with ``enqueue``: each request takes the next behaviour:
  {"content": "text"}             a normal reply
  {"status": 429} / {"status": 503}  an error status
  {"sleep": 2.0, "content": "…"}  reply after a delay (for timeouts)
  {"stream": ["pie", "ces"]}      an SSE stream
  {"raw": "not json"}             a body that is not a Chat Completions object
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ChatServer:
    def __init__(self):
        self.queue: deque[dict] = deque()
        self.requests: list[dict] = []
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
                spec = server.queue.popleft() if server.queue else {"status": 500}
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
                    for i, piece in enumerate(spec["stream"]):
                        chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": body.get("model"),
                                 "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
                        self.wfile.write(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
                        self.wfile.flush()
                    usage = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": body.get("model"),
                             "choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": len(spec["stream"]),
                                                      "total_tokens": 7 + len(spec["stream"])}}
                    self.wfile.write(f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n".encode())
                    self.wfile.flush()
                    return
                reply = {"id": "c1", "object": "chat.completion", "created": 0, "model": body.get("model"),
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": spec.get("content", "")}}],
                         "usage": {"prompt_tokens": 11, "completion_tokens": 5, "total_tokens": 16}}
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
