"""The HTTP side: a standard-library threading server on 127.0.0.1 and its routes.

``http.server`` is enough for one designer's browser on the same machine, needs no
dependency and no event loop, and a thread per connection suits the event streams;
``limits`` caps the connections and streams served at once, and closes idle ones.
A client that goes away, resets or stops reading is no error: nothing is printed.

Routes (anything else is 404):

- ``/``, ``/static/<file>``: the page and its script and style (package data files);
- ``/api/view?lang=&paper=&duplex=&ink_saver=&proof=&soft_proof=``: what the page shows, as JSON;
- ``/api/gamut/<id>``: of a soft-proofed picture drawn, how many pixels the press cannot print;
- ``/events``: server-sent events, one each time the preview changed;
- ``/picture/<id>.png``: a face or sheet page of a live view;
- ``/game/<path>``: a text or image file of the game folder, never a file outside it.
"""

from __future__ import annotations

import json
import queue
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from ..impose.papers import PAPERS_MM
from .events import CLOSED, EventHub, sse
from .limits import IDLE_S, MAX_CONNECTIONS, RETRY_AFTER_S, Refuser, Slots, client_gone, unavailable
from .state import Preview, ViewOptions

HOST = "127.0.0.1"  # never another interface: the preview shows unpublished work and serves its files
STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8"}
GAME_FILE_TYPES = {".yaml": "text/plain; charset=utf-8", ".yml": "text/plain; charset=utf-8",
                   ".j2": "text/plain; charset=utf-8", ".jinja": "text/plain; charset=utf-8",
                   ".txt": "text/plain; charset=utf-8", ".md": "text/plain; charset=utf-8",
                   ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}
MAX_GAME_FILE = 16 * 1024 * 1024
KEEP_ALIVE_S = 15.0  # a comment on an idle event stream this often, so that nothing between closes it
GONE_CHECK_S = 1.0  # how often an idle event stream looks whether its page went away (its slot is then free)
CSP = "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; object-src 'none'"


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True  # open event streams never hold up the stop
    block_on_close = False  # … nor does a browser's idle connection
    allow_reuse_address = True
    request_queue_size = MAX_CONNECTIONS  # connections the system holds until accepted (5 makes a burst wait)

    def __init__(self, preview: Preview, hub: EventHub, port: int = 0, *,
                 max_connections: int = MAX_CONNECTIONS, idle_timeout: float = IDLE_S):
        self.preview = preview
        self.hub = hub
        self.idle_timeout = idle_timeout
        self.slots = Slots(max_connections)
        self.refuser = Refuser(unavailable(f"cardgen serve is answering {max_connections} connections already;"
                                           f" try again in {RETRY_AFTER_S} seconds"))
        super().__init__((HOST, port), Handler)  # (which calls server_close when the port is taken)

    def process_request(self, request, client_address) -> None:
        """A thread for the connection while fewer than the cap are served, else a 503."""
        if not self.slots.take():
            self.refuser.refuse(request)
            return
        try:
            super().process_request(request, client_address)
        except RuntimeError:  # no thread can start: as if over the cap
            self.slots.give_back()
            self.refuser.refuse(request)

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.give_back()

    def server_close(self) -> None:
        super().server_close()
        self.refuser.stop()

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.server_address[1]}/"

    def handle_error(self, request, client_address) -> None:
        """Never a traceback: a client that went away mid-answer, reset the connection or
        stopped reading is nothing to say; anything else (a bug) is one line."""
        exc = sys.exc_info()[1]
        if isinstance(exc, OSError):
            return
        print(f"cardgen serve: a request failed: {type(exc).__name__}: {exc}", file=sys.stderr)


def view_options(preview: Preview, query: dict[str, list[str]]) -> ViewOptions:
    """The switches from a query string; a value the game or cardgen lacks is a ValueError."""
    def one(name: str, default: str) -> str:
        return query.get(name, [default])[-1]

    base = preview.default
    lang, paper, duplex = one("lang", base.lang), one("paper", base.paper), one("duplex", base.duplex)
    if lang not in preview.game.languages:
        raise ValueError(f"no language {lang!r} (the game has: {', '.join(preview.game.languages)})")
    if paper not in PAPERS_MM:
        raise ValueError(f"unknown paper {paper!r} (known: {', '.join(PAPERS_MM)})")
    if duplex not in ("long", "short"):
        raise ValueError(f"duplex is long or short, not {duplex!r}")
    flags = {name: one(name, "1" if getattr(base, name) else "0") for name in ("ink_saver", "proof", "soft_proof")}
    for name, value in flags.items():
        if value not in ("0", "1"):
            raise ValueError(f"{name} is 0 or 1, not {value!r}")
    return ViewOptions(lang, paper, duplex, flags["ink_saver"] == "1", flags["proof"] == "1",
                       flags["soft_proof"] == "1")


