"""What a checked Horus game copies: no whole state. The chance test reads each draw on the
state itself (not on a clone replaying the run), the checker keeps only what the step's
outcome text reads, and the greedy player keeps no table between its decisions (the
honesty probe copies the player whole). Each shortcut must judge exactly as the copy did."""

from __future__ import annotations

import random

import pytest

from cardgen.load.game import load_game
from cardgen.rules import CHANCE, rules_for
from cardgen.rules.horus.checker_record import Before
from cardgen.rules.horus.state import HorusState, HorusView, PublicBoard
from cardgen.validation import simulate
from cardgen.validation.simulate import play_game


@pytest.fixture(scope="module")
def game():
    return load_game("horus")


@pytest.fixture(scope="module")
def rules():
    return rules_for("horus")


def draws(tally: dict[str, list[int]]) -> int:
    return sum(sum(bins) for bins in tally.values())


def test_a_checked_game_clones_no_state(game, rules, monkeypatch):
    clones = []
    clone = HorusState.clone
    monkeypatch.setattr(HorusState, "clone", lambda self: clones.append(1) or clone(self))
    tally: dict[str, list[int]] = {}
    out = play_game(rules.load(game, 3), rules.agents["greedy"], 5, check_every=4, chance=tally)
    assert out.status == "ok", out.message
    assert draws(tally) > 50  # every draw of the game judged
    assert clones == []


@pytest.mark.parametrize("kind, seed", [("random", 7), ("greedy", 2)])
def test_the_chance_test_counts_the_same_draws_on_the_state_as_on_a_clone(game, rules, monkeypatch, kind, seed):
    gd = rules.load(game, 2)
    on_state: dict[str, list[int]] = {}
    on_clone: dict[str, list[int]] = {}
    first = play_game(gd, rules.agents[kind], seed, chance=on_state)
    monkeypatch.setattr(simulate, "_says_draws", lambda run: False)  # the replay on a clone of each run
    second = play_game(gd, rules.agents[kind], seed, chance=on_clone)
    assert first == second and first.status == "ok"
    assert on_state == on_clone and draws(on_state) > 50


def test_a_draw_the_state_does_not_declare_fails_at_the_same_step_either_way(game, rules, monkeypatch):
    """A state that leaves an outcome out of what it declares (the lowest tile or card it
    could draw) fails the chance test at the same step, with the same message, whether the
    draws are read on the state or on a clone."""
    declared = HorusState.chance_outcomes

    def all_but_the_first(self):
        rest = declared(self)[1:]
        return [(a, 1 / len(rest)) for a, _ in rest]

    monkeypatch.setattr(HorusState, "chance_outcomes", all_but_the_first)
    gd = rules.load(game, 2)
    first = play_game(gd, rules.agents["random"], 3, chance={})
    monkeypatch.setattr(simulate, "_says_draws", lambda run: False)
    second = play_game(gd, rules.agents["random"], 3, chance={})
    assert first.status == "failure" and "not among the announced outcomes" in first.message
    assert (first.steps, first.message) == (second.steps, second.message)


def greedy_game(rules, gd, seed: int):
    """(state, player to move, its move) at each decision of a seeded game of greedy players:
    the caller looks before and after calling ``move()``, which plays the player's choice."""
    s = gd.new_initial_state()
    rng = random.Random(seed)
    agents = [rules.agents["greedy"](gd, i) for i in range(gd.num_players)]
    while not s.is_terminal():
        p = s.current_player()
        if p == CHANCE:
            s.apply_chance_run(rng)
            continue
        agent = agents[p]
        yield s, agent, lambda agent=agent, p=p: s.apply_action(agent.act(s.observation(p), s.legal_actions(), rng))


def test_the_outcome_read_from_what_the_checker_keeps_is_the_one_read_from_a_clone(game, rules):
    said = 0
    for s, _, move in greedy_game(rules, rules.load(game, 3), 6):
        kept, clone = Before(s), s.clone()
        move()
        text = s.outcome_text(clone)
        assert s.outcome_text(kept) == text
        said += bool(text)
    assert said > 10  # stones placed, scores changed, the final scores


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through attributes, slots and containers."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        x = todo.pop()
        if id(x) in seen or isinstance(x, (int, float, str, bool, type(None), type)):
            continue
        seen[id(x)] = x
        if isinstance(x, dict):
            todo.extend(x.keys())
            todo.extend(x.values())
        elif isinstance(x, (list, tuple, set, frozenset)):
            todo.extend(x)
        for name in getattr(type(x), "__slots__", ()):
            if hasattr(x, name):
                todo.append(getattr(x, name))
        if hasattr(x, "__dict__") and not isinstance(x, type):
            todo.extend(vars(x).values())
    return list(seen.values())


def test_a_greedy_player_keeps_no_table_between_its_decisions(game, rules):
    """Between decisions the player holds its island outlook and stakes, not the table it was
    shown: the honesty probe copies the player at sampled decisions, and a table is most of
    what there was to copy."""
    decisions = 0
    for _, agent, move in greedy_game(rules, rules.load(game, 2), 4):
        move()
        decisions += 1
        held = [x for x in _reachable(agent) if isinstance(x, (HorusView, PublicBoard))]
        assert held == [], f"decision {decisions}"
    assert decisions > 50
