"""Islands in simulated Horus games: the greedy player closes water round its own
regions (cardgen/rules/horus/islands.py), so seeded games form islands and the
checker's from-scratch island recomputation runs on tables that have one."""

from __future__ import annotations

import random

import pytest

from cardgen.load.game import load_game
from cardgen.rules import RuleViolation, rules_for
from cardgen.rules.horus.checker import HorusChecker
from cardgen.rules.horus.codec import NILE_ACTION, P_RN, RIVER_BASE, parse_board
from cardgen.rules.horus.geometry import code
from cardgen.rules.horus.islands import NEAR_OPEN, closeness
from cardgen.rules.horus.spec import BOAT, NECRO, PYRAMID, RIVER
from cardgen.rules.horus.state import HorusState
from cardgen.validation.simulate import play_game

D, HL = 0, 1
LETTERS = {"D": D, "H": HL, "~": RIVER, "B": BOAT, "P": PYRAMID, "N": NECRO}


@pytest.fixture(scope="module")
def rules():
    return rules_for("horus")


@pytest.fixture(scope="module")
def g2(rules):
    return rules.load(load_game("horus"), 2)


def board(g, picture: str, stones=()) -> HorusState:
    return HorusState.from_position(g, parse_board(picture, LETTERS), stones)


def river_tile_in_hand(g, s: HorusState) -> None:
    """Seat 1 holds a tile of the River / Necropolis stack, to play as it likes."""
    s.tile = s.stacks[g.river_stack].pop()
    s.face = RIVER
    s.queue = [("rnchoice",)]
    s._advance()
    assert s.phase == P_RN


# seat 1's Desert has water above, left and right, and at its lower left: one River
# tile at (2, 4) closes it in; at (3, 4) it covers only half the gap
GAP = """
    ..~~....
    ..~~....
    ~~DD~~..
    ~~DD~~..
    ~~......
    ~~......
"""


def test_the_greedy_player_closes_the_water_round_its_own_region(g2, rules):
    for seed in range(12):
        s = board(g2, GAP, stones=[(2, 2, 0)])
        river_tile_in_hand(g2, s)
        legal = s.legal_actions()
        closing = RIVER_BASE + code(2, 4)
        assert closing in legal and RIVER_BASE + code(3, 4) in legal
        agent = rules.agents["greedy"](g2, 0)
        assert agent.act(s.observation(0), legal, random.Random(seed)) == closing, seed
        s.apply_action(closing)
        assert len(s.islands()) == 1 and s.scores() == [2, 0]  # the lone Desert now scores double


def test_the_greedy_player_does_not_close_the_water_round_an_opponents_region(g2, rules):
    s = board(g2, GAP, stones=[(2, 2, 1)])
    river_tile_in_hand(g2, s)
    agent = rules.agents["greedy"](g2, 0)
    outlook = agent.outlook(s.observation(0).board)
    assert outlook.place_value(code(2, 4), RIVER) < 0  # it would double seat 2's Desert
    for seed in range(12):
        assert agent.act(s.observation(0), s.legal_actions(), random.Random(seed)) != RIVER_BASE + code(2, 4)


def test_water_is_worth_the_share_of_the_open_edges_it_covers(g2, rules):
    s = board(g2, GAP, stones=[(2, 2, 0)])
    outlook = rules.agents["greedy"](g2, 0).outlook(s.observation(0).board)
    assert s.land_open[s.land[s.at[code(2, 2)]]] == 2  # the two half-edges of the gap
    assert outlook.place_value(code(2, 4), RIVER) == 1.0  # closes both: the whole doubling (1 → 2)
    assert outlook.place_value(code(3, 4), RIVER) == 0.5  # one of the two
    assert outlook.place_value(code(6, 0), RIVER) == 0.0  # nowhere near
    # a land tile in the gap opens the group up again: it costs the prospect the group had
    assert outlook.place_value(code(2, 4), NECRO) < 0


