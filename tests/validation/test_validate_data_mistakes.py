"""Data mistakes end `cardgen validate` with the problem named at its line and exit 1,
never a traceback: the Horus mistakes that once ended in a ZeroDivisionError (no game
could be bound, and the worker count divided by zero configurations), and player
ranges the rulebooks do not allow, for every shipped game (refused, not cut back)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import copy_shipped, edit_file

HORUS_MISTAKES = {
    # name: (text in game.yaml, its replacement, words of the message, text on the line it names)
    "49 Horus cards": ("{id: desert-1, tile: desert, size: 1, count: 2}", "{id: desert-1, tile: desert, size: 1, count: 1}",
                       "'horus_cards' count 49 cards; the rules have 50", "{id: desert-1,"),
    "a size-6 card": ("{id: any-any, tile: any, size: any, count: 1}", "{id: any-any, tile: any, size: 6, count: 1}",
                      "size 6 is not 1–5", "any-any"),
    "hand_size": ("hand_size: 5 ", "hand_size: 4 ", "'hand_size' is 4; the rules say a hand of 5", "hand_size"),
    "temple_cap": ("temple_cap: 10 ", "temple_cap: 9 ", "'temple_cap' is 9", "temple_cap"),
    "the closed size": ("closed_region_size: 6 ", "closed_region_size: 5 ", "'closed_region_size' is 5",
                        "closed_region_size"),
    "shared stone shapes": ("{id: blue, shape: square,", "{id: blue, shape: circle,",
                            "stone colours 'white' and 'blue' share the shape 'circle'", "id: blue"),
    "no river stack": ("stacks: [desert, hill, field, swamp, river]", "stacks: [desert, hill, field, swamp]",
                       "the rules have five face-up stacks", "stacks:"),
}


def _named_at_line(output: str, folder: Path, words: str, on_line: str) -> None:
    hits = [line for line in output.splitlines() if words in line]
    assert hits, output
    m = re.search(r"game\.yaml:(\d+):\d+: ", hits[0])
    assert m, hits[0]
    line = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()[int(m.group(1)) - 1]
    assert on_line in line, (hits[0], line)


@pytest.mark.parametrize("mistake", sorted(HORUS_MISTAKES))
def test_a_horus_data_mistake_is_named_at_its_line_not_a_traceback(mistake, tmp_path, cli):
    old, new, words, on_line = HORUS_MISTAKES[mistake]
    folder = copy_shipped("horus", tmp_path)
    edit_file(folder / "game.yaml", old, new)
    r = cli("validate", folder, "--games", 1, "--jobs", 1)
    assert r.exit_code == 1, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output and "ZeroDivision" not in r.output
    _named_at_line(r.stdout, folder, words, on_line)
    assert "Play: FAILED — the game's data does not match the rules" in r.stdout


PLAYER_RANGES = [
    ("hapy", "players: [2, 4]", "players: [2, 5]", "2 to 4"),
    ("hapy", "players: [2, 4]", "players: [1, 4]", "2 to 4"),
    ("egypt", "players: [2, 6]", "players: [2, 7]", "2 to 6"),
    ("horus", "players: [2, 4]", "players: [2, 5]", "2 to 4"),  # once an IndexError in the fifth seat's turn
    ("farao", "players: [3, 4]", "players: [2, 4]", "3 to 4"),
    ("farao", "players: [3, 4]", "players: [3, 6]", "3 to 4"),
]


@pytest.mark.parametrize("game_id, old, new, allowed", PLAYER_RANGES,
                         ids=[f"{g} {n.split(': ')[1]}" for g, _, n, _ in PLAYER_RANGES])
def test_a_player_range_the_rulebook_does_not_allow_is_refused_at_its_line(game_id, old, new, allowed, tmp_path,
                                                                           cli):
    folder = copy_shipped(game_id, tmp_path)
    edit_file(folder / "game.yaml", old, new)
    r = cli("validate", folder, "--games", 1, "--jobs", 1)
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output
    rng = new.split(": ")[1]
    _named_at_line(r.stdout, folder, f"'players' is {rng}; the rules are for {allowed} players", "players:")
    assert "Play: FAILED — the deck does not match the rules" in r.stdout  # refused, not cut back and played


def test_a_narrower_player_range_is_played_as_written(tmp_path, cli):
    folder = copy_shipped("hapy", tmp_path)
    edit_file(folder / "game.yaml", "players: [2, 4]", "players: [3, 4]")
    r = cli("validate", folder, "--games", 1, "--jobs", 1, "--setup", "pyramid", "--agents", "greedy")
    assert r.exit_code == 0, r.output
    assert "players [3, 4] within the 2 to 4 the rules allow" in r.stdout
    rows = [line.split() for line in r.stdout.splitlines() if line.startswith("  pyramid ")]
    assert {int(row[1]) for row in rows} == {3, 4}, r.stdout  # the table and the figures: 3 and 4 only
