"""A scripted HTTP server on 127.0.0.1 in a thread (http.server): each request gets the next scripted answer and is
recorded, so the unit tests exercise the real urllib transport."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple

Answer = Tuple[int, Dict[str, str], Any]


class FakeServer:
    def __init__(self) -> None:
        self.answers: List[Answer] = []
        self.requests: List[Dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                fake.requests.append({"method": self.command, "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                                      "body": json.loads(raw) if raw else None})
                status, headers, body = fake.answers.pop(0) if fake.answers else (200, {}, {"data": None, "request_id": "r", "timestamp": "t"})
                data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
                self.send_response(status)
                for k, v in {"content-type": "application/json", **headers}.items():
                    self.send_header(k, v)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = do_PATCH = do_PUT = _handle

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def answer(self, status: int, body: Any = None, headers: Optional[Dict[str, str]] = None) -> "FakeServer":
        self.answers.append((status, headers or {}, body))
        return self

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def envelope(data: Any) -> Dict[str, Any]:
    return {"data": data, "request_id": "req_1", "timestamp": "2026-01-01T00:00:00Z"}
