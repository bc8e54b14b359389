"""``cardgen serve`` after a save: a save of locale strings alone reads only the locale
files again (not game.yaml, the data and the components), any other save loads the
whole game as before, a broken string is reported as a whole load reports it, and the
sheets are rendered once the page has fetched the changed faces' pictures."""

from __future__ import annotations

import http.client
import json
from pathlib import Path

import pytest
from conftest import edit_file
from serving import get, night_sky, running, wait_for


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return night_sky(tmp_path)


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each whole load of a game by the preview, from now on."""
    import cardgen.serve.state as state

    calls: list[str] = []
    real = state.load_game

    def counting(game, *args, **kwargs):
        calls.append(str(game))
        return real(game, *args, **kwargs)

    monkeypatch.setattr(state, "load_game", counting)
    return calls


def _preview(game: Path):
    from cardgen.serve.state import Preview

    preview = Preview(str(game))
    preview.view(preview.default)
    return preview


def _strings(game) -> tuple[dict, dict, dict]:
    return ({lang: dict(table) for lang, table in game.strings.items()}, dict(game.unfinished), dict(game.fallbacks))


def _face_text(preview, slot: str) -> str:
    return next(f["text"] for f in preview.describe(preview.default)["faces"] if f["slot"] == slot)


def test_a_locale_save_reads_the_strings_again_not_the_whole_game(game, loads):
    from cardgen.load.game import load_game

    preview = _preview(game)
    loads.clear()  # the preview's own first load
    components = preview.game.components
    en, fr = game / "locales" / "en.yaml", game / "locales" / "fr.yaml"
    edit_file(en, "comet: Comet", "comet: Kometa")
    message = preview.refresh([en])
    assert loads == [] and message["errors"] == []
    assert "Kometa" in _face_text(preview, "cards/front/comet")
    assert preview.game.components is components  # the game's other parts as they were loaded
    assert _strings(preview.game) == _strings(load_game(game))
    # a translation left unfinished: the same strings, and the same list of what it lacks, as a whole load
    edit_file(fr, "  comet: Comète\n", "")
    assert preview.refresh([fr])["errors"] == [] and loads == []
    assert preview.game.unfinished["fr"] == ("card.comet",)
    assert _strings(preview.game) == _strings(load_game(game))


def test_any_other_save_still_loads_the_whole_game(game, loads):
    preview = _preview(game)
    loads.clear()  # the preview's own first load
    en, template = game / "locales" / "en.yaml", game / "templates" / "front.yaml.j2"
    original = template.read_text(encoding="utf-8")
    ids = {f["id"] for f in preview.describe(preview.default)["faces"]}
    edit_file(game / "game.yaml", 'gold: "#f0c94a"', 'gold: "#f0c94b"')
    assert preview.refresh([game / "game.yaml"])["errors"] == []
    assert len(loads) == 1
    assert not ids & {f["id"] for f in preview.describe(preview.default)["faces"]}  # drawn in the new palette
    template.write_text(original + "{# saved #}\n", encoding="utf-8")
    edit_file(en, "comet: Comet", "comet: Kometa")
    preview.refresh([en, template])  # strings and a template saved together
    assert len(loads) == 2
    template.write_text(original, encoding="utf-8")
    edit_file(en, "comet: Kometa", "comet: Comet")
    preview.refresh([en])  # a template saved too but not named (seen in another batch): its file says so
    assert len(loads) == 3
    edit_file(en, "comet: Comet", "comet: Kometa")
    preview.refresh()  # nothing said of what was saved
    assert len(loads) == 4
    assert "Kometa" in _face_text(preview, "cards/front/comet")


@pytest.mark.parametrize("old, new", [("  name: Night Sky\n", ""),  # the game's name: a string game.yaml names
                                      ("comet: Comet", "comet: [Comet"),  # not YAML
                                      ("comet: Comet", "comet: [1, 2]")])  # a list where a string is
def test_a_broken_locale_save_is_reported_as_a_whole_load_reports_it(game, loads, old, new):
    from cardgen.base.errors import CardgenError
    from cardgen.load.game import load_game
    from cardgen.serve.state import _flat, error_record

    preview = _preview(game)
    loads.clear()  # the preview's own first load
    en = game / "locales" / "en.yaml"
    good = en.read_text(encoding="utf-8")
    edit_file(en, old, new)
    message = preview.refresh([en])
    with pytest.raises(CardgenError) as raised:
        load_game(game)
    assert message["errors"] == [error_record(e) for e in _flat(raised.value)] != []
    assert preview.describe(preview.default)["faces"]  # the last good pictures stay
    en.write_text(good.replace("comet: Comet", "comet: Kometa"), encoding="utf-8")  # mended
    assert preview.refresh([en])["errors"] == []
    assert "Kometa" in _face_text(preview, "cards/front/comet")


def test_a_save_works_out_the_picture_ids_of_new_faces_only(game, monkeypatch):
    import cardgen.serve.state as state

    preview = _preview(game)
    before = {f["slot"]: f["id"] for f in preview.describe(preview.default)["faces"]}
    digested: list[str] = []
    real = state._digest

    def counting(*parts):
        if parts[0] in ("face", "board"):
            digested.append(parts[0])
        return real(*parts)

    monkeypatch.setattr(state, "_digest", counting)
    edit_file(game / "locales" / "en.yaml", "comet: Comet", "comet: Kometa")
    preview.refresh([game / "locales" / "en.yaml"])
    after = {f["slot"]: f["id"] for f in preview.describe(preview.default)["faces"]}
    assert [slot for slot in after if after[slot] != before[slot]] == ["cards/front/comet"]
    assert digested == ["face"]  # the comet's new face; every other id as worked out before


def test_the_sheets_wait_for_the_page_to_fetch_the_changed_faces(game, monkeypatch):
    import cardgen.serve.live as live_module
    from cardgen.serve.state import Preview

    monkeypatch.setattr(live_module, "PAGE_FETCH_S", 600.0, raising=False)  # only the page's fetch ends the wait
    log: list[str] = []
    real_render = Preview._render

    def rendering(self, view):
        log.append("sheets rendered")
        return real_render(self, view)

    monkeypatch.setattr(Preview, "_render", rendering)
    with running(game) as live:
        conn = http.client.HTTPConnection(*live.server.server_address[:2], timeout=60)
        conn.request("GET", "/events")
        stream = conn.getresponse()
        wait_for(lambda: live.hub.listeners == 1, what="the stream to subscribe")
        log.clear()
        edit_file(game / "locales" / "en.yaml", "comet: Comet", "comet: Kometa")
        messages: list[dict] = []
        while not messages or not messages[-1].get("faces"):  # a save seen half-written comes first
            line = stream.fp.readline().decode()
            if line.startswith("data: "):
                messages.append(json.loads(line[6:]))
        pushed = messages[-1]["faces"]
        log.append("pictures asked for")
        for pid in pushed:
            assert get(live, f"/picture/{pid}.png")[0] == 200
        while "faces" in messages[-1]:
            line = stream.fp.readline().decode()
            if line.startswith("data: "):
                messages.append(json.loads(line[6:]))
        conn.close()
    assert log[:2] == ["pictures asked for", "sheets rendered"]  # not before the page asked
    assert messages[-1]["version"] == messages[-2]["version"] + 1 and messages[-1]["errors"] == []
