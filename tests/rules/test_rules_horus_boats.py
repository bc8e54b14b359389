"""Horus, The River: Boats may not be blocked. A Boat's way on runs over free table
only, never through the River to its other end, so in every game each Boat keeps a free
place beside it at every step (the engine once accepted tiles that boxed a Boat in, and
in greedy games a Boat had no free place beside it at about half the turn starts)."""

from __future__ import annotations

import random

import pytest
from test_rules_horus import BLOCK, HL, LETTERS, game, horus_dir, places  # noqa: F401  (fixtures)

from cardgen.rules import CHANCE, TERMINAL, RuleViolation, rules_for
from cardgen.rules.horus.checker import HorusChecker
from cardgen.rules.horus.codec import P_PLACE, parse_board
from cardgen.rules.horus.geometry import NBR, code
from cardgen.rules.horus.spec import BOAT
from cardgen.rules.horus.state import HorusState


def boxed_boats(s: HorusState) -> list[int]:
    """The Boats with no free place touching them (their tiles' neighbours all taken)."""
    out = []
    for b, slot in enumerate(s.boats):
        if slot is None:
            continue
        c = s.pos[slot]
        if not any(c + d in s.frontier for d in NBR):
            out.append(b)
    return out


@pytest.mark.parametrize("players, kind", [(2, "greedy"), (4, "greedy"), (3, "random")])
def test_no_boat_is_ever_shut_in(game, players, kind):  # noqa: F811
    rules = rules_for("horus")
    gd = rules.load(game, players, "standard")
    for seed in range(3):
        rng = random.Random(seed)
        s = gd.new_initial_state()
        agents = [rules.agents[kind](gd, p) for p in range(players)]
        while (p := s.current_player()) != TERMINAL:
            if p == CHANCE:
                s.apply_action(s.sample_chance(rng))
                continue
            assert not boxed_boats(s), f"seed {seed}: Boat(s) {boxed_boats(s)} have no free place beside them"
            for slot in s.boats:
                if slot is not None:
                    assert s.escape(s.pos[slot]) is not None
            s.apply_action(agents[p].act(s.observation(p), s.legal_actions(), rng))


def test_a_way_through_the_river_is_no_way_on_and_the_checker_says_so(g2):
    """The tile right below the Boat leaves it a way only through the River tile beside
    it: the engine refuses that place and the checker names it."""
    s = HorusState.from_position(g2, parse_board(BLOCK.replace("X", "."), LETTERS) + [(20, 0, BOAT)])
    assert (2, 4) not in places(s.place_options(HL))
    s.tile, s.face, s.phase = next(t for t, k in enumerate(g2.tile_kind) if k == HL), HL, P_PLACE
    chk = HorusChecker(g2)
    chk._init(s)
    with pytest.raises(RuleViolation, match="blocks the River"):
        chk.before(s, 0, code(2, 4))


@pytest.fixture(scope="module")
def g2(game):  # noqa: F811
    return rules_for("horus").load(game, 2, "standard")
