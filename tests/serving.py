"""Helpers for the tests of ``cardgen serve``: a copy of the first-game example, a
preview server running in a thread on it, plain HTTP requests that keep the path as
written, and waiting for something with a generous timeout."""

from __future__ import annotations

import http.client
import json
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "first-game"


def night_sky(parent: Path) -> Path:
    """An editable copy of the first-game example (Night Sky: 20 cards, one comet face)."""
    return Path(shutil.copytree(EXAMPLE, parent / "night-sky"))


@contextmanager
def running(game: Path | str, **kwargs: Any) -> Iterator[Any]:
    """A LivePreview of ``game`` serving from a thread on a free port of 127.0.0.1."""
    from cardgen.serve import LivePreview

    live = LivePreview(str(game), **kwargs)
    live.start(in_thread=True)
    try:
        yield live
    finally:
        live.stop()


def get(live: Any, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` exactly as written (no normalising of ``..`` or ``%2f``)."""
    host, port = live.server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=60)
    try:
        conn.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", (headers or {}).get("Host", f"127.0.0.1:{port}"))
        conn.endheaders()
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def view(live: Any, query: str = "") -> dict[str, Any]:
    status, _, body = get(live, "/api/view" + (f"?{query}" if query else ""))
    assert status == 200, body
    return json.loads(body)


def wait_for(check: Callable[[], Any], timeout: float = 30.0, what: str = "the condition") -> Any:
    """``check()``'s first true value, asked every 50 ms; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def open_request(port: int, path: str, timeout: float = 60.0) -> Any:
    """A raw socket that sent ``GET path`` to 127.0.0.1:``port`` (and is left open)."""
    import socket

    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return sock


def read_head(sock: Any) -> bytes:
    """The answer's status line and headers, read off a raw socket (what follows stays unread)."""
    head = b""
    while b"\r\n\r\n" not in head:
        byte = sock.recv(1)
        if not byte:
            break
        head += byte
    return head


def read_to_end(sock: Any, timeout: float = 60.0) -> bytes:
    """Everything the server sends until it closes the connection; fails after ``timeout``
    seconds (a server that keeps talking, e.g. an event stream, never closes it)."""
    deadline = time.monotonic() + timeout
    data = b""
    while time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    raise AssertionError(f"the server did not close the connection; it sent {data[:200]!r}")
