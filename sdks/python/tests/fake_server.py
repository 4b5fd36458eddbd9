"""A scripted HTTP server on 127.0.0.1 for the client's unit tests: it answers what the test queues and records
every request it got (method, path, headers, body), so a test can check what the SDK sent and how it reacted.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

Answer = Tuple[int, Dict[str, str], bytes]


def answer(status: int, body: Any = None, headers: Optional[Dict[str, str]] = None, raw: Optional[bytes] = None,
           content_type: str = "application/json") -> Answer:
    """One queued answer: ``body`` is sent as JSON (``raw`` as given)."""
    data = raw if raw is not None else (b"" if body is None else json.dumps(body).encode("utf-8"))
    sent = {"Content-Type": content_type, "X-Request-Id": f"req_fake{status}"}
    sent.update(headers or {})
    return status, sent, data


def problem(status: int, code: str, detail: str = "detail", headers: Optional[Dict[str, str]] = None,
            **extra: Any) -> Answer:
    body = {"type": f"https://onair.dev/errors/{code}", "title": code.title(), "status": status, "code": code,
            "detail": detail}
    body.update(extra)
    return answer(status, body, headers, content_type="application/problem+json")


class Recorded:
    def __init__(self, method: str, path: str, headers: Dict[str, str], body: bytes) -> None:
        self.method = method
        self.path = path
        self.headers = headers  # lower-cased names
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


class FakeServer:
    """``with FakeServer() as fake: fake.queue(answer(200, {...})); ...; fake.requests``."""

    def __init__(self) -> None:
        self.answers: List[Union[Answer, Callable[["Recorded"], Answer]]] = []
        self.requests: List[Recorded] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def handle_one(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                recorded = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                with fake.lock:
                    fake.requests.append(recorded)
                    scripted = fake.answers.pop(0) if fake.answers else answer(500, raw=b"no answer queued")
                status, headers, data = scripted(recorded) if callable(scripted) else scripted
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_one

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that gave up (the timeout test) is expected, not news

        self.server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def queue(self, *answers: Union[Answer, Callable[[Recorded], Answer]]) -> None:
        with self.lock:
            self.answers.extend(answers)

    def __enter__(self) -> "FakeServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)
