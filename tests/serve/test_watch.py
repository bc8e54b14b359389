"""`cardgen build --watch`: the polling loop in cardgen.cli.watch, driven with a real build.

Each test edits a copy of a small game from a helper thread while ``watch`` polls every
50 ms; a guard timer sets the stop event so that no test can hang, and ``max_rebuilds``
ends the loop as soon as the expected rebuilds happened.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pypdf
import pytest

from cardgen.cli.build import _build_once
from cardgen.cli.watch import WATCHED_SUFFIXES, snapshot, watch
from cardgen.load.game import load_game
from cardgen.pipeline import BuildOptions, build_game

GUARD_SECONDS = 120.0  # only against a hang: the tests end when their edits are seen
CARDS = "mini-en-a4-cards.pdf"


def write(path: Path, text: str) -> None:
    """Write a file and make sure its modification time moves forward (coarse clocks)."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, encoding="utf-8")
    if path.stat().st_mtime_ns <= before:
        os.utime(path, ns=(before + 1_000_000, before + 1_000_000))


def pdf_text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text() or "" for p in pypdf.PdfReader(path).pages).split())


def run_watch(folder: Path, rebuild: Callable[[list[Path]], None], edits: Callable[[], None],
              max_rebuilds: int) -> int:
    """Run ``watch`` on ``folder`` while ``edits`` runs in a thread; never longer than the guard."""
    stop = threading.Event()
    guard_fired = threading.Event()
    guard = threading.Timer(GUARD_SECONDS, lambda: (guard_fired.set(), stop.set()))
    errors: list[BaseException] = []

    def editor() -> None:
        try:
            edits()
        except BaseException as exc:  # reported by the test, not lost in the thread
            errors.append(exc)
            stop.set()

    thread = threading.Thread(target=editor, daemon=True)
    guard.start()
    try:
        thread.start()
        n = watch(lambda: [folder], rebuild, interval=0.05, stop=stop, max_rebuilds=max_rebuilds)
    finally:
        guard.cancel()
        stop.set()
        thread.join(timeout=5)
    assert not errors, errors
    assert not guard_fired.is_set(), "the watch ran into the guard timer"
    return n


@pytest.fixture
def mini(game_copy, tmp_path):
    """A copy of mini_game, built once in English on A4 (as `build --watch` does first)."""
    folder = game_copy("mini_game", "mini")
    options = BuildOptions(langs=("en",), papers=("a4",), out_dir=tmp_path / "out", jobs=1)
    build_game(load_game(folder), options)
    cards = tmp_path / "out" / "mini" / CARDS
    assert "Mini Game" in pdf_text(cards)
    return folder, options, cards


@pytest.mark.parametrize("what", [
    "locale",
    "template",
])
def test_edit_triggers_a_rebuild_with_the_new_text(mini, what):
    folder, options, cards = mini
    if what == "locale":
        path, old, new, expect = folder / "locales" / "en.yaml", "name: Mini Game", "name: Watched Game", "Watched Game"
    else:
        path = folder / "templates" / "front.yaml.j2"
        old, new, expect = "text: {{ card.id|q }}", 'text: {{ ("Edited " ~ card.id)|q }}', "Edited card-2"
    text = path.read_text(encoding="utf-8")
    assert old in text
    calls: list[list[Path]] = []

    def rebuild(changed: list[Path]) -> None:
        calls.append(changed)
        build_game(load_game(folder), options)

    def edits() -> None:
        time.sleep(0.3)
        write(path, text.replace(old, new))

    assert run_watch(folder, rebuild, edits, max_rebuilds=1) == 1
    assert len(calls) == 1
    assert [p.resolve() for p in calls[0]] == [path.resolve()], calls[0]
    rebuilt = pdf_text(cards)
    assert expect in rebuilt, rebuilt[:300]
    if what == "locale":
        assert "Mini Game" not in rebuilt


