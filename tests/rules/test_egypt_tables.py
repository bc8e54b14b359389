"""Egypt's shipped tables (cardgen/rules/egypt/tables.bin): made from this code, equal to
what the engine computes afresh, complete for every hand a game meets, and read only when
they are for this code and these options."""

from __future__ import annotations

import pickle
import random
import zlib

import pytest

from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.rules.egypt import game as egypt_game
from cardgen.rules.egypt import moves, tablemaker, tables
from cardgen.rules.egypt.agents import GreedyAgent
from cardgen.rules.egypt.bits import swar_total
from cardgen.rules.egypt.game import EgyptGame, table_key
from cardgen.rules.egypt.spec import HAND, EgyptOptions
from cardgen.validation.simulate import run_config

KEY = table_key(EgyptOptions())


@pytest.fixture(scope="module")
def shipped():
    got = tables.shipped_tables(KEY)
    assert got is not None, ("cardgen/rules/egypt/tables.bin is missing or was made from other code (a module of"
                             " cardgen.rules.egypt.tables.SOURCES changed): run python bench/egypt_tables.py")
    return got


def test_the_shipped_game_plays_the_options_the_file_holds():
    game = load_game("egypt")
    assert table_key(rules_for("egypt").options(game)) == KEY


@pytest.fixture
def fresh(monkeypatch):
    """A game of the shipped options whose tables start empty, as without the file."""
    monkeypatch.setattr(egypt_game, "_TABLES", {})
    monkeypatch.setattr(egypt_game, "shipped_tables", lambda key: None)
    monkeypatch.setattr(moves, "DISCARDS", {})
    return EgyptGame


def test_the_shipped_tables_equal_what_the_engine_computes(shipped, fresh):
    hands = tablemaker.every_hand(HAND + 1)
    sample = random.Random(19).sample(hands, 400)
    g4 = fresh(4, EgyptOptions())
    player = GreedyAgent(g4, 0)
    greedy4 = shipped[("greedy", "discarded", 4)]
    for sig in sample:
        assert shipped["melds"][sig] == g4.meld_actions(sig)
        assert shipped["best"][sig] == g4.best_tribute(sig)
        assert shipped["discard_lists"][sig] == moves.discard_actions(sig)
        assert shipped["greedy"]["melds"][sig] == player._meld(sig, g4.meld_actions(sig))
        assert shipped["greedy"]["discards"][sig] == player._discard(sig, moves.discard_actions(sig))
        if swar_total(sig) == HAND:
            legal = g4.reveal_actions(sig)
            assert shipped["reveals"][sig] == legal
            assert greedy4["held"][sig] == player._control(sig, True, legal)
            assert greedy4["free"][sig] == player._control(sig, False, legal)


def test_the_shipped_tables_hold_every_hand_a_game_meets(shipped):
    """Games of every player count add nothing to the tables read from the file (a game that
    did would fill the rest as before, slower)."""
    game = load_game("egypt")
    rules = rules_for("egypt")
    sizes = None
    for n in rules.player_counts(game):
        gd = rules.load(game, n)
        if sizes is None:
            sizes = {name: len(t) for name, t in egypt_game._TABLES[KEY].items() if isinstance(t, dict)}
            grew = len(moves.DISCARDS)
        for kind in ("greedy", "random"):
            assert run_config(gd, rules.agents[kind], kind, True, 8, 100 * n).failure_count == 0
    tables_now = egypt_game._TABLES[KEY]
    assert {name: len(tables_now[name]) for name in sizes} == sizes
    assert len(moves.DISCARDS) == grew
    for n in rules.player_counts(game):
        own = tables_now[("greedy", "discarded", n)]
        assert len(own["held"]) == len(own["free"]) == len(shipped[("greedy", "discarded", n)]["held"])


def test_a_file_made_from_other_code_is_not_read(tmp_path):
    head = pickle.dumps((tables.FORMAT, "0" * 32, (KEY,)))
    body = zlib.compress(pickle.dumps({KEY: {}}))
    stale = tmp_path / "tables.bin"
    stale.write_bytes(head + body)
    assert tables.shipped_tables(KEY, stale) is None
    assert tables.shipped_tables(KEY, tmp_path / "missing.bin") is None
    (tmp_path / "junk.bin").write_bytes(b"not a pickle")
    assert tables.shipped_tables(KEY, tmp_path / "junk.bin") is None


def test_the_file_is_read_with_plain_values_only(tmp_path):
    """A file holding a reference to code is refused, not run."""
    evil = tmp_path / "tables.bin"
    evil.write_bytes(pickle.dumps((tables.FORMAT, tables.fingerprint(), (KEY,)))
                     + zlib.compress(pickle.dumps({KEY: print})))
    assert tables.shipped_tables(KEY, evil) is None
    evil.write_bytes(pickle.dumps(print))
    assert tables.read(evil) is None


def test_other_options_start_with_empty_tables():
    """House rules the file was not made for: the tables are built as hands are met."""
    other = table_key(EgyptOptions(ankhs_in_combo=2))
    assert tables.shipped_tables(other) is None
    started = egypt_game._start_tables(other)
    assert started["melds"] == started["best"] == started["greedy"]["discards"] == {}
