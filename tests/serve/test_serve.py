"""``cardgen serve`` without a browser: the routes, the event stream, the jail around
the game folder, redrawing only what changed, and the banner's problems."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import assert_user_error, edit_file
from serving import get, night_sky, open_request, read_head, read_to_end, running, view, wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # an output/ folder made by mistake would show here
    return night_sky(tmp_path)


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _faces(live) -> dict[str, str]:
    return {f["slot"]: f["id"] for f in view(live)["faces"]}


def test_bound_to_loopback_only(game):
    with running(game) as live:
        assert live.server.server_address[0] == "127.0.0.1"
        assert live.server.socket.getsockname()[0] == "127.0.0.1"
        assert live.url.startswith("http://127.0.0.1:")
        # a page of another site reaching this port through its own host name is refused
        assert get(live, "/api/view", {"Host": "attacker.example:80"})[0] == 403
        assert get(live, "/", {"Host": "localhost"})[0] == 200


def test_page_and_its_files_are_served(game):
    with running(game) as live:
        status, headers, body = get(live, "/")
        assert status == 200 and headers["content-type"].startswith("text/html")
        assert b'src="/static/app.js"' in body
        for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
            status, headers, body = get(live, f"/static/{name}")
            assert status == 200 and headers["content-type"].startswith(kind) and len(body) > 500


@pytest.mark.parametrize("path", ["/nope", "/static/", "/static/../state.py", "/static/state.py", "/picture/abc.png",
                                  "/picture/", "/api/viewx", "/api", "/events/x", "/game/"])
def test_unknown_routes_are_404(game, path):
    with running(game) as live:
        assert get(live, path)[0] == 404


def test_view_describes_faces_and_sheet_pages(game):
    with running(game) as live:
        v = view(live)
        assert v["game"] == "Night Sky" and v["langs"] == ["en", "fr"] and v["errors"] == []
        slots = [f["slot"] for f in v["faces"]]
        assert "cards/front/comet" in slots and "cards/back/sun-1" in slots
        back = next(f for f in v["faces"] if f["side"] == "back")
        assert len(back["cards"]) == 19 and back["copies"] == 20  # one back for the whole deck
        comet = next(f for f in v["faces"] if f["slot"] == "cards/front/comet")
        assert comet["copies"] == 2 and "Comet" in comet["text"]
        assert comet["template"].endswith("templates/front.yaml.j2")
        assert comet["template_url"] == "/game/templates/front.yaml.j2"
        assert comet["defined"].startswith(str(Path("night-sky") / "game.yaml") + ":")
        assert comet["data"] == {"id": "comet", "quantity": 2, "rank": 0}
        titles = [s["title"] for s in v["sheets"]]
        assert titles == ["A4 · cards (duplex, long edge)", "A4 · sheets (sheets)"]
        for item in [v["faces"][0], v["sheets"][0]["pages"][0]]:
            status, headers, body = get(live, item["url"])
            assert status == 200 and headers["content-type"] == "image/png" and body[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_switch_values_are_400(game):
    with running(game) as live:
        for query in ("lang=xx", "paper=a9", "duplex=sideways", "proof=yes"):
            status, _, body = get(live, f"/api/view?{query}")
            assert status == 400 and json.loads(body)["error"]


def test_switches_change_the_view(game):
    with running(game) as live:
        en, fr = view(live), view(live, "lang=fr")
        assert "Comet" in next(f["text"] for f in en["faces"] if f["slot"] == "cards/front/comet")
        assert "Comète" in next(f["text"] for f in fr["faces"] if f["slot"] == "cards/front/comet")
        short = view(live, "duplex=short")
        assert short["sheets"][0]["title"] == "A4 · cards (duplex, short edge)"
        assert short["sheets"][0]["pages"][1]["id"] != en["sheets"][0]["pages"][1]["id"]  # the backs move
        letter = view(live, "paper=letter")
        assert letter["sheets"][0]["title"].startswith("Letter ·")
        proof = view(live, "proof=1")
        assert {f["id"] for f in proof["faces"]}.isdisjoint(f["id"] for f in en["faces"])  # drawn with lines
        ink = view(live, "ink_saver=1")
        assert ink["options"]["ink_saver"] is True


def test_game_files_by_url(game, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n", encoding="utf-8")
    (game / "linked.yaml").symlink_to(secret)
    (game / "templates" / "outside").symlink_to(tmp_path, target_is_directory=True)
    with running(game) as live:
        status, headers, body = get(live, "/game/locales/en.yaml")
        assert status == 200 and b"Night Sky" in body and headers["content-type"].startswith("text/plain")
        assert get(live, "/game/templates/front.yaml.j2")[0] == 200
        refused = ["/game/../secret.yaml", "/game/..%2fsecret.yaml", "/game/..%2F..%2Fetc%2Fpasswd",
                   "/game/%2e%2e/secret.yaml", "/game/locales/..%2f..%2fsecret.yaml", "/..%2f..%2fetc%2fpasswd",
                   f"/game/{secret}", f"/game/%2F{str(secret).lstrip('/')}", "/game//etc/passwd",
                   "/game/linked.yaml", "/game/templates/outside/secret.yaml", "/game/locales",
                   "/game/locales/en.yaml%00.png", "/game/..\\secret.yaml", "/etc/passwd"]
        for path in refused:
            status, _, body = get(live, path)
            assert status == 404, path
            assert b"hunter2" not in body and b"root:" not in body


def test_event_stream_tells_of_a_change(game):
    import http.client

    with running(game) as live:
        conn = http.client.HTTPConnection(*live.server.server_address[:2], timeout=60)
        conn.request("GET", "/events")
        response = conn.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
        wait_for(lambda: live.hub.listeners == 1, what="the stream to subscribe")
        edit_file(game / "locales" / "en.yaml", "comet: Comet", "comet: Kometa")
        lines: list[str] = []
        messages: list[dict] = []
        while not messages or messages[-1]["errors"]:  # a save seen half-written is followed by the rest
            lines.append(response.fp.readline().decode().rstrip("\n"))
            if lines[-1].startswith("data: "):
                assert lines[-2] == "event: change"
                messages.append(json.loads(lines[-1][6:]))
        assert [m["version"] for m in messages] == list(range(2, 2 + len(messages)))
        assert any(p.endswith("en.yaml") for m in messages for p in m["changed"])
        conn.close()


def test_a_change_redraws_only_the_changed_face(game):
    with running(game) as live:
        before = _faces(live)
        for pid in before.values():
            assert get(live, f"/picture/{pid}.png")[0] == 200
        drawn = live.preview.face_draws
        assert drawn == len(before)
        for pid in before.values():  # served again, not drawn again
            assert get(live, f"/picture/{pid}.png")[0] == 200
        assert live.preview.face_draws == drawn
        edit_file(game / "locales" / "en.yaml", "comet: Comet", "comet: Kometa")
        # (a save may reach the watcher in two parts: wait for its end, not for any change)
        wait_for(lambda: _faces(live)["cards/front/comet"] != before["cards/front/comet"], what="the change")
        after = _faces(live)
        assert [slot for slot in after if after[slot] != before[slot]] == ["cards/front/comet"]
        for pid in after.values():
            assert get(live, f"/picture/{pid}.png")[0] == 200
        assert live.preview.face_draws == drawn + 1
        assert get(live, f"/picture/{before['cards/front/comet']}.png")[0] == 404  # only the latest are kept


def test_a_broken_save_shows_file_and_line_and_keeps_the_pictures(game):
    with running(game) as live:
        before = view(live)
        locale = game / "locales" / "en.yaml"
        good = locale.read_text(encoding="utf-8")
        lines = good.splitlines()
        n = next(i for i, line in enumerate(lines, start=1) if line.startswith("  comet:"))
        lines[n - 1] = "  comet: [Comet"
        locale.write_text("\n".join(lines) + "\n", encoding="utf-8")
        broken = wait_for(lambda: (v := view(live))["errors"] and v, what="the banner's problem")
        (problem,) = broken["errors"]
        assert problem["file"] == str(Path("night-sky") / "locales" / "en.yaml")
        assert isinstance(problem["line"], int) and problem["line"] >= n
        assert problem["text"].startswith(f"{problem['file']}:{problem['line']}:")
        assert [f["id"] for f in broken["faces"]] == [f["id"] for f in before["faces"]]
        assert get(live, broken["faces"][0]["url"])[0] == 200
        locale.write_text(good.replace("comet: Comet", "comet: Kometa"), encoding="utf-8")
        fixed = wait_for(lambda: not (v := view(live))["errors"] and v["version"] > broken["version"] and v,
                         what="the banner to clear")
        assert "Kometa" in next(f["text"] for f in fixed["faces"] if f["slot"] == "cards/front/comet")


def test_a_template_error_names_its_file_and_line(game):
    with running(game) as live:
        edit_file(game / "templates" / "front.yaml.j2", '{{ t("card.comet")|q }}', '{{ t("card.comet")|nosuch }}')
        broken = wait_for(lambda: view(live)["errors"], what="the template's problem")
        assert any(str(Path("templates") / "front.yaml.j2") in e["text"] and re.search(r"\.j2:\d+", e["text"])
                   for e in broken)
        assert view(live)["faces"]  # the last good faces stay


def test_nothing_is_written_into_the_game_folder_or_output(game, tmp_path):
    before = _files(game)
    with running(game) as live:
        v = view(live)
        for item in [*v["faces"], *(p for s in v["sheets"] for p in s["pages"])]:
            assert get(live, item["url"])[0] == 200
        view(live, "lang=fr&proof=1&ink_saver=1&duplex=short&paper=letter")
    assert _files(game) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night-sky"]


def test_a_board_is_shown_whole(game_copy, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    folder = game_copy("variant_board_game")
    with running(folder) as live:
        (board,) = [f for f in view(live)["faces"] if f["side"] == "board"]
        assert board["cards"] == [] and board["copies"] == 1 and board["data"] is None
        assert board["size"] == [300, 320] and board["template"].endswith("board.yaml.j2")
        status, _, png = get(live, board["url"])
        assert status == 200 and png[:4] == b"\x89PNG"
        from PIL import Image

        with Image.open(__import__("io").BytesIO(png)) as img:
            assert max(img.size) <= 1600 and img.size[1] > img.size[0]  # scaled down, upright as the board


def _serve(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.Popen([sys.executable, "-m", "cardgen", "serve", *args], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _address(proc: subprocess.Popen) -> str:
    line = proc.stdout.readline()
    match = re.fullmatch(r"Serving night-sky at (http://127\.0\.0\.1:(\d+)/) \(Ctrl-C to stop\)\n", line)
    assert match, (line, proc.stderr.read() if proc.poll() is not None else "")
    return match.group(1)


def _fetch(url: str) -> dict:
    import urllib.request

    with urllib.request.urlopen(url, timeout=60) as response:
        return json.loads(response.read())


def _stop(proc: subprocess.Popen, how: int = signal.SIGINT) -> tuple[str, str]:
    try:
        proc.send_signal(how)
        return proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "terminate"])
def test_command_prints_its_address_and_stops_cleanly(game, tmp_path, stop):
    proc = _serve(str(game), "--port", "0", cwd=tmp_path)
    url = _address(proc)
    assert _fetch(url + "api/view")["game"] == "Night Sky"
    out, err = _stop(proc, stop)
    assert proc.returncode == 0, err
    assert err.strip().splitlines() == ["stopped serving"], err


def test_command_starts_on_the_saved_paper_and_duplex(game, tmp_path):
    settings = tmp_path / "settings.cfg"
    settings.write_text("paper = letter\nduplex = short\n", encoding="utf-8")
    proc = _serve(str(game), "--port", "0", "--lang", "fr", cwd=tmp_path, env={"CARDGEN_CONFIG": str(settings)})
    options = _fetch(_address(proc) + "api/view")["options"]
    _stop(proc)
    assert options == {"lang": "fr", "paper": "letter", "duplex": "short", "ink_saver": False, "proof": False,
                       "soft_proof": False}


def test_command_on_a_port_in_use_is_one_error(cli, game):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        lines = assert_user_error(cli("serve", str(game), "--port", port))
    assert lines == [f"cannot listen on 127.0.0.1:{port}: Address already in use"]


def test_command_usage_and_user_errors(cli, game, tmp_path):
    result = cli("serve", str(game), "--lang", "xx")
    assert result.exit_code == 2 and "has no language xx" in result.stderr
    assert cli("serve", str(game), "--paper", "a9").exit_code == 2
    edit_file(game / "game.yaml", "id: night-sky", "id: [night-sky")
    lines = assert_user_error(cli("serve", str(game)))
    assert len(lines) == 1 and lines[0].startswith(str(Path("night-sky") / "game.yaml") + ":")
    assert not (tmp_path / "output").exists()


def _fresh_keys(folder: Path, lang: str = "en") -> dict[str, list[str]]:
    """Every face key of ``lang``, rendered from scratch."""
    from cardgen.base.errors import Collector
    from cardgen.load.game import load_game
    from cardgen.pipeline import BuildOptions, KitBuilder

    kit = KitBuilder(load_game(folder), BuildOptions(langs=(lang,), papers=("a4",))).render_lang(lang, Collector())
    return _keys(kit)


def _keys(kit) -> dict[str, list[str]]:
    return {"fronts": [f.key for _, f in sorted(kit.fronts.items())], "backs": [f.key for _, f in sorted(kit.backs.items())],
            "sheets": [f.key for _, fs in sorted(kit.sheets.items()) for f in fs],
            "headers": [f.key for _, fs in sorted(kit.headers.items()) for f in fs]}


@pytest.fixture
def render_calls(monkeypatch):
    """How many faces the template renderer rendered, by label."""
    from cardgen.render.sandbox import TemplateRenderer

    calls: list[str] = []
    real = TemplateRenderer.render_text

    def counting(self, name, context, label):
        calls.append(label)
        return real(self, name, context, label)

    monkeypatch.setattr(TemplateRenderer, "render_text", counting)
    return calls


def test_a_locale_edit_renders_only_the_faces_reading_that_string(game, render_calls):
    from cardgen.serve.state import Preview

    preview = Preview(str(game))
    preview.view(preview.default)
    assert len(render_calls) > 20
    render_calls.clear()
    edit_file(game / "locales" / "en.yaml", "comet: Comet", "comet: Kometa")
    preview.refresh()
    assert render_calls == ["cards/comet front [en]"]
    content = preview.view(preview.default).content
    assert _keys(content.kit) == _fresh_keys(game)
    render_calls.clear()
    edit_file(game / "templates" / "back.yaml.j2", "- ", "-  ")  # any other file: every face again
    preview.refresh()
    assert len(render_calls) > 20


def test_reused_renderings_match_a_fresh_render(hapy_copy, render_calls):
    from cardgen.serve.state import Preview

    preview = Preview(str(hapy_copy))
    preview.view(preview.default)
    locale = hapy_copy / "locales" / "en.yaml"
    for old, new in (("animal: Jackal,", "animal: Wild dog,"), ("name: Hâpy Families", "name: Hâpy"),
                     ("god_up: God side up", "god_up: Gods up")):
        render_calls.clear()
        edit_file(locale, old, new)
        preview.refresh()
        assert render_calls  # the faces that read it
        assert _keys(preview.view(preview.default).content.kit) == _fresh_keys(hapy_copy)
    assert len(render_calls) > 40  # the game's name is read by every face


def _heard(preview, render_calls):
    """What each message of ``preview`` said, with the faces drawn and the renderings done by then."""
    heard: list[tuple[dict, int, list[str]]] = []
    preview.on_change = lambda message: heard.append((message, preview.face_draws, list(render_calls)))
    return heard


def test_a_locale_edit_pushes_the_changed_face_drawn_before_the_sheets_are_rendered(hapy_copy, render_calls):
    from cardgen.serve.state import Preview

    preview = Preview(str(hapy_copy))
    shown = preview.describe(preview.default)
    for face in shown["faces"]:
        preview.picture(face["id"])
    drawn = preview.face_draws
    heard = _heard(preview, render_calls)
    render_calls.clear()
    edit_file(hapy_copy / "locales" / "en.yaml", "name: Hâpy Families", "name: Hâpy")  # every face and sheet
    preview.refresh()
    first, draws_then, rendered_then = heard[0]
    after = preview.describe(preview.default)
    new_ids = [f["id"] for f in after["faces"] if f["id"] not in {g["id"] for g in shown["faces"]}]
    assert new_ids and sorted(first["faces"]) == sorted(new_ids)  # the ids pushed: the faces that changed
    assert draws_then == drawn + len(new_ids)  # drawn before the page is told
    assert rendered_then and not [label for label in rendered_then if " on a4 " in label]  # no sheet yet
    last = heard[-1][0]
    assert last["version"] == first["version"] + 1 and not last["errors"]
    assert [label for label in render_calls if " on a4 " in label]  # then the sheets, which print the name
    assert _keys(preview.view(preview.default).content.kit) == _fresh_keys(hapy_copy)


def test_a_one_face_edit_draws_one_face_and_pushes_its_id(game, render_calls):
    from cardgen.serve.state import Preview

    preview = Preview(str(game))
    shown = {f["slot"]: f["id"] for f in preview.describe(preview.default)["faces"]}
    for pid in shown.values():
        preview.picture(pid)
    drawn, pages = preview.face_draws, preview.page_draws
    heard = _heard(preview, render_calls)
    render_calls.clear()
    edit_file(game / "locales" / "en.yaml", "comet: Comet", "comet: Kometa")
    preview.refresh()
    now = {f["slot"]: f["id"] for f in preview.describe(preview.default)["faces"]}
    assert heard[0][0]["faces"] == [now["cards/front/comet"]] != [shown["cards/front/comet"]]
    assert preview.face_draws == drawn + 1 and preview.page_draws == pages
    assert render_calls == ["cards/comet front [en]"]


# -- caps: connections and event streams served at once, idle connections closed, quiet --
MAX_CONNECTIONS, MAX_STREAMS = 64, 16  # the defaults docs/design/serve.md gives


@contextmanager
def _sockets():
    """A list for raw sockets, each closed at the end even when a check fails (the server
    would otherwise keep serving them)."""
    opened: list = []
    try:
        yield opened
    finally:
        for sock in opened:
            sock.close()


def _stream_opens(port: int) -> bool:
    """Whether a new event stream is answered 200 now (it is closed again at once)."""
    sock = open_request(port, "/events")
    try:
        return read_head(sock).startswith(b"HTTP/1.1 200")
    finally:
        sock.close()


def _answered(sock) -> bytes:
    """The head of the answer on ``sock``, its body read (the connection stays open)."""
    head = read_head(sock)
    length = int(re.search(rb"\r\nContent-Length: (\d+)\r\n", head).group(1))
    body = b""
    while len(body) < length:
        body += sock.recv(length - len(body))
    return head


def _page_served(live) -> bool:
    return get(live, "/")[0] == 200


def test_event_streams_beyond_the_cap_are_refused_and_the_server_carries_on(game, tmp_path):
    """The command as a designer runs it: MAX_STREAMS pages open, the next is told 503."""
    proc = _serve(str(game), "--port", "0", cwd=tmp_path)
    try:
        url = _address(proc)
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        with _sockets() as streams:
            for _ in range(MAX_STREAMS):
                streams.append(open_request(port, "/events"))
                head = read_head(streams[-1])
                assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head, head
            streams.append(open_request(port, "/events"))
            answer = read_to_end(streams[-1]).decode()
            assert answer.startswith("HTTP/1.1 503"), answer
            assert "\r\nRetry-After: 5\r\n" in answer and answer.endswith(
                f"cardgen serve has {MAX_STREAMS} event streams open already (one per open page): close a page, or"
                " try again in 5 seconds\n"), answer
            assert _fetch(url + "api/view")["game"] == "Night Sky"  # pages and pictures are still served
        wait_for(lambda: _stream_opens(port), timeout=60, what="a stream slot to come free")
        assert _fetch(url + "api/view")["game"] == "Night Sky"
    finally:
        out, err = _stop(proc)
    assert "Traceback" not in out + err
    assert err.strip().splitlines() == ["stopped serving"], err


def test_connections_beyond_the_cap_are_refused_and_the_server_carries_on(game, capfd):
    with running(game) as live:
        port = live.server.server_address[1]
        with _sockets() as kept:
            for _ in range(MAX_CONNECTIONS):  # each answered once and kept open for its next request
                kept.append(open_request(port, "/static/style.css"))
                assert _answered(kept[-1]).startswith(b"HTTP/1.1 200")
            kept.append(open_request(port, "/"))
            answer = read_to_end(kept[-1]).decode()
            assert answer.startswith("HTTP/1.1 503"), answer
            assert "\r\nRetry-After: 5\r\n" in answer and "Connection: close" in answer
            assert answer.endswith(f"cardgen serve is answering {MAX_CONNECTIONS} connections already; try again"
                                   " in 5 seconds\n"), answer
        wait_for(lambda: _page_served(live), timeout=60, what="a page served again")
    assert "Traceback" not in capfd.readouterr().err


def test_an_idle_connection_is_closed(game):
    import socket

    with running(game, idle_timeout=0.2) as live, _sockets() as opened:
        port = live.server.server_address[1]
        opened.append(socket.create_connection(("127.0.0.1", port), timeout=60))
        assert opened[-1].recv(1) == b""  # closed by the server, having sent nothing
        opened.append(open_request(port, "/static/style.css"))  # HTTP/1.1: kept open for the next request…
        assert _answered(opened[-1]).startswith(b"HTTP/1.1 200")
        assert opened[-1].recv(1) == b""  # … until it stays idle


def test_clients_that_go_away_are_no_error(game, capfd):
    """Resets and closes mid-answer, on pictures and event streams: nothing printed, slots freed."""
    import socket
    import struct

    def reset(sock) -> None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()

    with running(game) as live:
        port = live.server.server_address[1]
        picture = view(live)["sheets"][0]["pages"][0]["url"]
        for end in (reset, socket.socket.close):
            with _sockets() as stream:
                stream.append(open_request(port, "/events"))
                assert read_head(stream[0]).startswith(b"HTTP/1.1 200")
                wait_for(lambda: live.hub.listeners == 1, what="the stream to subscribe")
                end(stream[0])
            wait_for(lambda: live.hub.listeners == 0, timeout=60, what="the stream to end")
            for _ in range(3):
                end(open_request(port, picture))
        assert get(live, picture)[0] == 200
    assert "Traceback" not in capfd.readouterr().err


def test_the_soft_proof_switch_shows_faces_as_the_press_prints_them(game):
    """With soft_proof=1 every face is a picture of its own, drawn through the print-shop
    CMYK profile and back: its pixels differ from the screen picture's, and /api/gamut says
    how many of them the press cannot print (hatched); a plain picture has no such count."""
    import io

    from PIL import Image, ImageChops

    with running(game) as live:
        plain, soft = view(live), view(live, "soft_proof=1")
        assert soft["options"]["soft_proof"] is True and plain["options"]["soft_proof"] is False
        assert {f["id"] for f in soft["faces"]}.isdisjoint(f["id"] for f in plain["faces"])
        face = next(f for f in soft["faces"] if f["slot"] == "cards/front/comet")
        twin = next(f for f in plain["faces"] if f["slot"] == "cards/front/comet")
        assert get(live, f"/api/gamut/{face['id']}")[0] == 404  # not drawn yet
        pictures = []
        for item in (face, twin):
            status, _, body = get(live, item["url"])
            assert status == 200
            pictures.append(Image.open(io.BytesIO(body)).convert("RGB"))
        assert pictures[0].size == pictures[1].size
        assert ImageChops.difference(*pictures).getbbox() is not None  # the proof changed colours
        status, _, body = get(live, f"/api/gamut/{face['id']}")
        counts = json.loads(body)
        assert status == 200 and 0 <= counts["out_of_gamut"] < counts["pixels"]
        assert counts["pixels"] == pictures[0].size[0] * pictures[0].size[1]
        assert get(live, f"/api/gamut/{twin['id']}")[0] == 404  # the screen picture is not proofed
        for query in ("soft_proof=2", "soft_proof=yes"):
            assert get(live, f"/api/view?{query}")[0] == 400


def test_the_command_can_start_with_the_soft_proof_on(game, tmp_path):
    proc = _serve(str(game), "--port", "0", "--soft-proof", cwd=tmp_path)
    try:
        address = _address(proc)
        assert _fetch(address + "api/view")["options"]["soft_proof"] is True
    finally:
        _stop(proc)