def test_broken_yaml_is_reported_and_the_watch_goes_on(mini, capsys):
    """The first rebuild fails on a YAML syntax error (reported, the old kit kept); the
    watch continues, and fixing the file rebuilds with the new text."""
    folder, options, cards = mini
    locale = folder / "locales" / "en.yaml"
    good = locale.read_text(encoding="utf-8")
    results: list[bool] = []
    kit_after_failure: list[str] = []
    first_done = threading.Event()

    def rebuild(changed: list[Path]) -> None:
        ok = _build_once(str(folder), options)  # what the CLI's watch does: report, never raise
        results.append(ok)
        if not ok:
            kit_after_failure.append(pdf_text(cards))
        first_done.set()

    def edits() -> None:
        time.sleep(0.3)
        write(locale, "game:\n  name: [Broken Game\n")
        assert first_done.wait(GUARD_SECONDS / 2), "no rebuild after the broken edit"
        time.sleep(0.1)
        write(locale, good.replace("name: Mini Game", "name: Fixed Game"))

    assert run_watch(folder, rebuild, edits, max_rebuilds=2) == 2
    assert results == [False, True]
    err = capsys.readouterr().err
    error_lines = [line for line in err.splitlines() if line.startswith("error: ")]
    assert error_lines and all("en.yaml" in line for line in error_lines), err
    assert "Traceback" not in err
    assert "Mini Game" in kit_after_failure[0], "a failed rebuild keeps the previous kit"
    rebuilt = pdf_text(cards)
    assert "Fixed Game" in rebuilt and "Mini Game" not in rebuilt


def test_no_change_no_rebuild_and_stop_ends_the_watch(mini):
    """Unwatched files (notes.txt) do not count; setting the stop event ends the loop."""
    folder, _, _ = mini
    calls: list[list[Path]] = []
    stop = threading.Event()

    def edits() -> None:
        time.sleep(0.15)
        (folder / "notes.txt").write_text("not game data", encoding="utf-8")
        time.sleep(0.3)
        stop.set()

    thread = threading.Thread(target=edits, daemon=True)
    guard_fired = threading.Event()
    guard = threading.Timer(GUARD_SECONDS, lambda: (guard_fired.set(), stop.set()))
    guard.start()
    try:
        thread.start()
        n = watch(lambda: [folder], calls.append, interval=0.05, stop=stop, max_rebuilds=1)
    finally:
        guard.cancel()
        stop.set()
        thread.join(timeout=5)
    assert n == 0 and calls == []
    assert not guard_fired.is_set(), "the watch ran into the guard timer"


def test_snapshot_sees_game_files_only(mini):
    folder, _, _ = mini
    (folder / "notes.txt").write_text("x", encoding="utf-8")
    (folder / "assets").mkdir()
    (folder / "assets" / "logo.PNG").write_bytes(b"not really a png")
    seen = {p.relative_to(folder).as_posix() for p in snapshot([folder, folder / "missing"])}
    assert seen == {"game.yaml", "locales/en.yaml", "locales/fr.yaml", "templates/back.yaml.j2",
                    "templates/front.yaml.j2", "assets/logo.PNG"}
    assert {".yaml", ".j2", ".ttf", ".png"} <= WATCHED_SUFFIXES


def test_a_watch_takes_the_game_s_print_section_again_on_every_rebuild(game_copy, tmp_path, cli, monkeypatch):
    """An edit of game.yaml's ``print:`` section reaches the next rebuild's print-shop
    files (the ink limit here), as a fresh ``cardgen build`` would take it."""
    import cardgen
    import cardgen.cli.watch

    folder = game_copy("mini_game", "mini")
    seen: list = []
    real = cardgen.build
    monkeypatch.setattr(cardgen, "build", lambda game, options, progress=None: (seen.append(options),
                                                                                real(game, options, progress))[1])

    def one_edit(folders, rebuild, **_):
        game_yaml = folder / "game.yaml"
        write(game_yaml, game_yaml.read_text(encoding="utf-8") + "print:\n  ink_limit: 240\n")
        rebuild([game_yaml])
        raise KeyboardInterrupt  # what Ctrl-C does to the loop

    monkeypatch.setattr(cardgen.cli.watch, "watch", one_edit)
    r = cli("build", folder, "--lang", "en", "--paper", "a4", "--out", tmp_path / "out", "--watch")
    assert "stopped watching" in r.stderr, r.output
    assert [options.ink_limit for options in seen] == [None, 240.0]
