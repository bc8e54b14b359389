"""Honest players: a player sees a copy of what its seat may know and nothing that leads
back to the state, never the random source that deals and rolls, and the validator
catches one that decides on anything else (it asks a copy of the player again on a copy
of the game whose hidden information is re-dealt), as a failure with a seed that fails
again on replay."""

from __future__ import annotations

import random
import re

import pytest
from click.testing import CliRunner
from playing import decisions

import cardgen.rules
from cardgen.cli import main
from cardgen.load.game import load_game
from cardgen.rules import rules_for
from cardgen.rules.api import RandomAgent, observation_leak
from cardgen.rules.farao import state as farao_state
from cardgen.rules.hapy import game as hapy_game
from cardgen.rules.hapy.agents import GreedyAgent as HapyGreedy
from cardgen.rules.hapy.codec import REQUEST_BASE
from cardgen.rules.hapy.state import HapyState
from cardgen.validation.simulate import play_game, run_config

CONFIGS = {"hapy": (4, "pyramid"), "egypt": (3, "standard"), "horus": (3, "standard"), "farao": (4, "standard")}


@pytest.fixture(scope="module")
def gamedefs():
    return {gid: rules_for(gid).load(load_game(gid), n, setup) for gid, (n, setup) in CONFIGS.items()}


@pytest.mark.parametrize("gid", CONFIGS)
def test_an_observation_is_a_copy_of_plain_values(gamedefs, gid):
    for k, (s, p) in enumerate(decisions(gamedefs[gid], 3)):
        if k % 7:
            continue
        obs = s.observation(p)
        assert observation_leak(obs) is None, (gid, observation_leak(obs))
        copy_of = s.clone()
        legal = s.legal_actions()
        s.apply_action(legal[0])
        assert obs == copy_of.observation(p), "the observation does not follow the state it was made from"
        break


@pytest.mark.parametrize("gid", CONFIGS)
def test_re_dealing_the_hidden_information_changes_nothing_a_seat_sees(gamedefs, gid):
    rng = random.Random(5)
    changed = 0
    for k, (s, p) in enumerate(decisions(gamedefs[gid], 11)):
        if k % 5:
            continue
        twin = s.scrambled(p, rng)
        assert twin.observation(p) == s.observation(p), (gid, k)
        assert twin.legal_actions() == s.legal_actions(), (gid, k)
        others = [q for q in range(gamedefs[gid].num_players) if q != p]
        field = "hand" if gid in ("hapy", "egypt") else "hands"
        changed += [getattr(twin, field)[q] for q in others] != [getattr(s, field)[q] for q in others]
    assert changed, "the re-deal never moved a card: the check would have no teeth"


def test_a_leaky_observation_is_caught(gamedefs, monkeypatch):
    """An engine whose view shows another seat's hand (the field turn carries the next
    seat's cards): the re-dealt copy shows other cards there."""
    honest = HapyState.observation
    monkeypatch.setattr(HapyState, "observation",
                        lambda self, p: honest(self, p)._replace(turn=self.hand[(p + 1) % 4]))
    out = play_game(gamedefs["hapy"], rules_for("hapy").agents["greedy"], 1)
    assert out.status == "failure"
    assert "observation changes when only what it may not know is re-dealt (turn)" in out.message


def test_an_observation_that_reaches_the_state_is_caught(gamedefs, monkeypatch):
    """A live view that keeps the state in it, as the old views did."""
    honest = HapyState.observation
    monkeypatch.setattr(HapyState, "observation", lambda self, p: honest(self, p)._replace(turn=self))
    out = play_game(gamedefs["hapy"], rules_for("hapy").agents["greedy"], 1)
    assert out.status == "failure"
    assert "observation holds a HapyState" in out.message


# -- cheating players ------------------------------------------------------------------
SEEN: list = []  # the states a game made: what a cheating player keeps a way to


class HandPeeker(HapyGreedy):
    """A greedy Hâpy player that asks for a card it knows, from the true hands, is there."""

    __slots__ = ("spy",)

    def __init__(self, game, seat):
        super().__init__(game, seat)
        self.spy = SEEN

    __deepcopy__ = None  # the honest player's quick copy would share the spy; a cheater has none

    def act(self, obs, legal, rng):
        if obs.phase == "request":
            state = self.spy[-1]
            for q in range(obs.num_players):
                if q != self.seat:
                    for c in range(36):
                        a = REQUEST_BASE + 100 * q + c
                        if state.hand[q] >> c & 1 and a in legal:
                            return a
        return super().act(obs, legal, rng)


@pytest.fixture
def peeking(monkeypatch):
    made = hapy_game.HapyGame.new_initial_state

    def new_state(self):
        s = made(self)
        SEEN.append(s)
        return s

    monkeypatch.setattr(hapy_game.HapyGame, "new_initial_state", new_state)
    yield
    SEEN.clear()


