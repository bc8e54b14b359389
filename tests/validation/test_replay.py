"""The printed replay command plays the failing game on the same code path: a bug that
lives only in a fast path (here the whole deal at once) fails its seed, and the replay,
which traces, fails again at the same step instead of passing."""

from __future__ import annotations

import re

import pytest

from cardgen.rules.hapy import state as hapy_state


@pytest.fixture
def broken_fast_deal(monkeypatch):
    """A fast deal that shows the first God-up place's card as hidden: the step-by-step
    deal is right, so only a run on the fast path can see the bug."""
    honest = hapy_state.HapyState.apply_chance_run

    def deal(self, rng):
        out = honest(self, rng)
        if out:
            up = self.g.face_up.index(True)
            self.faces[up] = -1
        return out

    monkeypatch.setattr(hapy_state.HapyState, "apply_chance_run", deal)


def test_a_fast_path_bug_fails_and_its_replay_fails_at_the_same_step(broken_fast_deal, cli):
    r = cli("validate", "hapy", "--games", 2, "--jobs", 1, "--players", 2, "--setup", "pyramid",
            "--agents", "random")
    assert r.exit_code == 1, r.output
    failure = next(line for line in r.stdout.splitlines() if line.startswith("  ✗ pyramid"))
    replay = r.stdout.splitlines()[r.stdout.splitlines().index(failure) + 1].split()
    assert replay[:2] == ["cardgen", "validate"] and "--trace" in replay
    again = cli(*replay[1:])
    assert again.exit_code == 1, again.output
    step = re.search(r"seed \d+, step \d+", failure).group(0)
    assert step in again.stdout, (failure, again.stdout)
    assert "deal " in again.stderr  # the trace shows each card of the fast deal in words


def test_the_trace_names_each_draw_of_a_fast_run(cli):
    r = cli("validate", "hapy", "--seed", 3, "--games", 1, "--players", 2, "--setup", "pyramid",
            "--agents", "greedy", "--trace")
    assert r.exit_code == 0, r.output
    deals = [line for line in r.stderr.splitlines() if "chance" in line and " deal " in line]
    assert len(deals) == 36 and re.match(r"step +0 +chance +deal \S+ to place \d+", deals[0]), deals[:2]


class Copycat:
    """Plays the first legal action; ``draws`` numbers from its random source first."""

    def __init__(self, draws: int):
        self.draws = draws

    def act(self, obs, legal, rng):
        for _ in range(self.draws):
            rng.random()
        return legal[0]


def test_players_have_a_random_stream_of_their_own_apart_from_chance():
    """Two players that choose alike but draw differently from their random source see the
    same deals and draws: chance never shares their stream, so none can read the next
    roll off it (one that did once stole on every roll)."""
    from cardgen.load.game import load_game
    from cardgen.rules import rules_for
    from cardgen.validation.simulate import play_game

    gd = rules_for("farao").load(load_game("farao"), 3, "standard")
    chance = {}
    for draws in (0, 7):
        seen: list = []
        play_game(gd, lambda g, seat, d=draws: Copycat(d), 5,
                  trace=lambda step, p, text, seen=seen: seen.append(text) if p < 0 else None)
        chance[draws] = seen
    assert chance[0] and chance[0] == chance[7]


def test_the_trace_shows_outcomes_not_only_actions(cli):
    r = cli("validate", "hapy", "--seed", 3, "--games", 1, "--players", 2, "--setup", "pyramid",
            "--agents", "greedy", "--trace")
    lines = r.stderr.splitlines()
    assert any(re.search(r"→ seat \d does not hold \S+", x) for x in lines)  # a request refused
    assert any(re.search(r"→ seat \d gives \S+", x) for x in lines)  # a request answered
    assert any("reveals" in x for x in lines) and any("wins" in x for x in lines)
    assert re.match(r"step +\d+ +end +game over after \d+ turns: seat \d won", lines[-1]), lines[-1]
    r = cli("validate", "farao", "--seed", 2, "--games", 1, "--players", 3, "--agents", "greedy", "--trace")
    assert any(re.search(r"→ seat \d scores \d+ \(now \d+\)", x) for x in r.stderr.splitlines())


def _outcomes(r) -> list[str]:
    return [x.split("→ ", 1)[1] for x in r.stderr.splitlines() if "→ " in x]


def test_the_egypt_trace_shows_reveals_control_melds_and_the_winner(cli):
    r = cli("validate", "egypt", "--seed", 1, "--games", 1, "--players", 3, "--agents", "greedy", "--trace")
    said = "; ".join(_outcomes(r))
    assert re.search(r"reveals: seat 1 \S.*, seat 2 \S.*, seat 3 \S", said)  # every seat's reveal at once
    assert re.search(r"seat \d (takes|keeps) control", said)
    assert re.search(r"seat \d lays .+: \+\d+ tribute, \d+ in all", said)  # a meld and its tribute
    assert re.search(r"turn 10 ends; tribute seat 1 \d+, seat 2 \d+, seat 3 \d+", said)
    assert re.search(r"seats? [\d, ]+ (wins|share the win) with \d+ tribute", said)
    steals = [x for x in r.stderr.splitlines() if re.search(r"chance +seat \d takes \S+ from seat \d", x)]
    assert steals  # the card taken, as the chance step that draws it
    # the tribute the outcome lines add up to is the game's: the last 'in all' of each seat
    final = re.findall(r"turn 10 ends; tribute (.*?)(?:;|$)", said)[-1]
    assert re.search(r"game over after 10 turns", r.stderr.splitlines()[-1])
    assert final.count("seat") == 3


def test_the_horus_trace_shows_stones_regions_scores_and_the_winner(cli):
    r = cli("validate", "horus", "--seed", 1, "--games", 1, "--players", 3, "--agents", "greedy", "--trace")
    said = _outcomes(r)
    stones = [x for x in said if re.search(r"seat \d's stone stands at \(-?\d+, -?\d+\) in a region of \d+ tile", x)]
    assert stones and all("worth" in x for x in stones)
    assert any(re.search(r"scores now seat 1 \d+, seat 2 \d+, seat 3 \d+", x) for x in said)
    last = said[-1]
    assert re.search(r"region of \d+ tile\(s\) scores \d+ for seats? \d", last)
    final = re.search(r"final scores seat 1 (\d+), seat 2 (\d+), seat 3 (\d+); seats? ([\d, ]+) (wins|share)", last)
    assert final, last
    end = re.search(r"returns \[(\S+), (\S+), (\S+)\]", r.stderr.splitlines()[-1])
    assert [int(float(x)) for x in end.groups()] == [int(x) for x in final.groups()[:3]]
