"""Caps on what the preview server holds open, and the short 503 beyond them.

The server gives each connection a thread of its own, and an open page keeps one
connection for its event stream. Without a cap, a few hundred streams (tabs left
open, a script) would take a thread each until starting one fails. So at most
``MAX_CONNECTIONS`` connections are served at once, ``MAX_STREAMS`` of them event
streams; a connection beyond the cap gets ``503 Service Unavailable`` with a
``Retry-After`` from one thread of its own (:class:`Refuser`), which answers such
connections one after the other; a connection that sends nothing for ``IDLE_S``
seconds is closed.
"""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
import time

MAX_CONNECTIONS = 64  # served at once, event streams included
MAX_STREAMS = 16  # event streams open at once: a page each
IDLE_S = 30.0  # a connection silent (or not reading) this long is closed
RETRY_AFTER_S = 5  # what a refused client is told to wait
REFUSE_READ_S = 2.0  # how long the refuser waits for a refused request's head
MAX_WAITING = 64  # refused connections waiting for their 503; beyond, closed at once
MAX_HEAD = 16 * 1024  # bytes of a refused request read before the answer


def unavailable(body: str) -> bytes:
    """A whole ``503`` answer saying ``body`` (one line), which closes the connection."""
    data = (body.rstrip("\n") + "\n").encode()
    head = ("HTTP/1.1 503 Service Unavailable\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(data)}\r\n"
            f"Retry-After: {RETRY_AFTER_S}\r\n"
            "Cache-Control: no-store\r\n"
            "Connection: close\r\n\r\n")
    return head.encode() + data


class Slots:
    """The connections being served: taken when one is accepted, given back when it ends."""

    def __init__(self, limit: int):
        self.limit = limit
        self._lock = threading.Lock()
        self._taken = 0

    def take(self) -> bool:
        """One slot, if any is free."""
        with self._lock:
            if self._taken >= self.limit:
                return False
            self._taken += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self._taken -= 1

    @property
    def taken(self) -> int:
        with self._lock:
            return self._taken


class Refuser:
    """One thread that answers ``503`` to the connections beyond the cap: it reads the
    request's head first (closing a socket with unread data would reset the connection
    before the client reads the answer), then answers and closes."""

    def __init__(self, answer: bytes):
        self.answer = answer
        self._queue: queue.Queue[socket.socket | None] = queue.Queue(maxsize=MAX_WAITING)
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="cardgen-serve-refuser", daemon=True)
        self._thread.start()

    def refuse(self, sock: socket.socket) -> None:
        """Answer ``sock`` with the 503 soon (closed at once when too many wait)."""
        try:
            self._queue.put_nowait(sock)
        except queue.Full:
            close_quietly(sock)

    def stop(self) -> None:
        self._stopped = True
        with contextlib.suppress(queue.Full):
            self._queue.put_nowait(None)

    def _run(self) -> None:
        while True:
            sock = self._queue.get()
            if sock is None or self._stopped:
                if sock is not None:
                    close_quietly(sock)
                if self._stopped:
                    return
                continue
            try:
                _read_head(sock, time.monotonic() + REFUSE_READ_S)
                sock.sendall(self.answer)
                sock.shutdown(socket.SHUT_WR)
                _read_head(sock, time.monotonic() + REFUSE_READ_S, until_end=True)  # the client closes first
            except OSError:
                pass  # gone, reset or silent: nothing to tell
            finally:
                close_quietly(sock)


def _read_head(sock: socket.socket, deadline: float, until_end: bool = False) -> None:
    """Read what the client sends until the end of a request's head (or of the
    connection, ``until_end``), at most MAX_HEAD bytes and until ``deadline``."""
    seen = b""
    while len(seen) < MAX_HEAD:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        sock.settimeout(left)
        chunk = sock.recv(4096)
        if not chunk:
            return
        seen += chunk
        if not until_end and b"\r\n\r\n" in seen:
            return


def close_quietly(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.close()


def client_gone(sock: socket.socket) -> bool:
    """Whether the client of ``sock`` closed or reset its end (seen without waiting and
    without taking anything it sent)."""
    import select

    try:
        readable, _, _ = select.select([sock], [], [], 0)
        return bool(readable) and not sock.recv(1, socket.MSG_PEEK)
    except (OSError, ValueError):  # reset, or closed here
        return True