def test_a_player_reading_the_true_hands_is_caught_with_a_seed_that_replays(gamedefs, peeking):
    gd = gamedefs["hapy"]
    res = run_config(gd, HandPeeker, "peeker", True, 10, 1)
    assert res.failure_count == 10, [f.message for f in res.failures]
    first = res.failures[0]
    assert "it decides on what its seat may not know" in first.message
    again = play_game(gd, HandPeeker, first.seed)
    assert (again.status, again.steps, again.message) == ("failure", first.steps, first.message)
    # the honest greedy player of the same games passes
    assert run_config(gd, rules_for("hapy").agents["greedy"], "greedy", True, 10, 1).failure_count == 0


def test_the_command_line_reports_a_cheating_player_with_its_replay(monkeypatch, peeking):
    monkeypatch.setattr(cardgen.rules, "_REGISTRY", dict(cardgen.rules._REGISTRY))
    hapy = rules_for("hapy")
    monkeypatch.setattr(hapy, "agents", {**hapy.agents, "peeker": HandPeeker})
    monkeypatch.setattr(hapy, "must_finish", {**hapy.must_finish, "peeker": True})
    result = CliRunner().invoke(main, ["validate", "hapy", "--agents", "peeker", "--players", "3", "--setup",
                                       "pyramid", "--games", "5", "--jobs", "1"])
    assert result.exit_code == 1
    assert "it decides on what its seat may not know" in result.output
    # which seeds catch it depends on how much the re-deal may change (cards the public
    # record places stay put): any seed, with the command that replays it
    assert re.search(r"cardgen validate hapy --seed \d+ --games 1 --players 3 --setup pyramid --agents peeker",
                     result.output), result.output


DICE: list = []  # chance's random sources, as a cheating player might have got hold of them


class DiceReader:
    """A player that foresees chance: it reads the next number off chance's own source
    (a copy of it, so the game itself is not disturbed) and lets that choose its action."""

    def __init__(self, game, seat):
        self.dice = DICE

    def act(self, obs, legal, rng):
        peek = random.Random()
        peek.setstate(self.dice[-1].getstate())
        return legal[int(peek.random() * len(legal))]


@pytest.fixture
def dice_in_reach(monkeypatch):
    run = farao_state.FaraoState.apply_chance_run

    def chance_run(self, rng):
        DICE.append(rng)
        return run(self, rng)

    monkeypatch.setattr(farao_state.FaraoState, "apply_chance_run", chance_run)
    yield
    DICE.clear()


def test_a_player_reading_the_dice_is_caught(gamedefs, dice_in_reach):
    gd = gamedefs["farao"]
    res = run_config(gd, DiceReader, "dice", True, 5, 1)
    assert res.failure_count == 5, [f.message for f in res.failures]
    assert all("it decides on what its seat may not know" in f.message for f in res.failures)
    first = res.failures[0]
    DICE.clear()
    again = play_game(gd, DiceReader, first.seed)
    assert (again.steps, again.message) == (first.steps, first.message)


def test_a_chance_run_replaced_after_games_were_played_is_called_as_it_now_is(gamedefs, monkeypatch):
    """The runner asks a state's ``apply_chance_run`` whether it takes ``before``; a method
    replaced after games of the same state class were played (a wrapper without it) is
    asked again, not called with an argument it does not take."""
    gd = gamedefs["farao"]
    assert run_config(gd, RandomAgent, "random", True, 2, 1).failure_count == 0
    run = farao_state.FaraoState.apply_chance_run
    runs: list = []

    def chance_run(self, rng):
        runs.append(rng)
        return run(self, rng)

    monkeypatch.setattr(farao_state.FaraoState, "apply_chance_run", chance_run)
    res = run_config(gd, RandomAgent, "random", True, 2, 1)
    assert res.failure_count == 0, [f.message for f in res.failures]
    assert res.completed == 2 and runs


@pytest.mark.parametrize("gid", CONFIGS)
def test_players_never_get_chance_s_random_source(gamedefs, gid, monkeypatch):
    """Every random source a player is handed, and everything its observations hold,
    against the one chance draws from: never the same object, and a different stream."""
    gd = gamedefs[gid]
    state_class = type(gd.new_initial_state())
    chance: list = []
    for name in ("apply_chance_run", "sample_chance"):
        original = getattr(state_class, name, None)
        if original is not None:
            def spy(self, rng, original=original):
                chance.append(rng)
                return original(self, rng)
            monkeypatch.setattr(state_class, name, spy)
    given: list = []

    class Recorder(RandomAgent):
        def act(self, obs, legal, rng):
            given.append((rng, obs))
            return super().act(obs, legal, rng)

    play_game(gd, Recorder, 7)
    assert chance and given
    dice = {id(r) for r in chance}
    assert not any(id(rng) in dice for rng, _ in given)
    assert all(observation_leak(obs) is None for _, obs in given[::25])
    seat_streams = {tuple(r.getstate()[1][:4]) for r, _ in given}
    assert tuple(chance[0].getstate()[1][:4]) not in seat_streams
