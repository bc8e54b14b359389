"""The preview, its HTTP server and its folder watcher, started and stopped together:
what ``cardgen serve`` runs, and what the tests and the benchmark start in a thread."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .app import PreviewServer
from .events import EventHub
from .limits import IDLE_S, MAX_CONNECTIONS, MAX_STREAMS
from .state import Preview
from .watcher import FolderWatcher

# After a save of strings, how long the sheets wait for an open page to fetch the changed
# faces' pictures (it takes a few tens of milliseconds; a page showing other switches
# fetches none of them, and its sheets follow this much later)
PAGE_FETCH_S = 0.5


class LivePreview:
    """``cardgen serve`` for one game: bound to 127.0.0.1 (``port`` 0: any free port), serving
    at most ``max_connections`` connections and ``max_streams`` event streams at once and
    closing a connection idle for ``idle_timeout`` seconds."""

    def __init__(self, game: str, *, lang: str | None = None, paper: str = "a4", duplex: str = "long",
                 variants: tuple[str, ...] = (), soft_proof: bool = False,
                 port: int = 0, log: Callable[[str], None] | None = None, force_polling: bool = False,
                 max_connections: int = MAX_CONNECTIONS, max_streams: int = MAX_STREAMS,
                 idle_timeout: float = IDLE_S):
        self.log = log or (lambda line: None)
        self.hub = EventHub(max_streams)
        self.preview = Preview(game, variants, on_change=self._changed)
        self.preview.default = self.preview.default_options(lang, paper, duplex, soft_proof)
        self.server = PreviewServer(self.preview, self.hub, port, max_connections=max_connections,
                                    idle_timeout=idle_timeout)
        self.watcher = FolderWatcher(self.preview.folders, self.preview.refresh, force_polling)
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return self.server.url

    def _changed(self, message: dict[str, Any]) -> None:
        self.hub.publish(message)
        if "faces" in message:  # the cards first: the whole save is said when the sheets follow
            if message["faces"] and self.hub.listeners:
                self.preview.fetches.wait(PAGE_FETCH_S)
            return
        changed = ", ".join(message["changed"][:3]) or "the game"
        errors = self.preview.describe(self.preview.default)["errors"]
        self.log(f"changed: {changed} ({len(errors)} problem(s), shown in the page)" if errors
                 else f"changed: {changed}")

    def start(self, in_thread: bool = False) -> None:
        """Start watching, render the default view (so the first page comes fast), and
        with ``in_thread`` serve from a thread of its own. Watching starts first: a save
        during the first rendering is seen."""
        self.watcher.start()
        self.preview.view(self.preview.default)
        if in_thread:
            self._thread = threading.Thread(target=self.server.serve_forever, name="cardgen-serve", daemon=True)
            self._thread.start()

    def serve_forever(self) -> None:
        self.server.serve_forever()

    def stop(self) -> None:
        """Close the event streams, stop watching and serving."""
        self.hub.close()
        self.watcher.stop()
        if self._thread is not None:
            self.server.shutdown()
            self._thread.join(timeout=5)
        self.server.server_close()