def test_a_region_near_closing_is_worth_more_for_a_stone(g2, rules):
    s = board(g2, GAP + "\n" + "........\n" * 2 + "HH......\nHH......", stones=[])
    agent = rules.agents["greedy"](g2, 0)
    b = s.observation(0).board
    near = agent._stone_gain(b, s.reg[s.at[code(2, 2)]])  # the Desert: two half-edges from an island
    far = agent._stone_gain(b, s.reg[s.at[code(0, 8)]])  # the Hill: alone on open table
    assert near > far > 0


def test_the_closeness_is_one_for_an_island_and_none_far_from_closing():
    assert closeness(0) == 1.0
    assert closeness(1) > closeness(2) > closeness(NEAR_OPEN) > 0
    assert closeness(NEAR_OPEN + 1) == 0.0


def hand_of(g, s: HorusState, seat: int, *card_ids: str) -> None:
    kinds = {cid: k for k, (cid, _, _) in enumerate(g.card_kinds)}
    phys: list[int] = []
    for cid in card_ids:
        phys.append(next(c for c, k in enumerate(g.card_of) if k == kinds[cid] and c not in phys))
    s.hands[seat] = phys


def test_the_nile_card_is_played_for_an_island_and_kept_otherwise(g2, rules):
    """Two River tiles close the gaps round seat 1's Desert: worth the Nile card. With
    nothing to close (and no stone to move) the player keeps it, even when its Horus
    card allows no stone."""
    two_gaps = GAP.replace("~~DD~~..", "~~DD....")  # the right side open too
    s = board(g2, two_gaps, stones=[(2, 2, 0)])
    hand_of(g2, s, 0, "hill-5")  # no Hill region of five: the card allows no stone
    agent = rules.agents["greedy"](g2, 0)
    legal = s.legal_actions()
    assert NILE_ACTION in legal
    assert agent.act(s.observation(0), legal, random.Random(1)) == NILE_ACTION
    t = board(g2, "~~~~......HH\n~~~~......HH", stones=[(10, 0, 0)])  # the Hill is far from the River
    hand_of(g2, t, 0, "hill-5")
    agent = rules.agents["greedy"](g2, 0)
    for seed in range(5):
        assert agent.act(t.observation(0), t.legal_actions(), random.Random(seed)) != NILE_ACTION


def test_seeded_greedy_games_form_islands_and_the_checker_recomputes_them(g2, rules, monkeypatch):
    """A few seeded games (a second or two): islands form, and the checker's
    from-scratch islands, compared with the engine's incremental ones, include them."""
    seen: list[int] = []
    groups = HorusChecker.groups

    def counting(self, s, final=False):
        regions, islands = groups(self, s, final)  # raises when the two disagree
        seen.append(len(islands))
        return regions, islands

    monkeypatch.setattr(HorusChecker, "groups", counting)
    ended_with = []
    for seed in range(1, 29):  # about one greedy game in six ends with an island
        final: list = []
        out = play_game(g2, rules.agents["greedy"], seed, final=final)
        assert out.status == "ok", out.message
        s = final[0]
        ended_with.append(len(s.islands()))
        assert out.figures["islands"] == len(s.islands())
        assert out.figures["island_tiles"] == sum(len(s.land_members[i]) for i in s.islands())
    assert sum(1 for k in ended_with if k) >= 1, ended_with
    assert any(seen), "no from-scratch check ran on a table with an island"


def test_the_cross_check_catches_an_island_the_engine_got_wrong(g2):
    """The checker's from-scratch islands are compared with the engine's both ways: an
    island the engine misses and one it sees where there is none."""
    s = board(g2, GAP, stones=[(2, 2, 0)])
    s._put(-1, RIVER, code(2, 4))
    chk = HorusChecker(g2)
    chk._init(s)
    assert len(chk.groups(s)[1]) == 1  # as built: one island, on both sides
    lid = s.land[s.at[code(2, 2)]]
    s.land_open[lid] = 1  # the engine loses the island
    with pytest.raises(RuleViolation, match="islands differ"):
        chk.groups(s)
    t = board(g2, GAP, stones=[(2, 2, 0)])
    chk = HorusChecker(g2)
    chk._init(t)
    assert chk.groups(t)[1] == []
    t.land_open[t.land[t.at[code(2, 2)]]] = 0  # the engine sees an island in an open group
    with pytest.raises(RuleViolation, match="islands differ"):
        chk.groups(t)
