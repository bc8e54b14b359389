"""How often the runner makes the full (expensive) checks: every ``check_every`` steps,
after the deal and at the end; a run of chance steps counts as the steps it takes."""

from __future__ import annotations

import pytest

from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.validation.simulate import play_game


class Counting:
    """The game's own checker, with a record of every ``after`` call and its step."""

    def __init__(self, real, calls: list):
        self.real, self.calls = real, calls

    def before(self, state, player, action):
        self.real.before(state, player, action)

    def after(self, state, full):
        self.calls.append(full)
        self.real.after(state, full)

    def at_end(self, state):
        self.real.at_end(state)


def counted(game_id: str, players: int, check_every: int, seed: int = 1) -> tuple[list[bool], int]:
    game, rules = load_game(game_id), rules_for(game_id)
    gd = rules.load(game, players, rules.setups(game)[0])
    make = gd.checker
    calls: list[bool] = []
    gd.checker = lambda: Counting(make(), calls)
    out = play_game(gd, rules.agents["random"], seed, check_every=check_every)
    assert out.status == "ok", out.message
    return calls, out.steps


@pytest.mark.parametrize("game_id, players", [("farao", 4), ("egypt", 4), ("horus", 3)])
def test_full_checks_keep_to_their_rate_where_chance_steps_are_many(game_id, players):
    calls, steps = counted(game_id, players, 16)
    assert calls[0] is True  # the deal, in full
    # a full check for each multiple of 16 steps at most (the deal's run and the first
    # decision can both hold one), never one after every draw
    assert sum(calls) <= steps // 16 + 2
    assert sum(calls) >= steps // 16 // 2  # … and about that many: the sampling does not lapse
    assert len(calls) - sum(calls) > 3 * sum(calls)  # the cheap checks at every other step


@pytest.mark.parametrize("game_id, players", [("farao", 3), ("egypt", 2)])
def test_every_check_is_full_when_asked_for_every_step(game_id, players):
    calls, steps = counted(game_id, players, 1)
    assert calls and all(calls)