def game_file(root: Path, url_path: str) -> Path | None:
    """The file of the game folder ``url_path`` (still %-encoded) names, or None when it
    names anything else: outside the folder (``..``, an absolute path, a link leading
    out), a folder, or a kind of file the page never shows."""
    rel = unquote(url_path)
    if not rel or "\0" in rel or "\\" in rel or rel.startswith("/"):
        return None
    parts = PurePosixPath(rel).parts
    if any(p in ("..", ".") for p in parts) or ":" in parts[0]:
        return None
    try:
        path = (root / Path(*parts)).resolve(strict=True)
        path.relative_to(root)
    except (OSError, ValueError, RuntimeError):
        return None
    if path.suffix.lower() not in GAME_FILE_TYPES or not path.is_file():
        return None
    return path


class Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"
    server_version = "cardgen-serve"

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle_timeout)  # a connection silent this long is closed

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: the terminal shows changes and problems, not every request

    # -- answers ----------------------------------------------------------
    def _send(self, status: int, body: bytes, content_type: str, cache: str = "no-store",
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", CSP)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, value: Any, status: int = 200) -> None:
        self._send(status, json.dumps(value, ensure_ascii=False).encode(), "application/json; charset=utf-8")

    def _not_found(self) -> None:
        self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    # -- routes -----------------------------------------------------------
    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        if host not in (HOST, "localhost"):  # a page of another site reaching here through its own name
            self._send(HTTPStatus.FORBIDDEN, b"forbidden host\n", "text/plain; charset=utf-8")
            return
        url = urlsplit(self.path)
        path = url.path
        if path == "/":
            self._static("index.html")
        elif path.startswith("/static/"):
            self._static(path.removeprefix("/static/"))
        elif path == "/api/view":
            self._view(parse_qs(url.query))
        elif path == "/events":
            self._events()
        elif path.startswith("/api/gamut/"):
            counts = self.server.preview.gamut(path.removeprefix("/api/gamut/"))
            if counts is None:
                self._not_found()
            else:
                self._json({"out_of_gamut": counts[0], "pixels": counts[1]})
        elif path.startswith("/picture/") and path.endswith(".png"):
            png = self.server.preview.picture(path.removeprefix("/picture/").removesuffix(".png"))
            if png is None:
                self._not_found()
            else:  # an id is a hash of what the picture shows: it never changes
                self._send(200, png, "image/png", cache="private, max-age=86400, immutable")
        elif path.startswith("/game/"):
            self._game_file(path.removeprefix("/game/"))
        else:
            self._not_found()

    def _static(self, name: str) -> None:
        if name not in STATIC:
            self._not_found()
            return
        body = resources.files(__package__).joinpath("page", name).read_bytes()
        self._send(200, body, STATIC[name])

    def _view(self, query: dict[str, list[str]]) -> None:
        try:
            options = view_options(self.server.preview, query)
        except ValueError as exc:
            self._json({"error": str(exc)}, HTTPStatus.BAD_REQUEST)
            return
        self._json(self.server.preview.describe(options))

    def _game_file(self, rel: str) -> None:
        path = game_file(self.server.preview.root, rel)
        if path is None:
            self._not_found()
            return
        try:
            with path.open("rb") as f:
                body = f.read(MAX_GAME_FILE + 1)
        except OSError:
            self._not_found()
            return
        if len(body) > MAX_GAME_FILE:
            self._not_found()
            return
        self._send(200, body, GAME_FILE_TYPES[path.suffix.lower()])

    def _events(self) -> None:
        hub = self.server.hub
        q = hub.subscribe() if self.command != "HEAD" else None
        if q is None and self.command != "HEAD":
            self.close_connection = True
            self._send(HTTPStatus.SERVICE_UNAVAILABLE,
                       f"cardgen serve has {hub.limit} event streams open already (one per open page):"
                       f" close a page, or try again in {RETRY_AFTER_S} seconds\n".encode(), "text/plain; charset=utf-8",
                       headers={"Retry-After": str(RETRY_AFTER_S), "Connection": "close"})
            return
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            if q is None:  # HEAD
                return
            self.wfile.write(b"retry: 1000\n\n")
            self.wfile.flush()
            quiet = 0.0
            while True:
                try:
                    message = q.get(timeout=GONE_CHECK_S)
                except queue.Empty:
                    if client_gone(self.connection):  # the page went away: free its slot now
                        break
                    quiet += GONE_CHECK_S
                    if quiet >= KEEP_ALIVE_S:
                        quiet = 0.0
                        self.wfile.write(b": keep-alive\n\n")
                        self.wfile.flush()
                    continue
                if message is CLOSED:
                    break
                quiet = 0.0
                self.wfile.write(sse(message))
                self.wfile.flush()
        except OSError:
            pass  # gone, reset, or not reading for the idle timeout
        finally:
            if q is not None:
                hub.unsubscribe(q)
