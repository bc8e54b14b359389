"""Server-sent events: every open page gets a message when the preview changed.

Each page's event stream waits on its own queue; ``publish`` puts the message on all
of them, and ``close`` wakes every stream so the server can stop at once.
"""

from __future__ import annotations

import json
import queue
import threading
from typing import Any

CLOSED = object()  # put on a queue when the hub closes: the stream ends


class EventHub:
    """The open event streams (at most ``limit``) and the last message, which a new
    stream gets first."""

    def __init__(self, limit: int | None = None) -> None:
        self._lock = threading.Lock()
        self._queues: set[queue.Queue] = set()
        self._last: dict[str, Any] | None = None
        self.closed = False
        self.limit = limit

    def subscribe(self) -> queue.Queue | None:
        """A new stream's queue; None when ``limit`` streams are open already."""
        q: queue.Queue = queue.Queue()
        with self._lock:
            if self.limit is not None and len(self._queues) >= self.limit and not self.closed:
                return None
            if self.closed:
                q.put(CLOSED)
            elif self._last is not None:
                q.put(self._last)
            self._queues.add(q)
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            self._queues.discard(q)

    def publish(self, message: dict[str, Any]) -> None:
        with self._lock:
            self._last = message
            for q in self._queues:
                q.put(message)

    def close(self) -> None:
        with self._lock:
            self.closed = True
            for q in self._queues:
                q.put(CLOSED)

    @property
    def listeners(self) -> int:
        with self._lock:
            return len(self._queues)


def sse(message: dict[str, Any]) -> bytes:
    """One server-sent event carrying ``message`` as JSON (one ``data:`` line)."""
    return f"event: change\ndata: {json.dumps(message, ensure_ascii=False)}\n\n".encode()
