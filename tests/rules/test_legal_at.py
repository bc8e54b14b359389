"""The runner's fast path for random players: ``State.legal_at(u)`` picks what
``RandomAgent`` would pick from the list of legal actions, without the list."""

from __future__ import annotations

import random

import pytest

from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.rules.api import RandomAgent, uniform_index
from cardgen.rules.hapy.spec import REQUEST
from cardgen.rules.hapy.state import HapyState
from cardgen.validation.report import without_timings
from cardgen.validation.simulate import play_game, run_config


@pytest.fixture(scope="module")
def hapy():
    return load_game("hapy"), rules_for("hapy")


@pytest.mark.parametrize("players, setup", [(2, "pyramid"), (3, "temple"), (4, "giza")])
def test_hapy_legal_at_indexes_the_legal_actions_in_their_order(hapy, players, setup):
    game, rules = hapy
    gd = rules.load(game, players, setup)
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        state = gd.new_initial_state()
        state.apply_chance_run(random.Random(seed))
        while not state.is_terminal() and state.turn < 150:
            legal = state.legal_actions()
            n = len(legal)
            # every index (the middle of its share of [0, 1)), and both ends of the range
            for u in [(i + 0.5) / n for i in range(n)] + [0.0, 1.0 - 1e-12]:
                assert state.legal_at(u) == legal[uniform_index(u, n)]
            checked += n
            state.apply_action(legal[uniform_index(rng.random(), n)])
    assert checked > 2000


def test_random_games_are_the_same_with_and_without_the_fast_path(hapy, monkeypatch):
    game, rules = hapy
    gd = rules.load(game, 4, "mastaba")
    fast = run_config(gd, RandomAgent, "random", False, 30, 3)
    monkeypatch.delattr(HapyState, "legal_at")
    slow = run_config(gd, RandomAgent, "random", False, 30, 3)
    assert without_timings(fast.figures()) == without_timings(slow.figures())
    assert fast.lengths == slow.lengths and fast.samples == slow.samples


def test_a_legal_at_that_disagrees_with_the_list_is_caught(hapy, monkeypatch):
    game, rules = hapy
    gd = rules.load(game, 3, "pyramid")
    right = HapyState.legal_at
    # the bug: in a request step, always the last request on the list (never a pass, never another)
    monkeypatch.setattr(HapyState, "legal_at",
                        lambda self, u: right(self, 0.9999) if self.phase == REQUEST else right(self, u))
    out = play_game(gd, RandomAgent, 1, check_every=4)
    assert out.status == "failure" and "legal_at(" in out.message and "not the legal action" in out.message


def test_a_legal_at_that_finds_nothing_is_caught(hapy, monkeypatch):
    game, rules = hapy
    gd = rules.load(game, 2, "pyramid")
    monkeypatch.setattr(HapyState, "legal_at", lambda self, u: None)
    out = play_game(gd, RandomAgent, 1)
    assert out.status == "failure" and "has no legal action although the game is not over" in out.message


def test_a_greedy_player_still_gets_the_list(hapy, monkeypatch):
    game, rules = hapy
    gd = rules.load(game, 2, "pyramid")
    monkeypatch.setattr(HapyState, "legal_at", lambda self, u: pytest.fail("a greedy player needs no pick"))
    assert play_game(gd, rules.agents["greedy"], 1).status == "ok"
